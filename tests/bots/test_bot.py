"""The generic bot: a legal move, the same one for the same seed, from samples the rules accept."""

from __future__ import annotations

import pytest

from domain.bots import LEVELS, bot_move, level, think
from domain.bots.hooks import hooks_for
from domain.engine import get_rules

from .positions import GAMES, positions


def test_levels_are_iteration_budgets():
    assert list(LEVELS) == ["random", "easy", "normal"]
    assert level("random").iterations == 0 < level("easy").iterations < level("normal").iterations
    with pytest.raises(KeyError, match="grandmaster"):
        level("grandmaster")


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_plays_a_legal_move_the_same_for_the_same_seed(game):
    rules = get_rules(game)
    hooks = hooks_for(rules)
    iterations = failures = 0
    for state, seat in positions(game, 21, 3, skip=11):
        legal = rules.legal_moves(state, seat)
        chosen = bot_move(rules, state, seat, "normal", 5)
        assert chosen in legal
        assert bot_move(rules, state, seat, "normal", 5) == chosen
        assert bot_move(rules, state, seat, "random", 5) in legal
        result = think(rules, hooks.knowledge(state, seat), seat, legal, level("normal"), 5, len(rules.scores(state)))
        assert result.move == chosen
        iterations += result.iterations
        failures += result.failures
    # a sample is a guess at hidden cards: the rules must accept nearly every one of them
    assert failures <= 0.25 * iterations, f"{game}: {failures} of {iterations} sampled iterations failed"
