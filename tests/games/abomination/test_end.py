"""ABOM-ENDGAME-*, ABOM-SCORE-*, ABOM-OBJECTIVE-*, worked examples EX-38, EX-40..44."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, Turn, play
from domain.games.abomination import RULES, flow
from domain.games.abomination.content import C
from domain.games.abomination.scoring import final_scores

from .helpers import blank, do, lab


def alive(*kinds):
    return [{"type": k, "side": "skin", "damage": 0, "alive": True} for k in kinds]


def scored(st, reason="captain"):
    st["end"] = reason
    return final_scores(st)


@pytest.mark.rule("ABOM-ENDGAME-03", "ABOM-EX-40")
def test_alive_check_only_at_lab_end():
    st = blank(3, rnd=8)
    st["p"][1]["parts"] = alive("head", "torso", "arm", "arm", "leg", "leg")
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "market.bank"})
    assert st["phase"] == "city"
    lab(st)
    for seat in range(3):
        st, _ = do(st, seat, {"type": "done"})
    assert st["phase"] == "over" and st["end"] == "monster" and st["captain"] == 8


@pytest.mark.rule("ABOM-ENDGAME-05")
def test_no_moves_after_the_end():
    st = blank(2)
    st["phase"] = "over"
    with pytest.raises(IllegalMove) as err:  # the server's answer: the kernel refuses before the game
        play(RULES, st, 0, {"type": "done"}, 1, 1)
    assert err.value.rule_id == "ENGINE-OVER-01"
    with pytest.raises(IllegalMove) as err:  # and the game itself refuses too, should it be asked
        RULES.decide(st, 0, {"type": "done"}, None)
    assert err.value.rule_id == "ABOM-ENDGAME-05"
    assert RULES.legal_moves(st, 0) == [] and RULES.decision(st).seats == ()


@pytest.mark.rule("ABOM-SCORE-02", "ABOM-SCORE-03", "ABOM-SCORE-04", "ABOM-SCORE-05", "ABOM-OBJECTIVE-05",
                  "ABOM-EX-44", "ABOM-AMB-20")
def test_ex44_final_scoring(monkeypatch):
    monkeypatch.setitem(C.dials["reputation"], "icons", [{"at": 3, "icon": "VP", "n": 1}, {"at": 5, "icon": "VP", "n": 3},
                                                        {"at": 9, "icon": "VP", "n": 5}])
    monkeypatch.setitem(C.dials["expertise"], "icons", [{"at": 10, "icon": "VP", "n": 6}, {"at": 25, "icon": "VP", "n": 9}])
    st = blank(2)
    p = st["p"][0]
    p["vp"] = 31
    p["parts"] = alive("head", "arm") + [{"type": "leg", "side": "skin", "damage": 0, "alive": False}]
    st["claimed"] = {"scholar": 0}
    p["reached"] = {"reputation": [1, 6], "expertise": [1, 12], "humanity": [-4, 2]}
    p["attr"] = {"reputation": 2, "expertise": 12, "humanity": -3}
    st["p"][1]["attr"]["humanity"] = -1
    final, _ = scored(st)
    f = final["0"]
    assert (f["alive"], f["objectives"], f["reputation"] + f["expertise"], f["humanity"], f["humanityBonus"]) == \
        (7, 10, 9, -2, 0)
    assert f["total"] == 55


@pytest.mark.rule("ABOM-SCORE-06", "ABOM-SCORE-07", "ABOM-SCORE-08", "ABOM-EX-38", "ABOM-AMB-21")
def test_ex38_humanity_bonus():
    st = blank(3)
    for seat, h in enumerate((4, 4, 1)):
        st["p"][seat]["attr"]["humanity"] = h
    final, _ = scored(st)
    assert [final[str(s)]["humanityBonus"] for s in range(3)] == [5, 5, 0]
    final, _ = scored(st, "monster")
    assert all(final[str(s)]["humanityBonus"] == 0 for s in range(3))
    for seat, h in enumerate((0, -1, 0)):
        st["p"][seat]["attr"]["humanity"] = h
    final, _ = scored(st)
    assert all(final[str(s)]["humanityBonus"] == 0 for s in range(3))


def _four():
    st = blank(4)
    for p in st["p"]:
        p["vp"] = 10
        p["francs"] = 0
    return st


@pytest.mark.rule("ABOM-SCORE-09", "ABOM-SCORE-10", "ABOM-SCORE-11", "ABOM-SCORE-12", "ABOM-EX-41")
def test_ex41_tie_breakers():
    st = _four()  # (a) P3 has more alive parts
    st["p"][1]["parts"], st["p"][1]["vp"] = alive("arm", "arm", "leg"), 34
    st["p"][2]["parts"], st["p"][2]["vp"] = alive("arm", "arm", "leg", "leg"), 32
    final, winners = scored(st)
    assert final["1"]["total"] == final["2"]["total"] == 40 and winners == [2]
    st = _four()  # (b) francs
    for seat, fr in ((1, 6), (3, 5)):
        st["p"][seat]["parts"], st["p"][seat]["vp"], st["p"][seat]["francs"] = alive("arm", "arm", "leg"), 34, fr
    assert scored(st)[1] == [1]
    st = _four()  # (c) turn order: first player
    st["p"][0]["vp"] = st["p"][3]["vp"] = 40
    assert scored(st)[1] == [0]
    st = _four()  # (d) nearer the first player clockwise
    st["p"][2]["vp"] = st["p"][3]["vp"] = 40
    assert scored(st)[1] == [2]
    st["first"] = 3
    assert scored(st)[1] == [3]


@pytest.mark.rule("ABOM-OBJECTIVE-02", "ABOM-OBJECTIVE-03", "ABOM-OBJECTIVE-06", "ABOM-EX-42", "ABOM-AMB-45")
def test_ex42_first_to_27_expertise():
    st = blank(3, rnd=8)
    st["decks"]["morgue"].remove("mor-01")
    st["decks"]["morgue"].insert(0, "mor-01")  # expertise value 2
    st["p"][1]["attr"]["expertise"] = 26
    st["p"][1]["reached"]["expertise"] = [1, 26]
    st["active"] = 1
    st, _ = do(st, 1, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    vp = st["p"][1]["vp"]
    st, facts = do(st, 1, {"type": "cadaver", "card": "mor-01", "option": "expertise"})
    assert st["claimed"] == {"scholar": 1} and st["p"][1]["vp"] == vp
    st["p"][0]["attr"]["expertise"] = 27
    st["active"] = 0
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "market.bank"})
    assert st["claimed"] == {"scholar": 1}
    final, _ = scored(st)
    assert final["1"]["objectives"] == 10 and final["0"]["objectives"] == 0


@pytest.mark.rule("ABOM-OBJECTIVE-01")
def test_removed_objective_never_scores():
    st = blank(3)
    assert "saint" in st["removedObjectives"]
    st["p"][0]["attr"]["humanity"] = 5
    st["p"][0]["hands"]["humanity"] = ["hu-01"]
    st, _ = do(st, 0, {"type": "play", "card": "hu-01"})
    assert st["p"][0]["attr"]["humanity"] == 6 and "saint" not in st["claimed"]


@pytest.mark.rule("ABOM-OBJECTIVE-04", "ABOM-EX-43", "ABOM-AMB-45")
def test_ex43_most_francs_tie_uses_tiebreakers():
    st = blank(3)
    st["objectives"] = ["scholar", "celebrity", "banker", "saint"]
    for seat, fr in enumerate((7, 9, 9)):
        st["p"][seat]["francs"] = fr
    st["p"][1]["parts"] = alive("arm", "arm")
    st["p"][2]["parts"] = alive("arm", "arm")
    turn = Turn(RULES, st)
    flow.check_objectives(turn, only_in_game=True)
    assert "banker" not in turn.state["claimed"]  # end-game objective: not during play
    flow.end_game(turn, "captain")
    assert turn.state["claimed"]["banker"] == 1
    assert turn.state["final"]["1"]["objectives"] == 10 and turn.state["final"]["2"]["objectives"] == 0
    st["p"][2]["parts"] = alive("arm", "arm", "leg")
    turn = Turn(RULES, st)
    flow.end_game(turn, "captain")
    assert turn.state["claimed"]["banker"] == 2


@pytest.mark.rule("ABOM-AMB-45")
def test_lab_phase_objective_checked_at_lab_end():
    st = lab(blank(2))
    st["p"][0]["hands"]["humanity"] = ["hu-04"]
    st["p"][0]["attr"]["reputation"] = 9
    st["p"][0]["hands"]["humanity"] = ["hu-03"]  # lab: humanity +1, icon reputation +1 -> 10
    st, _ = do(st, 0, {"type": "play", "card": "hu-03"})
    assert st["p"][0]["attr"]["reputation"] == 10 and "celebrity" not in st["claimed"]
    st, _ = do(st, 0, {"type": "done"})
    st, _ = do(st, 1, {"type": "done"})
    assert st["claimed"]["celebrity"] == 0


@pytest.mark.rule("ABOM-OBJECTIVE-02", "ABOM-AMB-45")
def test_first_to_meet_within_one_event_claims():
    from .helpers import begin_round
    st = blank(3, first=1, phase="event", rnd=2)
    for p in st["p"]:
        p["attr"]["reputation"] = 9
    st["p"][0]["parts"] = alive("arm")  # would win a tie-break, but seat 1 gains first (turn order)
    st, _ = begin_round(st, "ev-10")  # Charity Ball: each player +1 reputation, from the first player
    assert st["claimed"]["celebrity"] == 1


@pytest.mark.rule("ABOM-OBJECTIVE-02", "ABOM-AMB-45")
def test_lab_objective_reached_then_lost_is_still_claimed_first():
    """"primero en alcanzar": reaching 6 Humanity in the Lab phase claims the objective at the phase's
    end even when the value dropped below 6 again before the end (issue 16.3)."""
    st = lab(blank(2))
    st["objectives"] = ["saint", "celebrity", "banker", "vivisector"]
    p = st["p"][0]
    p["character"] = "ch-03"  # ability: +1 Expertise, -1 Humanity
    p["attr"]["humanity"] = 4
    p["hands"]["humanity"] = ["hu-04"]  # lab: +2 Humanity
    st, facts = do(st, 0, {"type": "play", "card": "hu-04"})
    assert st["p"][0]["attr"]["humanity"] == 6 and "saint" not in st["claimed"]
    reached = [f for f in facts if f["type"] == "ObjectiveReached"]
    assert [(f["seat"], f["objective"]) for f in reached] == [(0, "saint")]
    st, _ = do(st, 0, {"type": "ability"})
    assert st["p"][0]["attr"]["humanity"] == 5  # below the mark again before the phase ends
    st, _ = do(st, 0, {"type": "done"})
    st, _ = do(st, 1, {"type": "done"})
    assert st["claimed"]["saint"] == 0
