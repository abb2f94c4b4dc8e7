"""The kernel's own contract, exercised through the Dice Duel test game."""

from __future__ import annotations

import pytest

from domain.engine import (
    EVERYONE, SPECTATOR, IllegalMove, Rng, copy_state, fold, new_game, play, visible_fact,
)
from tests.support.dice_duel import RULES
from tests.support.playout import random_playout


def test_rng_is_a_function_of_seed_and_move_number():
    assert [Rng(42, 7).die() for _ in range(3)] == [Rng(42, 7).die() for _ in range(3)]
    draws = {tuple(Rng(42, n).shuffled(range(20))) for n in range(10)}
    assert len(draws) == 10


def test_setup_facts_hide_the_deck_and_each_hand():
    state, facts = new_game(RULES, 2, {}, seed=3)
    shuffled, deal0, deal1 = facts
    assert visible_fact(shuffled, 0) == {"type": "DeckShuffled", "cards": 9}
    assert visible_fact(deal0, 0) == deal0
    assert "cards" not in visible_fact(deal0, 1)
    assert "cards" not in visible_fact(deal1, SPECTATOR)
    assert visible_fact(deal1, EVERYONE) == deal1


def test_out_of_turn_and_bad_moves_name_a_rule():
    state, _ = new_game(RULES, 2, {}, seed=3)
    with pytest.raises(IllegalMove) as error:
        play(RULES, state, 1, {"type": "roll"}, 3, 1)
    assert error.value.rule_id == "ENGINE-TURN-01"
    with pytest.raises(IllegalMove) as error:
        play(RULES, state, 0, {"type": "play", "card": 99}, 3, 1)
    assert error.value.rule_id == "DUEL-PLAY-01"
    with pytest.raises(IllegalMove) as error:
        play(RULES, state, 0, ["roll"], 3, 1)
    assert error.value.rule_id == "ENGINE-MOVE-01"


def test_play_leaves_the_input_state_alone():
    state, _ = new_game(RULES, 2, {}, seed=3)
    before = copy_state(state)
    play(RULES, state, 0, {"type": "roll"}, 3, 1)
    assert state == before


def test_player_count_is_checked():
    with pytest.raises(IllegalMove) as error:
        new_game(RULES, 3, {}, seed=1)
    assert error.value.rule_id == "ENGINE-PLAYERS-01"


@pytest.mark.parametrize("seed", range(10))
def test_random_playouts_replay_to_the_live_state(seed):
    result = random_playout(RULES, 2, seed)
    assert result["moves"] == 8
    assert result["winners"]


def test_simultaneous_bids_stay_hidden_until_both_are_in():
    state, _ = new_game(RULES, 2, {}, seed=5)
    for move_no in range(1, 7):
        seat = RULES.decision(state).seats[0]
        state, _ = play(RULES, state, seat, {"type": "roll"}, 5, move_no)
    assert RULES.decision(state).mode == "simultaneous"
    state, facts = play(RULES, state, 1, {"type": "bid", "points": 2}, 5, 7)
    assert visible_fact(facts[0], 0) == {"type": "BidCommitted", "seat": 1}
    assert RULES.view(state, 0)["bids"] == [None, True]
    assert RULES.view(state, SPECTATOR)["bids"] == [False, True]
    assert RULES.decision(state).seats == (0,)


def test_decision_json_carries_the_games_extra_details():
    from domain.engine import Decision

    assert Decision.single(0, "go").to_json() == {"seats": [0], "mode": "single", "prompt": "go"}
    detailed = Decision(seats=(0, 1), mode="team", prompt="build?", extra={"active": 1})
    assert detailed.to_json()["extra"] == {"active": 1}


def test_descriptions_name_the_players_when_names_were_given():
    from domain.engine.text import name_seats

    text = "Seat 0 plays the 5; seat 1 scores 2; Workshop space 3"
    assert name_seats(text, ["annette", "john"]) == "annette plays the 5; john scores 2; Workshop space 3"
    assert name_seats(text, ["seat 0", "seat 1"]) == text  # default names: left as the game wrote it
    assert name_seats("Seat 4 passes", ["annette"]) == "Seat 4 passes"
