"""Worked examples HER-EX-01..15 with the book's numbers (original fixture cards)."""

import pytest

from domain.games.heredity.state import face_side, is_dying, items_of, tokens

from .helpers import (
    advance, at, chapter, damage_slot, game, give_item, karma_top, mats, narrative, play, put_npc, rejects,
    run_ops, set_timeline, take_to_table, terrain, types,
)



@pytest.mark.rule("HER-EX-01", "HER-WATCH-01", "HER-WATCH-02", "HER-SETUP-07", "HER-CARDS-02", "HER-TERRAIN-03", "HER-ACTION-07", "HER-AMB-14")
def test_ex01_watch_takes_960():
    cid = chapter([terrain(700, {"A": 3}, icons=[{"kind": "watch", "area": "A", "card": 960}])],
                  [narrative(960, "PLACE_MATERIALS 1 IN 700:A")])
    st = at(game(cid), maeve="700:A")
    move = {"type": "watch", "pc": "maeve", "slot": "1.a", "marker": "700/front/0"}
    st2, facts = play(st, move)
    assert st2["pcs"]["maeve"]["tokens"].count("avail") == 2 and st2["slots"]["1.a"]["t"] == "maeve"
    assert st2["cards"]["960"]["face"] == "front" and st2["area_materials"] == {"700:A": 1}
    assert "700/front/0" not in st2["markers"]
    rejects(st2, {**move, "slot": "1.b"}, "HER-WATCH-01")
    # the card's instruction is applied within the same command, before anything else
    assert types(facts).index("CardTaken") < types(facts).index("AreaMaterials")


LINE = terrain(700, {"W": 3, "X": 2, "Y": 3}, [("W", "X", "white"), ("X", "Y", "white")])


@pytest.mark.rule("HER-EX-02", "HER-MOVE-01", "HER-MOVE-02", "HER-MOVE-05", "HER-MOVE-06", "HER-MOVE-07")
def test_ex02_full_area():
    st = at(game(chapter([LINE])), maeve="700:W", brick="700:X", djamal="700:X")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:X"], "slots": ["3.e"]}, "HER-MOVE-05")
    st2, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:X", "700:Y"], "slots": ["3.e", "3.f"]})
    assert st2["pcs"]["maeve"]["area"] == "700:Y"
    assert st2["slots"]["3.e"]["t"] == "maeve" and st2["slots"]["3.f"]["t"] == "maeve"
    assert st2["pcs"]["brick"]["area"] == "700:X" and st2["pcs"]["djamal"]["area"] == "700:X"
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:X", "700:Y"], "slots": ["3.e", "3.e"]}, "HER-MOVE-01")


@pytest.mark.rule("HER-EX-03", "HER-TERRAIN-04", "HER-MATERIAL-04")
def test_ex03_reveal_materials():
    t3 = terrain(701, {"1": 3, "2": 3, "3": 3}, icons=[{"kind": "materials", "area": "1", "count": 2},
                                                     {"kind": "materials", "area": "2", "count": 1}])
    st = game(chapter([terrain(700, {"A": 3}), t3]))
    st2, _ = run_ops(st, "PLACE_TERRAIN 701 AT 5 5")
    assert st2["area_materials"].get("701:1") == 2 and st2["area_materials"].get("701:2") == 1
    assert "701:3" not in st2["area_materials"]
    assert all(p["materials"] == 0 for p in st2["pcs"].values())


def explore_chapter(a2_colour="white"):
    t962 = terrain(962, {"A1": 3, "A2": 3}, [("A1", "A2", "white")],
                   icons=[{"kind": "explore", "edge": "E", "terrain": 963}],
                   edges={"E": [{"area": "A1", "colour": "white", "span": [0, 1]},
                                {"area": "A2", "colour": a2_colour, "span": [1, 2]}]})
    t963 = terrain(963, {"B1": 3, "B2": 3}, [("B1", "B2", "white")],
                   icons=[{"kind": "materials", "area": "B2", "count": 1}],
                   edges={"W": [{"area": "B1", "colour": "white", "span": [0, 1]},
                                {"area": "B2", "colour": "white", "span": [1, 2]}]})
    return chapter([t962, t963])


@pytest.mark.rule("HER-EX-04", "HER-EXPLORE-01", "HER-EXPLORE-02", "HER-EXPLORE-03", "HER-EXPLORE-04", "HER-EXPLORE-05",
   "HER-EXPLORE-06", "HER-MOVE-08", "HER-TERRAIN-01")
def test_ex04_explore():
    st = at(game(explore_chapter()), maeve="962:A1")
    move = {"type": "explore", "pc": "maeve", "slot": "3.e", "marker": "962/front/0"}
    st2, _ = play(st, move)
    assert st2["terrains"]["963"] == {"x": 1, "y": 0, "level": 0}
    assert st2["pcs"]["maeve"]["area"] == "963:B1" and st2["area_materials"]["963:B2"] == 1
    assert st2["pcs"]["maeve"]["tokens"].count("avail") == 2
    st3, _ = play(at(game(explore_chapter()), maeve="962:A2"), move)
    assert st3["pcs"]["maeve"]["area"] == "963:B2"
    at(st2, maeve="962:A1")                                    # 963 is explored now: no second exploration
    rejects(st2, {**move, "slot": "3.f"}, "HER-EXPLORE-02")
    for colour in ("black", "blue"):
        rejects(at(game(explore_chapter(colour)), maeve="962:A2"), move, "HER-EXPLORE-02")
    rejects(at(game(explore_chapter()), maeve="962:A1"), {**move, "slot": "1.a"}, "HER-ACTION-04")


@pytest.mark.rule("HER-EX-05", "HER-EXPLORE-07", "HER-AREA-07", "HER-AREA-03")
def test_ex05_area_merges():
    t962 = terrain(962, {"O1": 3}, icons=[{"kind": "explore", "edge": "E", "terrain": 963}],
                   edges={"E": [{"area": "O1", "colour": "open", "span": [0, 1]}]})
    t963 = terrain(963, {"O2": 3, "C": 2}, [("O2", "C", "green")],
                   edges={"W": [{"area": "O2", "colour": "open", "span": [0, 1]}]})
    st = at(game(chapter([t962, t963])), maeve="962:O1", brick="962:O1")
    st, _ = play(st, {"type": "explore", "pc": "maeve", "slot": "3.e", "marker": "962/front/0"})
    from domain.games.heredity.state import same_area
    assert same_area(st, st["pcs"]["maeve"]["area"], st["pcs"]["brick"]["area"])
    st, _ = play(st, {"type": "move", "pc": "brick", "path": ["963:C"], "slots": ["6.e"]})
    assert st["pcs"]["brick"]["area"] == "963:C" and st["pcs"]["brick"]["tokens"].count("avail") == 2


def flip_terrain_chapter():
    t = terrain(700, {"D": 3, "E": 3, "F": 3}, [("D", "E", "green"), ("E", "F", "white")],
                icons=[{"kind": "immediateEvent", "area": "E", "effect": "FLIP"}],
                back={"areas": {"D": 3, "E": 3, "F": 3}, "lines": [("D", "E", "green"), ("E", "F", "white")],
                      "icons": [{"kind": "interact", "area": "E", "card": 961}]})
    return chapter([t], [narrative(961, "NARRATE \"x\""),
                         narrative(980, "", npc={"name": "Dog", "hostile": True, "life": 5, "defence": 0,
                                                 "ai": "MOVE 1", "death": ""})])


@pytest.mark.rule("HER-EX-06", "HER-TERRAIN-07", "HER-TERRAIN-08", "HER-TERRAIN-05", "HER-TERRAIN-06", "HER-TERRAIN-02")
def test_ex06_immediate_event_flip():
    st = at(game(flip_terrain_chapter()), brick="700:D")
    st2, _ = play(st, {"type": "move", "pc": "brick", "path": ["700:E"], "slots": ["6.e"]})
    assert st2["cards"]["700"]["face"] == "back" and st2["pcs"]["brick"]["area"] == "700:E"
    assert "700/back/0" in st2["markers"] and not any(m.startswith("700/front") for m in st2["markers"])
    # NPC entering does not trigger it
    st = at(game(flip_terrain_chapter()), maeve="700:F")
    put_npc(st, 980, "700:D")
    set_timeline(st, [980])
    st3, _ = advance(st)
    assert st3["npcs"]["980"][0]["area"] == "700:E" and st3["cards"]["700"]["face"] == "front"


@pytest.mark.rule("HER-EX-07", "HER-TERRAIN-09", "HER-CARDS-08")
def test_ex07_swap():
    t102 = terrain(102, {"a": 3, "b": 3})
    t143 = terrain(143, {"a2": 3, "b2": 3}, replaces=102, area_map={"a": "a2", "b": "b2"})
    st = at(game(chapter([t102, t143])), maeve="102:a")
    st["area_materials"] = {"102:b": 2}
    st2, _ = run_ops(st, "TAKE 143")
    assert st2["terrains"]["143"] == {"x": 0, "y": 0, "level": 0} and "102" not in st2["terrains"]
    assert st2["pcs"]["maeve"]["area"] == "143:a2" and st2["area_materials"] == {"143:b2": 2}
    assert st2["cards"]["102"]["zone"] == "burned"
    st3, facts = run_ops(st2, "TAKE 102")
    assert "Warning" in types(facts) and "CardTaken" not in types(facts)


@pytest.mark.rule("HER-EX-08", "HER-TERRAIN-10")
def test_ex08_regroup():
    t = terrain(962, {"A1": 3, "A2": 3, "R": 3}, back={"areas": {"A1": 3, "A2": 3, "R": 3}, "regroup": "R"})
    st = at(game(chapter([t])), brick="962:A1", maeve="962:A2")
    st["area_materials"] = {"962:A1": 1}
    st2, _ = run_ops(st, "FLIP 962")
    assert st2["pcs"]["brick"]["area"] == st2["pcs"]["maeve"]["area"] == "962:R"
    assert st2["area_materials"] == {"962:R": 1}


def fight_chapter(life=5, defence=0, hostile=True, ai="MOVE 1; MELEE 2", lines=None, areas=None, **extra):
    areas = areas or {"a0": 3, "a1": 3, "a2": 3, "m1": 3, "m2": 3, "m3": 3}
    lines = lines or [("a0", "a1", "white"), ("a1", "a2", "white"), ("a0", "m1", "white"),
                      ("m1", "m2", "white"), ("m2", "m3", "white")]
    fox = narrative(970, "", npc={"name": "Angry Fox", "hostile": hostile, "life": life, "defence": defence,
                                  "ai": ai, "death": extra.get("death", "")},
                    actions=extra.get("actions", []), **({"back": extra["back"]} if "back" in extra else {}))
    return chapter([terrain(700, areas, lines, lof=extra.get("lof", ()))], [fox] + extra.get("cards", []))


@pytest.mark.rule("HER-EX-09", "HER-ITEM-10", "HER-ITEM-19", "HER-COMBAT-04", "HER-ACTION-02")
def test_ex09_club():
    st = at(game(fight_chapter(life=5, defence=0)), brick="700:a0")
    put_npc(st, 970, "700:a0")
    give_item(st, "brick", 140)
    karma_top(st, 908)            # value +1
    move = {"type": "attack", "pc": "brick", "slot": "140.p1", "target": {"npc": 970, "s": 0}}
    st2, facts = play(st, move)
    assert st2["npcs"]["970"][0]["damage"] == 4 and st2["npcs"]["970"][0]["area"] == "700:a0"
    rejects(st2, move, "HER-ACTION-02")


@pytest.mark.rule("HER-EX-10", "HER-ITEM-11", "HER-ITEM-12", "HER-ITEM-13", "HER-ITEM-14", "HER-ITEM-15", "HER-ITEM-04", "HER-AMB-15", "HER-AMB-23")
def test_ex10_gas_mask():
    st = at(game(chapter([terrain(700, {"G": 3})])), maeve="700:G", brick="700:far")
    give_item(st, "maeve", 143)            # Smoke Hood: heart slot, no icon, immune smoke
    mats(st, "maeve", 1)
    give_item(st, "brick", 145)
    damage_slot(st, "145.v1")
    gas = "DAMAGE 1 CHARACTERS_IN 700:G TAG smoke"
    st1, f1 = run_ops(st, gas)
    assert "DamagePlaced" not in types(f1) and "Immune" in types(f1)
    rejects(st1, {"type": "use_item", "pc": "maeve", "slot": "143.m1"}, "HER-ITEM-13")
    damage_slot(st1, "143.m1")             # (2) the Mask takes a Damage token
    st3, f3 = run_ops(st1, gas)             # (3) effect disabled -> Maeve is hit
    assert st3["pending"]["kind"] == "damage_slot" and "143.m1" not in st3["pending"]["options"]
    st3, _ = play(st3, {"type": "choose", "option": 0})
    assert sum(1 for r, s in st3["slots"].items() if s["d"] and r.split(".")[0] in ("1", "2", "3")) == 1
    st3, _ = advance(st3)
    while st3["window"] is None or st3["pending"] is not None:
        st3, _ = advance(st3) if st3["pending"] is None else play(st3, {"type": "choose", "option": 0})
    at(st3, maeve="700:G")
    mats(st3, "maeve", 0)
    rejects(st3, {"type": "repair", "pc": "maeve", "slot": "2.c", "item": 143, "damage": "143.m1"}, "HER-ITEM-15")
    mats(st3, "maeve", 1)
    rejects(st3, {"type": "repair", "pc": "maeve", "slot": "2.c", "item": 145, "damage": "145.m1"}, "HER-ITEM-15")
    st4, _ = play(st3, {"type": "repair", "pc": "maeve", "slot": "2.c", "item": 143, "damage": "143.m1"})
    assert st4["pcs"]["maeve"]["materials"] == 0 and "143.m1" not in st4["slots"]
    assert st4["slots"]["2.c"]["t"] == "maeve"
    rejects(st4, {"type": "repair", "pc": "maeve", "slot": "1.b", "item": 143, "damage": "143.m1"}, "HER-ITEM-15")
    st5, f5 = run_ops(st4, gas)
    assert "Immune" in types(f5)


@pytest.mark.rule("HER-EX-11", "HER-ITEM-16", "HER-ITEM-17", "HER-ITEM-18", "HER-ITEM-07", "HER-INTERACT-03")
def test_ex11_upgrade():
    st = at(game(chapter([terrain(700, {"A": 3})])), brick="700:A")
    give_item(st, "brick", 140)
    mats(st, "brick", 2)
    move = {"type": "upgrade", "pc": "brick", "slot": "5.c", "item": 140, "upgrade": 0}
    st2, _ = play(st, move)
    assert st2["slots"]["5.c"]["t"] == "brick" and st2["pcs"]["brick"]["materials"] == 0
    assert st2["cards"]["140"]["face"] == "back" and tokens(st2, 140) == 1
    bad = dict(st)
    s1 = mats(give_item(at(game(chapter([terrain(700, {"A": 3})])), brick="700:A"), "brick", 140), "brick", 1)
    rejects(s1, move, "HER-ITEM-17")
    s2 = mats(give_item(at(game(chapter([terrain(700, {"A": 3})])), brick="700:A"), "brick", 140), "brick", 2)
    s2["slots"]["140.p1"] = {"t": "brick", "d": 0}
    rejects(s2, move, "HER-ITEM-16")
    s3 = mats(give_item(at(game(chapter([terrain(700, {"A": 3})])), brick="700:A"), "brick", 140, face="back"), "brick", 2)
    damage_slot(s3, "140.p2")
    rejects(s3, move, "HER-ITEM-16")
    _, facts = run_ops(s2, "FLIP 140")
    assert "CardFlipped" not in types(facts)


@pytest.mark.rule("HER-EX-12", "HER-INV-09", "HER-INV-10", "HER-INV-01", "HER-ITEM-01", "HER-INTERACT-03")
def test_ex12_pickup():
    st = at(game(chapter([terrain(700, {"A": 3})])), maeve="700:A")
    st["area_materials"] = {"700:A": 2}
    take_to_table(st, 141)
    st["cards"]["141"].update({"zone": "area", "area": "700:A", "pc": None, "anchor": None})
    damage_slot(st, "141.s1")
    from domain.games.heredity import RULES
    assert [r["card"] for r in RULES.view(st, 0)["references"]] == [141]
    st2, _ = play(st, {"type": "pickup", "pc": "maeve", "slot": "2.c", "materials": 2, "items": [141]})
    assert RULES.view(st2, 0)["references"] == []           # both Reference tokens removed
    assert st2["pcs"]["maeve"]["tokens"].count("avail") == 2 and st2["pcs"]["maeve"]["materials"] == 2
    assert st2["area_materials"] == {} and 141 in items_of(st2, "maeve")
    assert st2["cards"]["141"]["anchor"] == "1:left:0" and st2["slots"]["141.s1"]["d"] == 1


@pytest.mark.rule("HER-EX-13", "HER-INSTR-01", "HER-INSTR-02", "HER-INSTR-03", "HER-INSTR-04", "HER-INSTR-05", "HER-INSTR-06", "HER-CONTROL-06")
def test_ex13_brick_card():
    x = narrative(800, "TAKE 56; REMOVE 1 generic FROM self ELSE ADD 1 generic TO self; REMOVE 1 generic FROM self; "
                       "IF TOKENS(self) = 0 THEN FLIP ELSE TAKE 967 END", reader="brick", narrative="Brick: hello",
                  back={"instructions": ""})
    c56 = narrative(56, "PLACE_MATERIALS 1 IN 700:A")
    c967 = narrative(967, "")
    st = game(chapter([terrain(700, {"A": 3})], [x, c56, c967]), players=2)
    st2, facts = run_ops(st, "TAKE 800")
    seq = [(f["type"], f.get("card"), f.get("delta")) for f in facts if f["type"] in
           ("CardTaken", "AreaMaterials", "CardTokens", "CardFlipped")]
    assert seq == [("CardTaken", 800, None), ("CardTaken", 56, None), ("AreaMaterials", None, 1),
                   ("CardTokens", 800, 1), ("CardTokens", 800, -1), ("CardFlipped", 800, None)]
    taken = next(f for f in facts if f["type"] == "CardTaken")
    assert taken["reader"] == "brick" and taken["reader_seats"] == st["control"]["brick"]
    assert "967" not in st2["cards"]


@pytest.mark.rule("HER-EX-14", "HER-INSTR-09", "HER-INSTR-10", "HER-CARDS-04", "HER-AMB-46")
def test_ex14_terrain_action():
    c958 = narrative(958, "NARRATE \"front\"", back={
        "instructions": "", "actions": [{"icon": "interact", "link": {"kind": "terrain", "terrain": 700, "area": "A"},
                                          "body": "REMOVE 1 generic FROM self; IF TOKENS(self) = 0 THEN FLIP END"}]})
    st = at(game(chapter([terrain(700, {"A": 3, "B": 3})], [c958])), maeve="700:A")
    take_to_table(st, 958, face="back")
    st["cards"]["958"]["tokens"] = {"generic": 1}
    from domain.games.heredity import RULES
    assert RULES.view(st, 0)["references"] == [{"id": "R958@700:A", "kind": "terrain_action", "card": 958,
                                                "area": "700:A"}]
    move = {"type": "card_action", "pc": "maeve", "slot": "2.c", "card": 958, "action": 0}
    rejects(at(dict(st), maeve="700:B") and st, move, "HER-INSTR-10")
    at(st, maeve="700:A")
    rejects(st, {**move, "slot": "1.a"}, "HER-ACTION-04")
    st2, facts = play(st, move)
    assert st2["slots"]["2.c"]["t"] == "maeve" and tokens(st2, 958) == 0 and st2["cards"]["958"]["face"] == "front"
    assert "Narrated" in types(facts)
    assert RULES.view(st2, 0)["references"] == []           # the front offers no Terrain action


@pytest.mark.rule("HER-EX-15", "HER-TIMELINE-02", "HER-TIMELINE-03", "HER-TIMELINE-04", "HER-TIMELINE-05", "HER-TIMELINE-07",
   "HER-TIMELINE-08", "HER-TIMELINE-09", "HER-TIMELINE-12", "HER-SETUP-12")
def test_ex15_cycle():
    c = narrative(800, "NARRATE \"never on arrival\"", event="REMOVE 1 generic FROM self; IF TOKENS(self) = 0 THEN FLIP END",
                  back={"instructions": ""})
    st = at(game(chapter([terrain(700, {"A": 3, "B": 3}, [("A", "B", "white")])], [c])), maeve="700:A")
    assert st["hourglass"] == 0 and st["window"] is not None
    set_timeline(st, [800])
    st["cards"]["800"]["tokens"] = {"generic": 2}
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    st, facts = advance(st)                      # onto C
    assert tokens(st, 800) == 1 and "Narrated" not in types(facts)
    assert st["hourglass"] == 0 and st["window"] is not None    # back on the Family card
    assert all(p["tokens"] == ["avail"] * 3 for p in st["pcs"].values())
    st, facts = advance(st)
    assert st["cards"]["800"]["face"] == "back" and all(p["card"] != 800 for p in st["timeline"])
