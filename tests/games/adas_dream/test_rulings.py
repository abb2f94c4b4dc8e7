"""Tests pinning the rulings of RULINGS.md (the catalog's ADA-AMB-* readings and our own)."""

import orjson
import pytest

from domain.engine import new_game
from domain.games.adas_dream import RULES
from domain.games.adas_dream import state as S
from domain.games.adas_dream import content as C
from domain.games.adas_dream.scoring import final_scores
from tests.games.adas_dream.helpers import G, die
from tests.support.playout import random_playout


@pytest.mark.rule("ADA-SETUP-18")
@pytest.mark.parametrize("players, first", [(2, 0), (3, 1), (4, 2)])
def test_tier1_draft_goes_in_reverse_turn_order(players, first):
    from domain.engine import IllegalMove, play
    from domain.engine.rng import Rng
    state, _ = new_game(RULES, players, {"tier1_draft": True, "first_player": first}, 5)
    turn_order = [(first + k) % players for k in range(players)]
    drafters = []
    for no in range(1, players + 1):
        seat = RULES.decision(state).seats[0]
        drafters.append(seat)
        for other in set(range(players)) - {seat}:                    # nobody else may pick now
            assert RULES.legal_moves(state, other) == []
            with pytest.raises(IllegalMove) as err:
                RULES.decide(state, other, RULES.legal_moves(state, seat)[0], Rng(5, no))
            assert err.value.rule_id == "ADA-SETUP-18"
        state, _ = play(RULES, state, seat, RULES.legal_moves(state, seat)[-1], 5, no)
    assert drafters == list(reversed(turn_order))
    assert state["draft"] is None and RULES.decision(state).seats == (first,)   # then play starts in turn order


@pytest.mark.rule("ADA-AMB-47")
def test_tier1_draft_variant():
    state, _ = new_game(RULES, 3, {"tier1_draft": True}, 11)
    assert RULES.decision(state).seats == (2,)                          # reverse turn order
    picks = []
    seed_no = 0
    for seat in (2, 1, 0):
        moves = RULES.legal_moves(state, seat)
        assert len(moves) == 10 - len(picks) and RULES.legal_moves(state, (seat + 1) % 3) == []
        seed_no += 1
        from domain.engine import play
        state, facts = play(RULES, state, seat, moves[0], 11, seed_no)
        picks.append((seat, moves[0]["card"]))
    assert state["draft"] is None and len(state["unused_tier1"]) == 1
    for seat, card in picks:
        p = state["players"][seat]
        assert card in p["hand"] + p["deck"] and len(p["hand"]) == 4 and len(p["deck"]) == 4
    deck = state["stacks"]["meet"]
    tier1_left = [c for c in state["displays"]["meet"] + deck[:2] if c and C.partner(c)["tier"] == "1"]
    assert len(tier1_left) == 6 and len(deck) == 32
    assert RULES.decision(state).seats == (0,)
    assert random_playout(RULES, 2, 3, options={"tier1_draft": True}, check_every_legal_move=False)["state"]["over"]


@pytest.mark.rule("ADA-AMB-06", "ADA-AMB-07")
def test_short_bag_and_empty_spaces():
    g = G()
    g.s["bag"] = {c: 0 for c in C.DIE_COLOURS}
    g.s["bag"]["blue"] = 1
    g.s["workshop"][0] = [die("blue", 6)]
    g.s["workshop"][1] = [die("green", 1)]
    hand = len(g.p(0)["hand"])
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    assert [d["c"] for d in g.s["workshop"][0]] == ["blue"] and len(g.p(0)["hand"]) == hand + 2
    g2 = G()
    g2.p(0)["coal"] = 1
    g2.s["workshop"][1] = []
    g2.s["workshop"][0] = [die("blue", 6)]
    g2.s["workshop"][2] = [die("green", 1)]
    g2.rej("ADA-WORKSHOP-08", type="workshop", space=0, die=0, extra=False, push=0)
    g2.move(type="workshop", space=0, die=0, extra=True, push=0)       # passing over the empty space
    assert g2.fl["moved"]


@pytest.mark.rule("ADA-AMB-13", "ADA-AMB-14")
def test_breakthrough_passed_over_and_split_research():
    g = G()
    space = C.RESEARCH["blue"]["breakthrough_spaces"][0]
    g.p(0)["research"]["blue"] = space - 1
    g.effect({"op": "research", "track": "blue", "n": 2})
    assert g.p(0)["research"]["blue"] == space + 1 and g.p(0)["innov"] == 1       # bt_spark
    g.effect({"op": "research", "track": "any", "n": 2})
    g.pick("green")
    g.pick("yellow")
    assert g.p(0)["research"]["green"] == 1 and g.p(0)["research"]["yellow"] == 1


@pytest.mark.rule("ADA-AMB-35")
def test_display_runs_out():
    g = G()
    g.s["stacks"]["prog"] = []
    g.s["displays"]["prog"] = [None, None, None, "prog01", "prog02"]
    g.actions_turn(0, "purple", 3)
    assert all(o[0] in (3, 4) for o in g.opts())
    g.rej_pick("ADA-PROGRAM-03", [0, "row1"])
    g.pick([3, "row1"])
    assert g.s["displays"]["prog"] == [None, None, None, None, None]   # prog02 removed, nothing refills
    g2 = G()
    g2.s["displays"]["meet"] = ["t2_01", None, None, None]
    g2.p(0)["money"] = 10
    g2.store(0, die("yellow", 3))
    assert {o["room"] for o in S.meeting_options(g2.s, 0)} == {0}


@pytest.mark.rule("ADA-AMB-36", "ADA-AMB-37")
def test_addition_supply_unlimited_and_subtraction_cost():
    g = G()
    g.effect({"all": [{"op": "studyItem", "kind": "addition"}] * 30})
    assert g.p(0)["gear_supply"].count("add") == 31
    assert C.GEAR_COST["sub"] == C.GEAR_COST["add"] == {"money": 0, "coal": 1, "brass": 2, "innovation": 0}


@pytest.mark.rule("ADA-AMB-39")
def test_negative_line_value_scores_below_zero():
    g = G()
    p = g.p(0)
    p["mill"][:3] = [die("blue", 1), die("blue", 6), die("blue", 6)]
    p["gears"][0:2] = ["sub", "sub"]
    assert final_scores(g.s)[0]["lines"] == -11


@pytest.mark.rule("ADA-AMB-44")
def test_pass_turn_when_nothing_is_possible():
    g = G()
    g.store(0, *[die("green", 3)] * C.STORE_SLOTS)                     # full Store, Innovation 0
    assert g.legal() == [{"type": "pass"}]
    g.move(type="pass")
    assert "publish" not in g.types()
    g.move(type="end_turn")
    assert g.active == 1 and g.s["turns"][0] == 1
    g2 = G()
    g2.rej("ADA-AMB-44", type="pass")


@pytest.mark.rule("ADA-AMB-56")
def test_discards_and_removed_cards_are_public():
    g = G()
    g.p(0)["discard"] = ["start1#0"]
    g.s["removed"] = ["t2_09"]
    text = orjson.dumps(RULES.view(g.s, 1)).decode()
    assert "start1#0" in text and "t2_09" in text


@pytest.mark.rule("ADA-AMB-60")
def test_free_play_in_step_6_is_extra():
    g = G()
    g.s["workshop"][0] = [die("blue", 6), die("blue", 6)]
    g.s["workshop"][1] = [die("purple", 4)]
    g.p(0)["hand"] = ["t2_27", "start1#0", "start2#0", "start5#0"]   # t2_27: money cost, play a card free
    g.p(0)["money"] = 4
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    g.pick("yellow")
    g.move(type="play", card="t2_27")
    g.pick("start1#0")
    assert g.p(0)["discard"] == ["t2_27", "start1#0"] and g.p(0)["money"] == 2


@pytest.mark.rule("ADA-AMB-61")
def test_visiting_means_a_disc_on_each_university():
    g = G()
    g.s["objectives"]["travel"] = "obj_travel_A1"                       # Oxford and Cambridge
    cond = C.OBJECTIVES["obj_travel_A1"]["condition"]
    g.s["univ"]["oxford"] = [0]
    assert not S.condition_met(g.s, 0, cond)
    g.p(0)["city"] = "cambridge"                                        # standing there is not a visit
    assert not S.condition_met(g.s, 0, cond)
    g.s["univ"]["cambridge"] = [1, 0]
    assert S.condition_met(g.s, 0, cond)


@pytest.mark.rule("ADA-AMB-03", "ADA-AMB-04", "ADA-AMB-05", "ADA-AMB-08")
def test_adjust_targets_and_push_choice():
    g = G()
    g.p(0)["coal"] = 1
    g.s["workshop"][0] = [die("blue", 5), die("grey", 2)]
    g.s["workshop"][1] = [die("green", 1), die("yellow", 4), die("purple", 6)]
    pushes = {m["push"] for m in g.legal() if m["type"] == "workshop" and m["space"] == 0 and m["die"] == 0
              and not m["extra"]}
    assert pushes == {0, 1}                                             # the player chooses among eligible dice
    assert all(m["space"] in range(6) for m in g.legal() if m["type"] == "adjust")
    g.rej("ADA-AMB-03", type="adjust", space=6, die=0, delta=1)
    g.move(type="adjust", space=1, die=2, delta=-1)
    g.move(type="workshop", space=0, die=0, extra=False, push=1)
    g.pick("yellow")
    assert g.p(0)["store"][C.STORE_SLOTS - 1] == die("yellow", 4)        # highest empty Store slot


@pytest.mark.rule("ADA-AMB-18", "ADA-AMB-29")
def test_disc_source_choice_and_gear_anywhere():
    g = G()
    g.p(0)["money"] = 5
    g.actions_turn(0, "yellow", 3)
    g.pick({"room": 3, "pay": "money", "slot": 3})
    assert g.top()["kind"] == "disc_src" and g.opts() == list(range(12))
    g.pick(11)
    assert g.p(0)["covered"][11] is False
    assert C.LEVEL1_REWARD is None                                       # ADA-AMB-29: level 1 never offered


@pytest.mark.rule("ADA-AMB-01", "ADA-AMB-02")
def test_equal_turns_and_extra_move_of_the_chosen_die_only():
    g = G()
    g.p(0)["coal"] = 1
    g.s["workshop"][0] = [die("blue", 5)]
    g.s["workshop"][1] = [die("green", 6)]
    g.s["workshop"][2] = [die("grey", 2)]
    g.move(type="workshop", space=0, die=0, extra=True, push=0)
    assert g.s["workshop"][1] == [die("green", 6)] and die("blue", 5) in g.s["workshop"][2]
    result = random_playout(RULES, 3, 4, check_every_legal_move=False)
    assert len(set(result["state"]["turns"])) == 1


@pytest.mark.rule("ADA-AMB-41", "ADA-AMB-43")
def test_out_of_turn_build_claims_objective_with_first_disc():
    g = G()
    g.s["objectives"]["travel"] = "obj_travel_B3"                        # 5 gears built
    assert C.OBJECTIVES["obj_travel_B3"]["condition"] == {"gearsBuilt": "any", "n": 5}
    p = g.p(0)
    p["gears"][:4] = ["sub", "sub", "add", "add"]
    p["covered"][:5] = [False] * 5
    p.update(brass=2, coal=1)
    g.actions_turn(0, "purple", 3)
    g.pick([0, "row1"])
    g.pick("book")
    g.move(type="end_turn", defer_build=True)
    g.do(0, {"type": "build", "gear": "add", "space": 4})
    assert g.s["obj"]["travel"] == [{"seat": 0, "space": "high", "round": 1}]
    assert g.p(0)["covered"][5] is False and g.active == 1


@pytest.mark.rule("ADA-AMB-17", "ADA-TRAVEL-05")
def test_travel_needs_a_placeable_disc_for_a_new_university():
    g = G()
    g.p(0)["covered"] = [False] * 12
    g.s["obj"]["study"] = [{"seat": 0, "space": "high", "round": 1}]     # the only placed disc cannot move
    g.p(0)["money"] = 2
    dests = [c for c, _ in S.travel_destinations(g.s, 0)]
    assert "reading" not in dests and "oxford" not in dests and dests
    assert all(C.CITIES[c]["kind"] == "small" for c in dests)


@pytest.mark.rule("ADA-AMB-40", "ADA-AMB-41")
def test_out_of_turn_claim_is_not_held_up_by_the_active_players_card_gain():
    g = G()
    g.s["objectives"]["travel"] = "obj_travel_B3"                        # 5 gears built
    p = g.p(0)
    p["gears"][:4] = ["sub", "sub", "add", "add"]
    p["covered"][:5] = [False] * 5
    p.update(brass=2, coal=1)
    g.actions_turn(0, "purple", 3)
    g.pick([0, "row1"])
    g.pick("book")
    g.move(type="end_turn", defer_build=True)
    g.p(1)["money"] = 5
    g.actions_turn(1, "yellow", 3)
    g.pick({"room": 0, "pay": "money", "slot": 0})
    g.pick(0)
    assert g.top()["kind"] == "remove" and g.fl["gaining"]               # seat 1 is mid-gain
    g.do(0, {"type": "build", "gear": "add", "space": 4})
    assert g.s["obj"]["travel"] == [{"seat": 0, "space": "high", "round": 1}]
    assert g.top()["kind"] == "remove" and g.active == 1
