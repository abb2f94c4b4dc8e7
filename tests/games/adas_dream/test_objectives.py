"""Objectives (2.20), discs (2.10), and remaining Partner / turn rules; Isobel's Objective (ADA-EX-11)."""

import pytest

from domain.games.adas_dream import content as C
from domain.games.adas_dream.scoring import final_scores
from tests.games.adas_dream.helpers import G, die


def meeting_turn(g, seat, room, disc_gear, claim_gear=None):
    g.p(seat)["money"] = 5
    g.actions_turn(seat, "yellow", 3)
    g.pick({"room": room, "pay": "money", "slot": room})
    g.pick(disc_gear)
    if claim_gear is not None:
        g.pick(claim_gear)
    while g.top() and g.top()["k"] == "choice":
        top = g.top()
        g.pick(None if top["optional"] else g.opts()[0])
    g.skip_to_end()


def four_players():
    g = G(n=4)
    g.s["objectives"]["meeting"] = "obj_meeting_A1"
    assert C.OBJECTIVES["obj_meeting_A1"]["condition"] == {"meetingRoomsWithDisc": 3}
    for seat in (0, 1, 2):
        g.s["rooms"][0][seat] = [seat]
        g.s["rooms"][1][seat] = [seat]
    g.s["rooms"][0] = [[0], [1], [2]]
    g.s["rooms"][1] = [[0], [1], [2]]
    return g


@pytest.mark.rule("ADA-EX-11", "ADA-OBJECTIVE-01", "ADA-OBJECTIVE-02", "ADA-OBJECTIVE-03", "ADA-OBJECTIVE-04",
                  "ADA-OBJECTIVE-05", "ADA-OBJECTIVE-06", "ADA-DISC-01", "ADA-AMB-40", "ADA-AMB-41", "ADA-AMB-42")
def test_ex11_isobels_meeting_objective():
    g = four_players()
    assert set(g.s["objectives"]) == set(C.AREAS)
    g.set_flow(1)
    meeting_turn(g, 1, 2, 0, claim_gear=1)
    assert g.s["obj"]["meeting"][0]["seat"] == 1 and g.s["obj"]["meeting"][0]["space"] == "high"
    assert g.p(1)["covered"][0] is False and g.p(1)["covered"][1] is False
    assert final_scores(g.s)[1]["objectives"] == 7
    meeting_turn(g, 2, 3, 0, claim_gear=1)                              # same round: high
    assert [c["space"] for c in g.s["obj"]["meeting"]] == ["high", "high"]
    g.actions_turn(3, "purple", 2)
    g.pick([0, "row1"])
    g.pick("book")
    g.skip_to_end()
    assert g.active == 0 and g.s["round"] == 2
    meeting_turn(g, 0, 2, 0, claim_gear=1)                              # next round: low
    assert g.s["obj"]["meeting"][-1] == {"seat": 0, "space": "low", "round": 2}
    assert final_scores(g.s)[0]["objectives"] == C.OBJECTIVES["obj_meeting_A1"]["prestige_low"]
    assert sum(1 for c in g.s["obj"]["meeting"] if c["seat"] == 1) == 1  # never twice


@pytest.mark.rule("ADA-OBJECTIVE-07", "ADA-OBJECTIVE-08")
def test_publish_discs_count_and_claims_are_permanent():
    g = G()
    g.s["objectives"]["institution"] = "obj_institution_A1"               # strictly most Lectures in 2 Institutions
    g.s["lect"]["inst_ironworks"][0] = [0]
    g.s["lect"]["inst_lamps"][0] = [0]
    g.s["lect"]["inst_lamps"][1] = [1]
    g.p(0)["book"] = 1
    g.actions_turn(0, "purple", 3)
    g.pick([0, "row1"])
    g.pick("book")
    g.move(type="publish")
    g.pick(["lect", "inst_lamps", 2])
    g.pick(0)
    assert g.top()["kind"] == "disc_src"                                 # the claim follows at once
    g.pick(1)
    assert g.s["obj"]["institution"][0]["seat"] == 0
    g.pick(None)
    g.s["lect"]["inst_lamps"][0] = []                                    # condition no longer true
    assert final_scores(g.s)[0]["objectives"] == C.OBJECTIVES["obj_institution_A1"]["prestige_high"]


def no_disc_left_meeting():
    g = G()
    g.p(0)["covered"] = [False] * 12
    g.s["univ"]["bath"] = [0]
    g.p(0)["money"] = 5
    g.actions_turn(0, "yellow", 2)
    hand = len(g.p(0)["hand"])
    g.pick({"room": 0, "pay": "money", "slot": 0})
    return g, hand


@pytest.mark.rule("ADA-DISC-04")
def test_no_disc_left_may_move_a_placed_disc():
    """Rulebook: "you have no discs remaining you may choose to move one disc" (RULINGS R-13)."""
    g, _ = no_disc_left_meeting()
    assert g.top()["kind"] == "disc_move" and g.top()["optional"]          # even with one option it asks
    assert g.legal() == [{"type": "choose", "option": ["univ", "bath"]}, {"type": "choose", "option": None}]
    g.pick(["univ", "bath"])
    assert g.s["univ"]["bath"] == [] and g.s["rooms"][0][0] == [0]       # the placed disc moved


@pytest.mark.rule("ADA-DISC-04")
def test_no_disc_left_may_decline_the_move():
    g, hand = no_disc_left_meeting()
    g.pick(None)
    assert g.s["univ"]["bath"] == [0] and g.s["rooms"][0][0] == []       # nothing moved, the room space stays free
    assert len(g.p(0)["hand"]) > hand and g.p(0)["money"] == 0           # the rest of the action resolved


@pytest.mark.rule("ADA-DISC-05", "ADA-OBJECTIVE-02")
def test_a_declined_objective_claim_is_offered_again_on_a_later_turn():
    g = G()
    g.s["objectives"]["meeting"] = "obj_meeting_A1"
    g.p(0)["covered"] = [False] * 12
    g.s["rooms"][0][0] = [0]
    g.s["rooms"][1][0] = [0]
    g.s["univ"]["bath"] = [0]
    g.s["univ"]["york"] = [0]
    g.p(0)["money"] = 5
    g.actions_turn(0, "yellow", 2)
    g.pick({"room": 2, "pay": "money", "slot": 2})
    g.pick(["univ", "bath"])                                             # the Meeting disc moves from Bath
    assert g.top()["kind"] == "disc_move" and g.opts() == [["univ", "york"]]
    g.pick(None)                                                         # declined: no claim now
    assert g.s["obj"]["meeting"] == [] and g.s["univ"]["york"] == [0]
    while g.top() and g.top()["k"] == "choice":
        assert g.top()["kind"] != "disc_move"                            # not asked again this turn
        g.pick(None if g.top()["optional"] else g.opts()[0])
    g.skip_to_end()
    assert g.active == 1
    g.set_flow(0)                                                        # seat 1 has played; seat 0's turn again
    g.s["workshop"][0] = [die("blue", 6), die("blue", 6)]
    g.s["workshop"][1] = [die("purple", 1)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)        # seat 0's next turn: first step
    assert g.active == 0 and [i for i in g.fl["agenda"] if i.get("kind") == "disc_move"]


@pytest.mark.rule("ADA-DISC-05")
def test_objective_claim_may_not_move_a_helping_disc():
    g = G()
    g.s["objectives"]["meeting"] = "obj_meeting_A1"
    g.p(0)["covered"] = [False] * 12
    g.s["rooms"][0][0] = [0]
    g.s["rooms"][1][0] = [0]
    g.s["univ"]["bath"] = [0]
    g.s["univ"]["york"] = [0]
    g.s["univ"]["leeds"] = [0]
    g.p(0)["money"] = 5
    g.actions_turn(0, "yellow", 2)
    g.pick({"room": 2, "pay": "money", "slot": 2})
    g.pick(["univ", "bath"])                                             # the Meeting disc moves from Bath
    assert g.top()["kind"] == "disc_move"
    assert sorted(g.opts()) == [["univ", "leeds"], ["univ", "york"]]
    g.rej_pick("ADA-DISC-05", ["room", 0, 0])
    g.pick(["univ", "york"])
    assert g.s["obj"]["meeting"][0]["seat"] == 0 and g.s["univ"]["york"] == []


@pytest.mark.rule("ADA-ASSIGN-07")
def test_columns_drive_research_and_scoring():
    g = G()
    g.p(0)["columns"]["purple"] = ["asg02", "asg08", "asg18"]
    g.p(0)["atokens"] = {"purple": 1}
    assert final_scores(g.s)[0]["assignment_tokens"] == 3
    g.s["workshop"][0] = [die("blue", 6)]
    g.s["workshop"][1] = [die("purple", 2)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    g.move(type="skip")
    assert g.p(0)["research"]["purple"] == 3


@pytest.mark.rule("ADA-PARTNER-16")
def test_sciences_read_only_by_objective_conditions_during_play():
    g = G()
    g.s["objectives"]["meeting"] = "obj_meeting_A2"                      # 5 sponsors
    assert C.OBJECTIVES["obj_meeting_A2"]["condition"] == {"partnersWithoutScience": 5}
    p = g.p(0)
    p["hand"] = ["start1#0", "start6#0", "start7#0", "start2#0"]
    p["deck"], p["discard"] = ["start3#0", "start4#0", "start5#0", "t1_06"], []
    g.s["displays"]["meet"][0] = "t2_03"                                 # a sponsor
    g.effect({"op": "gainPartnerFromDisplay"})
    g.pick(0)
    assert g.top()["kind"] == "remove" and g.s["obj"]["meeting"] == []  # no claim mid-gain (9 cards)
    g.pick("start2#0")
    assert g.top()["kind"] == "disc_src"
    g.pick(0)
    assert g.s["obj"]["meeting"][0]["seat"] == 0


@pytest.mark.rule("ADA-RESEARCH-04", "ADA-AMB-16")
def test_advanced_levels_reached_or_passed():
    g = G()
    g.p(0)["research"]["purple"] = C.RESEARCH["purple"]["advanced1"] + 1
    g.actions_turn(0, "purple", 2)
    g.pick([0, "row1"])
    g.pick("book")
    assert "advanced" in g.types()
    g.move(type="advanced")
    assert g.top()["kind"] == "study_extra"                              # level 1 only: one more reward


@pytest.mark.rule("ADA-TURN-05", "ADA-TURN-06")
def test_end_of_turn_option_after_resolution_only():
    g = G()
    g.p(0)["book"] = 1
    g.s["workshop"][0] = [die("blue", 6), die("blue", 5)]
    g.s["workshop"][1] = [die("purple", 2)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.rej("ADA-TURN-06", type="publish")                               # a choice is still pending
    g.pick("yellow")
    g.rej("ADA-TURN-06", type="publish")                               # step 6 not finished
    g.move(type="skip")
    assert {"publish", "build", "end_turn"} >= {m["type"] for m in g.legal() if m["type"] != "adjust"}
    assert {"type": "end_turn"} in g.legal()
    g.move(type="end_turn")                                            # declining both is allowed
    assert g.active == 1 and g.p(0)["book"] == 1
