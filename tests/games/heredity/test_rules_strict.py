"""Sharper rule tests, each written so that breaking the named rule makes it fail
(found by a mutation check of the engine: every test here killed a mutant the older tests let live)."""

import json

import pytest

from domain.engine import EVERYONE, SPECTATOR, visible_fact
from domain.games.heredity import RULES
from domain.games.heredity.state import defence, face_side, tokens

from .helpers import (
    advance, at, chapter, cover_hearts, game, give_item, karma_top, narrative, play, put_npc, rejects, run_ops,
    set_timeline, take_to_table, terrain, types,
)


def square(extra_cards=(), items=(), lof=()):
    t = terrain(700, {"A": 3, "B": 3, "C": 3, "D": 3},
                [("A", "B", "white"), ("B", "C", "white"), ("C", "D", "white")],
                icons=[{"kind": "watch", "area": "A", "card": 981}], lof=lof)
    return chapter([t], [narrative(981, "")] + list(extra_cards), items=items)


def boar(ai="MELEE 2", life=5, defence_=0, hostile=True):
    return narrative(980, "", npc={"name": "Boar", "hostile": hostile, "life": life, "defence": defence_, "ai": ai,
                                   "death": ""})


@pytest.mark.rule("HER-CONTROL-02", "HER-AMB-28")
def test_three_players_share_the_fourth_pc():
    st = game(players=3)
    assert st["control"] == {"maeve": [0], "brick": [1], "djamal": [2], "nell": [0, 1, 2]}
    for seat in (0, 1, 2):
        assert any(m.get("pc") == "nell" for m in RULES.legal_moves(st, seat))
    assert not any(m.get("pc") == "maeve" for m in RULES.legal_moves(st, 1))


@pytest.mark.rule("HER-GEN-06")
def test_engine_refuses_moves_after_the_end():
    from domain.engine import IllegalMove
    from domain.engine.rng import Rng
    st = dict(game(), over="defeat")
    with pytest.raises(IllegalMove) as err:
        RULES.decide(st, 0, {"type": "end_window"}, Rng(1, 1))
    assert err.value.rule_id == "HER-GEN-06"
    assert RULES.legal_moves(st, 0) == [] and not RULES.decision(st).seats


@pytest.mark.rule("HER-ACTION-04", "HER-WATCH-01")
def test_watch_needs_the_icon_slot_and_the_area():
    st = at(game(square()), maeve="700:A")
    move = {"type": "watch", "pc": "maeve", "slot": "1.a", "marker": "700/front/0"}
    rejects(st, {**move, "slot": "1.b"}, "HER-ACTION-04")            # 1.b shows only Interact
    rejects(at(game(square()), maeve="700:B"), move, "HER-WATCH-01")  # not in the icon's area
    play(st, move)


@pytest.mark.rule("HER-ACTION-07")
def test_no_new_action_while_a_decision_is_pending():
    st = at(game(square()), maeve="700:A")
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "damage_slot"
    rejects(st, {"type": "move", "pc": "brick", "path": ["700:B"], "slots": ["6.e"]}, "HER-ACTION-07")
    rejects(st, {"type": "end_window"}, "HER-ACTION-07")


@pytest.mark.rule("HER-MOVE-01")
def test_one_token_per_line():
    st = at(game(square()), maeve="700:A")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B", "700:C"], "slots": ["3.e"]}, "HER-MOVE-01")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e", "3.f"]}, "HER-MOVE-01")
    st2, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B", "700:C"], "slots": ["3.e", "3.f"]})
    assert st2["pcs"]["maeve"]["area"] == "700:C" and st2["pcs"]["maeve"]["tokens"].count("avail") == 1


@pytest.mark.rule("HER-INSTR-13")
def test_combined_action_participants_in_their_designated_areas():
    card = narrative(810, "", actions=[{"icon": "interact", "combined": {"participants": 2, "areas": ["700:A", "700:B"]},
                                        "body": "PLACE_MATERIALS 1 IN 700:C"}])
    st = take_to_table(game(square([card])), 810)
    move = {"type": "combined_action", "card": 810, "action": 0,
            "participants": [{"pc": "maeve", "slot": "1.b"}, {"pc": "brick", "slot": "4.b"}]}
    rejects(at(st, maeve="700:B", brick="700:A"), move, "HER-INSTR-13")
    rejects(at(st, maeve="700:A", brick="700:A"), move, "HER-INSTR-13")
    st2, _ = play(at(st, maeve="700:A", brick="700:B"), move)
    assert st2["area_materials"] == {"700:C": 1}
    assert st2["slots"]["1.b"]["t"] == "maeve" and st2["slots"]["4.b"]["t"] == "brick"


@pytest.mark.rule("HER-COMBAT-06")
def test_melee_needs_the_same_area():
    st = at(game(square([boar()])), brick="700:A")
    put_npc(st, 980, "700:B")                                          # B is not full
    rejects(st, {"type": "attack", "pc": "brick", "slot": "4.a", "target": {"npc": 980, "s": 0}}, "HER-COMBAT-06")
    put_npc(st, 980, "700:A")
    play(st, {"type": "attack", "pc": "brick", "slot": "4.a", "target": {"npc": 980, "s": 0}})


@pytest.mark.rule("HER-COMBAT-12", "HER-COMBAT-08")
def test_total_of_zero_fails():
    st = at(game(square([boar(defence_=1)])), brick="700:A")
    put_npc(st, 980, "700:A")
    karma_top(st, 903)                                                 # value 0
    st2, facts = play(st, {"type": "attack", "pc": "brick", "slot": "4.a", "target": {"npc": 980, "s": 0}})
    hit = next(f for f in facts if f["type"] == "Attack")
    assert hit["total"] == 0 and hit["success"] is False               # 1 + 0 - 1
    assert st2["npcs"]["980"][0]["damage"] == 0
    karma_top(st, 902)                                                 # value +1: total 1 succeeds
    st3, facts = play(st, {"type": "attack", "pc": "brick", "slot": "4.a", "target": {"npc": 980, "s": 0}})
    assert st3["npcs"]["980"][0]["damage"] == 1


@pytest.mark.rule("HER-COMBAT-09", "HER-ITEM-20", "HER-COMBAT-05")
def test_pc_defence_reduces_an_npc_attack():
    st = at(game(square([boar(ai="MELEE 2")])), maeve="700:A")
    give_item(st, "maeve", 145)                                        # Quilted Vest: Defence 1
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    karma_top(st, 902)                                                 # +1
    st, facts = advance(st)
    hit = next(f for f in facts if f["type"] == "Attack")
    assert hit["target"] == {"pc": "maeve"} and hit["defence"] == 1 and hit["total"] == 2   # 2 + 1 - 1


@pytest.mark.rule("HER-ITEM-04")
def test_defence_bonuses_add_up():
    plate = {"number": 160, "colour": "brown", "front": {"name": "Tin Plate", "anchor": "strap",
                                                       "permanent": [{"kind": "defence", "value": 2}]}}
    st = game(square(items=[plate]))
    give_item(st, "maeve", 145)
    give_item(st, "maeve", 160)
    assert defence(st, "maeve") == 3


@pytest.mark.rule("HER-KARMA-04")
def test_empty_deck_reshuffles_the_discard_at_random():
    orders = set()
    for seed in range(1, 7):
        st = game()
        st["karma"]["discard"] = st["karma"]["deck"]
        st["karma"]["deck"] = []
        before = list(st["karma"]["discard"])
        st, facts = run_ops(st, "DRAW_KARMA", seed=seed)
        shuffled = next(f for f in facts if f["type"] == "KarmaShuffled")
        assert sorted(shuffled["order"]) == sorted(before)
        orders.add(tuple(shuffled["order"]))
    assert len(orders) > 1


@pytest.mark.rule("HER-INV-09", "HER-DECIDE-12")
def test_pick_up_no_more_than_lies_there():
    st = at(game(square()), maeve="700:A")
    st["area_materials"] = {"700:A": 2, "700:B": 5}
    rejects(st, {"type": "pickup", "pc": "maeve", "slot": "1.b", "materials": 3, "items": []}, "HER-INV-09")
    st2, _ = play(st, {"type": "pickup", "pc": "maeve", "slot": "1.b", "materials": 1, "items": []})
    assert st2["pcs"]["maeve"]["materials"] == 1 and st2["area_materials"] == {"700:A": 1, "700:B": 5}


@pytest.mark.rule("HER-TIMELINE-07", "HER-AMB-12")
def test_retrieval_frees_every_slot_and_token():
    st = at(game(square()), maeve="700:A")
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    st["pcs"]["maeve"]["tokens"][1] = "middle"
    st, _ = run_ops(st, "RETRIEVE_ACTIONS")
    assert st["pcs"]["maeve"]["tokens"] == ["avail"] * 3 and "3.e" not in st["slots"]
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:A"], "slots": ["3.e"]})
    assert st["pcs"]["maeve"]["area"] == "700:A"


def plain(n):
    return narrative(n, "")


@pytest.mark.rule("HER-ANCHOR-03", "HER-AMB-02")
def test_anchor_search_starts_at_the_hourglass_not_at_the_start():
    cards = [plain(801), plain(802), narrative(804, "ANCHOR blue ELSE BURN")]
    st = game(chapter([terrain(700, {"A": 3})], cards))
    st["stack"], st["window"] = [], None
    set_timeline(st, [None, 801, 802], ["blue", "green", "red"], hourglass=2, end="blue")
    st2, _ = run_ops(st, "TAKE 804")
    assert st2["timeline"][4]["card"] == 804 and st2["timeline"][1]["card"] is None


@pytest.mark.rule("HER-ANCHOR-10", "HER-AMB-02")
def test_reanchor_prefers_the_hourglass_position_itself():
    c969 = narrative(969, "", event="FLIP", back={"instructions": "ANCHOR blue ELSE BURN"})
    st = game(chapter([terrain(700, {"A": 3})], [plain(801), c969]))
    st["stack"], st["window"] = [], None
    set_timeline(st, [969, 801], ["blue", "yellow"], hourglass=0, end="blue")
    st, facts = advance(st)
    anchored = next(f for f in facts if f["type"] == "CardAnchored")
    assert anchored["pos"] == 1 and face_side(st, 969) == "back"


@pytest.mark.rule("HER-INSTR-03")
def test_else_applies_only_the_first_when_possible():
    st = game()
    before = tokens(st, 110)
    st, facts = run_ops(st, "ADD 1 generic TO 110 ELSE ADD 5 generic TO 110")
    assert tokens(st, 110) == before + 1


@pytest.mark.rule("HER-NPC-07")
def test_npc_dies_when_damage_equals_life():
    st = game(square([boar(life=3)]))
    put_npc(st, 980, "700:B")
    st2, facts = run_ops(st, "DAMAGE 2 NPC 980")
    assert st2["npcs"]["980"][0]["area"] == "700:B"
    st3, facts = run_ops(st, "DAMAGE 3 NPC 980")
    assert st3["npcs"]["980"][0]["area"] is None and "NpcSlain" in types(facts)


@pytest.mark.rule("HER-AI-08", "HER-AMB-31")
def test_ranged_npc_stops_as_soon_as_it_can_shoot():
    lof = [("B", "D", ["white", "white"]), ("A", "D", ["white"] * 3), ("A", "C", ["white", "white"])]
    st = at(game(square([boar(ai="MOVE 2; RANGED 2 2")], lof=lof)), maeve="700:D")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:B"]
    assert any(f["type"] == "Attack" for f in facts)


@pytest.mark.rule("HER-AI-07")
def test_npc_moves_at_most_x_areas():
    st = at(game(square([boar(ai="MOVE 2; MELEE 2")])), maeve="700:D")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:B", "700:C"]
    assert not any(f["type"] == "Attack" for f in facts)


@pytest.mark.rule("HER-INJURY-03", "HER-AMB-37")
def test_last_front_card_flips_and_takes_the_token():
    st = game()
    for n in (1, 2):
        st["cards"][str(n)]["face"] = "back"
    cover_hearts(st, "maeve")
    st, facts = run_ops(st, "DAMAGE 1 maeve")
    assert face_side(st, 3) == "back" and st["slots"]["3.z"]["d"] == 1
    assert "3.e" not in st["slots"] and "3.f" not in st["slots"]


def _lists(obj):
    if isinstance(obj, list):
        yield obj
        for x in obj:
            yield from _lists(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _lists(x)


@pytest.mark.rule("HER-HIDDEN-08", "HER-HIDDEN-12")
def test_karma_order_is_never_shown():
    st = game()
    st, facts = run_ops(st, "; ".join(["DRAW_KARMA"] * 10) + "; KARMA_EVOLVE 917")
    shuffles = [f for f in facts if f["type"] in ("KarmaShuffled", "KarmaEvolved")]
    assert len(shuffles) == 2
    deck = st["karma"]["deck"]
    assert len(deck) == 9
    for viewer in (0, 1, SPECTATOR, EVERYONE):
        v = RULES.view(st, viewer)
        assert not any(lst == deck for lst in _lists(v)), viewer
        assert v["karma"]["deck_count"] == 9 and sorted(v["karma"]["composition"]) == sorted(deck)
        for f in shuffles if viewer != EVERYONE else ():      # "all" = the replay after the end
            seen = visible_fact(f, viewer)
            assert "order" not in json.dumps(seen), (viewer, seen)


@pytest.mark.rule("HER-DECIDE-05", "HER-AMB-18", "HER-MOVE-06")
def test_legal_moves_reach_every_relevant_path():
    t = terrain(700, {"A": 3, "B": 1, "C": 3, "D": 3}, [("A", "B", "white"), ("B", "C", "white"), ("C", "D", "red")],
                icons=[{"kind": "immediateEvent", "area": "B", "effect": "PLACE_MATERIALS 1 IN 700:D"}])
    st = at(game(chapter([t])), maeve="700:A", brick="700:B")              # B is full (capacity 1)
    paths = [m["path"] for m in RULES.legal_moves(st, 0) if m["type"] == "move" and m["pc"] == "maeve"]
    assert ["700:B", "700:A"] in paths                # through the full event area and back
    assert ["700:B", "700:C"] in paths and ["700:B"] not in paths        # 2 Move slots: 2 crossings at most
    st2, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B", "700:A"], "slots": ["3.e", "3.f"]})
    assert st2["area_materials"] == {"700:D": 1} and st2["pcs"]["maeve"]["area"] == "700:A"


@pytest.mark.rule("HER-DECIDE-17", "HER-DECIDE-14")
def test_legal_moves_offer_weapons_in_combined_attacks_and_full_trades():
    st = at(game(square([boar(defence_=5)])), maeve="700:A", brick="700:A")
    put_npc(st, 980, "700:A")
    give_item(st, "brick", 140)                                            # Hooked Pole, Power 3
    give_item(st, "maeve", 141)                                            # Long Sling, Power 2
    combos = [m for m in RULES.legal_moves(st, 0) if m["type"] == "combined_attack"]
    slots = {tuple(sorted(p["slot"] for p in m["participants"])) for m in combos}
    assert ("140.p1", "141.s1") in slots and ("1.a", "4.a") in slots
    st["pcs"]["maeve"]["materials"], st["pcs"]["brick"]["materials"] = 3, 1
    trades = [(m["give"], m["take"]) for m in RULES.legal_moves(st, 0) if m["type"] == "trade" and m["pc"] == "maeve"
              and m["with"] == "brick"]
    assert ({"materials": 3}, {}) in trades and ({}, {"items": [140]}) in trades
    assert ({"items": [141]}, {"items": [140]}) in trades and ({"materials": 3}, {"items": [140]}) in trades


@pytest.mark.rule("HER-ANCHOR-02", "HER-ANCHOR-07")
def test_anchor_slots_match_colour_and_orientation():
    cards = [plain(801), narrative(805, "ANCHOR red ELSE BURN"), narrative(806, "ANCHOR blue VERTICAL ELSE BURN")]
    st = game(chapter([terrain(700, {"A": 3})], cards))
    st["stack"], st["window"] = [], None
    set_timeline(st, [801], ["green"], hourglass=1, end="yellow")
    st["timeline"][1]["below"] = [{"colour": "yellow", "card": None}, {"colour": "blue", "card": None}]
    st2, _ = run_ops(st, "TAKE 805")                       # no red slot: the yellow end slot does not match
    assert st2["cards"]["805"]["zone"] == "burned" and st2["timeline"][2]["card"] is None
    st3, _ = run_ops(st, "TAKE 806")                       # vertical: the blue slot below, not the yellow one
    assert [b["card"] for b in st3["timeline"][1]["below"]] == [None, 806]
    assert st3["timeline"][2]["card"] is None              # never a horizontal slot


@pytest.mark.rule("HER-ALLY-01", "HER-ALLY-03", "HER-DECIDE-20")
def test_an_ally_token_makes_an_ally_whose_target_the_players_choose():
    from domain.games.heredity.state import is_ally
    hound = narrative(982, "", npc={"name": "Hound", "hostile": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    st = game(square([boar(ai="MELEE 1", hostile=False), hound]))
    put_npc(st, 980, "700:A")
    put_npc(st, 982, "700:A")
    assert not is_ally(st, 980)
    st, _ = run_ops(st, "ALLY 980")
    assert is_ally(st, 980) and tokens(st, 980, "ally") == 1
    set_timeline(st, [980])
    st, _ = advance(st)
    assert st["pending"]["kind"] == "ally_target" and st["pending"]["options"] == [{"npc": 982, "s": 0}, {"none": True}]


@pytest.mark.rule("HER-ALLY-03", "HER-NPC-05", "HER-DECIDE-20")
def test_an_ally_may_attack_a_neutral_npc_which_turns_hostile():
    from domain.games.heredity.state import is_hostile
    trader = narrative(982, "", npc={"name": "Trader", "life": 9, "defence": 0, "ai": "", "death": ""})
    st = game(square([boar(ai="MELEE 1", hostile=False), trader]))
    put_npc(st, 980, "700:A")
    put_npc(st, 982, "700:A")
    st, _ = run_ops(st, "ALLY 980")
    set_timeline(st, [980])
    st, _ = advance(st)
    assert st["pending"]["kind"] == "ally_target" and {"npc": 982, "s": 0} in st["pending"]["options"]
    st, facts = play(st, {"type": "choose", "option": st["pending"]["options"].index({"npc": 982, "s": 0})})
    while st["pending"] and st["pending"]["kind"] == "ally_join":
        st, more = play(st, {"type": "choose", "option": len(st["pending"]["options"]) - 1})
        facts += more
    assert any(f["type"] == "Attack" and f["target"] == {"npc": 982, "s": 0} for f in facts)
    assert is_hostile(st, 982)


@pytest.mark.rule("HER-HEAL-02")
def test_heal_needs_a_heal_slot():
    st = at(game(square()), maeve="700:A", brick="700:A")
    from .helpers import damage_slot
    damage_slot(st, "4.a")
    heal = {"type": "heal", "pc": "maeve", "target": {"pc": "brick"}, "damage": "4.a"}
    rejects(st, {**heal, "slot": "2.c"}, "HER-ACTION-04")          # an Interact slot cannot heal
    st2, _ = play(st, {**heal, "slot": "2.d"})
    assert "4.a" not in st2["slots"] and st2["slots"]["2.d"]["t"] == "maeve"


@pytest.mark.rule("HER-ITEM-10", "HER-ITEM-05")
def test_using_the_storm_lantern():
    """The sample chapter's Storm Lantern: Initialise puts its one lamp-oil token (a special component) on it;
    its effect slot spends the oil to push the storm (card 110) back."""
    st = at(game(), maeve="101:o1")
    st, _ = run_ops(st, "GAIN_ITEM 144 maeve")
    assert tokens(st, 144, "lamp_oil") == 1
    st["cards"]["110"]["tokens"] = {"generic": 3}
    st2, facts = play(st, {"type": "use_item", "pc": "maeve", "slot": "144.l2"})
    assert st2["slots"]["144.l2"]["t"] == "maeve" and tokens(st2, 144, "lamp_oil") == 0 and tokens(st2, 110) == 2
    assert {"type": "use_item", "pc": "maeve", "slot": "144.l2"} in RULES.legal_moves(st, 0)
    st3, _ = run_ops(st2, "RETRIEVE_ACTIONS")
    st3, facts = play(st3, {"type": "use_item", "pc": "maeve", "slot": "144.l2"})
    assert tokens(st3, 110) == 2 and "Narrated" in types(facts)            # dry: nothing more


@pytest.mark.rule("HER-INV-01", "HER-WATCH-02")
def test_an_item_taken_by_an_action_goes_to_the_acting_pc():
    t = terrain(700, {"A": 3}, icons=[{"kind": "watch", "area": "A", "card": 141}])
    st = at(game(chapter([t])), maeve="700:A", brick="700:A")
    st2, _ = play(st, {"type": "watch", "pc": "maeve", "slot": "1.a", "marker": "700/front/0"})
    assert st2["cards"]["141"]["zone"] == "inventory" and st2["cards"]["141"]["pc"] == "maeve"
    assert st2["pending"] is None


@pytest.mark.rule("HER-AREA-03", "HER-AI-07")
def test_npcs_cross_doors_but_not_windows():
    t = terrain(700, {"A": 3, "B": 3, "C": 3, "D": 3}, [("A", "B", "green"), ("B", "C", "white"), ("A", "D", "blue"),
                                                       ("D", "C", "white")])
    st = at(game(chapter([t], [boar(ai="MOVE 1")])), maeve="700:C")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:B"]        # the door, not the window


def _texts(face):
    out = []
    for key in ("narrative", "name"):
        if face.get(key) and len(face[key]) > 12:
            out.append(face[key])
    return out


@pytest.mark.rule("HER-HIDDEN-01", "HER-HIDDEN-02", "HER-HIDDEN-03", "HER-HIDDEN-04", "HER-HIDDEN-07",
                  "HER-HIDDEN-11")
def test_views_never_describe_unrevealed_cards_or_faces():
    """Along a random playout: no text of a card face that was never revealed, no unexplored Terrain, no deck
    listing; the view's top-level keys are the documented public ones."""
    import random

    from domain.engine import new_game
    from domain.engine import play as kernel_play
    from domain.games.heredity.state import C
    state, _ = new_game(RULES, 1, {}, 4)
    chooser = random.Random(4)
    content = C(state)
    keys = {"game", "chapter", "title", "viewer", "outcome", "reason", "timeline", "hourglass", "cards", "archive",
            "terrains", "terrain_faces", "markers", "area_materials", "references", "pcs", "slots", "npcs", "karma",
            "window_open", "pending", "actions", "campaign"}
    for move_no in range(1, 120):
        if RULES.is_over(state):
            break
        for viewer in (0, SPECTATOR):
            v = RULES.view(state, viewer)
            assert set(v) == keys
            assert set(v["terrain_faces"]) == set(v["terrains"])             # unexplored Terrain stays hidden
            text = json.dumps(v)
            for number, rec in content.cards.items():
                seen = state["revealed"].get(str(number), [])
                for side in ("front", "back"):
                    f = rec.get(side)
                    if isinstance(f, dict) and side not in seen:
                        other = rec.get("front" if side == "back" else "back") or {}
                        for t in _texts(f):
                            if not (isinstance(other, dict) and t in _texts(other)):
                                assert t not in text, (number, side, t)
        seat = chooser.choice(list(RULES.decision(state).seats))
        move = chooser.choice(RULES.legal_moves(state, seat))
        state, _ = kernel_play(RULES, state, seat, move, 4, move_no)


@pytest.mark.rule("HER-DECIDE-06")
def test_every_target_of_an_attack_is_offered():
    st = at(game(square([boar()])), brick="700:A")
    put_npc(st, 980, "700:A")
    hound = {"npc": 980, "s": 0}
    st["npcs"]["980"].append({"area": "700:A", "damage": 0})
    attacks = [m for m in RULES.legal_moves(st, 0) if m["type"] == "attack" and m["pc"] == "brick"]
    assert {json.dumps(m["target"]) for m in attacks} == {json.dumps(hound), json.dumps({"npc": 980, "s": 1})}
    assert {m["slot"] for m in attacks} == {"4.a", "4.b", "6.e", "6.f"}                 # Head or Feet slots


@pytest.mark.rule("HER-ANCHOR-08", "HER-AMB-06", "HER-TIMELINE-11")
def test_stacked_card_runs_between_the_window_and_the_defeat_check():
    c = narrative(800, "", event="TAKE 801")
    v = narrative(801, "ANCHOR yellow VERTICAL ELSE BURN", event="ADD 1 generic TO self",
                  trigger={"when": "afterHostStep", "step": 2})
    st = game(chapter([terrain(700, {"A": 3})], [c, v], family={"defeat": "TOKENS(801) >= 1"}))
    set_timeline(st, [800])
    st, facts = advance(st)
    assert tokens(st, 801) == 0 and st["window"] is not None          # not before the action window
    st, facts = advance(st)
    assert st["over"] == "defeat" and "Family" in st["reason"]        # ... but before the Family's defeat check
    assert "HourglassMoved" not in types(facts)


@pytest.mark.rule("HER-AMB-29", "HER-AI-10")
def test_unreachable_pc_is_shot_from_where_the_npc_stands():
    t = terrain(700, {"A": 3, "B": 3}, [("A", "B", "blue")])
    st = at(game(chapter([t], [boar(ai="MOVE 2; RANGED 2 2")])), maeve="700:B")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    hit = next(f for f in facts if f["type"] == "Attack")
    assert hit["target"] == {"pc": "maeve"} and "NpcMoved" not in types(facts)


@pytest.mark.rule("HER-AMB-31", "HER-MOVE-05", "HER-AI-07")
def test_npc_never_ends_its_move_in_a_full_area():
    t = terrain(700, {"A": 3, "B": 1, "C": 3}, [("A", "B", "white"), ("B", "C", "white")])
    rock = narrative(982, "", npc={"name": "Statue", "life": 9, "defence": 0, "ai": "", "death": ""})
    st = at(game(chapter([t], [boar(ai="MOVE 1"), rock])), maeve="700:C")
    put_npc(st, 980, "700:A")
    put_npc(st, 982, "700:B")                             # B (capacity 1) is full
    set_timeline(st, [980])
    st, facts = advance(st)
    assert st["npcs"]["980"][0]["area"] == "700:A"        # B is the only way to Maeve: the Boar waits
    assert "NpcMoved" not in types(facts)
    st = at(game(chapter([t], [boar(ai="MOVE 2"), rock])), maeve="700:C")
    put_npc(st, 980, "700:A")
    put_npc(st, 982, "700:B")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:B", "700:C"]    # passing through


@pytest.mark.rule("HER-AMB-30", "HER-NPC-04")
def test_neutral_npc_neither_moves_nor_attacks():
    st = at(game(square([boar(ai="MOVE 2; MELEE 3", hostile=False)])), maeve="700:B")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert "NpcMoved" not in types(facts) and "Attack" not in types(facts)


@pytest.mark.rule("HER-KARMA-08", "HER-AMB-41")
def test_evolution_reshuffles_at_random():
    orders = set()
    for seed in range(1, 7):
        st, facts = run_ops(game(), "KARMA_EVOLVE 917", seed=seed)
        orders.add(tuple(st["karma"]["deck"]))
        assert sorted(st["karma"]["deck"]) == sorted([901, 902, 904, 905, 906, 907, 908, 909, 917])
    assert len(orders) > 1


@pytest.mark.rule("HER-INSTR-05", "HER-AMB-09")
def test_conditions():
    st = game()
    st["cards"]["110"]["tokens"] = {"generic": 2}
    cases = {"TOKENS(110) >= 2": True, "TOKENS(110) >= 3": False, "TOKENS(110) > 1 AND TOKENS(110) < 3": True,
             "TOKENS(110) > 2 AND TOKENS(110) < 3": False, "TOKENS(110) > 2 OR TOKENS(110) = 2": True,
             "NOT TOKENS(110) = 2": False, "TOKENS(110) != 2 OR NOT IN_PLAY 110": False}
    for c, expected in cases.items():
        st2, facts = run_ops(st, f"IF {c} THEN NARRATE \"yes\" ELSE NARRATE \"no\" END")
        said = [f["text"] for f in facts if f["type"] == "Narrated"]
        assert said == (["yes"] if expected else ["no"]), c
    st2, facts = run_ops(st, "IF TOKENS(110) = 0 THEN NARRATE \"yes\" END")
    assert "Narrated" not in types(facts)


@pytest.mark.rule("HER-AMB-08", "HER-MATERIAL-03")
def test_an_unpayable_price_inside_an_instruction_is_skipped():
    st = game()
    st["pcs"]["maeve"]["materials"] = 1
    st2, facts = run_ops(st, "PAY_MATERIALS 2; GAIN_MATERIALS 1 brick", actor="maeve")
    assert st2["pcs"]["maeve"]["materials"] == 1 and "Warning" in types(facts)
    assert st2["pcs"]["brick"]["materials"] == 1
    st3, _ = run_ops(st, "PAY_MATERIALS 2 ELSE GAIN_MATERIALS 5 maeve", actor="maeve")
    assert st3["pcs"]["maeve"]["materials"] == 6


@pytest.mark.rule("HER-INV-09", "HER-DECIDE-16", "HER-AMB-22")
def test_picking_up_several_items_for_the_same_anchors():
    st = at(game(), maeve="101:o1")
    for item in (140, 145, 146):                          # three strap Items for Maeve's two strap anchors
        st["cards"][str(item)] = {"zone": "area", "face": "front", "tokens": {}, "area": "101:o1", "pc": None,
                                  "anchor": None}
    st, _ = play(st, {"type": "pickup", "pc": "maeve", "slot": "2.c", "materials": 0, "items": [140, 145, 146]})
    for _ in range(6):
        if not st["pending"]:
            break
        assert st["pending"]["options"], st["pending"]
        st, _ = play(st, {"type": "choose", "option": 0})
    assert st["pending"] is None
    from domain.games.heredity.state import items_in_area, items_of
    assert len(items_of(st, "maeve")) == 2 and len(items_in_area(st, "101:o1")) == 1
