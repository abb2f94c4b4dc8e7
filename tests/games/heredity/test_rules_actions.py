"""Action tokens, Watch/Speak/Interact, Move, areas, Level Change, exploration, items and inventory."""

import pytest

from domain.games.heredity import RULES
from domain.games.heredity.state import C, defence, face_side, items_in_area, items_of, tokens

from .helpers import (
    advance, at, chapter, damage_slot, game, give_item, mats, narrative, play, put_npc, rejects, run_ops,
    set_timeline, take_to_table, terrain, types,
)


def icons_chapter(extra_cards=()):
    t = terrain(700, {"A": 3, "B": 3, "C": 3, "D": 3, "P": 3},
                [("A", "B", "white"), ("A", "C", "white"), ("B", "D", "white"), ("C", "D", "white"), ("D", "P", "black")],
                icons=[{"kind": "watch", "area": "A", "card": 981}, {"kind": "speak", "area": "A", "card": 982},
                       {"kind": "interact", "area": "B", "card": 983}, {"kind": "symbol", "area": "C", "symbol": "star"}])
    cards = [narrative(981, "PLACE_MATERIALS 1 IN 700:A"),
             narrative(982, "", npc={"name": "Hermit", "life": 3, "defence": 0, "ai": "", "death": "",
                                     "placement": {"terrain": 700, "area": "P"}}),
             narrative(983, "GAIN_MATERIALS 2 ACTING_PC")] + list(extra_cards)
    return chapter([t], cards)


@pytest.mark.rule("HER-ACTION-01", "HER-ACTION-04", "HER-DECIDE-03", "HER-DECIDE-04")
def test_slot_choice_and_icon_choice():
    st = at(game(icons_chapter()), maeve="700:A")
    legal = RULES.legal_moves(st, 0)
    watch = [m for m in legal if m["type"] == "watch" and m["pc"] == "maeve"]
    speak = [m for m in legal if m["type"] == "speak" and m["pc"] == "maeve"]
    assert {m["slot"] for m in watch} == {"1.a"} and {m["slot"] for m in speak} == {"1.a"}
    st2, facts = play(st, watch[0])
    assert types(facts).index("TokenPlaced") < types(facts).index("CardTaken")
    assert st2["slots"]["1.a"]["t"] == "maeve" and "982" not in st2["cards"]


@pytest.mark.rule("HER-ACTION-03", "HER-ACTION-05", "HER-ACTION-10", "HER-ACTION-08", "HER-ACTION-09")
def test_token_placement_limits():
    st = at(game(icons_chapter()), maeve="700:A", brick="700:A")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["6.e"]}, "HER-ACTION-05")
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:D"], "slots": ["3.e"]}, "HER-ACTION-03")
    st, _ = play(st, {"type": "interact", "pc": "maeve", "slot": "1.b", "marker": "700/front/2"})
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:D"], "slots": ["3.f"]})
    assert st["pcs"]["maeve"]["tokens"] == ["3.e", "1.b", "3.f"]
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["2.c"]}, "HER-ACTION-10")
    assert any(m["type"] == "drop" for m in RULES.legal_moves(st, 0) if m.get("pc") == "maeve")
    idle = dict(st, window=None, stack=[])
    rejects(idle, {"type": "move", "pc": "brick", "path": ["700:B"], "slots": ["6.e"]}, "HER-ACTION-08")


@pytest.mark.rule("HER-DECIDE-02", "HER-TIMELINE-08")
def test_window_ends_by_declaration_or_when_all_tokens_spent():
    st = game(icons_chapter())
    st2, facts = play(st, {"type": "end_window"})
    assert "WindowClosed" in types(facts) and "HourglassMoved" in types(facts)
    for pc in st["pcs"]:
        st["pcs"][pc]["tokens"] = ["middle", "middle", "avail"] if pc == "maeve" else ["middle"] * 3
    at(st, maeve="700:A")
    st3, facts = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    closed = [f for f in facts if f["type"] == "WindowClosed"]
    assert closed and closed[0].get("automatic")


@pytest.mark.rule("HER-SPEAK-01", "HER-SPEAK-02", "HER-SPEAK-03", "HER-AMB-50", "HER-NPC-02")
def test_speak_places_the_npc_in_the_speak_area():
    st = at(game(icons_chapter()), maeve="700:B")
    move = {"type": "speak", "pc": "maeve", "slot": "1.a", "marker": "700/front/1"}
    rejects(st, move, "HER-SPEAK-01")
    at(st, maeve="700:A")
    st2, _ = play(st, move)
    assert st2["slots"]["1.a"]["t"] == "maeve" and st2["npcs"]["982"][0]["area"] == "700:A"
    st3, _ = run_ops(game(icons_chapter()), "TAKE 982")
    assert st3["npcs"]["982"][0]["area"] == "700:P"


@pytest.mark.rule("HER-INTERACT-01", "HER-INTERACT-02", "HER-INV-02", "HER-MATERIAL-02")
def test_interact_icon():
    st = at(game(icons_chapter()), maeve="700:A", brick="700:B")
    move = {"type": "interact", "pc": "maeve", "slot": "1.b", "marker": "700/front/2"}
    rejects(st, move, "HER-INTERACT-01")
    at(st, maeve="700:B")
    st2, _ = play(st, move)
    assert st2["pcs"]["maeve"]["materials"] == 2 and st2["pcs"]["brick"]["materials"] == 0


@pytest.mark.rule("HER-TERRAIN-12")
def test_other_symbols_are_inert():
    st = at(game(icons_chapter()), maeve="700:A")
    st2, facts = play(st, {"type": "move", "pc": "maeve", "path": ["700:C"], "slots": ["3.e"]})
    assert [f["type"] for f in facts if f["type"] not in ("ResolverPushed", "ResolverPopped", "ResolverStepped")] == ["TokenPlaced", "PcMoved"]


@pytest.mark.rule("HER-MOVE-03", "HER-MOVE-04", "HER-AREA-01", "HER-AREA-05", "HER-DECIDE-05")
def test_lines_and_paths():
    st = at(game(icons_chapter()), maeve="700:A")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:D"], "slots": ["3.e"]}, "HER-MOVE-04")
    at(st, maeve="700:D")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:P"], "slots": ["3.e"]}, "HER-MOVE-03")
    at(st, maeve="700:A")
    paths = [m["path"] for m in RULES.legal_moves(st, 0) if m["type"] == "move" and m["pc"] == "maeve"]
    assert ["700:B", "700:D"] in paths and ["700:C", "700:D"] in paths and ["700:B"] in paths


@pytest.mark.rule("HER-AREA-04", "HER-AREA-03", "HER-AREA-06", "HER-MOVE-03")
def test_blue_green_red_lines():
    t = terrain(700, {"A": 3, "B": 3, "C": 3, "D": 3}, [("A", "B", "blue"), ("A", "C", "green"), ("A", "D", "red")])
    st = at(game(chapter([t])), maeve="700:A")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]}, "HER-MOVE-03")
    s2, f2 = play(st, {"type": "move", "pc": "maeve", "path": ["700:C"], "slots": ["3.e"]})
    assert s2["pending"] is None and s2["pcs"]["maeve"]["area"] == "700:C"
    s3, f3 = play(st, {"type": "move", "pc": "maeve", "path": ["700:D"], "slots": ["3.e"]})
    assert s3["pending"]["kind"] == "damage_slot" and s3["pcs"]["maeve"]["area"] == "700:D"


def ladder_chapter():
    a = terrain(700, {"A": 3, "L": 3}, [("A", "L", "white")],
                icons=[{"kind": "levelChange", "area": "L", "link": "stairs", "terrain": 701}])
    b = terrain(701, {"U": 2, "V": 3}, [("U", "V", "white")], icons=[{"kind": "levelChange", "area": "U", "link": "stairs"}])
    dog = narrative(980, "", npc={"name": "Dog", "hostile": True, "life": 5, "defence": 0, "ai": "MOVE 3", "death": ""})
    return chapter([a, b], [dog])


@pytest.mark.rule("HER-LEVEL-01", "HER-LEVEL-02", "HER-LEVEL-03", "HER-LEVEL-04", "HER-AMB-19", "HER-EXPLORE-08")
def test_level_change():
    st = at(game(ladder_chapter()), maeve="700:L", brick="700:A")
    put_npc(st, 980, "700:A")
    legal = [m for m in RULES.legal_moves(st, 0) if m["type"] == "explore" and m["pc"] == "maeve"]
    # Maeve's two Move slots are twins (RULINGS "Twin slots"): one listed, the other still accepted
    assert {m["marker"] for m in legal} == {"700/front/0"} and {m["slot"] for m in legal} == {"3.e"}
    assert RULES.listed_form(st, 0, dict(legal[0], slot="3.f")) == legal[0]
    st, _ = play(st, legal[0])
    assert st["pcs"]["maeve"]["area"] == "701:U" and st["terrains"]["701"]["level"] == 1
    assert abs(st["terrains"]["701"]["x"] - st["terrains"]["700"]["x"]) > 1
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:L"], "slots": ["3.f"]})
    assert st["pcs"]["maeve"]["area"] == "700:L"
    # NPCs use Level Changes too (and never reveal Terrain)
    at(st, maeve="701:V", brick="700:far")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert st["npcs"]["980"][0]["area"] == "701:V"
    assert not [f for f in facts if f["type"] == "TerrainPlaced"]


@pytest.mark.rule("HER-ITEM-02", "HER-ITEM-03", "HER-ITEM-09")
def test_items_slots_and_use():
    rec = C(game()).card(140)["front"]
    assert rec["name"] and rec["value"] == 2 and rec["anchor"] == "strap" and rec["slots"] and rec["upgrades"]
    t = terrain(700, {"A": 3, "B": 3, "C": 3}, [("A", "B", "white"), ("B", "C", "white")])
    st = at(game(chapter([t])), maeve="700:A", brick="700:A")
    give_item(st, "maeve", 144)                          # Storm Lantern: a Move slot
    rejects(st, {"type": "move", "pc": "brick", "path": ["700:B"], "slots": ["144.l1"]}, "HER-ACTION-05")
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B", "700:C"], "slots": ["3.e", "144.l1"]})
    assert st["pcs"]["maeve"]["area"] == "700:C" and st["slots"]["144.l1"]["t"] == "maeve"


@pytest.mark.rule("HER-ITEM-20", "HER-COMBAT-09", "HER-ITEM-12")
def test_item_defence():
    st = game()
    assert defence(st, "maeve") == 0
    give_item(st, "maeve", 145)
    assert defence(st, "maeve") == 1
    damage_slot(st, "145.v1")
    assert defence(st, "maeve") == 0


@pytest.mark.rule("HER-INV-03", "HER-DECIDE-15", "HER-DECIDE-25", "HER-DECIDE-16")
def test_free_allocation_and_anchor_choice():
    st = game()
    st, _ = run_ops(st, "GAIN_ITEM 140 ALLOCATE")
    assert st["pending"]["kind"] == "allocate_item" and st["pending"]["options"] == sorted(st["pcs"])
    k = st["pending"]["options"].index("djamal")
    st, _ = play(st, {"type": "choose", "option": k})
    assert st["pending"]["kind"] == "item_anchor" and st["pending"]["options"] == ["8:right:0", "9:right:0"]
    st, _ = play(st, {"type": "choose", "option": 1})
    assert items_of(st, "djamal") == [140] and st["cards"]["140"]["anchor"] == "9:right:0"
    st, _ = run_ops(st, "GAIN_MATERIALS 2 ALLOCATE")
    st, _ = play(st, {"type": "choose", "option": 0})
    st, _ = play(st, {"type": "choose", "option": 1})
    assert st["pcs"]["brick"]["materials"] == 1 and st["pcs"]["djamal"]["materials"] == 1


@pytest.mark.rule("HER-INV-04")
def test_npc_death_releases_items_and_materials():
    st = at(game(), brick="101:o3")
    put_npc(st, 131, "101:o3", damage=2)
    st["npcs"]["131"] = [{"area": "101:o3", "damage": 2}]
    give_item(st, "brick", 140)
    from .helpers import karma_top
    karma_top(st, 908)
    st, _ = play(st, {"type": "attack", "pc": "brick", "slot": "140.p1", "target": {"npc": 131, "s": 0}})
    assert 143 in items_in_area(st, "101:o3") and st["area_materials"].get("101:o3") == 2


@pytest.mark.rule("HER-INV-05", "HER-INV-06", "HER-INV-07", "HER-INV-08", "HER-DECIDE-13", "HER-AMB-26")
def test_drop():
    st = at(game(), maeve="101:o1")
    give_item(st, "maeve", 145)
    damage_slot(st, "145.v1")
    mats(st, "maeve", 2)
    st, facts = play(st, {"type": "drop", "pc": "maeve", "materials": 2})
    assert st["pcs"]["maeve"]["tokens"] == ["avail"] * 3 and st["area_materials"]["101:o1"] == 2
    st["slots"]["145.v1"]["d"] = 0
    del st["slots"]["145.v1"]
    st, _ = play(st, {"type": "drop", "pc": "maeve", "item": 145})
    assert 145 in items_in_area(st, "101:o1") and defence(st, "maeve") == 0
    refs = RULES.view(st, 0)["references"]                  # a pair of Reference tokens links the Item and its area
    assert {"id": "R145", "kind": "item", "card": 145, "area": "101:o1"} in refs
    give_item(st, "brick", 141)
    st["slots"]["141.s1"] = {"t": "brick", "d": 0}
    st, _ = play(st, {"type": "drop", "pc": "brick", "item": 141})
    assert st["slots"]["141.s1"]["t"] == "brick"
    rejects(st, {"type": "use_item", "pc": "brick", "slot": "141.s1"}, "HER-ACTION-05")
    idle = dict(st, window=None, stack=[])
    rejects(idle, {"type": "drop", "pc": "maeve", "materials": 0}, "HER-INV-05")


@pytest.mark.rule("HER-INV-11", "HER-INV-12", "HER-INV-13", "HER-DECIDE-14", "HER-MATERIAL-01", "HER-AMB-27")
def test_trade():
    st = at(game(players=4), maeve="101:o1", brick="101:o1", djamal="101:o2")
    mats(st, "maeve", 2)
    give_item(st, "brick", 141)
    damage_slot(st, "141.s1")
    move = {"type": "trade", "pc": "maeve", "with": "brick", "slot": "2.c", "give": {"materials": 1}, "take": {"items": [141]}}
    rejects(st, {**move, "with": "djamal"}, "HER-INV-12")
    st2, _ = play(st, move, seat=0)
    assert st2["pending"]["kind"] == "trade_consent" and RULES.decision(st2).seats == (1,)
    declined, _ = play(st2, {"type": "choose", "option": 1}, seat=1)
    assert declined["pcs"]["maeve"]["tokens"] == ["avail"] * 3
    rejects(declined, move, "HER-INV-12")
    st3, _ = play(st2, {"type": "choose", "option": 0}, seat=1)
    assert st3["pcs"]["maeve"]["materials"] == 1 and st3["pcs"]["brick"]["materials"] == 1
    assert items_of(st3, "maeve") == [141] and st3["slots"]["141.s1"]["d"] == 1
    assert st3["slots"]["2.c"]["t"] == "maeve"


@pytest.mark.rule("HER-DECIDE-12", "HER-DECIDE-11")
def test_pickup_and_item_choices_listed():
    st = at(game(), maeve="101:o2")
    for item in (141, 145):
        take_to_table(st, item)
        st["cards"][str(item)].update({"zone": "area", "area": "101:o2", "pc": None, "anchor": None})
    picks = [m for m in RULES.legal_moves(st, 0) if m["type"] == "pickup" and m["pc"] == "maeve"]
    combos = {(m["materials"], tuple(m["items"])) for m in picks}
    assert {(2, ()), (0, (141,)), (0, (145,)), (2, (141, 145))} <= combos
    give_item(st, "maeve", 140)
    mats(st, "maeve", 2)
    ups = [m for m in RULES.legal_moves(st, 0) if m["type"] == "upgrade" and m["pc"] == "maeve"]
    assert ups and ups[0]["item"] == 140


@pytest.mark.rule("HER-INV-09", "HER-DECIDE-12")
def test_partial_materials_pickup_listed():
    st = at(game(), maeve="101:o2")
    st["area_materials"] = {"101:o2": 3}
    take_to_table(st, 141)
    st["cards"]["141"].update({"zone": "area", "area": "101:o2", "pc": None, "anchor": None})
    picks = [m for m in RULES.legal_moves(st, 0) if m["type"] == "pickup" and m["pc"] == "maeve"]
    combos = {(m["materials"], tuple(m["items"])) for m in picks}
    assert {(k, items) for k in range(4) for items in ((), (141,))} - {(0, ())} <= combos
    move = next(m for m in picks if m["materials"] == 1 and m["items"] == [])
    st2, _ = play(st, move)                                       # one of the three, the rest stays on the floor
    assert st2["area_materials"] == {"101:o2": 2}
    assert st2["pcs"]["maeve"]["materials"] == st["pcs"]["maeve"]["materials"] + 1
