"""Longer random playouts of Ada's Dream and Heredity for the move tree (issue 24.3): every position of
several seeded games, every player count, checked as the short generic test checks a few (slow)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.engine import get_rules, new_game, play
from tests.games.test_words_tree import content_words, plain_words, tree_problems

#: (game, seeds, moves per game): about a minute of CPU in all.
LONG = [("adas_dream", range(10, 16), 400), ("heredity", range(10, 16), 150)]


@pytest.mark.slow
@pytest.mark.parametrize("game, seeds, length", LONG)
def test_labels_and_paths_stay_unique_and_small_over_long_playouts(game, seeds, length):
    rules = get_rules(game)
    ids, fields = content_words(game)
    checked = 0
    for seed in seeds:
        players = rules.meta.min_players + seed % (rules.meta.max_players - rules.meta.min_players + 1)
        chooser = random.Random(seed)
        state, _ = new_game(rules, players, {}, seed)
        for k in range(1, length):
            if rules.is_over(state):
                break
            seat = chooser.choice(list(rules.decision(state).seats))
            moves = rules.legal_moves(state, seat)
            labels = [rules.label(state, seat, m) for m in moves]
            paths = rules.paths(state, seat, moves)
            assert not tree_problems(paths), (seed, k, tree_problems(paths)[:3])
            assert not [l for l, n in Counter(labels).items() if n > 1], (seed, k)
            assert not [step for p in paths for step in p if plain_words(step, ids, fields)], (seed, k)
            checked += 1
            state, _ = play(rules, state, seat, chooser.choice(moves), seed, k)
    assert checked > 100
