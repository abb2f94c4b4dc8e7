"""ABOM-LAB-*, ABOM-BUILD-*, ABOM-SWITCH-*, ABOM-PRESERVE-*, worked examples EX-15..27."""

from __future__ import annotations

import pytest

from domain.games.abomination import RULES

from .helpers import blank, do, lab, mats, rejects, types

# FakeRng die values -> faces. grey: 1,2 DAMAGE 3 ALIVE 4 SWITCH_EXTRA 5,6 BLANK; blue: 1 DAMAGE 2,3 ALIVE.
D, A, X, B = 1, 3, 4, 5


def part(kind, side="muscle", damage=0, alive=False):
    return {"type": kind, "side": side, "damage": damage, "alive": alive}


def labstate(n=3):
    return lab(blank(n))


def build(st, seat, part_, side, pay, target=None):
    move = {"type": "build", "part": part_, "side": side, "pay": pay}
    if target is not None:
        move["target"] = target
    return move


ARM_PAY = [{"as": "muscle", "use": "muscle", "stage": "I"}, {"as": "muscle", "use": "animal", "stage": "III"},
           {"as": "blood", "use": "blood", "stage": "II"}]


@pytest.mark.rule("ABOM-BUILD-04", "ABOM-BUILD-05", "ABOM-BUILD-06", "ABOM-BUILD-07", "ABOM-BUILD-09",
                  "ABOM-BUILD-11", "ABOM-BUILD-12", "ABOM-EX-15", "ABOM-SCORE-01", "ABOM-BUILD-02")
def test_ex15_build_vp_with_animal():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    mats(p, I={"muscle": 1}, II={"blood": 1}, III={"animal": 1})
    st, facts = do(st, 0, build(st, 0, "arm", "muscle", ARM_PAY))
    p = st["p"][0]
    assert p["vp"] == 1 and p["attr"]["expertise"] == 3
    assert p["parts"] == [part("arm")]
    assert all(v == 0 for s in p["decay"].values() for v in s.values())
    assert types(facts)[:3] == ["MaterialsSpent", "PartBuilt", "DialMoved"] and types(facts)[-1] == "Vp"


@pytest.mark.rule("ABOM-BUILD-08", "ABOM-EX-16")
def test_ex16_animal_cannot_be_blood_at_iii():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    mats(p, I={"muscle": 2}, III={"animal": 1})
    pay = [{"as": "muscle", "use": "muscle", "stage": "I"}, {"as": "muscle", "use": "muscle", "stage": "I"},
           {"as": "blood", "use": "animal", "stage": "III"}]
    rejects(st, 0, build(st, 0, "arm", "muscle", pay), "ABOM-BUILD-08")
    mats(p, I={"muscle": 2}, II={"animal": 1})
    pay[2]["stage"] = "II"
    st, _ = do(st, 0, build(st, 0, "arm", "muscle", pay))
    assert st["p"][0]["vp"] == 2


@pytest.mark.rule("ABOM-BUILD-13", "ABOM-EX-17", "ABOM-LAB-03", "ABOM-AMB-10", "ABOM-BUILD-14", "ABOM-BUILD-10")
def test_ex17_expertise_sequencing_and_skin():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 1
    mats(p, I={"muscle": 3, "blood": 2})
    pay = [{"as": "muscle", "use": "muscle", "stage": "I"}] * 2 + [{"as": "blood", "use": "blood", "stage": "I"}]
    rejects(st, 0, build(st, 0, "arm", "muscle", pay), "ABOM-BUILD-04")
    p["attr"]["expertise"] = 2
    st, _ = do(st, 0, build(st, 0, "arm", "muscle", pay))
    assert st["p"][0]["attr"]["expertise"] == 3
    st["p"][0]["parts"][0]["damage"] = 1
    skin = [{"as": "muscle", "use": "muscle", "stage": "I"}, {"as": "blood", "use": "blood", "stage": "I"}]
    st, facts = do(st, 0, build(st, 0, "arm", "skin", skin, target=0))
    p = st["p"][0]
    assert p["attr"]["expertise"] == 4 and p["parts"] == [part("arm", "skin", damage=1)]
    assert p["vp"] == 4 + 3
    assert types(facts)[:3] == ["MaterialsSpent", "PartBuilt", "DialMoved"] and "Vp" in types(facts)


@pytest.mark.rule("ABOM-BUILD-01", "ABOM-EX-18", "ABOM-BUILD-03")
def test_part_limits_and_skin_needs_muscle():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 5
    p["parts"] = [part("leg", "skin"), part("leg")]
    mats(p, I={"muscle": 4, "organ": 2}, bone=2)
    leg_pay = [{"as": "bone", "use": "bone", "stage": None}] + [{"as": "muscle", "use": "muscle", "stage": "I"}] * 2
    rejects(st, 0, build(st, 0, "leg", "muscle", leg_pay), "ABOM-BUILD-01")
    skin = [{"as": "muscle", "use": "muscle", "stage": "I"}, {"as": "organ", "use": "organ", "stage": "I"}]
    rejects(st, 0, build(st, 0, "leg", "skin", skin, target=0), "ABOM-BUILD-03")  # already skin
    rejects(st, 0, build(st, 0, "head", "skin", skin), "ABOM-BUILD-03")  # no muscle head
    # EX-18 second half: the muscle leg is knocked off by damage, then a leg can be started
    p["parts"][1]["damage"] = 1
    p["parts"][0]["damage"] = 1
    p["jars"] = [True]
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[D, B])
    st, _ = do(st, 0, {"type": "damage", "part": 1})
    assert [x["type"] for x in st["p"][0]["parts"]] == ["leg"]
    st["p"][0]["labStep"] = 0  # a later Lab phase
    st["p"][0]["thrown"] = False
    st, _ = do(st, 0, build(st, 0, "leg", "muscle", leg_pay))
    assert len(st["p"][0]["parts"]) == 2


@pytest.mark.rule("ABOM-BUILD-05", "ABOM-BUILD-07", "ABOM-AMB-07")
def test_exact_payment_and_animal_for_bone_and_organ():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    mats(p, I={"organ": 1, "animal": 2})
    pay = [{"as": "bone", "use": "animal", "stage": "I"}, {"as": "bone", "use": "animal", "stage": "I"},
           {"as": "organ", "use": "organ", "stage": "I"}]
    rejects(st, 0, build(st, 0, "torso", "muscle", pay[:2]), "ABOM-BUILD-05")  # incomplete
    rejects(st, 0, build(st, 0, "torso", "muscle", pay + pay[:1]), "ABOM-BUILD-05")  # too much
    mats(p, I={"organ": 1, "animal": 1})
    rejects(st, 0, build(st, 0, "torso", "muscle", pay), "ABOM-BUILD-05")  # cannot pay
    mats(p, I={"organ": 1, "animal": 2})
    st, _ = do(st, 0, build(st, 0, "torso", "muscle", pay))
    assert st["p"][0]["vp"] == 4 - 1


@pytest.mark.rule("ABOM-BUILD-12", "ABOM-AMB-08", "ABOM-AMB-09", "ABOM-AMB-06")
def test_animal_penalty_once_and_never_negative():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 3
    mats(p, IV={"animal": 2}, II={"blood": 1})
    pay = [{"as": "bone", "use": "bone", "stage": None}, {"as": "organ", "use": "animal", "stage": "IV"},
           {"as": "blood", "use": "blood", "stage": "II"}]
    p["bone"] = 1
    st2, _ = do(st, 0, build(st, 0, "head", "muscle", pay))
    assert st2["p"][0]["vp"] == 2 - 2  # IV value 2, penalty 2, floored at 0
    # leg muscle paid with bone + 2 animal: penalty 1 once, not per cube
    mats(p, I={"animal": 2}, bone=1)
    p["attr"]["expertise"] = 1
    pay = [{"as": "bone", "use": "bone", "stage": None}] + [{"as": "muscle", "use": "animal", "stage": "I"}] * 2
    st2, _ = do(st, 0, build(st, 0, "leg", "muscle", pay))
    assert st2["p"][0]["vp"] == 3 - 1


@pytest.mark.rule("ABOM-SWITCH-02", "ABOM-SWITCH-03", "ABOM-SWITCH-05", "ABOM-SWITCH-06", "ABOM-SWITCH-07",
                  "ABOM-SWITCH-09", "ABOM-SWITCH-12", "ABOM-EX-19", "ABOM-AMB-13")
def test_ex19_damage_spread_and_degrade():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("arm", "skin", alive=True), part("leg"), part("torso", "skin", damage=1)]
    p["jars"] = [True, True]
    st, facts = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[D, D, D, A])
    assert len(next(f for f in facts if f["type"] == "SwitchThrown")["dice"]) == 4
    assert st["p"][0]["jars"] == [False, False]
    rejects(st, 0, {"type": "damage", "part": 2}, "ABOM-SWITCH-06")
    st, _ = do(st, 0, {"type": "damage", "part": 1})
    assert RULES.legal_moves(st, 0) == [{"type": "damage", "part": 0}]
    st, _ = do(st, 0, {"type": "damage", "part": 0})
    st, facts = do(st, 0, {"type": "damage", "part": 2})
    assert "AliveLost" in types(facts)
    assert st["p"][0]["parts"] == [part("arm", "skin", 1, True), part("leg", damage=1), part("torso")]
    assert st["p"][0]["roll"] is None


@pytest.mark.rule("ABOM-SWITCH-10", "ABOM-SWITCH-13", "ABOM-SWITCH-14", "ABOM-EX-20")
def test_ex20_alive_part_degrades_then_revives():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("arm", "skin", alive=True), part("leg"), part("torso", "skin", damage=1)]
    p["jars"] = [True, True]
    st, _ = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[D, D, D, A])
    for i in (1, 0, 0):
        st, _ = do(st, 0, {"type": "damage", "part": i})
    assert st["p"][0]["parts"][0] == part("arm", "skin")
    rejects(st, 0, {"type": "alive", "part": 1}, "ABOM-SWITCH-12")
    assert {m["part"] for m in RULES.legal_moves(st, 0)} == {0, 2}
    st, _ = do(st, 0, {"type": "alive", "part": 0})
    assert st["p"][0]["parts"] == [part("arm", "skin", 0, True), part("leg", damage=1),
                                   part("torso", "skin", damage=1)]


@pytest.mark.rule("ABOM-SWITCH-08", "ABOM-EX-21")
def test_ex21_muscle_part_discarded():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("head", "skin", damage=1), part("leg", damage=1)]
    p["jars"] = [True]
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[D, B])
    st, facts = do(st, 0, {"type": "damage", "part": 1})
    assert st["p"][0]["parts"] == [part("head", "skin", damage=1)]


@pytest.mark.rule("ABOM-SWITCH-01", "ABOM-SWITCH-02", "ABOM-LAB-04", "ABOM-EX-22")
def test_ex22_switch_preconditions():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("leg")]
    p["jars"] = [True, True, True, True]
    rejects(st, 0, {"type": "switch", "jars": 1, "blue": 0}, "ABOM-SWITCH-01")
    p["parts"] = [part("leg", "skin")]
    p["jars"] = [False]
    rejects(st, 0, {"type": "switch", "jars": 1, "blue": 0}, "ABOM-SWITCH-02")
    p["jars"] = [True] * 4
    rejects(st, 0, {"type": "switch", "jars": 4, "blue": 0}, "ABOM-SWITCH-02")
    rejects(st, 0, {"type": "switch", "jars": 0, "blue": 0}, "ABOM-SWITCH-02")
    st, facts = do(st, 0, {"type": "switch", "jars": 3, "blue": 0}, dice=[B] * 6)
    assert len(next(f for f in facts if f["type"] == "SwitchThrown")["dice"]) == 6
    rejects(st, 0, {"type": "switch", "jars": 1, "blue": 0}, "ABOM-LAB-04")


@pytest.mark.rule("ABOM-SWITCH-11", "ABOM-EX-23", "ABOM-AMB-02")
def test_ex23_switch_extra_at_most_once():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("leg", "skin")]
    p["jars"] = [True, True]
    st2, _ = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[X, X, X, B])
    assert st2["p"][0]["attr"]["humanity"] == -1
    st2, _ = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[B, B, B, B])
    assert st2["p"][0]["attr"]["humanity"] == 0


@pytest.mark.rule("ABOM-ATTR-10", "ABOM-ATTR-11", "ABOM-EX-24", "ABOM-AMB-49")
def test_ex24_blue_dice():
    from domain.engine import Turn
    from domain.games.abomination.effects import move_dial
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("leg", "skin")]
    p["jars"] = [True] * 3
    turn = Turn(RULES, st)
    move_dial(turn, 0, "expertise", 18)  # 1 -> 19 passes the BLUE_DIE at 10
    st = turn.state
    assert st["p"][0]["blue"] == 1
    rejects(st, 0, {"type": "switch", "jars": 3, "blue": 2}, "ABOM-ATTR-10")
    st2, facts = do(st, 0, {"type": "switch", "jars": 3, "blue": 1}, dice=[B] * 6)
    colors = [d["color"] for d in next(f for f in facts if f["type"] == "SwitchThrown")["dice"]]
    assert colors == ["blue"] + ["grey"] * 5
    turn = Turn(RULES, st)
    move_dial(turn, 0, "expertise", 1)  # reaches 20
    st2, facts = do(turn.state, 0, {"type": "switch", "jars": 3, "blue": 2}, dice=[B] * 6)
    assert [d["color"] for d in next(f for f in facts if f["type"] == "SwitchThrown")["dice"]].count("blue") == 2
    turn = Turn(RULES, turn.state)
    move_dial(turn, 0, "expertise", -1)  # back below 20 loses the second upgrade (AMB-49)
    rejects(turn.state, 0, {"type": "switch", "jars": 3, "blue": 2}, "ABOM-ATTR-10")
    st = labstate()
    st["p"][0]["parts"] = [part("leg", "skin")]
    st["p"][0]["jars"] = [True]
    st["p"][0]["attr"]["expertise"] = 9
    rejects(st, 0, {"type": "switch", "jars": 1, "blue": 1}, "ABOM-ATTR-10")


@pytest.mark.rule("ABOM-SWITCH-04", "ABOM-CARDS-07", "ABOM-CARDS-08", "ABOM-EX-25")
def test_ex25_research_mitigation():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("leg", "skin")]
    p["jars"] = [True, True]
    p["hands"]["research"] = ["re-01", "re-03"]
    st, _ = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[D, D, B, B])
    assert st["p"][0]["roll"]["stage"] == "mitigate"
    st, _ = do(st, 0, {"type": "mitigate", "card": "re-01", "die": 0}, dice=[5])
    st, _ = do(st, 0, {"type": "mitigate", "card": "re-03", "die": 1}, dice=[6])
    p = st["p"][0]
    assert st["decks"]["research"][-2:] == ["re-01", "re-03"]
    assert p["jars"] == [False, False] and p["ice"] == []  # no normal effect
    assert p["roll"] is None and p["parts"] == [part("leg", "skin")]


@pytest.mark.rule("ABOM-LAB-01", "ABOM-LAB-02", "ABOM-LAB-06", "ABOM-EX-26", "ABOM-AMB-48")
def test_ex26_lab_order_and_simultaneity():
    st = labstate()
    assert RULES.decision(st).mode == "simultaneous" and RULES.decision(st).seats == (0, 1, 2)
    p0, p1 = st["p"][0], st["p"][1]
    p0["parts"] = [part("leg", "skin")]
    p0["jars"] = [True]
    mats(p0, I={"muscle": 2}, bone=1)
    mats(p1, I={"muscle": 2}, bone=1)
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[B, B])
    leg = [{"as": "bone", "use": "bone", "stage": None}] + [{"as": "muscle", "use": "muscle", "stage": "I"}] * 2
    rejects(st, 0, {"type": "build", "part": "leg", "side": "muscle", "pay": leg}, "ABOM-LAB-02")
    st, _ = do(st, 1, {"type": "build", "part": "leg", "side": "muscle", "pay": leg})
    assert len(st["p"][1]["parts"]) == 1
    st, _ = do(st, 0, {"type": "done"})
    assert RULES.decision(st).seats == (1, 2)
    assert 0 not in RULES.decision(st).seats  # ABOM-LAB-06: done closes the phase for that seat
    rejects(st, 0, {"type": "preserve", "material": "muscle", "stage": "I", "count": 1}, "ENGINE-TURN-01")
    st = labstate()
    p0 = st["p"][0]
    p0["parts"] = [part("leg", "skin")]
    p0["jars"] = [True]
    mats(p0, I={"muscle": 2})
    st, _ = do(st, 0, {"type": "preserve", "material": "muscle", "stage": "I", "count": 1})
    rejects(st, 0, {"type": "switch", "jars": 1, "blue": 0}, "ABOM-LAB-02")
    assert st["p"][0]["jars"] == [True]


@pytest.mark.rule("ABOM-PRESERVE-01", "ABOM-PRESERVE-02", "ABOM-PRESERVE-03", "ABOM-LAB-05", "ABOM-EX-27")
def test_ex27_preservation():
    st = labstate()
    p = st["p"][0]
    p["preserved"] = {"organ": 5, "muscle": 3}
    mats(p, III={"organ": 2, "blood": 1})
    rejects(st, 0, {"type": "preserve", "material": "organ", "stage": "III", "count": 2}, "ABOM-PRESERVE-03")
    rejects(st, 0, {"type": "preserve", "material": "blood", "stage": "III", "count": 1}, "ABOM-PRESERVE-01")
    st, _ = do(st, 0, {"type": "preserve", "material": "organ", "stage": "III", "count": 1})
    assert sum(st["p"][0]["preserved"].values()) == 9 and st["p"][0]["decay"]["III"]["organ"] == 1
    st = labstate()
    mats(st["p"][0], I={"muscle": 1}, IV={"organ": 1})
    st, _ = do(st, 0, {"type": "preserve", "material": "muscle", "stage": "I", "count": 1})
    st, _ = do(st, 0, {"type": "preserve", "material": "organ", "stage": "IV", "count": 1})
    assert st["p"][0]["preserved"] == {"organ": 1, "muscle": 1}


@pytest.mark.rule("ABOM-LAB-07", "ABOM-ENDGAME-02", "ABOM-EX-39", "ABOM-SCORE-08", "ABOM-SCORE-09")
def test_alive_monster_ends_game_after_lab_without_reset():
    st = labstate()
    st["round"] = st["captain"] = 7
    p = st["p"][1]
    p["parts"] = [part(t, "skin", alive=True) for t in ("head", "torso", "arm", "arm", "leg", "leg")]
    mats(p, I={"muscle": 2})
    p["attr"]["humanity"] = 0
    st["p"][0]["attr"]["humanity"] = 5
    st["p"][0]["vp"] = 80
    for seat in range(3):
        st, facts = do(st, seat, {"type": "done"})
    assert st["phase"] == "over" and st["end"] == "monster"
    assert "Decayed" not in types(facts) and st["captain"] == 7 and st["p"][1]["decay"]["I"]["muscle"] == 2
    assert st["final"]["0"]["humanityBonus"] == 0
    assert RULES.winners(st) == [0]
