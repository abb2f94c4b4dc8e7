"""Worked examples HER-EX-16..30."""

import pytest

from domain.games.heredity.state import attack_targets
from domain.games.heredity.state import C, face_side, free_heart_slots, is_dying, tokens

from .helpers import (
    advance, at, chapter, cover_hearts, damage_slot, game, give_item, karma_top, mats, narrative, play, put_npc,
    rejects, run_ops, set_timeline, take_to_table, terrain, types,
)
from .test_examples_a import fight_chapter



def idle(st):
    """Leave the Family card's window: nothing resolving, the Hourglass ready to move."""
    st["stack"] = []
    st["window"] = None
    return st


def plain(n, **kw):
    return narrative(n, "", **kw)


@pytest.mark.rule("HER-EX-16", "HER-ANCHOR-07", "HER-ANCHOR-08", "HER-ANCHOR-09", "HER-ANCHOR-04", "HER-TIMELINE-11")
def test_ex16_vertical_anchor():
    c = narrative(800, "", event="TAKE 801")
    v = narrative(801, "ANCHOR yellow VERTICAL ELSE BURN", event="ADD 1 generic TO self",
                  trigger={"when": "afterHostStep", "step": 2})
    st = game(chapter([terrain(700, {"A": 3})], [c, v]))
    set_timeline(st, [800])
    st, facts = advance(st)
    assert st["timeline"][0]["below"][0]["card"] == 801 and tokens(st, 801) == 0
    assert st["hourglass"] == 0 and st["window"] is not None
    st, facts = advance(st)
    kinds = [(f["type"], f.get("card")) for f in facts]
    assert kinds.index(("CardTokens", 801)) < kinds.index(("HourglassMoved", 800))
    assert tokens(st, 801) == 1
    assert all(f.get("card") != 801 for f in facts if f["type"] == "HourglassMoved")


@pytest.mark.rule("HER-EX-17", "HER-ANCHOR-01", "HER-ANCHOR-02", "HER-ANCHOR-03", "HER-ANCHOR-06", "HER-ANCHOR-09")
def test_ex17_blue_at_end():
    cards = [plain(801), plain(802), plain(803), narrative(804, "ANCHOR blue ELSE BURN", event="ADD 1 generic TO self")]
    st = idle(game(chapter([terrain(700, {"A": 3})], cards)))
    set_timeline(st, [801, 802, 803], ["green", "red", "yellow"], hourglass=1, end="blue")
    st2, facts = run_ops(st, "TAKE 804")
    assert st2["timeline"][4]["card"] == 804 and tokens(st2, 804) == 0 and st2["hourglass"] == 1


@pytest.mark.rule("HER-EX-18", "HER-ANCHOR-04", "HER-ANCHOR-05", "HER-INSTR-14")
def test_ex18_wraparound():
    cards = [plain(802), plain(803), narrative(805, "ANCHOR green ELSE BURN")]
    st = idle(game(chapter([terrain(700, {"A": 3})], cards)))
    set_timeline(st, [None, 802, 803], ["green", "red", "yellow"], hourglass=2, end="blue")
    st2, _ = run_ops(st, "TAKE 805")
    assert st2["timeline"][1]["card"] == 805
    set_timeline(st, [None, 802, 803], ["red", "red", "yellow"], hourglass=2, end="blue")
    st3, _ = run_ops(st, "TAKE 805")
    assert st3["cards"]["805"]["zone"] == "burned"


def c969(event, back_anchor):
    return narrative(969, "", event=event,
                     back={"instructions": f"ANCHOR {back_anchor} ELSE BURN", "event": "ADD 1 generic TO self"})


@pytest.mark.rule("HER-EX-19", "HER-ANCHOR-10", "HER-TIMELINE-12", "HER-ANCHOR-09")
def test_ex19_reanchor_same_position():
    cards = [plain(801), plain(802), c969("REMOVE 1 generic FROM self; IF TOKENS(self) = 0 THEN FLIP END", "blue")]
    st = idle(game(chapter([terrain(700, {"A": 3})], cards)))
    set_timeline(st, [801, 969, 802], ["green", "blue", "yellow"], hourglass=1, end="red")
    st["cards"]["969"]["tokens"] = {"generic": 1}
    st, facts = advance(st)
    assert st["timeline"][2]["card"] == 969 and face_side(st, 969) == "back" and tokens(st, 969) == 0
    moved = [f["card"] for f in facts if f["type"] == "HourglassMoved"]
    assert moved[:2] == [969, 802]
    st, facts = advance(st)
    assert tokens(st, 969) == 1


@pytest.mark.rule("HER-EX-20", "HER-RESTORE-01", "HER-RESTORE-02", "HER-RESTORE-03", "HER-RESTORE-04", "HER-ANCHOR-04")
def test_ex20_restore():
    cards = [plain(801), narrative(802, "", event="ADD 1 generic TO self"),
             c969("BURN 801; REMOVE 1 generic FROM self; IF TOKENS(self) = 0 THEN FLIP END", "green")]
    st = idle(game(chapter([terrain(700, {"A": 3})], cards)))
    set_timeline(st, [801, 969, 802], ["green", "blue", "yellow"], hourglass=1, end="blue")
    st["cards"]["969"]["tokens"] = {"generic": 1}
    st, facts = advance(st)
    t = types(facts)
    anchored = next(f for f in facts if f["type"] == "CardAnchored")
    assert anchored["pos"] == 1 and anchored["card"] == 969
    i_b = next(i for i, f in enumerate(facts) if f["type"] == "HourglassMoved" and f["card"] == 802)
    assert "TimelineRestored" not in t[:i_b] and t[i_b + 1] == "TimelineRestored"
    assert [p["card"] for p in st["timeline"] if p["card"]] == [13, 969, 802]
    assert tokens(st, 802) == 1


@pytest.mark.rule("HER-EX-21", "HER-RESTORE-01", "HER-RESTORE-02", "HER-RESTORE-03", "HER-TIMELINE-12")
def test_ex21_restore_before_fox():
    ch = fight_chapter(cards=[plain(801), narrative(802, "", event="BURN")])
    st = at(idle(game(ch)), brick="700:a2")
    put_npc(st, 970, "700:a0")
    set_timeline(st, [801, 802, 970], hourglass=1)
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:a1"]
    assert [p["card"] for p in st["timeline"] if p["card"]] == [13, 801, 970]
    assert "KarmaDrawn" not in types(facts)


@pytest.mark.rule("HER-EX-22", "HER-AI-01", "HER-AI-04", "HER-AI-06", "HER-AI-07", "HER-AI-10")
def test_ex22_fox_targets_brick():
    st = at(game(fight_chapter(defence=5)), brick="700:a2", maeve="700:m3")
    put_npc(st, 970, "700:a0")
    set_timeline(st, [970])
    st, facts = advance(st)
    assert st["npcs"]["970"][0]["area"] == "700:a1"
    assert "KarmaDrawn" not in types(facts) and "DamagePlaced" not in types(facts)


@pytest.mark.rule("HER-EX-23", "HER-INSTR-12", "HER-MATERIAL-03", "HER-NPC-09", "HER-NPC-10", "HER-TIMELINE-13")
def test_ex23_feed_the_fox():
    ch = fight_chapter(actions=[{"icon": "interact", "link": {"kind": "npc", "npc": 970}, "body": "PAY_MATERIALS 1; FLIP"}],
                       back={"instructions": ""}, death="PLACE_MATERIALS 5 IN 700:a1")
    st = at(game(ch), maeve="700:a0")
    put_npc(st, 970, "700:a0")
    set_timeline(st, [970])
    mats(st, "maeve", 1)
    move = {"type": "card_action", "pc": "maeve", "slot": "2.c", "card": 970, "action": 0}
    elsewhere = put_npc(at(mats(game(ch), "maeve", 1), maeve="700:a2"), 970, "700:a0")
    rejects(elsewhere, move, "HER-INSTR-12")
    s0 = put_npc(at(mats(game(ch), "maeve", 0), maeve="700:a0"), 970, "700:a0")
    rejects(s0, move, "HER-MATERIAL-03")
    st2, facts = play(st, move)
    assert st2["slots"]["2.c"]["t"] == "maeve" and st2["pcs"]["maeve"]["materials"] == 0
    assert face_side(st2, 970) == "back" and st2["cards"]["970"]["zone"] == "table"
    assert all(p["card"] != 970 for p in st2["timeline"]) and st2["npcs"]["970"][0]["area"] is None
    assert st2["area_materials"] == {}


@pytest.mark.rule("HER-EX-24", "HER-COMBAT-02", "HER-COMBAT-06", "HER-COMBAT-07", "HER-COMBAT-08", "HER-COMBAT-10", "HER-COMBAT-12",
   "HER-COMBAT-14", "HER-NPC-05")
def test_ex24_club_misses():
    for hostile in (True, False):
        st = at(game(fight_chapter(defence=5, hostile=hostile)), brick="700:a0")
        put_npc(st, 970, "700:a0")
        give_item(st, "brick", 140)
        karma_top(st, 908)
        st2, facts = play(st, {"type": "attack", "pc": "brick", "slot": "140.p1", "target": {"npc": 970, "s": 0}})
        attack = next(f for f in facts if f["type"] == "Attack")
        assert attack["total"] == -1 and not attack["success"]
        assert st2["npcs"]["970"][0]["damage"] == 0 and st2["karma"]["discard"] == [908]
        assert st2["slots"]["140.p1"]["t"] == "brick" and st2["pcs"]["brick"]["tokens"].count("avail") == 2
        assert tokens(st2, 970, "hostile") == (0 if hostile else 1)


@pytest.mark.rule("HER-EX-25", "HER-COMBAT-17", "HER-AI-05", "HER-AI-08", "HER-MOVE-05", "HER-DECIDE-21", "HER-AMB-31", "HER-AMB-35")
def test_ex25_melee_full_area():
    ch = fight_chapter(areas={"y0": 3, "y1": 3, "Z": 2}, lines=[("y0", "y1", "white"), ("y1", "Z", "white")],
                       ai="MOVE 2; MELEE 2")
    st = at(game(ch), brick="700:Z", maeve="700:Z")
    put_npc(st, 970, "700:y0")
    set_timeline(st, [970])
    st, facts = advance(st)
    assert st["pending"]["kind"] == "npc_target"
    assert sorted(o["pc"] for o in st["pending"]["options"]) == ["brick", "maeve"]
    k = next(i for i, o in enumerate(st["pending"]["options"]) if o["pc"] == "brick")
    st, facts = play(st, {"type": "choose", "option": k})
    assert st["npcs"]["970"][0]["area"] == "700:y1"
    attack = next(f for f in facts if f["type"] == "Attack")
    assert attack["target"] == {"pc": "brick"}
    # (b)
    st = at(game(ch), maeve="700:Z", brick="700:y1")
    put_npc(st, 970, "700:Z")
    give_item(st, "brick", 140)
    rejects(st, {"type": "move", "pc": "brick", "path": ["700:Z"], "slots": ["6.e"]}, "HER-MOVE-05")
    st2, facts = play(st, {"type": "attack", "pc": "brick", "slot": "140.p1", "target": {"npc": 970, "s": 0}})
    assert "Attack" in types(facts)


RIFLE = {"number": 966, "colour": "grey", "front": {"name": "Rifle", "value": 3, "anchor": "hook",
                                                     "slots": [{"id": "r", "attack": {"power": 3, "range": 3}}]}}


def rifle_chapter():
    areas = {str(i): 3 for i in range(1, 10)}
    t = terrain(700, areas, [("1", "2", "white"), ("1", "3", "blue"), ("1", "4", "green")],
                lof=[("1", "5", ["green", "white"]), ("1", "7", ["black"]), ("1", "8", ["white"] * 4)],
                icons=[{"kind": "levelChange", "area": "1", "link": "L"}])
    t2 = terrain(701, {"9": 3}, icons=[{"kind": "levelChange", "area": "9", "link": "L"}])
    many = narrative(971, "", npc={"name": "Targets", "standees": 9, "hostile": True, "life": 9, "defence": 0,
                                   "ai": "", "death": ""})
    return chapter([t, t2], [many], items=[RIFLE], opening="PLACE_TERRAIN 700 AT 0 0; PLACE_TERRAIN 701 AT 9 9 LEVEL 1")


@pytest.mark.rule("HER-EX-26", "HER-RANGED-01", "HER-RANGED-02", "HER-RANGED-03", "HER-RANGED-04", "HER-RANGED-05", "HER-RANGED-06",
   "HER-AREA-04", "HER-AREA-05", "HER-LEVEL-05", "HER-AMB-36")
def test_ex26_rifle_targets():
    st = at(game(rifle_chapter()), brick="700:1")
    put_npc(st, 971, *[f"700:{i}" for i in range(1, 9)], "701:9")
    give_item(st, "brick", 966)
    legal = {st["npcs"]["971"][t["s"]]["area"] for t in attack_targets(st, "brick", 3)}
    assert legal == {"700:1", "700:2", "700:3", "700:4", "700:5"}


@pytest.mark.rule("HER-EX-27", "HER-COMBINED-01", "HER-COMBINED-02", "HER-COMBINED-03", "HER-COMBINED-04", "HER-COMBINED-05",
   "HER-COMBINED-06", "HER-COMBINED-07", "HER-RANGED-07", "HER-DECIDE-17")
def test_ex27_combined():
    ch = fight_chapter(life=4, defence=5, areas={"F": 3, "M": 3, "N": 3}, lines=[("F", "M", "white"), ("M", "N", "white")],
                       cards=[], )
    from .helpers import BASE
    st = at(game(chapter([terrain(700, {"F": 3, "M": 3, "N": 3}, [("F", "M", "white"), ("M", "N", "white")])],
                         [narrative(970, "", npc={"name": "Fox", "hostile": True, "life": 4, "defence": 5, "ai": "",
                                                  "death": ""})], items=[RIFLE])), brick="700:F", maeve="700:M")
    put_npc(st, 970, "700:F")
    give_item(st, "brick", 140)
    give_item(st, "maeve", 966)
    karma_top(st, 908)
    move = {"type": "combined_attack", "target": {"npc": 970, "s": 0},
            "participants": [{"pc": "brick", "slot": "140.p1"}, {"pc": "maeve", "slot": "966.r"}]}
    st2, facts = play(st, move)
    assert types(facts).count("KarmaDrawn") == 1 and len(st2["karma"]["deck"]) == 8 and st2["karma"]["discard"] == [908]
    assert next(f for f in facts if f["type"] == "Attack")["total"] == 2
    assert st2["npcs"]["970"][0]["damage"] == 2 and st2["npcs"]["970"][0]["area"] == "700:F"
    assert st2["slots"]["140.p1"]["t"] == "brick" and st2["slots"]["966.r"]["t"] == "maeve"
    far = at(st, maeve="700:far")
    rejects(far, move, "HER-COMBINED-02")


COAT = {"number": 965, "colour": "brown", "front": {"name": "Padded Coat", "value": 1, "anchor": "strap",
                                                    "permanent": [{"kind": "defence", "value": 1}]}}


def answer_all(st, option=0):
    facts = []
    while st["pending"] is not None and st["pending"]["kind"] == "damage_slot":
        st, f = play(st, {"type": "choose", "option": option})
        facts += f
    return st, facts


@pytest.mark.rule("HER-EX-28", "HER-INSTR-07", "HER-DAMAGE-02", "HER-DAMAGE-03", "HER-DAMAGE-06", "HER-INJURY-07", "HER-INJURY-01", "HER-DECIDE-07")
def test_ex28_five_damage():
    st = at(game(chapter([terrain(700, {"A": 3})], items=[COAT])), maeve="700:A")
    give_item(st, "maeve", 965)
    from domain.games.heredity.state import defence, heart_slots
    assert defence(st, "maeve") == 1 and len(heart_slots(st, "maeve")) == 5
    st, _ = run_ops(st, "DAMAGE 5 maeve")
    assert st["pending"]["kind"] == "damage_slot" and len(st["pending"]["options"]) == 5
    st, _ = answer_all(st)
    assert sorted(r for r, s in st["slots"].items() if s["d"]) == ["1.a", "1.b", "2.c", "3.e", "3.f"]
    assert "2.d" not in st["slots"] and all(face_side(st, n) == "front" for n in (1, 2, 3))
    st, facts = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "injury_card"


@pytest.mark.rule("HER-EX-29", "HER-INJURY-01", "HER-INJURY-02", "HER-INJURY-03", "HER-DYING-01", "HER-DECIDE-08")
def test_ex29_head_injury():
    st = at(game(chapter([terrain(700, {"A": 3})])), maeve="700:A")
    cover_hearts(st, "maeve")
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "injury_card" and st["pending"]["options"] == [1, 2, 3]
    st, facts = play(st, {"type": "choose", "option": 0})
    assert face_side(st, 1) == "back" and st["slots"]["1.x"]["d"] == 1
    assert "1.a" not in st["slots"] and "1.b" not in st["slots"]
    assert face_side(st, 2) == "front" and st["slots"]["2.c"]["d"] == 1 and not is_dying(st, "maeve")


@pytest.mark.rule("HER-EX-30", "HER-KARMA-01", "HER-KARMA-06", "HER-KARMA-07", "HER-KARMA-08", "HER-AMB-41")
def test_ex30_karma_evolution():
    st = game(chapter([terrain(700, {"A": 3})]))
    k = st["karma"]
    allk = k["deck"] + k["discard"]
    k["discard"] = [903, 901, 902]
    k["deck"] = [c for c in allk if c not in k["discard"]]
    st2, facts = run_ops(st, "KARMA_EVOLVE 917")
    assert 903 in st2["karma"]["burned"] and 917 in st2["karma"]["deck"]
    assert len(st2["karma"]["deck"]) == 9 and st2["karma"]["discard"] == []
    assert "KarmaEvolved" in types(facts)
    pac = [c for c in st2["karma"]["deck"] if C(st2).card(c)["type"] == "Pacifist"]
    assert pac == [917]
    assert sorted(C(st2).card(c)["type"] for c in st2["karma"]["deck"]) == sorted(
        ["Violence", "Brute", "Pacifist", "Dodge", "Treasure Hunter", "Looter", "Social", "Scar", "Memory"])
