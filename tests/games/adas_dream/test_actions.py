"""Actions turns: Study, Travel, Meeting, Institution; the examples ADA-EX-03..08."""

import pytest

from domain.games.adas_dream import state as S
from domain.games.adas_dream import content as C
from tests.games.adas_dream.helpers import G, die


# ---------------------------------------------------------------- Study (Serena, ADA-EX-03)
def serena(brass=2):
    g = G()
    p = g.p(0)
    p.update(brass=brass, coal=1, book=0)
    p["gear_supply"] = ["sub", "sub"]
    p["research"]["purple"] = C.RESEARCH["purple"]["advanced1"]
    g.uncover(0, 3)
    g.p(1)["covered"][3] = True
    g.s["displays"]["prog"] = ["prog05", "prog06", "prog01", "prog07", "prog08"]   # P3 = prog01 (values 3 and 4)
    g.s["stacks"]["prog"] = ["prog09", "prog10"] + [t for t in g.s["stacks"]["prog"] if t not in
                                                    ("prog01", "prog05", "prog06", "prog07", "prog08", "prog09", "prog10")]
    g.s["displays"]["assign"] = ["asg02", "asg03", "asg04", "asg05"]
    g.s["stacks"]["assign"] = ["asg06"] + [a for a in g.s["stacks"]["assign"] if a not in ("asg02", "asg03", "asg04", "asg05", "asg06")]
    g.actions_turn(0, "purple", 4, slot=4)
    g.pick([2, "row2"])
    g.pick("blue")
    g.pick("blue")
    return g


@pytest.mark.rule("ADA-EX-03", "ADA-ACTIONS-01", "ADA-ACTIONS-02", "ADA-ACTIONS-03", "ADA-ACTIONS-06",
                  "ADA-STUDY-01", "ADA-STUDY-02", "ADA-STUDY-03", "ADA-STUDY-04", "ADA-STUDY-05", "ADA-STUDY-07",
                  "ADA-PROGRAM-02", "ADA-PROGRAM-05", "ADA-BUILD-01", "ADA-BUILD-05", "ADA-GEAR-07", "ADA-GEAR-09",
                  "ADA-ACTIONS-08", "ADA-GEAR-03", "ADA-STUDY-09", "ADA-AMB-55", "ADA-AMB-62")
def test_ex03_serenas_study_turn_and_build():
    g = serena()
    p = g.p(0)
    assert p["mill"][4] == die("purple", 4) and p["programs"]["row2"] == "prog01"
    assert p["research"]["blue"] == 2
    assert g.s["displays"]["prog"] == ["prog10", "prog09", "prog05", "prog06", "prog07"]
    assert "prog08" in g.s["removed"]
    g.pick("addition")
    assert g.s["displays"]["assign"] == ["asg06", "asg02", "asg03", "asg04"]
    g.move(type="advanced")
    g.rej_pick("ADA-STUDY-07", "addition")                        # (a)
    g.pick("book")
    g.rej("ADA-ACTIONS-07", type="advanced")                       # (b) no third reward
    assert g.s["displays"]["assign"] == ["asg06", "asg02", "asg03", "asg04"]   # exactly one removal
    g.move(type="build", gear="add", space=3)
    p = g.p(0)
    assert (p["book"], p["brass"], p["coal"], p["gears"][3], p["gear_supply"]) == (1, 0, 0, "add", ["sub", "sub"])
    assert sum(1 for loc in S.own_locations(g.s, 0)) == 0          # Study places no disc
    assert g.active == 1


@pytest.mark.rule("ADA-EX-03", "ADA-BUILD-05", "ADA-BUILD-02")
def test_ex03_negative_checks():
    g = serena(brass=1)
    g.pick("addition")
    g.move(type="advanced")
    g.pick("book")
    g.rej("ADA-BUILD-02", type="build", gear="add", space=3)       # (d) 1 Brass
    g = serena()
    g.pick("addition")
    g.move(type="skip")
    g.move(type="build", gear="add", space=3)
    assert g.active == 1                                            # (c) the turn is over; no Publish after Build
    g2 = serena()
    g2.pick("addition")
    g2.move(type="skip")
    g2.p(0)["book"] = 1
    g2.move(type="publish")
    g2.rej("ADA-BUILD-05", type="build", gear="add", space=3)


@pytest.mark.rule("ADA-STUDY-08", "ADA-AMB-16")
def test_study_level2_takes_all_three():
    g = G()
    g.p(0)["research"]["purple"] = C.RESEARCH["purple"]["advanced2"]
    g.actions_turn(0, "purple", 2)
    g.pick([0, "row1"])
    g.pick("book")
    g.move(type="advanced")
    while g.top()["k"] == "choice":
        g.pick(g.opts()[0])
    p = g.p(0)
    assert p["book"] == 2 and p["gear_supply"].count("add") == 2 and sum(len(c) for c in p["columns"].values()) == 1


@pytest.mark.rule("ADA-STUDY-06", "ADA-ASSIGN-06", "ADA-ASSIGN-04", "ADA-ASSIGN-05", "ADA-ASSIGN-01", "ADA-ASSIGN-08")
def test_assignment_discard_requirement_and_columns():
    g = G()
    g.s["displays"]["assign"] = ["asg18", "asg05", "asg07", "asg20"]   # asg20: discard 2, no colour
    g.actions_turn(0, "purple", 2)
    g.pick([0, "row1"])
    g.p(0)["hand"] = ["start1#0"]
    assert "assignment" in g.opts()
    g.pick("assignment")
    assert 3 not in g.opts()                                        # cannot discard 2 from a hand of 1
    g.rej_pick("ADA-ASSIGN-06", 3)
    g.p(0)["hand"] = ["start1#0", "start2#0", "start3#0"]
    g2 = G()
    g2.s["displays"]["assign"] = ["asg18", "asg05", "asg07", "asg20"]
    g2.actions_turn(0, "purple", 2)
    g2.pick([0, "row1"])
    g2.pick("assignment")
    g2.pick(3)
    g2.pick("start1#0")
    g2.pick("start2#0")
    assert g2.p(0)["discard"] == ["start1#0", "start2#0"]          # discarded, not removed
    g2.pick("purple")                                               # assignment token effect: any colour
    assert g2.top()["kind"] == "column"
    assert g2.opts() == ["yellow", "blue", "green", "purple"]
    g2.pick("green")
    assert g2.p(0)["columns"]["green"] == ["asg20"]
    # two colours: one of those two
    g3 = G()
    g3.s["displays"]["assign"] = ["asg18", "asg05", "asg07", "asg01"]
    g3.actions_turn(0, "purple", 2)
    g3.pick([0, "row1"])
    g3.pick("assignment")
    g3.pick(1)                                                      # asg05: blue/green
    g3.rej_pick("ADA-ASSIGN-04", "yellow")
    g3.pick("blue")
    assert g3.p(0)["columns"]["blue"] == ["asg05"]


@pytest.mark.rule("ADA-PROGRAM-01", "ADA-PROGRAM-03", "ADA-PROGRAM-04", "ADA-AMB-34")
def test_program_spaces():
    assert sorted(C.PROGRAM_SPACE) == sorted(C.LINES)
    g = G()
    g.p(0)["programs"]["row1"] = "prog20"
    g.actions_turn(0, "purple", 2)
    assert all(o[1] != "row1" for o in g.opts())
    g.rej_pick("ADA-PROGRAM-03", [0, "row1"])
    g.pick([0, "col3"])                                             # 2 different Workshop rewards
    g.pick(1)
    g.rej_pick("ADA-ICON-43", 1)
    g.pick(4)
    assert g.p(0)["coal"] == 2 and g.p(0)["brass"] == 1


# ---------------------------------------------------------------- Travel (Anthony, ADA-EX-04)
def anthony(money=6, own_disc=False):
    g = G()
    p = g.p(0)
    p.update(money=money, coal=0, city="oxford")
    p["gear_supply"] = ["sub", "sub"]
    p["research"]["blue"] = C.RESEARCH["blue"]["advanced1"]
    g.s["univ"]["manchester"] = [1] + ([0] if own_disc else [])
    g.actions_turn(0, "blue", 1)
    return g


@pytest.mark.rule("ADA-EX-04", "ADA-TRAVEL-01", "ADA-TRAVEL-02", "ADA-TRAVEL-04", "ADA-TRAVEL-05", "ADA-TRAVEL-07",
                  "ADA-TRAVEL-08", "ADA-TRAVEL-10", "ADA-BUILD-06", "ADA-BUILD-07", "ADA-DISC-01", "ADA-DISC-02",
                  "ADA-DISC-03", "ADA-AMB-22")
def test_ex04_anthonys_travel_turn():
    g = anthony()
    assert C.TRAVEL_COST["oxford"]["manchester"] == 6
    g.pick("manchester")
    g.pick(0)                                                       # the disc comes from gear space g1
    p = g.p(0)
    assert p["money"] == 0 and g.s["univ"]["manchester"] == [1, 0]
    assert p["covered"][0] is False and p["gears"][0] == "add" and p["gear_supply"] == ["sub", "sub"]
    g.move(type="advanced")
    g.rej_pick("ADA-TRAVEL-08", "douglas")                           # (c) distance 2
    g.pick("liverpool")
    p = g.p(0)
    assert (p["city"], p["coal"], p["money"]) == ("liverpool", 1, 3)
    g.move(type="end_turn")
    assert g.active == 1


@pytest.mark.rule("ADA-EX-04", "ADA-TRAVEL-03", "ADA-TRAVEL-06", "ADA-AMB-21")
def test_ex04_negative_checks():
    g = anthony(money=5)
    assert "manchester" not in g.opts()
    g.rej_pick("ADA-TRAVEL-03", "manchester")
    g.rej_pick("ADA-TRAVEL-03", "oxford")
    g = anthony(own_disc=True)
    g.pick("manchester")
    p = g.p(0)
    assert p["money"] == 0 and g.s["univ"]["manchester"] == [1, 0] and "add" not in p["gear_supply"]
    assert all(p["covered"])
    g.move(type="advanced")
    g.pick("liverpool")
    assert g.p(0)["city"] == "liverpool"


@pytest.mark.rule("ADA-TRAVEL-09", "ADA-TRAVEL-11", "ADA-TRAVEL-12")
def test_travel_level2_and_regions():
    g = anthony()
    g.p(0)["research"]["blue"] = C.RESEARCH["blue"]["advanced2"]
    g.pick("manchester")
    g.pick(0)
    g.move(type="advanced")
    assert "douglas" in g.opts() and "liverpool" in g.opts()
    g.pick("douglas")                                               # ferry, free
    assert g.p(0)["city"] == "douglas" and g.p(0)["money"] == 0
    assert {C.CITIES[c]["region"] for c in C.UNIVERSITY_CITIES} == {"southern", "central", "fixed"}
    assert all("prestige" in C.UNI_TILES[t] and "reward" in C.UNI_TILES[t] for t in g.s["univ_tiles"].values())


# ---------------------------------------------------------------- Meeting (Isobel, ADA-EX-05)
M, H2, H3, Y1 = "t1_05", "start1#1", "start2#1", "start3#1"
Z = ["start4#1", "start5#1", "start6#1", "start7#1"]


def isobel(money=5, innov=0):
    g = G()
    g.set_flow(1)
    p = g.p(1)
    p.update(money=money, innov=innov, book=1)
    p["gear_supply"] = ["add", "sub", "sub"]
    p["research"]["yellow"] = C.RESEARCH["yellow"]["advanced2"]
    p["hand"], p["deck"], p["discard"] = [M, H2, H3], [Y1], list(Z)
    g.s["displays"]["meet"] = ["t1_02", "t2_01", "t2_02", "t2_03"]     # C = t1_02: build an Addition Gear free
    g.s["stacks"]["meet"] = ["t2_04", "t2_05"] + [c for c in g.s["stacks"]["meet"] if c not in ("t2_04", "t2_05", "t1_02", "t2_01", "t2_02", "t2_03")]
    g.s["displays"]["mult"] = ["mult01", "mult02"]
    g.s["stacks"]["mult"] = ["mult03"] + [m for m in g.s["stacks"]["mult"] if m not in ("mult01", "mult02", "mult03")]
    g.actions_turn(1, "grey", 4, area="meeting")
    return g


@pytest.mark.rule("ADA-EX-05", "ADA-ACTIONS-04", "ADA-MEETING-01", "ADA-MEETING-03", "ADA-MEETING-05",
                  "ADA-MEETING-07", "ADA-MEETING-08", "ADA-MEETING-09", "ADA-MEETING-11", "ADA-MEETING-12",
                  "ADA-PARTNER-02", "ADA-PARTNER-03", "ADA-PARTNER-05", "ADA-PARTNER-07", "ADA-PARTNER-14",
                  "ADA-PUBLISH-12", "ADA-GEAR-04", "ADA-GEAR-05", "ADA-AMB-11")
def test_ex05_isobels_meeting_turn():
    g = isobel()
    g.pick({"room": 0, "pay": "money", "slot": 0})
    g.pick(0)                                                       # disc from g1
    assert g.p(1)["money"] == 0 and g.s["rooms"][0][0] == [1]
    assert g.s["displays"]["meet"] == ["t2_05", "t2_04", "t2_01", "t2_02"] and "t2_03" in g.s["removed"]
    g.rej_pick("ADA-PARTNER-03", Y1)                                # (c) a deck card
    g.pick(M)
    p = g.p(1)
    assert M in g.s["removed"] and Y1 in p["hand"] and len(p["deck"]) == 3
    assert len(p["deck"] + p["hand"] + p["discard"]) == 8
    g.move(type="advanced")
    assert len(g.p(1)["deck"]) == 1
    g.pick("t1_02")                                                 # free play; builds + on g1 at once
    p = g.p(1)
    assert p["gears"][0] == "add" and p["discard"] == ["t1_02"]
    g.move(type="publish")
    g.pick(0)
    p = g.p(1)
    assert p["book"] == 0 and "mult01" in p["gear_supply"] and g.s["displays"]["mult"] == ["mult03", "mult02"]
    assert "mult01" not in p["gears"]
    g.rej("ADA-BUILD-05", type="build", gear="mult01", space=1)
    assert g.top()["kind"] == "hand_limit"
    g.pick(H2)
    p = g.p(1)
    assert sorted(p["hand"]) == sorted([H3, Y1] + [c for c in Z if c not in p["deck"]])
    assert len(p["hand"]) == 5 and len(p["deck"]) == 1 and p["discard"] == ["t1_02", H2]


@pytest.mark.rule("ADA-EX-05", "ADA-MEETING-02", "ADA-MEETING-05", "ADA-MEETING-06", "ADA-MEETING-04")
def test_ex05_negative_checks():
    g = isobel(money=4, innov=2)
    assert all(o["room"] != 0 for o in g.opts())
    g.rej_pick("ADA-MEETING-02", {"room": 0, "pay": "money", "slot": 0})
    g.rej_pick("ADA-MEETING-02", {"room": 0, "pay": "innovation", "slot": 0})
    assert [o["slot"] for o in g.opts() if o["room"] == 3] == [3, 3]
    assert {o["slot"] for o in g.opts() if o["room"] == 1} == {1, 2, 3}
    g2 = isobel()
    g2.s["rooms"][0][0] = [1]
    assert any(o["room"] == 0 for o in S.meeting_options(g2.s, 1))     # several discs in one room over time


@pytest.mark.rule("ADA-MEETING-10", "ADA-MEETING-13")
def test_meeting_level1_free_play_and_multiplier_display():
    g = isobel()
    g.p(1)["research"]["yellow"] = C.RESEARCH["yellow"]["advanced1"]
    g.pick({"room": 0, "pay": "money", "slot": 0})
    g.pick(0)
    g.pick(M)
    deck = len(g.p(1)["deck"])
    g.move(type="advanced")
    g.pick("t1_02")
    assert len(g.p(1)["deck"]) == deck and g.p(1)["gears"][0] == "add"
    assert len(g.s["displays"]["mult"]) == 2


# ---------------------------------------------------------------- Institution (ADA-EX-06..08)
@pytest.mark.rule("ADA-EX-06", "ADA-INSTITUTION-04", "ADA-INSTITUTION-05", "ADA-INSTITUTION-08",
                  "ADA-INSTITUTION-02", "ADA-INSTITUTION-01")
def test_ex06_first_lecture_costs():
    g = G()
    assert [S.lecture_cost(g.s, 0, lv) for lv in range(2, 7)] == [1, 2, 4, 6, 9]
    assert len(S.empty_lectures(g.s)) == 20
    g.p(0)["innov"] = 6
    g.actions_turn(0, "green", 3)
    assert all(o["level"] != 6 for o in g.opts())
    g.rej_pick("ADA-INSTITUTION-08", {"inst": "inst_lamps", "level": 6})
    g.pick({"inst": "inst_lamps", "level": 3})
    assert g.p(0)["innov"] == 4


@pytest.mark.rule("ADA-EX-07", "ADA-INSTITUTION-05", "ADA-INSTITUTION-06", "ADA-INSTITUTION-07", "ADA-AMB-28")
def test_ex07_second_lecture_costs():
    g = G()
    g.s["lect"]["inst_lamps"][1] = [0]                                # a disc at L3
    assert [S.lecture_cost(g.s, 0, lv) for lv in range(2, 7)] == [1, 1, 2, 4, 7]
    g.p(0)["innov"] = 6
    g.actions_turn(0, "green", 3)
    g.pick({"inst": "inst_numbers", "level": 5})
    assert g.p(0)["innov"] == 2


def ketan_institution(monkeypatch, innov=5, level=2):
    # the sample pack's Ironmasters L6 is the book's Royal Society L6; Society of Numbers L3 gives 2 Study items
    assert C.LECTURE_REWARD[("inst_ironworks", 6)] == \
        {"all": [{"op": "usePartnerFromDisplay"}, {"op": "scienceToken1", "science": "engineering"}]}
    assert C.LECTURE_REWARD[("inst_numbers", 3)]["count"] == 2
    g = G()
    p = g.p(0)
    p.update(innov=innov, brass=2, coal=1)
    p["gear_supply"] = ["sub"]
    p["gears"][5] = "sub"
    g.uncover(0, 5)
    p["research"]["green"] = C.RESEARCH["green"]["advanced2" if level == 2 else "advanced1"]
    g.s["lect"]["inst_stargazers"][2] = [0]                           # L4 of I2
    g.s["displays"]["meet"][1] = "t1_03"                                # B: £3 and swap a Subtraction Gear
    g.actions_turn(0, "green", 6)
    return g


@pytest.mark.rule("ADA-EX-08", "ADA-INSTITUTION-02", "ADA-INSTITUTION-10", "ADA-INSTITUTION-11", "ADA-ICON-14", "ADA-ICON-20",
                  "ADA-ICON-34", "ADA-ICON-43", "ADA-AMB-53")
def test_ex08_ketans_institution_turn(monkeypatch):
    g = ketan_institution(monkeypatch)
    g.pick({"inst": "inst_ironworks", "level": 6})
    g.pick(1)                                                        # disc from g2
    assert g.p(0)["innov"] == 0
    g.pick("t1_03")
    p = g.p(0)
    assert p["money"] == 3 and p["gears"][5] == "add" and {"science": "engineering", "value": 1} in p["stokens"]
    assert "t1_03" in g.s["displays"]["meet"]
    g.move(type="advanced")
    g.rej_pick("ADA-INSTITUTION-11", ["inst_ironworks", 6])
    g.rej_pick("ADA-INSTITUTION-11", ["inst_lamps", 6])                # empty, but not below the placed disc
    g.rej_pick("ADA-INSTITUTION-11", ["inst_stargazers", 4])           # occupied
    g.pick(["inst_numbers", 3])
    g.pick(1)                                                        # Addition
    g.rej_pick("ADA-ICON-43", 1)
    g.pick(0)                                                        # Book
    assignment_display = list(g.s["displays"]["assign"])
    g.move(type="build", gear="add", space=1)
    p = g.p(0)
    assert (p["book"], p["brass"], p["coal"], p["gears"][1]) == (1, 0, 0, "add")
    assert g.s["displays"]["assign"] == assignment_display


@pytest.mark.rule("ADA-EX-08", "ADA-INSTITUTION-08", "ADA-INSTITUTION-09", "ADA-INSTITUTION-03")
def test_ex08_negative_checks(monkeypatch):
    g = ketan_institution(monkeypatch, innov=4)
    g.rej_pick("ADA-INSTITUTION-08", {"inst": "inst_ironworks", "level": 6})
    g.rej_pick("ADA-INSTITUTION-03", {"inst": "inst_stargazers", "level": 4})   # occupied: not offered
    assert {"inst": "inst_stargazers", "level": 4} not in g.opts() and g.s["lect"]["inst_stargazers"][2]
    g.rej_pick("ADA-INSTITUTION-03", {"inst": "inst_ironworks", "level": 1})     # level 1 holds no disc
    g = ketan_institution(monkeypatch, level=1)
    g.pick({"inst": "inst_ironworks", "level": 6})
    g.pick(1)
    g.pick("t1_03")
    g.move(type="advanced")
    assert all(o[0] == "inst_ironworks" for o in g.opts())
    g.rej_pick("ADA-INSTITUTION-11", ["inst_numbers", 3])


@pytest.mark.rule("ADA-ACTIONS-05", "ADA-TURN-04", "ADA-AMB-17")
def test_main_action_must_be_performable():
    g = G()
    g.store(0, die("green", 3), die("yellow", 2))
    g.rej("ADA-ACTIONS-05", type="actions", die=0, slot=0, action="institution")   # Innovation 0
    g.rej("ADA-ACTIONS-05", type="actions", die=1, slot=0, action="meeting")       # no money
    g.rej("ADA-ACTIONS-03", type="actions", die=1, slot=0, action="study")
    assert not any(m["type"] == "actions" for m in g.legal())
    g2 = G()
    g2.store(0)
    g2.rej("ADA-TURN-04", type="actions", die=0, slot=0, action="study")
    g3 = G()
    g3.store(0, die("purple", 3))
    g3.p(0)["mill"] = [die("blue", 1)] * 9
    g3.rej("ADA-TURN-04", type="actions", die=0, slot=0, action="study")
    g4 = G()
    g4.store(0, die("purple", 3))
    g4.p(0)["mill"][0] = die("blue", 1)
    g4.rej("ADA-ACTIONS-02", type="actions", die=0, slot=0, action="study")


@pytest.mark.rule("ADA-ACTIONS-07", "ADA-ACTIONS-09", "ADA-PUBLISH-02")
def test_one_advanced_action_same_area_and_publish_area():
    g = G()
    g.p(0)["book"] = 1
    g.p(0)["research"]["purple"] = C.RESEARCH["purple"]["advanced1"]
    g.store(0, die("grey", 3))
    g.move(type="actions", die=0, slot=0, action="study")
    g.rej("ADA-ACTIONS-07", type="advanced")                         # not before the main action
    g.pick([0, "row1"])
    g.pick("book")
    g.move(type="advanced")
    g.pick("addition")
    g.rej("ADA-PUBLISH-02", type="publish", area="travel")
    assert g.fl["area"] == "study"


@pytest.mark.rule("ADA-ACTIONS-06")
def test_advanced_needs_the_research_level():
    g = G()
    g.actions_turn(0, "purple", 3)
    g.pick([0, "row1"])
    g.pick("book")
    assert g.top()["name"] == "endopt"
    g.rej("ADA-ACTIONS-06", type="advanced")
