"""Ada's Dream's move tree and labels (issue 24.3): identical dice listed once, a busy position's tree."""

from __future__ import annotations

import random
from collections import Counter

from domain.engine import new_game, play
from domain.games.adas_dream import RULES


def _busiest(seed: int = 1, moves: int = 60):
    """The position with the longest move list of a short seeded playout."""
    chooser = random.Random(seed)
    state, _ = new_game(RULES, 3, {}, seed)
    best = (0, None, None)
    for k in range(1, moves):
        seat = chooser.choice(list(RULES.decision(state).seats))
        listed = RULES.legal_moves(state, seat)
        if len(listed) > best[0]:
            best = (len(listed), state, seat)
        state, _ = play(RULES, state, seat, chooser.choice(listed), seed, k)
    return best


def test_a_busy_position_reads_as_a_small_tree_of_distinct_labels():
    count, state, seat = _busiest()
    moves = RULES.legal_moves(state, seat)
    labels = [RULES.label(state, seat, m) for m in moves]
    paths = RULES.paths(state, seat, moves)
    assert count > 40 and len(set(labels)) == len(labels) and len({tuple(p) for p in paths}) == len(paths)
    assert max(len(label) for label in labels) <= 150
    first = Counter(p[0] for p in paths)
    assert len(first) <= 12 and set(first) <= {"Workshop turn", "Actions turn", "Change a Workshop die for 1 Coal",
                                                "Pass"}
    targets = RULES.targets(state, seat, moves)
    workshop = [t for m, t in zip(moves, targets) if m["type"] == "workshop"]
    assert workshop and all(t[0].startswith("space:workshop.") for t in workshop)


def test_identical_dice_are_one_move_and_the_other_is_still_accepted():
    state, _ = new_game(RULES, 2, {}, 3)
    seat = RULES.decision(state).seats[0]
    ws = state["workshop"]
    ws[0] = [{"c": "purple", "v": 2}]
    ws[1] = [{"c": "yellow", "v": 1}, {"c": "yellow", "v": 1}, {"c": "blue", "v": 5}]
    listed = [m for m in RULES.legal_moves(state, seat) if m["type"] == "workshop" and m["space"] == 0]
    assert [m["push"] for m in listed if not m["extra"]] == [0]          # the two yellow 1s: one move
    twin = dict(listed[0], push=1)
    assert RULES.listed_form(state, seat, twin) == listed[0]
    after, facts = play(RULES, state, seat, twin, 3, 1)                  # decided as played
    assert after["workshop"][1].count({"c": "yellow", "v": 1}) == 1 and {"c": "purple", "v": 2} in after["workshop"][1]
