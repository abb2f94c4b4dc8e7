"""Seeded random playouts to the end for 2, 3 and 4 players, and hidden-information checks."""

from __future__ import annotations

import orjson
import pytest

from domain.engine import SPECTATOR, new_game, play
from domain.games.abomination import RULES
from tests.support.playout import random_playout

SEEDS = range(20)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.rule("ABOM-ENDGAME-04", "ABOM-SETUP-01")
def test_random_playouts_terminate_and_replay(players):
    for seed in SEEDS:
        result = random_playout(RULES, players, seed, check_every_legal_move=seed < 8)
        assert RULES.is_over(result["state"])
        assert result["winners"]
        assert set(result["scores"]) == set(range(players))


def _play_some(players, seed, moves):
    import random
    chooser = random.Random(seed)
    state, _ = new_game(RULES, players, {}, seed)
    for k in range(moves):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, k + 1)
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_views_hide_hands_decks_and_held_encounters(players):
    for seed in range(6):
        for moves in (5, 60, 150):
            state = _play_some(players, seed, moves)
            for viewer in [SPECTATOR] + list(range(players)):
                v = RULES.view(state, viewer)
                assert "decks" not in v and "removedObjectives" not in v
                for seat, p in enumerate(v["p"]):
                    if seat != viewer:
                        assert all(isinstance(x, int) for x in p["hands"].values())
                for h in v["held"]:
                    if h["holder"] != viewer:
                        assert set(h) == {"holder"}
                blob = orjson.dumps(v)
                for seat, p in enumerate(state["p"]):
                    if seat != viewer:
                        for card in p["hands"]["research"] + p["hands"]["humanity"]:
                            shown = state["displays"]["academy"] + state["displays"]["saintRoch"]
                            if card not in shown:
                                assert card.encode() not in blob
                assert all(len(v["displays"]["hospital"]) <= 1 for _ in [0])


@pytest.mark.rule("ABOM-SETUP-19", "ABOM-EVENT-13")
def test_playouts_with_options():
    for seed in range(4):
        random_playout(RULES, 2, seed, options={"firstTwoPlayerGame": True, "manualAnnounce": True},
                       check_every_legal_move=seed < 2)
        random_playout(RULES, 4, seed, options={"manualAnnounce": True}, check_every_legal_move=False)
