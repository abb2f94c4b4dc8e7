"""Icon primitives (2.23) through the effect language (3.1)."""

import pytest

from domain.games.adas_dream import content as C
from tests.games.adas_dream.helpers import G, die


def op(name, **kw):
    return {"op": name, **kw}


@pytest.mark.rule("ADA-ICON-01", "ADA-ICON-06", "ADA-ICON-07", "ADA-GEAR-03")
def test_resource_book_and_addition_icons():
    g = G()
    g.effect({"all": [op("gain", resource="brass", amount=2), op("gain", resource="money", amount=3),
                      op("studyItem", kind="book"), op("studyItem", kind="addition")]})
    p = g.p(0)
    assert (p["brass"], p["money"], p["book"], p["gear_supply"].count("add")) == (2, 3, 1, 2)


@pytest.mark.rule("ADA-ICON-02", "ADA-PARTNER-07", "ADA-AMB-12")
def test_draw_icon_reshuffles_and_stops_when_empty():
    g = G()
    p = g.p(0)
    p["hand"], p["deck"], p["discard"] = ["start1#0"], ["start2#0"], ["start3#0", "start4#0"]
    g.effect(op("draw", n=2))
    p = g.p(0)
    assert "start2#0" in p["hand"] and len(p["hand"]) == 3 and len(p["deck"]) == 1 and p["discard"] == []
    assert any(f["type"] == "Reshuffled" and f["private_to"] == [] for f in g.facts)
    g.effect(op("draw", n=5))
    assert len(g.p(0)["hand"]) == 4 and g.p(0)["deck"] == []


@pytest.mark.rule("ADA-ICON-03", "ADA-ICON-39", "ADA-RESEARCH-01", "ADA-RESEARCH-02", "ADA-RESEARCH-07",
                  "ADA-RESEARCH-08", "ADA-RESEARCH-09", "ADA-RESEARCH-10")
def test_research_icons_and_track_tops():
    g = G()
    top = C.RESEARCH["blue"]["top"]
    assert set(C.RESEARCH) == set(C.COLOURS)
    g.p(0)["research"]["blue"] = top
    g.effect(op("research", track="any", n=1))
    assert "blue" not in g.opts()
    g.rej_pick("ADA-RESEARCH-08", "blue")
    g.pick("green")
    assert g.p(0)["research"]["green"] == 1
    g.effect(op("research", track="blue", n=1))
    assert g.p(0)["research"]["blue"] == top
    g.p(0)["research"]["yellow"] = top - 1
    g.effect(op("research", track="yellow", n=3))
    assert g.p(0)["research"]["yellow"] == top
    for c in C.COLOURS:
        g.p(0)["research"][c] = top
    g.effect(op("research", track="any", n=1))
    assert g.top()["name"] == "endopt"                                 # lost


@pytest.mark.rule("ADA-ICON-04", "ADA-INNOV-01", "ADA-INNOV-02", "ADA-INNOV-04", "ADA-INNOV-05", "ADA-ICON-05",
                  "ADA-AMB-50")
def test_innovation_track_and_top_bonus():
    g = G()
    g.p(0)["innov"] = 4
    g.effect(op("innovation", n=3))
    assert g.p(0)["innov"] == 6 and g.top()["kind"] == "innov_bonus"
    assert sorted(g.opts()) == sorted(C.WORKSHOP_REWARDS)
    g.pick("money")
    assert g.p(0)["innov"] == 4 and g.p(0)["money"] == 3
    g.effect(op("innovation", n=2))
    g.pick(None)                                                         # lapses
    assert g.p(0)["innov"] == 6
    g.effect(op("innovation", n=1))
    assert g.p(0)["innov"] == 6 and g.top()["name"] == "endopt"          # already at 6: nothing, no bonus
    g.effect(op("workshopReward"))
    g.pick("brass")
    assert g.p(0)["brass"] == 1


@pytest.mark.rule("ADA-INNOV-03", "ADA-INNOV-06", "ADA-ICON-10", "ADA-ICON-11", "ADA-RESOURCE-02")
def test_costs_must_be_paid_in_full():
    g = G()
    g.p(0).update(money=1, innov=1)
    g.effect({"cost": [op("pay", resource="money", amount=2)], "then": op("gain", resource="brass", amount=1)})
    assert g.p(0)["money"] == 1 and g.p(0)["brass"] == 0
    g.effect({"cost": [op("payInnovation", n=2)], "then": op("gain", resource="brass", amount=1)})
    assert g.p(0)["innov"] == 1 and g.p(0)["brass"] == 0
    g.p(0).update(money=2, innov=2)
    g.effect({"cost": [op("pay", resource="money", amount=2), op("payInnovation", n=2)],
              "then": op("gain", resource="brass", amount=1)})
    assert (g.p(0)["money"], g.p(0)["innov"], g.p(0)["brass"]) == (0, 0, 1)
    g.p(0)["coal"] = 1
    g.effect(op("pay", resource="coal", amount=2))                     # a bare cost that cannot be paid: nothing
    assert g.p(0)["coal"] == 1
    g.effect(op("pay", resource="coal", amount=1))
    assert g.p(0)["coal"] == 0
    from domain.games.adas_dream import state as S
    g.p(0)["innov"] = 6
    assert S.lecture_cost(g.s, 0, 6) > 6 and all(o["level"] != 6 for o in S.institution_options(g.s, 0))


@pytest.mark.rule("ADA-ICON-08", "ADA-ICON-09", "ADA-STUDY-11", "ADA-ASSIGN-08", "ADA-AMB-33")
def test_assignment_icon_slides_without_removal():
    g = G()
    g.s["displays"]["assign"] = ["asg02", "asg03", "asg07", "asg04"]
    nxt = g.s["stacks"]["assign"][0]
    g.effect(op("studyItem", kind="any"))
    g.pick("assignment")
    g.pick(3)
    while g.top()["k"] == "choice":
        g.pick(g.opts()[0])
    assert g.s["displays"]["assign"] == [nxt, "asg02", "asg03", "asg07"]


@pytest.mark.rule("ADA-ICON-12", "ADA-PARTNER-14", "ADA-PARTNER-15", "ADA-AMB-10", "ADA-AMB-58")
def test_free_play_ignores_requirement_and_skips_impossible_parts():
    g = G()
    g.p(0)["hand"] = ["t1_03", "start1#0"]                              # £3 then swap a Subtraction Gear (none built)
    g.effect(op("playPartnerFree"))
    g.pick("t1_03")
    assert g.p(0)["money"] == 3 and "t1_03" in g.p(0)["discard"]
    g.p(0)["hand"] = ["t1_01"]                                          # requires a 2: ignored
    g.effect(op("playPartnerFree"))
    assert g.p(0)["innov"] == 1


@pytest.mark.rule("ADA-ICON-13", "ADA-PARTNER-03", "ADA-PARTNER-04", "ADA-TURN-08")
def test_gain_from_display_icon():
    g = G()
    g.s["displays"]["meet"] = ["t2_01", "t2_02", "t2_03", "t2_04"]
    nxt = g.s["stacks"]["meet"][0]
    hand = len(g.p(0)["hand"])
    g.effect(op("gainPartnerFromDisplay"))
    g.pick(3)
    assert "t2_04" in g.p(0)["hand"]
    g.pick("t2_04")                                                      # the gained card itself may go
    p = g.p(0)
    assert len(p["hand"]) == hand and "t2_04" in g.s["removed"]
    assert g.s["displays"]["meet"] == [nxt, "t2_01", "t2_02", "t2_03"]
    assert len(p["deck"] + p["hand"] + p["discard"]) == 8


@pytest.mark.rule("ADA-ICON-15", "ADA-ICON-16")
def test_per_card_in_hand_and_discard_icons():
    g = G()
    g.effect(op("perCardInHand", reward=op("gain", resource="money", amount=1)))
    assert g.p(0)["money"] == 4
    g.effect(op("discard", n=2))
    g.pick("start1#0")
    g.pick("start2#0")
    assert g.p(0)["discard"] == ["start1#0", "start2#0"] and len(g.p(0)["hand"]) == 2


@pytest.mark.rule("ADA-ICON-17", "ADA-ICON-19", "ADA-GEAR-04", "ADA-AMB-38")
def test_multiplier_and_free_addition_icons():
    g = G()
    g.s["displays"]["mult"] = ["mult01", "mult02"]
    top = g.s["stacks"]["mult"][0]
    g.effect(op("gainMultiplier"))
    g.pick(1)
    assert "mult02" in g.p(0)["gear_supply"] and g.s["displays"]["mult"] == ["mult01", top]
    g.effect(op("buildAdditionFree"))                                    # no uncovered space: skipped
    assert "add" in g.p(0)["gear_supply"]
    g.uncover(0, 4)
    g.effect(op("buildAdditionFree"))
    assert g.p(0)["gears"][4] == "add" and "add" not in g.p(0)["gear_supply"]


@pytest.mark.rule("ADA-ICON-21", "ADA-ICON-22", "ADA-TRAVEL-10", "ADA-AMB-23")
def test_small_city_icons():
    g = G()
    g.p(0)["city"] = "manchester"
    g.effect(op("moveSmallCity", maxDistance=1))
    assert "douglas" not in g.opts() and "liverpool" in g.opts() and "hull" in g.opts()   # York/Leeds skipped
    g.pick("liverpool")
    assert g.p(0)["city"] == "liverpool" and g.p(0)["coal"] == 1 and g.p(0)["money"] == 3
    g.p(0)["city"] = "manchester"
    g.effect(op("moveSmallCity", maxDistance=2))
    g.pick("douglas")
    assert g.p(0)["innov"] == 1


@pytest.mark.rule("ADA-ICON-23", "ADA-ICON-26")
def test_nearest_university_and_university_disc_icons():
    g = G()
    g.s["univ"]["reading"] = [0]
    g.effect(op("moveNearestUniversity"))
    assert sorted(g.opts()) == ["cambridge", "canterbury", "oxford"]
    g.pick("oxford")
    g.pick(0)
    p = g.p(0)
    assert p["city"] == "oxford" and g.s["univ"]["oxford"] == [0] and p["money"] == 0 and p["book"] == 0
    g.effect(op("placeUniversityDisc"))
    assert ["univ", "oxford"] not in g.opts()
    g.pick(["univ", "york"])
    g.pick(1)
    assert g.s["univ"]["york"] == [0] and g.p(0)["city"] == "oxford"


@pytest.mark.rule("ADA-ICON-24", "ADA-AMB-63")
def test_stack_icon():
    g = G()
    g.s["rooms"][2][0] = [0]
    g.s["rooms"][3][0] = [1, 0]
    g.s["rooms"][1][0] = [0, 0]                                           # already 2 of seat 0's discs
    g.s["obj"]["meeting"] = [{"seat": 0, "space": "high", "round": 1}]
    g.effect(op("stackDisc"))
    assert g.opts() == [["room", 2, 0], ["room", 3, 0]]                   # not the full spot, not the Objective
    g.rej_pick("ADA-PUBLISH-04", ["obj", "meeting", "high"])
    g.rej_pick("ADA-ICON-24", ["room", 1, 0])
    g.pick(["room", 3, 0])
    g.pick(4)
    assert g.s["rooms"][3][0] == [1, 0, 0]
    g.effect(op("stackDisc"))                                             # the one target left: no question
    g.pick(5)
    assert g.s["rooms"][2][0] == [0, 0] and g.top()["name"] == "endopt"
    g.effect(op("stackDisc"))                                             # no target left: skipped
    assert sum(g.p(0)["covered"]) == 10 and g.top()["name"] == "endopt"


@pytest.mark.rule("ADA-ICON-25", "ADA-ICON-27", "ADA-DISC-07", "ADA-AMB-54")
def test_meeting_and_lecture_disc_icons():
    g = G()
    g.s["rooms"][1][0] = [1]
    g.effect(op("placeMeetingDisc"))
    g.pick(["room", 1])
    g.pick(0)
    assert g.s["rooms"][1][1] == [0] and g.p(0)["money"] == 0 and len(g.p(0)["hand"]) == 4
    g.effect(op("placeLectureDisc"))
    assert all(o[2] in range(2, 7) for o in g.opts())
    g.pick(["lect", "inst_numbers", 6])
    g.pick(1)
    assert g.s["lect"]["inst_numbers"][4] == [0] and g.p(0)["innov"] == 0


@pytest.mark.rule("ADA-ICON-28", "ADA-ICON-29", "ADA-AMB-20")
def test_move_and_remove_disc_icons():
    g = G()
    g.s["rooms"][0][0] = [0]
    g.s["obj"]["study"] = [{"seat": 0, "space": "high", "round": 1}]
    g.effect(op("moveDisc"))                                             # only the room disc may move
    assert g.top()["kind"] == "move_dst"
    g.pick(["lect", "inst_lamps", 4])
    assert g.s["rooms"][0][0] == [] and g.s["lect"]["inst_lamps"][2] == [0] and g.p(0)["innov"] == 0
    g.effect(op("removeDisc"))
    g.pick(11)
    assert g.p(0)["covered"][11] is False and g.p(0)["boxed"] == 1


@pytest.mark.rule("ADA-ICON-30", "ADA-ICON-31")
def test_university_move_and_per_disc_icons():
    g = G()
    g.s["univ"]["bath"] = [1, 0]
    g.s["lect"]["inst_lamps"][0] = [0, 0]
    g.effect(op("perDisc", reward=op("gain", resource="coal", amount=1)))
    assert g.p(0)["coal"] == 3
    g.effect(op("moveUniversityDisc"))
    g.pick("sheffield")
    assert g.s["univ"]["bath"] == [1] and g.s["univ"]["sheffield"] == [0] and g.p(0)["brass"] == 2


@pytest.mark.rule("ADA-ICON-32")
def test_carry_out_icon():
    g = G()
    g.effect(op("carryOut", action="travel", rewards=True))
    g.pick("sheffield")
    g.pick(0)
    assert g.p(0)["city"] == "sheffield" and g.p(0)["brass"] == 2 and g.p(0)["money"] == 0
    g.effect(op("carryOut", action="institution", rewards=False))
    g.pick(["inst_ironworks", 5])
    g.pick(1)
    assert g.s["lect"]["inst_ironworks"][3] == [0] and g.p(0)["steam"] == C.STEAM_START
    hand, display = list(g.p(0)["hand"]), list(g.s["displays"]["meet"])
    g.effect(op("carryOut", action="meeting", rewards=False))          # no tick: a free disc, no card
    g.pick(2)
    g.pick(2)
    assert g.s["rooms"][2][0] == [0] and g.p(0)["hand"] == hand and g.s["displays"]["meet"] == display
    assert g.top()["name"] == "endopt"
    g.effect(op("carryOut", action="meeting", rewards=True))           # tick: also a card from its slot or right
    g.pick(3)                                                           # room 4: only its own slot
    g.pick(3)                                                           # disc from gear space 4
    assert display[3] in g.p(0)["hand"] and g.top()["kind"] == "remove"


@pytest.mark.rule("ADA-ICON-33", "ADA-ICON-34", "ADA-AMB-32", "ADA-AMB-15", "ADA-RESEARCH-05")
def test_scoring_token_icons():
    g = G()
    g.p(0)["atokens"] = {"blue": 2}
    g.effect(op("assignmentToken1"))
    assert "blue" not in g.opts()
    g.pick("green")
    assert g.p(0)["atokens"] == {"blue": 2, "green": 1}
    g.p(1)["research"]["green"] = C.RESEARCH["green"]["top"] - 1       # the icon took a 1 from under the 2:
    g.effect(op("research", track="green", n=1), seat=1)                # the first to reach the top gets the 2
    assert g.p(1)["atokens"] == {"green": 2}
    g.effect(op("scienceToken1", science="any"))
    g.pick("physics")
    g.effect(op("scienceToken1", science="physics"))
    assert g.p(0)["stokens"] == [{"science": "physics", "value": 1}] * 2


@pytest.mark.rule("ADA-ICON-35", "ADA-ICON-36", "ADA-STEAM-02", "ADA-STEAM-05", "ADA-AMB-51")
def test_steam_icons():
    g = G()
    g.p(0)["steam"] = 2
    g.effect(op("steam", payCoal=True))
    assert g.p(0)["steam"] == 2                                          # 1 Coal needed: skipped
    g.effect(op("steam", payCoal=False))
    assert g.p(0)["steam"] == 3 and g.p(0)["coal"] == 0
    g.p(0)["coal"] = 2
    g.effect(op("steam", payCoal=True))
    assert g.p(0)["steam"] == 4 and g.p(0)["coal"] == 0
    g.p(0)["steam"] = C.STEAM_MAX                                      # at the top: skipped (ADA-STEAM-05)
    g.effect(op("steam", payCoal=False))
    assert g.p(0)["steam"] == C.STEAM_MAX and not g.facts_of("SteamMoved")


@pytest.mark.rule("ADA-ICON-37", "ADA-STUDY-11")
def test_program_icon_no_rightmost_removal():
    g = G()
    display = list(g.s["displays"]["prog"])
    nxt = g.s["stacks"]["prog"][0]
    g.effect(op("takeProgram"))
    g.pick([1, "row3"])
    assert g.p(0)["programs"]["row3"] == display[1] and g.p(0)["brass"] == 2
    assert g.s["displays"]["prog"] == [nxt, display[0]] + display[2:]


@pytest.mark.rule("ADA-ICON-38", "ADA-AMB-64")
def test_any_advanced_icon():
    g = G()
    g.effect(op("anyAdvancedLevel1"))
    g.pick("meeting")
    g.pick("start1#0")                                                  # Meeting level 1: a free play
    assert g.p(0)["money"] == 2
    g.s["lect"]["inst_lamps"][3] = [0]
    g.effect(op("anyAdvancedLevel1"))
    g.fl["ref"] = None
    g.pick("institution")
    assert all(o[0] == "inst_lamps" and o[1] < 5 for o in g.opts())


@pytest.mark.rule("ADA-ICON-40")
def test_breakthrough_icon():
    g = G()
    g.effect(op("breakthrough", n=1, distinct=True))
    assert sorted(g.opts()) == sorted(C.COLOURS)
    g.pick("green")
    assert g.p(0)["brass"] == 1 and g.p(0)["coal"] == 1


@pytest.mark.rule("ADA-ICON-41", "ADA-ICON-42")
def test_die_swap_and_adjust_icons():
    g = G()
    g.store(0, die("blue", 2))
    g.p(0)["mill"][7] = die("green", 3)
    g.s["workshop"][0] = [die("grey", 6)]
    g.effect(op("swapDie"))
    assert g.opts() == [["store", 0], ["mill", 7]]                      # any die on one's own board
    g.pick(["store", 0])
    g.pick(["ws", 0, 0])
    assert g.p(0)["store"][0] == die("grey", 6) and g.s["workshop"][0] == [die("blue", 2)]
    g.effect(op("adjustDie", scope="both"))
    assert [["store", 0], 1] not in g.opts()
    g.pick([["ws", 0, 0], -1])
    assert g.s["workshop"][0][0]["v"] == 1
