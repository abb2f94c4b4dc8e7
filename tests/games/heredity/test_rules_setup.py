"""Setup, campaign, components, general principles, control, cards, narrative sections, hidden information."""

import orjson
import pytest

from domain.engine import ContentError, SPECTATOR
from domain.games.heredity import RULES
from domain.games.heredity.content import Content
from domain.games.heredity.state import C, face_side, tokens

from .helpers import (
    BASE, advance, at, chapter, cover_hearts, game, give_item, narrative, play, put_npc, rejects, run_ops,
    set_timeline, take_to_table, terrain, types,
)



@pytest.mark.rule("HER-SETUP-01", "HER-TIMELINE-01", "HER-TIMELINE-02")
def test_family_card_first_with_hourglass():
    st = game()
    assert st["timeline"][0]["card"] == 13 and st["hourglass"] == 0
    for _ in range(3):
        st, _ = advance(st)
        assert st["timeline"][0]["card"] == 13


@pytest.mark.rule("HER-SETUP-02", "HER-SETUP-03", "HER-COMP-01", "HER-AMB-43")
def test_pc_cards_front_and_tokens():
    st = game()
    for pc in C(st).pcs:
        for n in pc["cards"].values():
            assert face_side(st, n) == "front"
        assert st["pcs"][pc["id"]]["tokens"] == ["avail"] * 3
    assert not st["slots"]
    assert sum(len(p["tokens"]) for p in st["pcs"].values()) == 12


@pytest.mark.rule("HER-SETUP-04")
def test_player_aids_change_nothing():
    assert [c for c in C(game()).cards.values() if c["kind"] == "aid"]
    st = game()
    assert all(C(st).card(int(k))["kind"] != "aid" for k in st["cards"])


@pytest.mark.rule("HER-SETUP-05", "HER-KARMA-01", "HER-AMB-53")
def test_karma_deck_built_and_shuffled():
    orders = set()
    for seed in range(4):
        st = game(seed=seed)
        assert sorted(st["karma"]["deck"]) == list(range(901, 910)) and st["karma"]["discard"] == []
        orders.add(tuple(st["karma"]["deck"]))
    assert len(orders) > 1


@pytest.mark.rule("HER-SETUP-06", "HER-CAMPAIGN-03", "HER-CAMPAIGN-01", "HER-AMB-53")
def test_karma_deck_carried_over():
    st = game()
    st, _ = run_ops(st, "KARMA_EVOLVE 917")
    camp = RULES.view(st, "all")["campaign"]
    assert 917 in camp["karma"] and 903 not in camp["karma"] and camp["chapter"] == 2
    nxt = game(options={"campaign": camp})
    assert sorted(nxt["karma"]["deck"] + nxt["karma"]["discard"]) == sorted(camp["karma"])
    assert nxt["karma"]["discard"] == [] and 903 in nxt["karma"]["burned"]
    from domain.engine import IllegalMove
    for broken, rule in (({**camp, "karma": camp["karma"][:8]}, "HER-KARMA-01"),
                         ({**camp, "karma": camp["karma"][:8] + [5]}, "HER-SETUP-06"),
                         ({**camp, "chapter": 9}, "HER-CAMPAIGN-01"),
                         ({**camp, "inventories": {"maeve": {"items": [{"card": 110, "anchor": "1:left:0"}]}}},
                          "HER-CAMPAIGN-02"),
                         ({**camp, "inventories": {"maeve": {"items": [{"card": 141, "anchor": "7:left:0"}]}}},
                          "HER-CAMPAIGN-02")):
        with pytest.raises(IllegalMove) as err:
            game(options={"campaign": broken})
        assert err.value.rule_id == rule


@pytest.mark.rule("HER-CAMPAIGN-02", "HER-CAMPAIGN-04", "HER-SETUP-10", "HER-ITEM-06", "HER-SETUP-09")
def test_inventories_carry_over_and_injuries_heal():
    st = game()
    give_item(st, "maeve", 144)
    st["pcs"]["maeve"]["materials"] = 3
    cover_hearts(st, "brick")
    st, _ = run_ops(st, "DAMAGE 1 brick")
    st, _ = play(st, {"type": "choose", "option": 0})
    assert face_side(st, 4) == "back"
    camp = RULES.view(st, "all")["campaign"]
    nxt = game(options={"campaign": camp})
    assert 144 in [int(k) for k, v in nxt["cards"].items() if v.get("pc") == "maeve"]
    assert face_side(nxt, 4) == "front"
    assert "950" in nxt["cards"]                                    # the Secrets setup card of chapter 2
    total = nxt["pcs"]["maeve"]["materials"]
    if nxt["pending"]:
        nxt, _ = play(nxt, {"type": "choose", "option": 0})
    assert tokens(nxt, 144, "lamp_oil") == 1                        # Initialise again at setup
    assert sum(p["materials"] for p in nxt["pcs"].values()) == 4 and total >= 3


@pytest.mark.rule("HER-SETUP-07", "HER-AMB-45")
def test_card_lookup_by_number():
    st = game()
    st2, _ = run_ops(st, "TAKE 114")
    assert st2["cards"]["114"]["zone"] == "table"
    st3, facts = run_ops(st, "TAKE 4242")
    assert "Warning" in types(facts)


@pytest.mark.rule("HER-SETUP-08", "HER-SETUP-11", "HER-TERRAIN-11", "HER-SETUP-12")
def test_opening_card_sets_the_chapter_up():
    st = game()
    assert "101" in st["terrains"]
    assert st["pcs"]["djamal"]["area"] == "101:o2" and st["pcs"]["maeve"]["area"] == "101:o1"
    assert [p["card"] for p in st["timeline"][:4]] == [13, 110, 111, 133]
    assert tokens(st, 110) == 0 and st["window"] is not None and st["hourglass"] == 0


@pytest.mark.rule("HER-COMP-02", "HER-AMB-44")
def test_standard_tokens_unlimited():
    st = game()
    st, facts = run_ops(st, "ADD 50 generic TO 110; ADD 40 hostile TO 110")
    assert tokens(st, 110) == 50 and "Warning" not in types(facts)


@pytest.mark.rule("HER-COMP-03", "HER-ITEM-05")
def test_special_components_limited():
    st = at(game(), maeve="101:o1")
    st, _ = run_ops(st, "GAIN_ITEM 144 maeve")
    assert tokens(st, 144, "lamp_oil") == 1
    st, facts = run_ops(st, "ADD 1 lamp_oil TO 110")
    assert tokens(st, 110, "lamp_oil") == 0 and "Warning" in types(facts)


@pytest.mark.rule("HER-COMP-04", "HER-NPC-02")
def test_standee_enters_only_with_its_npc():
    st = game()
    assert "131" not in st["npcs"]
    st, _ = run_ops(st, "TAKE 131")
    assert not st["npcs"].get("131")                      # its card gives no placement: not on the Terrain yet
    st, _ = run_ops(st, "PLACE_NPC 131 AT 101:o3")
    assert [s["area"] for s in st["npcs"]["131"]] == ["101:o3", "101:o3"]


@pytest.mark.rule("HER-GEN-01")
def test_card_overrides_rule():
    t = terrain(700, {"A": 3, "B": 3}, [("A", "B", "red")])
    ch = chapter([t], [narrative(800, "PERSISTENT OVERRIDE red_line_damage 0")])
    st = at(game(ch), maeve="700:A")
    s1, f1 = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    assert "PendingPushed" in types(f1) or "DamagePlaced" in types(f1)
    st2, _ = run_ops(st, "TAKE 800")
    s2, f2 = play(st2, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    assert "DamagePlaced" not in types(f2) and s2["pending"] is None


@pytest.mark.rule("HER-GEN-02", "HER-DECIDE-26")
def test_equivalent_options_are_asked():
    st = at(game(), maeve="101:o1")
    st, facts = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "damage_slot" and len(st["pending"]["options"]) == 5
    assert RULES.legal_moves(st, 0)[:5] == [{"type": "choose", "option": k} for k in range(5)]


@pytest.mark.rule("HER-GEN-03", "HER-AREA-06", "HER-AMB-17")
def test_character_rules_apply_to_npcs():
    t = terrain(700, {"A": 3, "B": 3, "C": 3}, [("A", "B", "red"), ("B", "C", "white")])
    dog = narrative(980, "", npc={"name": "Dog", "hostile": True, "life": 5, "defence": 0, "ai": "MOVE 2", "death": ""})
    st = at(game(chapter([t], [dog])), maeve="700:C")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert st["npcs"]["980"][0]["damage"] == 1 and st["npcs"]["980"][0]["area"] == "700:C"


@pytest.mark.rule("HER-GEN-04")
def test_four_pcs_and_swan_is_an_npc():
    st = game()
    assert len(st["pcs"]) == 4 and "swan" not in st["pcs"]
    assert C(st).card(133)["front"]["npc"]["name"] == "Swan"
    data = dict(BASE)
    data["pc"] = BASE["pc"][:3]
    with pytest.raises(ContentError):
        Content(data, "three-pcs")


@pytest.mark.rule("HER-GEN-05", "HER-DECIDE-01", "HER-ACTION-06")
def test_no_turns_any_seat_any_pc_any_order():
    st = game(chapter([terrain(700, {"A": 9, "B": 9}, [("A", "B", "white")])]), players=4)
    at(st, maeve="700:A", nell="700:A")
    d = RULES.decision(st)
    assert d.mode == "team" and d.seats == (0, 1, 2, 3)
    st, _ = play(st, {"type": "move", "pc": "nell", "path": ["700:B"], "slots": ["12.e"]}, seat=3)
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]}, seat=0)
    st, _ = play(st, {"type": "move", "pc": "nell", "path": ["700:A"], "slots": ["12.f"]}, seat=3)
    assert st["pcs"]["nell"]["area"] == "700:A" and st["pcs"]["maeve"]["area"] == "700:B"


@pytest.mark.rule("HER-CONTROL-05", "HER-AMB-28")
def test_only_controllers_act():
    st = game(players=4)
    rejects(st, {"type": "move", "pc": "maeve", "path": ["101:o2"], "slots": ["3.e"]}, "HER-CONTROL-05", seat=1)
    st3 = game(players=3)
    assert st3["control"]["nell"] == [0, 1, 2]
    for seat in (0, 1, 2):
        play(st3, {"type": "move", "pc": "nell", "path": ["101:o3"], "slots": ["12.e"]}, seat=seat)


@pytest.mark.rule("HER-CARDS-01", "HER-CARDS-03", "HER-CARDS-05", "HER-CARDS-06", "HER-NARRATIVE-03")
def test_take_shows_front_flip_reads_back():
    st = game()
    assert face_side(st, 111) == "front" and "104" not in st["terrains"]
    st["cards"]["111"]["tokens"] = {"generic": 3}
    st, _ = run_ops(st, "FLIP 111")
    assert face_side(st, 111) == "back" and "104" in st["terrains"] and tokens(st, 111) == 3
    assert RULES.view(st, 0)["cards"]["111"]["label"] == "111b"


@pytest.mark.rule("HER-CARDS-07", "HER-AMB-11", "HER-ACTION-09")
def test_tokens_on_flipped_pc_card_go_to_middle():
    st = at(game(), maeve="101:o1")
    st, _ = play(st, {"type": "watch", "pc": "maeve", "slot": "1.a", "marker": "101/front/4"})
    cover_hearts(st, "maeve")
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    st, _ = play(st, {"type": "choose", "option": 0})          # the Head card
    assert "middle" in st["pcs"]["maeve"]["tokens"] and "1.a" not in st["slots"]
    assert st["pcs"]["maeve"]["tokens"].count("avail") == 2


@pytest.mark.rule("HER-CARDS-09", "HER-CARDS-10", "HER-HIDDEN-06", "HER-AMB-11")
def test_burned_item_tokens_and_archive():
    st = at(game(), brick="101:o1")
    st, _ = run_ops(st, "GAIN_ITEM 141 brick")
    put_npc(st, 131, "101:o1")
    st, _ = play(st, {"type": "attack", "pc": "brick", "slot": "141.s1", "target": {"npc": 131, "s": 0}})
    st, _ = run_ops(st, "BURN 141")
    assert "middle" in st["pcs"]["brick"]["tokens"] and "141.s1" not in st["slots"]
    v = RULES.view(st, 0)
    assert v["archive"]["141"]["faces"] == ["front"] and v["archive"]["141"]["front"]["name"] == "Long Sling"
    st, _ = run_ops(st, "BURN 111")
    arch = RULES.view(st, 0)["archive"]["111"]
    assert arch["faces"] == ["front"] and "back" not in arch          # never a face not yet revealed
    assert arch["front"]["narrative"].startswith("Brick")
    st2 = game()
    st2["cards"]["111"]["face"] = "back"                             # as if flipped earlier in the chapter
    st2["revealed"]["111"].append("back")
    st2, _ = run_ops(st2, "BURN 111")
    arch = RULES.view(st2, 0)["archive"]["111"]
    assert arch["faces"] == ["front", "back"] and arch["back"]["label"] == "111b"


@pytest.mark.rule("HER-CARDS-11", "HER-CARDS-08")
def test_burn_removes_from_timeline():
    st = game()
    st, _ = run_ops(st, "BURN 111")
    assert all(p["card"] != 111 for p in st["timeline"]) and st["cards"]["111"]["zone"] == "burned"
    st, facts = run_ops(st, "TAKE 111")
    assert "CardTaken" not in types(facts)


@pytest.mark.rule("HER-NARRATIVE-01", "HER-NARRATIVE-02")
def test_narrative_sections():
    rec = C(game()).card(130)["front"]
    assert rec["narrative"] and rec["instructions"] and rec["npc"] and rec["actions"]
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, "", narrative="Only words.")])
    st = game(ch)
    st2, facts = run_ops(st, "TAKE 800")
    assert [f["type"] for f in facts if f["type"] not in ("ResolverPushed", "ResolverPopped", "ResolverStepped")] == ["CardTaken"]


@pytest.mark.rule("HER-NARRATIVE-04", "HER-ANCHOR-09")
def test_event_not_resolved_on_take_or_anchor():
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, "ANCHOR green ELSE BURN", event="ADD 1 generic TO self")])
    st = game(ch)
    st, _ = run_ops(st, "TAKE 800")
    assert st["cards"]["800"]["zone"] == "timeline" and tokens(st, 800) == 0


@pytest.mark.rule("HER-NARRATIVE-05", "HER-HIDDEN-09", "HER-HIDDEN-10", "HER-HIDDEN-11")
def test_events_and_table_public():
    st = game(players=2)
    v0, v1, vs = (RULES.view(st, v) for v in (0, 1, SPECTATOR))
    assert v0["cards"]["110"]["event"]["ops"]
    strip = lambda v: {k: x for k, x in v.items() if k != "viewer"}
    assert strip(v0) == strip(v1) == strip(vs)
    assert v0["cards"]["111"]["narrative"].startswith("Brick")


@pytest.mark.rule("HER-HIDDEN-02", "HER-HIDDEN-03")
def test_other_faces_hidden():
    st = game()
    give_item(st, "brick", 140)
    text = orjson.dumps(RULES.view(st, 0)).decode()
    assert "Barbed Pole" not in text and "points south" not in text
    assert RULES.view(st, 0)["cards"]["140"]["upgrades"] == [{"cost": 2}]


@pytest.mark.rule("HER-HIDDEN-04", "HER-HIDDEN-05")
def test_unexplored_terrain_hidden():
    v = RULES.view(game(), 0)
    assert "102" not in v["terrains"] and "102" not in v["cards"]
    icons = v["terrain_faces"]["101"]["icons"]
    assert {"kind": "explore", "edge": "E", "terrain": 102} in icons
    assert any(i["kind"] == "watch" and i["card"] == 120 for i in icons) and "120" not in v["cards"]


@pytest.mark.rule("HER-SETUP-08")
def test_options_are_checked():
    from domain.engine import IllegalMove
    with pytest.raises(IllegalMove, match="unknown option"):
        RULES.initial_state(2, {"speed": "fast"})
    with pytest.raises(IllegalMove, match="unknown chapter"):
        RULES.initial_state(2, {"chapter": "nope"})
    with pytest.raises(IllegalMove):
        RULES.initial_state(3, {"control": {"maeve": 0}})
    assert RULES.initial_state(4, {})["chapter"] == "swan-1"


@pytest.mark.rule("HER-CAMPAIGN-02")
def test_item_damage_carries_over():
    from domain.engine import IllegalMove
    st = game()
    give_item(st, "maeve", 147)
    give_item(st, "brick", 145)
    st["slots"]["147.w1"] = {"t": "maeve", "d": 1}          # damaged, and an Action token on it
    camp = RULES.view(st, "all")["campaign"]
    held = {i["card"]: i for p in camp["inventories"].values() for i in p["items"]}
    assert held[147]["damage"] == ["w1"] and held[145]["damage"] == []
    nxt = game(options={"campaign": camp})
    assert nxt["slots"]["147.w1"]["d"] == 1 and nxt["slots"]["147.w1"]["t"] is None    # tokens retrieved, Damage kept
    assert not nxt["slots"].get("145.v1", {}).get("d")
    broken = orjson.loads(orjson.dumps(camp))
    next(i for p in broken["inventories"].values() for i in p["items"] if i["card"] == 145)["damage"] = ["zz"]
    with pytest.raises(IllegalMove) as err:
        game(options={"campaign": broken})
    assert err.value.rule_id == "HER-CAMPAIGN-02"
