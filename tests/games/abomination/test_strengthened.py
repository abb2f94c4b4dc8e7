"""Tests added after a mutation check of the suite: each pins a rule that a single-line change in the
engine could break while every older test still passed."""

from __future__ import annotations

import pytest

from domain.engine import Turn
from domain.games.abomination import RULES
from domain.games.abomination.content import C
from domain.games.abomination.effects import move_dial, run
from domain.games.abomination.scoring import final_scores

from .helpers import blank, do, game, lab, mats, rejects, types
from .test_lab import A, B, X, labstate, part
from .test_reset import end_lab


@pytest.mark.rule("ABOM-SETUP-26")
def test_first_player_is_drawn_at_random_in_setup():
    firsts = set()
    for seed in range(12):
        _, facts = game(3, seed)
        firsts.add(next(f for f in facts if f["type"] == "TableDealt")["first"])
    assert firsts == {0, 1, 2}


@pytest.mark.rule("ABOM-BUMP-06", "ABOM-SETUP-15")
def test_bump_cost_comes_from_the_track_of_the_player_count():
    assert len({tuple(C.bump[n]) for n in (2, 3, 4)}) == 3  # one distinct track per player count
    for n in (2, 3, 4):
        for slot, cost in enumerate(C.bump[n]):
            st = blank(n)
            st["p"][0]["francs"] = 9
            st["bump"] = [{"seat": 1, "kind": "assistant"}] * slot + [None] * (len(C.bump[n]) - slot)
            st["spaces"]["docks.crates"] = {"seat": 1, "kind": "assistant"}
            st["p"][1]["card"]["assistant"] = 1
            f1 = st["p"][1]["francs"]
            st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "docks.crates"})
            assert st["bump"][slot] == {"seat": 1, "kind": "assistant"}
            assert st["p"][1]["francs"] == f1 + cost, (n, slot)


@pytest.mark.rule("ABOM-SWITCH-11", "ABOM-EX-23")
def test_a_single_switch_extra_result_gives_the_icon():
    st = labstate()
    st["p"][0]["parts"] = [part("leg", "skin")]
    st["p"][0]["jars"] = [True]
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[X, B])
    assert st["p"][0]["attr"]["humanity"] == -1


@pytest.mark.rule("ABOM-SWITCH-14", "ABOM-SWITCH-12")
def test_a_part_carries_at_most_one_alive_marker():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("head", "skin", alive=True), part("arm", "skin")]
    p["jars"] = [True]
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[A, A])
    assert {m["part"] for m in RULES.legal_moves(st, 0)} == {1}
    rejects(st, 0, {"type": "alive", "part": 0}, "ABOM-SWITCH-12")
    st, facts = do(st, 0, {"type": "alive", "part": 1})
    assert "AliveLost" in types(facts) and st["p"][0]["roll"] is None
    assert [x["alive"] for x in st["p"][0]["parts"]] == [True, True]


@pytest.mark.rule("ABOM-RESET-02", "ABOM-SETUP-07")
@pytest.mark.parametrize("n", [2, 4])
def test_hospital_refilled_to_the_player_count(n):
    st = lab(blank(n))
    st["displays"]["hospital"] = []
    top = st["decks"]["hospital"][:n]
    st, _ = end_lab(st)
    assert st["displays"]["hospital"] == top and len(top) == n


@pytest.mark.rule("ABOM-CARDS-07")
def test_mitigation_gives_only_the_mitigation():
    st = labstate()
    p = st["p"][0]
    p["parts"] = [part("leg", "skin")]
    p["jars"] = [True, False]
    p["hands"]["research"] = ["re-01"]
    before = {k: p[k] for k in ("francs", "attr", "jars", "ice", "bone", "decay", "preserved", "vp")}
    before = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v) for k, v in before.items()}
    st, _ = do(st, 0, {"type": "switch", "jars": 1, "blue": 0}, dice=[B, B])
    st, _ = do(st, 0, {"type": "mitigate", "card": "re-01", "die": 0}, dice=[5])
    p = st["p"][0]
    before["jars"] = [False, False]
    assert {k: p[k] for k in before} == before
    assert p["hands"]["research"] == [] and st["decks"]["research"][-1] == "re-01"


@pytest.mark.rule("ABOM-ATTR-03", "ABOM-ATTR-02")
def test_humanity_loss_turns_the_dial_down():
    st = blank(2)
    turn = Turn(RULES, st)
    move_dial(turn, 0, "humanity", -1)
    assert turn.state["p"][0]["attr"]["humanity"] == -1
    move_dial(turn, 0, "humanity", 2)
    assert turn.state["p"][0]["attr"]["humanity"] == 1
    st = blank(2)  # a content effect carrying HUMANITY_LOSS (humanity n < 0) lowers Humanity
    turn = Turn(RULES, st)
    run(turn, [[0, {"op": "attribute", "attr": "humanity", "n": -2}]])
    assert turn.state["p"][0]["attr"]["humanity"] == -2


@pytest.mark.rule("ABOM-SCORE-10", "ABOM-SCORE-11")
def test_alive_parts_break_ties_before_francs():
    st = blank(3)
    for p in st["p"]:
        p["vp"], p["francs"] = 10, 0
    st["end"] = "captain"
    alive = {"type": "arm", "side": "skin", "damage": 0, "alive": True}
    st["p"][1]["parts"], st["p"][1]["vp"], st["p"][1]["francs"] = [dict(alive)], 8, 9
    st["p"][2]["parts"], st["p"][2]["vp"], st["p"][2]["francs"] = [dict(alive), dict(alive)], 6, 1
    final, winners = final_scores(st)
    assert final["1"]["total"] == final["2"]["total"] and winners == [2]


@pytest.mark.rule("ABOM-SCORE-05", "ABOM-AMB-20")
def test_negative_humanity_scores_the_lowest_vp_reached():
    st = blank(2)
    st["end"] = "captain"
    p = st["p"][0]
    p["attr"]["humanity"] = -4
    p["reached"]["humanity"] = [-6, 0]  # passed VP(-2) at -3 and VP(-4) at -6
    assert final_scores(st)[0]["0"]["humanity"] == -4
    p["attr"]["humanity"] = 4
    p["reached"]["humanity"] = [-6, 7]  # positive at the end: highest positive reached, VP(4) at 6
    assert final_scores(st)[0]["0"]["humanity"] == 4


@pytest.mark.rule("ABOM-SETUP-07", "ABOM-RESET-02")
def test_only_the_top_of_the_hospital_pile_is_public_in_the_facts():
    from domain.engine import visible_fact
    state, facts = game(4, 5)
    dealt = next(f for f in facts if f["type"] == "TableDealt")
    under = dealt["displays"]["hospital"][1:]
    assert len(under) == 3
    for viewer in (0, 1, "spectator"):
        seen = str([visible_fact(f, viewer) for f in facts])
        assert all(card not in seen for card in under)
    assert visible_fact(dealt, 2)["displays"]["hospital"] == dealt["displays"]["hospital"][:1]
    st = lab(blank(4))
    st, facts = end_lab(st)
    refill = next(f for f in facts if f["type"] == "DisplayRefilled" and f["display"] == "hospital")
    assert all(c not in str([visible_fact(f, 1) for f in facts]) for c in refill["cards"][1:])
    assert visible_fact(refill, 1)["top"] == refill["cards"][:1]


@pytest.mark.rule("ABOM-AMB-31")
def test_at_most_four_leyden_jars_per_player():
    st = blank(3)
    st["p"][0]["francs"] = 9
    st["p"][0]["jars"] = [False] * 4
    st, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "foundry.counter"})
    assert st["p"][0]["jars"] == [False] * 4 and "JarGained" not in types(facts)
    st = blank(3)
    st["p"][0]["francs"] = 9
    st["p"][0]["jars"] = [False] * 3
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "foundry.counter"})
    assert st["p"][0]["jars"] == [False] * 4


@pytest.mark.rule("ABOM-AMB-45")
def test_an_end_game_most_objective_needs_more_than_zero():
    st = blank(3)
    st["objectives"] = ["hoarder", "banker", "scholar", "celebrity"]
    for p in st["p"]:
        p["francs"] = 2
    st["p"][1]["francs"] = 3
    turn = Turn(RULES, st)
    from domain.games.abomination import flow
    flow.end_game(turn, "captain")
    assert turn.state["claimed"] == {"banker": 1}  # nobody preserved anything: "most preserved" unclaimed


@pytest.mark.rule("ABOM-AMB-09", "ABOM-BUILD-12")
def test_build_vp_is_never_negative():
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 3
    p["parts"] = [part("leg")]
    mats(p, IV={"muscle": 1, "animal": 1})
    assert C.anatomy["leg"]["skin"]["vpByStage"]["IV"] - C.anatomy["leg"]["skin"]["animalPenalty"] < 0
    pay = [{"as": "muscle", "use": "muscle", "stage": "IV"}, {"as": "organ", "use": "animal", "stage": "IV"}]
    st, facts = do(st, 0, {"type": "build", "part": "leg", "side": "skin", "pay": pay, "target": 0})
    assert st["p"][0]["vp"] == 0 and st["p"][0]["parts"] == [part("leg", "skin")]


@pytest.mark.rule("ABOM-AMB-06")
def test_a_build_paid_only_with_bone(monkeypatch):
    torso = dict(C.anatomy["torso"])
    torso["muscle"] = dict(torso["muscle"], materials={"bone": 2}, vpIfNoStagedMaterial=7)
    monkeypatch.setitem(C.anatomy, "torso", torso)
    st = labstate()
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    p["bone"] = 2
    pay = [{"as": "bone", "use": "bone", "stage": None}] * 2
    st2, _ = do(st, 0, {"type": "build", "part": "torso", "side": "muscle", "pay": pay})
    assert st2["p"][0]["vp"] == 7 and st2["p"][0]["bone"] == 0
    torso["muscle"] = {k: v for k, v in torso["muscle"].items() if k != "vpIfNoStagedMaterial"}
    st2, _ = do(st, 0, {"type": "build", "part": "torso", "side": "muscle", "pay": pay})
    assert st2["p"][0]["vp"] == torso["muscle"]["vpByStage"]["I"]


@pytest.mark.rule("ABOM-AMB-39")
def test_a_card_taken_from_a_display_is_not_replaced_until_reset():
    st = blank(3)
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "academy.hall"})
    first, second = st["displays"]["academy"]
    top = st["decks"]["research"][0]
    st, _ = do(st, 0, {"type": "draw", "card": first})
    assert st["displays"]["academy"] == [second] and st["decks"]["research"][0] == top
    lab(st)
    st, _ = end_lab(st)
    assert len(st["displays"]["academy"]) == 2 and second not in st["displays"]["academy"]
