"""Seeded random playouts to the end: replay == live after every move, every legal move accepted."""

import pytest

from domain.engine import EVERYONE, SPECTATOR, new_game, play
from domain.games.adas_dream import RULES
from tests.support.playout import random_playout


@pytest.mark.rule("ADA-END-01", "ADA-END-02", "ADA-TURN-01")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(20))
def test_random_playout_terminates_and_replays(players, seed):
    result = random_playout(RULES, players, seed, check_every_legal_move=seed < 6)
    state = result["state"]
    assert state["over"]
    assert state["end_triggered"]
    # ADA-END-02: everybody has taken the same number of turns.
    assert len(set(state["turns"])) == 1
    assert len(result["winners"]) == 1


def test_randomised_mode_playout():
    result = random_playout(RULES, 3, 99, options={"mode": "randomised"}, check_every_legal_move=False)
    assert result["state"]["over"]


def _hidden_strings(state, seat):
    p = state["players"][seat]
    return set(p["hand"]) | set(p["deck"])


@pytest.mark.rule("ADA-SETUP-26")
def test_view_hides_hands_and_decks():
    state, _ = new_game(RULES, 3, {}, seed=5)
    import orjson
    for viewer in (1, SPECTATOR):
        text = orjson.dumps(RULES.view(state, viewer)).decode()
        for card in state["players"][0]["hand"] + state["players"][0]["deck"]:
            assert card not in text
        for card in state["stacks"]["meet"] + state["stacks"]["prog"] + state["stacks"]["assign"]:
            assert f'"{card}"' not in text
    own = RULES.view(state, 0)
    assert own["players"][0]["hand"] == state["players"][0]["hand"]
    assert "deck" not in own["players"][0]
    assert RULES.view(state, EVERYONE)["players"][0]["deck"] == state["players"][0]["deck"]
