"""Workshop turns (2.3), Ketan's examples (ADA-EX-01/02), Partner plays in step 6."""

import pytest

from domain.games.adas_dream import content as C
from tests.games.adas_dream.helpers import G, die

H = ["start1#0", "start2#0", "start3#0", "t1_01"]      # t1_01: requires a 2; +1 Innovation and a Study item
K = ["start4#0", "start5#0", "start6#0", "start7#0"]


def ketan(**extra):
    g = G()
    p = g.p(0)
    p["coal"] = 1
    p["hand"], p["deck"] = list(H), list(K)
    g.s["workshop"][0] = [die("green", 5)]
    g.s["workshop"][1] = [die("blue", 3), die("yellow", 6), die("grey", 6)]
    g.s["bag"] = {"yellow": 1, "grey": 1, "purple": 1, "blue": 0, "green": 0}
    for key, value in extra.items():
        p[key] = value
    return g


def ketan_steps_1_to_5(g):
    g.move(type="adjust", space=1, die=0, delta=-1)
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("purple")                                  # the "1 Research" bonus of W2


@pytest.mark.rule("ADA-EX-01", "ADA-WORKSHOP-02", "ADA-WORKSHOP-04", "ADA-WORKSHOP-07", "ADA-WORKSHOP-09",
                  "ADA-WORKSHOP-10", "ADA-WORKSHOP-12", "ADA-WORKSHOP-14", "ADA-WORKSHOP-16", "ADA-WORKSHOP-17",
                  "ADA-WORKSHOP-18", "ADA-PARTNER-08", "ADA-TURN-09")
def test_ex01_ketans_workshop_turn():
    g = ketan()
    ketan_steps_1_to_5(g)
    p = g.p(0)
    assert p["coal"] == 0
    assert sorted((d["c"], d["v"]) for d in g.s["workshop"][1]) == [("green", 5), ("grey", 6), ("yellow", 6)]
    assert p["research"]["purple"] == 1
    assert sorted(d["c"] for d in g.s["workshop"][0]) == ["grey", "purple", "yellow"]
    assert p["hand"] == H + K[:2]
    assert p["store"][C.STORE_SLOTS - 1] == die("blue", 2)
    g.move(type="skip")
    assert g.p(0)["research"]["blue"] == 0                              # step 7: no blue Assignments
    g.move(type="end_turn")
    assert g.top()["kind"] == "hand_limit"
    g.pick(H[0])
    p = g.p(0)
    assert p["hand"] == H[1:] + K[:2] and p["deck"] == K[2:] and p["discard"] == [H[0]]
    assert g.active == 1


@pytest.mark.rule("ADA-EX-01", "ADA-WORKSHOP-07", "ADA-WORKSHOP-05")
def test_ex01_negative_checks():
    g = ketan()
    g.move(type="adjust", space=1, die=0, delta=-1)
    g.rej("ADA-WORKSHOP-07", type="workshop", space=0, die=0, extra=False, push=1)   # (a) yellow 6 > 5
    g.p(0)["coal"] = 2
    g.rej("ADA-WORKSHOP-05", type="adjust", space=1, die=1, delta=-1)                # (b)
    g2 = ketan()
    g2.s["workshop"][1] = [die("yellow", 6), die("grey", 6)]
    g2.rej("ADA-WORKSHOP-08", type="workshop", space=0, die=0, extra=False, push=0)   # (c)
    g3 = ketan()
    g3.move(type="workshop", space=0, die=0, extra=False, push=0)                      # (d) blue 3 <= 5
    assert g3.s["bonus_die"] == die("blue", 3) and g3.top()["kind"] == "track"


@pytest.mark.rule("ADA-EX-02", "ADA-WORKSHOP-13", "ADA-PARTNER-06", "ADA-PARTNER-10", "ADA-STUDY-10",
                  "ADA-STUDY-11", "ADA-TURN-08", "ADA-ASSIGN-02", "ADA-ASSIGN-03", "ADA-RESEARCH-03",
                  "ADA-WORKSHOP-16")
def test_ex02_partner_card_and_assignment():
    assert C.RESEARCH["blue"]["breakthrough_spaces"] == [2] and C.RESEARCH["blue"]["advanced1"] > 2   # sample pack
    g = ketan(innov=2)
    g.s["displays"]["assign"] = ["asg02", "asg03", "asg01", "asg04"]     # A3 = asg01: blue, +1 blue Research +1 Coal
    g.s["stacks"]["assign"] = ["asg05"] + g.s["stacks"]["assign"]
    assert g.s["breakthroughs"]["blue"] == "bt_spark"                     # +1 Innovation
    ketan_steps_1_to_5(g)
    g.move(type="play", card="t1_01")
    assert g.p(0)["innov"] == 3
    g.rej_pick("ADA-STUDY-10", "program")                               # (c)
    g.pick("assignment")
    g.pick(2)
    p = g.p(0)
    assert g.s["displays"]["assign"] == ["asg05", "asg02", "asg03", "asg04"]
    assert p["columns"]["blue"] == ["asg01"]
    g.rej("ADA-WORKSHOP-13", type="play", card=H[1])                   # (b)
    assert p["innov"] == 4 and p["coal"] == 1
    assert p["research"] == {"yellow": 0, "blue": 2, "green": 0, "purple": 1}
    assert p["discard"] == ["t1_01"] and p["hand"] == H[:3] + K[:2]
    g.move(type="end_turn")
    assert g.active == 1                                                 # no hand-limit discard


@pytest.mark.rule("ADA-EX-02", "ADA-PARTNER-10")
def test_ex02_requirement_not_met_without_adjustment():
    g = ketan()
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("purple")
    g.rej("ADA-PARTNER-10", type="play", card="t1_01")


@pytest.mark.rule("ADA-WORKSHOP-01")
def test_workshop_ring_has_six_different_bonuses():
    assert sorted(C.WORKSHOP_BONUS) == sorted(["research", "coal", "money", "innovation", "brass", "draw"])
    g = G()
    assert len(g.s["workshop"]) == 6


@pytest.mark.rule("ADA-WORKSHOP-03", "ADA-WORKSHOP-05")
def test_extra_space_costs_coal_and_skips_a_space():
    g = G()
    g.s["workshop"][0] = [die("blue", 4)]
    g.s["workshop"][1] = [die("green", 1)]
    g.s["workshop"][2] = [die("yellow", 3), die("purple", 5)]
    g.rej("ADA-WORKSHOP-05", type="workshop", space=0, die=0, extra=True, push=0)
    g.p(0)["coal"] = 1
    g.move(type="workshop", space=0, die=0, extra=True, push=0)
    assert g.p(0)["coal"] == 0 + (2 if C.WORKSHOP_BONUS[2] == "coal" else 0)
    assert g.s["workshop"][1] == [die("green", 1)]                       # the skipped space is untouched
    assert die("blue", 4) in g.s["workshop"][2]


@pytest.mark.rule("ADA-WORKSHOP-06")
def test_adjust_after_collection_on_a_workshop_die():
    g = G()
    g.p(0)["coal"] = 1
    g.s["workshop"][0] = [die("blue", 4)]
    g.s["workshop"][1] = [die("green", 1), die("grey", 3)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    g.move(type="adjust", space=1, die=0, delta=1)                      # at step 6
    assert g.s["workshop"][1][0]["v"] == 4


@pytest.mark.rule("ADA-WORKSHOP-08")
def test_adjust_before_the_push_can_make_it_possible():
    g = G()
    g.p(0)["coal"] = 1
    g.s["workshop"][0] = [die("blue", 4)]
    g.s["workshop"][1] = [die("green", 5)]
    g.rej("ADA-WORKSHOP-08", type="workshop", space=0, die=0, extra=False, push=0)
    g.move(type="adjust", space=1, die=0, delta=-1)
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    assert g.fl["moved"]


@pytest.mark.rule("ADA-WORKSHOP-11")
def test_space_still_holding_dice_is_not_refilled():
    g = G()
    g.s["workshop"][0] = [die("blue", 4), die("green", 6)]
    g.s["workshop"][1] = [die("green", 1)]
    before = len(g.s["workshop"][0])
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    assert len(g.s["workshop"][0]) == before - 1
    assert not g.facts_of("WsRefilled") and not g.facts_of("CardsDrawn")


@pytest.mark.rule("ADA-WORKSHOP-15", "ADA-WORKSHOP-14")
def test_grey_die_triggers_no_assignment_research():
    g = G()
    g.p(0)["columns"]["green"] = ["asg04"]
    g.s["workshop"][0] = [die("blue", 6), die("blue", 6)]
    g.s["workshop"][1] = [die("grey", 1), die("green", 2)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    g.move(type="skip")
    assert g.p(0)["research"]["green"] == 0
    g2 = G()
    g2.p(0)["columns"]["green"] = ["asg04", "asg11"]
    g2.s["workshop"][0] = [die("blue", 6), die("blue", 6)]
    g2.s["workshop"][1] = [die("grey", 3), die("green", 2)]
    g2.move(type="workshop", space=0, die=0, extra=False, push=1)
    g2.pick("yellow")
    g2.move(type="skip")
    assert g2.p(0)["research"]["green"] == 2


@pytest.mark.rule("ADA-WORKSHOP-19", "ADA-PUBLISH-14")
def test_dice_arriving_by_swap_trigger_nothing():
    g = G()
    g.p(0)["columns"]["blue"] = ["asg01"]
    g.p(0)["book"] = 1
    g.p(0)["innov"] = 1
    g.actions_turn(0, "green", 2)
    g.pick({"inst": "inst_ironworks", "level": 2})
    g.pick(0)                                                           # disc from gear space 1
    g.s["workshop"][3] = [die("blue", 6)]
    research = dict(g.p(0)["research"])
    g.move(type="publish")                                              # own die: only (2,2), chosen at once
    g.pick(["ws", 3, 0])
    assert g.p(0)["mill"][4] == die("blue", 6) and g.s["workshop"][3] == [die("green", 2)]
    assert g.p(0)["research"] == research
    assert not g.facts_of("WsRefilled")


@pytest.mark.rule("ADA-WORKSHOP-20", "ADA-PUBLISH-02", "ADA-PUBLISH-03")
def test_workshop_publish_is_steam_only():
    g = G()
    p = g.p(0)
    p.update(book=1, coal=1)
    g.s["workshop"][0] = [die("blue", 4)]
    g.s["workshop"][1] = [die("green", 1)]
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    g.move(type="skip")
    g.rej("ADA-WORKSHOP-20", type="publish", area="travel")
    steam = p["steam"]
    g.move(type="publish")
    assert g.p(0)["steam"] == steam + 1 and g.p(0)["book"] == 0
    assert g.p(0)["coal"] == 1 - C.STEAM_LEVELS[steam + 1]["coal_to_enter"]


@pytest.mark.rule("ADA-PARTNER-11", "ADA-PARTNER-12", "ADA-PARTNER-13", "ADA-AMB-09")
def test_partner_costs_paid_with_the_active_die():
    def collect(value):
        g = G()
        g.s["workshop"][0] = [die("blue", 6)]
        g.s["workshop"][1] = [die("purple", value)]
        g.p(0)["hand"] = ["start6#0", "start4#0", "start1#0", "start2#0"]   # die-reduction Book / money Innovation
        g.move(type="workshop", space=0, die=0, extra=False, push=0)
        g.pick("yellow")
        return g
    g = collect(3)
    g.move(type="play", card="start6#0")
    assert g.p(0)["store"][-1]["v"] == 2 and g.p(0)["book"] == 1
    g = collect(1)
    g.rej("ADA-PARTNER-12", type="play", card="start6#0")
    g = collect(3)
    g.p(0)["money"] = 2
    g.rej("ADA-PARTNER-13", type="play", card="start4#0")
    g.p(0)["money"] = 3
    g.move(type="play", card="start4#0")
    assert g.p(0)["money"] == 0 and g.p(0)["innov"] == 1


@pytest.mark.rule("ADA-PARTNER-09")
def test_cards_cannot_be_played_outside_step_6():
    g = G()
    g.rej("ADA-PARTNER-09", type="play", card="start1#0")
    g.actions_turn(0, "purple", 3)
    while g.top()["k"] == "choice":
        g.pick(g.opts()[0])
    g.rej("ADA-PARTNER-09", type="play", card="start1#0")


@pytest.mark.rule("ADA-TURN-03")
def test_workshop_turn_needs_an_empty_store_slot():
    g = G()
    g.store(0, *[die("blue", 1)] * C.STORE_SLOTS)
    g.rej("ADA-TURN-03", type="workshop", space=0, die=0, extra=False, push=0)
    assert "workshop" not in g.types()


@pytest.mark.rule("ADA-TURN-02")
def test_one_turn_type_per_turn():
    g = G()
    g.p(0)["coal"] = 1
    g.store(0, die("purple", 3))
    g.move(type="adjust", space=0, die=0, delta=1 if g.s["workshop"][0][0]["v"] < 6 else -1)
    g.rej("ADA-TURN-02", type="actions", die=0, slot=0, action="study")
    assert "actions" not in g.types()
