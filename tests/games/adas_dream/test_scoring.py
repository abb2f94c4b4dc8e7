"""Final scoring (2.22), the book's scoring examples (ADA-EX-12..15), end of game (2.21)."""

import pytest

from domain.engine import IllegalMove
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C
from domain.games.adas_dream.scoring import final_scores, ranked_winners
from tests.games.adas_dream.helpers import G, die


def mill(rows):
    return [die("blue", v) for row in rows for v in row]


def anthony_lines():
    g = G()
    p = g.p(0)
    p["steam"] = 5
    assert C.STEAM_LEVELS[5]["line_cap"] == 30
    p["mill"] = mill([[5, 3, 4], [5, 4, 1], [5, 2, 3]])
    p["gears"] = ["add", "mult01", "add", "sub", "sub", "add", "mult02", "add", None, None, None, None]
    return g


@pytest.mark.rule("ADA-EX-12", "ADA-SCORE-12", "ADA-SCORE-13", "ADA-SCORE-14", "ADA-SCORE-15", "ADA-STEAM-03",
                  "ADA-GEAR-01", "ADA-GEAR-02", "ADA-AMB-49")
def test_ex12_completed_lines_total_74():
    g = anthony_lines()
    assert final_scores(g.s)[0]["lines"] == 74


@pytest.mark.rule("ADA-EX-14", "ADA-SCORE-13")
def test_ex14_sequential_evaluation():
    g = G()
    p = g.p(0)
    p["steam"] = 4
    p["mill"][:3] = mill([[2, 3, 5]])
    p["gears"][0:2] = ["add", "mult03"]
    assert final_scores(g.s)[0]["lines"] == 25


@pytest.mark.rule("ADA-EX-15", "ADA-SCORE-19")
@pytest.mark.parametrize("money,coal,brass,books,expected", [(7, 4, 3, 0, 1), (5, 2, 2, 0, 0), (10, 5, 5, 0, 2),
                                                               (0, 0, 0, 3, 3)])
def test_ex15_leftovers(money, coal, brass, books, expected):
    g = G()
    g.p(0).update(money=money, coal=coal, brass=brass, book=books)
    assert final_scores(g.s)[0]["leftovers"] == expected


ISOBEL_CARDS = ["t2_01", "t2_13", "t2_14", "t2_08", "t1_06", "start1#1", "t2_17", "start7#1"]


def isobel_107(monkeypatch):
    g = G()
    s = g.s
    p = g.p(1)
    s["objectives"]["meeting"] = "obj_meeting_A1"
    assert C.OBJECTIVES["obj_meeting_A1"]["prestige_high"] == 7
    s["obj"]["meeting"] = [{"seat": 1, "space": "high", "round": 1}]
    s["univ_tiles"]["bristol"], s["univ_tiles"]["manchester"] = "uni_s_bristol", "uni_c_manchester"
    s["univ"] = {"bristol": [1, 1], "manchester": [1]}
    s["room_science"] = ["engineering", "astronomy", "mathematics", "physics"]
    s["rooms"][0] = [[1], [1], [0]]
    s["rooms"][1] = [[1], [], []]
    s["lect"]["inst_ironworks"][4] = [1]
    s["lect"]["inst_lamps"][4] = [0]
    p["hand"], p["deck"], p["discard"] = ISOBEL_CARDS[:4], ISOBEL_CARDS[4:], []
    p["known_partners"] = [c for c in ISOBEL_CARDS if c != "t1_06"]   # t1_06: her face-down setup card
    p["programs"] = {"row1": "prog14", "row2": "prog04", "col1": "prog08", "row3": "prog07"}   # 9 + 7 + 8 + 6 (sample pack)
    p["steam"] = 4
    p["mill"] = mill([[5, 5, 5], [2, 4, 3], [3, 1, 6]])
    p["gears"] = ["mult01", "add", "add", "add", "sub", None, "add", "add", "sub", None, None, None]
    p["covered"] = [g_ is None for g_ in p["gears"]]
    p["innov"] = 0
    p["atokens"] = {"purple": 2, "green": 1}
    p["columns"] = {"purple": ["asg02", "asg08"], "green": ["asg04", "asg11"], "blue": [], "yellow": []}
    p.update(book=0, money=7, coal=4, brass=3)
    return g


@pytest.mark.rule("ADA-EX-13", "ADA-SCORE-01", "ADA-SCORE-02", "ADA-SCORE-03", "ADA-SCORE-04", "ADA-SCORE-05",
                  "ADA-SCORE-06", "ADA-SCORE-09", "ADA-SCORE-10", "ADA-SCORE-11", "ADA-SCORE-16", "ADA-SCORE-17",
                  "ADA-SCORE-18", "ADA-PROGRAM-06", "ADA-AMB-30", "ADA-AMB-31")
def test_ex13_isobels_total_107(monkeypatch):
    g = isobel_107(monkeypatch)
    s = final_scores(g.s)[1]
    expected = {"objectives": 7, "universities": 6, "science": 8, "lectures": 4, "programs": 30, "lines": 44,
                "gear_penalty": -8, "innovation": 0, "assignment_tokens": 6, "partners": 9, "leftovers": 1}
    assert {k: s[k] for k in expected} == expected
    assert s["total"] == 107
    # the running score (game not over) leaves out her face-down tier-1 card t1_06 (Prestige 1, no Science)
    assert RULES.scores(g.s)[1] == 107 - C.partner("t1_06")["prestige"] == 106
    g.s["final"] = final_scores(g.s)                    # at game end, the final sheet counts every card
    assert RULES.scores(g.s)[1] == 107


@pytest.mark.rule("ADA-SCORE-07", "ADA-SCORE-08")
def test_meeting_room_ties_and_absence(monkeypatch):
    g = isobel_107(monkeypatch)
    g.s["rooms"][0] = [[1], [0], []]                                    # tie 1-1: both take a 1-token
    s = final_scores(g.s)
    assert s[1]["science"] == 1 * 2 + 2 * 2
    g.s["rooms"][1] = [[], [], []]                                      # no disc: no token
    assert final_scores(g.s)[1]["science"] == 2


@pytest.mark.rule("ADA-PROGRAM-07", "ADA-PROGRAM-08", "ADA-PROGRAM-09", "ADA-SCORE-11", "ADA-AMB-48")
def test_program_needs_three_dice_meeting_criteria(monkeypatch):
    g = isobel_107(monkeypatch)
    p = g.p(1)
    p["gears"][0] = None                                               # gears do not matter for Programs
    assert final_scores(g.s)[1]["programs"] == 30
    p["mill"][2] = None
    assert final_scores(g.s)[1]["programs"] == 21
    p["mill"][2] = die("blue", 4)
    assert final_scores(g.s)[1]["programs"] == 21
    p["mill"][2] = die("blue", 5)                                      # values changed late count
    assert final_scores(g.s)[1]["programs"] == 30


@pytest.mark.rule("ADA-EX-10", "ADA-PUBLISH-13", "ADA-PROGRAM-09", "ADA-SCORE-22")
def test_ex10_institution_publish_swap_meets_program():
    assert C.PROGRAMS["prog02"]["criteria"] == {"valuesIn": [5, 6]} and C.PROGRAMS["prog02"]["prestige"] == 7
    g = G()
    p = g.p(0)
    p["book"], p["innov"] = 1, 1
    p["programs"]["row1"] = "prog02"
    p["mill"][0:3] = [die("blue", 1), die("yellow", 6), die("green", 5)]
    g.s["workshop"][3] = [die("purple", 6)]
    assert final_scores(g.s)[0]["programs"] == 0
    pips = final_scores(g.s)[0]["mill_pips"]
    g.actions_turn(0, "green", 2, slot=8)
    g.pick({"inst": "inst_ironworks", "level": 2})
    g.pick(0)
    g.move(type="publish")
    g.pick(["mill", 0])
    g.pick(["ws", 3, 0])
    assert g.p(0)["mill"][0] == die("purple", 6) and g.s["workshop"][3] == [die("blue", 1)]
    assert g.p(0)["book"] == 0
    assert final_scores(g.s)[0]["programs"] == 7
    assert final_scores(g.s)[0]["mill_pips"] == pips + 2 + 5
    g2 = G()
    g2.p(0)["book"] = 1


@pytest.mark.rule("ADA-SCORE-20", "ADA-SCORE-21", "ADA-SCORE-22", "ADA-SCORE-23", "ADA-AMB-45")
def test_winner_and_tie_breaks():
    g = G(n=3, first_player=1)
    base = {"total": 10, "gears_built": 3, "mill_pips": 20}
    scores = [dict(base), dict(base), dict(base)]
    scores[2]["total"] = 11
    assert ranked_winners(g.s, scores) == [2]
    scores[2]["total"] = 10
    scores[0]["gears_built"] = 4
    assert ranked_winners(g.s, scores) == [0]
    scores[0]["gears_built"] = 3
    scores[2]["mill_pips"] = 21
    assert ranked_winners(g.s, scores) == [2]
    scores[2]["mill_pips"] = 20
    assert ranked_winners(g.s, scores) == [1]                                  # the First Player token holder
    scores[1]["total"] = 0
    assert ranked_winners(g.s, scores) == [2]                                  # then clockwise from them


@pytest.mark.rule("ADA-SCORE-24", "ADA-STEAM-04", "ADA-STEAM-06")
def test_no_scoring_during_play_and_steam_caps():
    g = G()
    assert g.s["final"] is None
    caps = [C.STEAM_LEVELS[k]["line_cap"] for k in sorted(C.STEAM_LEVELS)]
    assert caps == sorted(set(caps)) and C.STEAM_LEVELS[3]["line_cap"] == 20
    g.actions_turn(0, "purple", 3)
    g.pick([0, "row1"])
    g.pick("book")
    g.skip_to_end()
    assert g.s["final"] is None and not any(f["type"] == "GameOver" for f in g.facts)


def near_end(n=2):
    g = G(n=n)
    for seat in range(n):
        g.p(seat)["mill"] = [die("blue", 2)] * 8 + [None]
    return g


def study_turn(g, value=3):
    g.actions_turn(g.active, "purple", value, slot=8)
    g.pick(g.opts()[0])
    g.pick("book")
    g.skip_to_end()


@pytest.mark.rule("ADA-END-01", "ADA-END-02", "ADA-END-04", "ADA-END-05", "ADA-SCORE-24")
def test_end_trigger_then_equal_turns():
    g = near_end(3)
    g.actions_turn(0, "purple", 3, slot=8)
    assert g.facts_of("EndTriggered") == [{"type": "EndTriggered", "seat": 0}]
    g.pick(g.opts()[0])
    g.pick("book")
    g.skip_to_end()
    assert g.s["end_triggered"] and not g.s["over"] and g.active == 1
    g.actions_turn(1, "purple", 3, slot=8)                            # seat 1 also completes: no second trigger
    assert g.facts_of("DieToMill") and not g.facts_of("EndTriggered")
    g.pick(g.opts()[0])
    g.pick("book")
    g.skip_to_end()
    assert not g.s["over"] and g.active == 2
    study_turn(g)
    assert g.s["over"] and g.s["turns"] == [1, 1, 1]
    assert g.s["final"] is not None and RULES.winners(g.s)
    with pytest.raises(IllegalMove) as err:
        RULES.decide(g.s, 0, {"type": "pass"}, None)
    assert err.value.rule_id == "ADA-END-04"


@pytest.mark.rule("ADA-END-03")
def test_trigger_by_last_player_ends_at_once():
    g = near_end(2)
    g.p(0)["mill"][8] = None
    g.p(0)["mill"][7] = None
    study_turn(g)
    assert not g.s["end_triggered"]
    study_turn(g)
    assert g.s["over"] and g.s["turns"] == [1, 1]
