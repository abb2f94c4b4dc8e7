"""Publish (2.18), Build and gears (2.13, 2.14), Steam (2.19); Serena's Study Publish (ADA-EX-09)."""

import pytest

from domain.games.adas_dream import content as C
from domain.games.adas_dream.scoring import final_scores
from tests.games.adas_dream.helpers import G, die


def study_done(g, seat=0, book=1):
    g.p(seat)["book"] = book
    g.actions_turn(seat, "purple", 3)
    g.pick([0, "row1"])
    g.pick("addition")
    g.p(seat)["book"] = book


def serena_publish():
    g = G()
    s = g.s
    s["univ"]["manchester"] = [0]
    s["rooms"][3][0], s["rooms"][3][1], s["rooms"][3][2] = [0], [0], [1]
    s["lect"]["inst_stargazers"][4] = [0]
    s["lect"]["inst_lamps"][4] = [1]
    g.uncover(0, 0, 1, 2, 3)
    study_done(g)
    return g


@pytest.mark.rule("ADA-EX-09", "ADA-PUBLISH-01", "ADA-PUBLISH-04", "ADA-PUBLISH-05", "ADA-PUBLISH-06",
                  "ADA-PUBLISH-08", "ADA-INSTITUTION-09", "ADA-ICON-43", "ADA-SCORE-04", "ADA-SCORE-05",
                  "ADA-AMB-27", "ADA-AMB-59")
def test_ex09_study_publish_on_a_lecture():
    g = serena_publish()
    assert final_scores(g.s)[0]["lectures"] == 4 and final_scores(g.s)[1]["lectures"] == 4
    hand = len(g.p(0)["hand"])
    g.move(type="publish")
    g.pick(["lect", "inst_stargazers", 6])
    g.pick(4)                                                   # disc from gear space 5
    assert g.p(0)["book"] == 0 and g.s["lect"]["inst_stargazers"][4] == [0, 0]
    assert g.p(0)["research"] == {"yellow": 0, "blue": 0, "green": 0, "purple": 0}   # no L6 reward:
    assert g.p(0)["stokens"] == [] and [f["type"] for f in g.facts] == ["PendingResolved", "DiscPlaced", "ResolverSaved", "PendingPushed"]  # no token either
    g.pick("advanced")
    assert all(o[0] == "inst_stargazers" for o in g.opts())
    g.pick(["inst_stargazers", 2])
    assert len(g.p(0)["hand"]) == hand + 2
    g.pick("blue")
    g.rej_pick("ADA-ICON-43", "blue")
    g.pick("green")
    p = g.p(0)
    assert p["innov"] == 1 and p["brass"] == 1 and p["coal"] == 1
    s = final_scores(g.s)
    assert s[0]["lectures"] == 8 and s[1]["lectures"] == 0


@pytest.mark.rule("ADA-EX-09", "ADA-PUBLISH-04", "ADA-PUBLISH-07", "ADA-PUBLISH-02", "ADA-TRAVEL-07", "ADA-SCORE-03", "ADA-AMB-24",
                  "ADA-AMB-25", "ADA-AMB-20")
def test_ex09_alternative_branches():
    g = serena_publish()
    before = final_scores(g.s)[0]["universities"]
    g.move(type="publish")
    g.pick(["univ", "manchester"])
    g.pick(4)
    assert g.s["univ"]["manchester"] == [0, 0]
    assert final_scores(g.s)[0]["universities"] == before + 2
    g = serena_publish()
    g.move(type="publish")
    g.pick(["room", 3, 0])
    g.pick(4)
    assert sum(d.count(0) for d in g.s["rooms"][3]) == 3
    g = serena_publish()
    g.s["obj"]["study"] = [{"seat": 0, "space": "high", "round": 1}]
    g.s["lect"]["inst_stargazers"][4] = [0, 0]
    g.move(type="publish")
    assert ["lect", "inst_stargazers", 6] not in g.opts()
    g.rej_pick("ADA-PUBLISH-07", ["lect", "inst_stargazers", 6])
    g.rej_pick("ADA-PUBLISH-04", ["obj", "study", "high"])
    g = serena_publish()
    g.rej("ADA-PUBLISH-02", type="publish", area="travel")


@pytest.mark.rule("ADA-PUBLISH-09", "ADA-AMB-26", "ADA-DISC-06")
def test_study_publish_with_nothing_to_stack_boxes_a_disc():
    g = G()
    study_done(g)
    g.move(type="publish")
    g.pick(7)
    p = g.p(0)
    assert p["boxed"] == 1 and p["covered"][7] is False and sum(p["covered"]) == 11
    g2 = G()
    study_done(g2)
    g2.p(0)["covered"] = [False] * 12
    g2.rej("ADA-AMB-26", type="publish")


@pytest.mark.rule("ADA-PUBLISH-10", "ADA-PUBLISH-11", "ADA-AMB-52")
def test_travel_publish_four_pips():
    g = G()
    g.p(0).update(money=1, book=1)
    g.p(0)["mill"][0] = die("yellow", 1)
    g.actions_turn(0, "blue", 6, slot=1)
    while g.top()["k"] == "choice":
        g.pick(g.opts()[0])
    g.move(type="publish")
    g.rej_pick("ADA-PUBLISH-11", [["mill", 0], -1])
    g.rej_pick("ADA-PUBLISH-11", [["mill", 1], 1])
    for _ in range(4):
        g.pick([["mill", 0], 1])
    assert g.p(0)["mill"][0]["v"] == 5
    assert g.top() is None or g.top().get("kind") != "pip"                                # a fifth pip is not offered


@pytest.mark.rule("ADA-PUBLISH-03", "ADA-STEAM-01", "ADA-STEAM-02", "ADA-STEAM-05", "ADA-AMB-51")
def test_workshop_publish_pays_steam_coal():
    def ws_turn(coal, steam):
        g = G()
        g.p(0).update(book=1, coal=coal, steam=steam)
        g.s["workshop"][0] = [die("blue", 4)]
        g.s["workshop"][1] = [die("green", 1)]
        g.move(type="workshop", space=0, die=0, extra=False, push=0)
        g.pick("yellow")
        g.move(type="skip")
        return g
    assert C.STEAM_LEVELS[C.STEAM_START]["level"] == C.STEAM_START
    g = ws_turn(0, 2)
    assert C.STEAM_LEVELS[3]["coal_to_enter"] == 1
    g.rej("ADA-PUBLISH-03", type="publish")
    g = ws_turn(1, 2)
    g.move(type="publish")
    assert g.p(0)["steam"] == 3 and g.p(0)["coal"] == 0
    g = ws_turn(5, C.STEAM_MAX)
    g.rej("ADA-AMB-51", type="publish")
    assert g.p(0)["book"] == 1


@pytest.mark.rule("ADA-BUILD-02", "ADA-BUILD-03", "ADA-GEAR-06", "ADA-GEAR-08", "ADA-GEAR-09", "ADA-GEAR-10",
                  "ADA-RESOURCE-02")
def test_build_checks():
    g = G()
    study_done(g)
    p = g.p(0)
    assert p["gear_supply"].count("add") == 2
    g.rej("ADA-GEAR-09", type="build", gear="add", space=0)              # covered
    g.uncover(0, 0, 1)
    p = g.p(0)
    p["gears"][1] = "sub"
    g.rej("ADA-GEAR-09", type="build", gear="add", space=1)              # occupied: built gears stay put
    g.rej("ADA-BUILD-02", type="build", gear="add", space=0)             # cannot pay
    g.rej("ADA-BUILD-02", type="build", gear="mult04", space=0)          # not in the supply
    p["gear_supply"].append("mult04")
    cost = C.MULTIPLIERS["mult04"]
    p.update(money=cost["money"], coal=cost["coal"], brass=cost["brass"], innov=max(cost["innovation"] - 1, 0))
    if cost["innovation"]:
        g.rej("ADA-BUILD-02", type="build", gear="mult04", space=0)
        g.p(0)["innov"] = cost["innovation"]
    g.move(type="build", gear="mult04", space=0)
    p = g.p(0)
    assert p["gears"][0] == "mult04" and sum(1 for x in p["gears"] if x) == 2
    assert (p["money"], p["coal"], p["brass"], p["innov"]) == (0, 0, 0, 0)


@pytest.mark.rule("ADA-BUILD-04", "ADA-TURN-07", "ADA-AMB-43")
def test_deferred_build_during_next_players_turn():
    g = G()
    study_done(g)
    g.uncover(0, 0)
    g.p(0).update(brass=2, coal=1)
    g.move(type="end_turn", defer_build=True)
    assert g.active == 1
    assert {m["type"] for m in g.legal(0)} == {"build", "decline_build"}
    g.rej("ADA-TURN-07", seat=0, type="pass")
    g.do(0, {"type": "build", "gear": "add", "space": 0})
    assert g.p(0)["gears"][0] == "add" and g.fl["deferred"] is None and g.active == 1
    # the window closes at the end of the next player's turn
    g2 = G()
    study_done(g2)
    g2.uncover(0, 0)
    g2.p(0).update(brass=2, coal=1)
    g2.move(type="end_turn", defer_build=True)
    study_done(g2, seat=1, book=0)
    g2.skip_to_end()
    assert g2.fl["deferred"] is None and g2.legal(0)[0]["type"] != "build"


@pytest.mark.rule("ADA-BUILD-06", "ADA-ICON-18")
def test_effect_builds_do_not_use_the_end_of_turn_option():
    g = G()
    p = g.p(0)
    p.update(brass=4, coal=2)
    g.uncover(0, 0, 1, 2)
    g.s["univ_tiles"]["birmingham"] = "uni_c_birmingham"                   # reward: build a gear
    p["money"] = 10
    g.actions_turn(0, "blue", 3)
    g.pick("birmingham")
    g.pick(3)
    assert g.top()["kind"] == "build"
    g.pick({"gear": "add", "space": 0})
    g.move(type="build", gear="sub", space=1)
    p = g.p(0)
    assert p["gears"][0] == "add" and p["gears"][1] == "sub" and p["brass"] == 0
