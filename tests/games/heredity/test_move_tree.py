"""Heredity's move tree and labels (issue 24.3): the opening window, where four PCs stand beside Swan."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.engine import new_game, play
from domain.games.heredity import RULES


@pytest.mark.rule("HER-DECIDE-03", "HER-DECIDE-17")
def test_the_opening_window_lists_one_move_per_distinct_effect_in_a_small_tree():
    state, _ = new_game(RULES, 2, {}, 1)
    moves = RULES.legal_moves(state, 0)
    labels = [RULES.label(state, 0, m) for m in moves]
    paths = RULES.paths(state, 0, moves)
    assert len(moves) < 618                                    # twin slots listed once (was 618)
    assert len(set(labels)) == len(labels) and len({tuple(p) for p in paths}) == len(paths)
    first = Counter(p[0] for p in paths)
    assert len(first) <= 12 and "Attack" in first and "Move" in first
    on_swan = [p for p in paths if p[0] == "Attack" and p[1] == "Swan (an ally)"]
    assert on_swan and first["Attack"] == len(on_swan) + sum(1 for p in paths if p[0] == "Attack" and
                                                               p[1] != "Swan (an ally)")
    for depth in range(1, 5):                                  # no level holds more than 40 steps
        under = Counter(tuple(p[:depth]) for p in paths if len(p) > depth)
        children = {prefix: {p[depth] for p in paths if tuple(p[:depth]) == prefix and len(p) > depth}
                    for prefix in under}
        assert max((len(c) for c in children.values()), default=0) <= 40
    # a twin slot's move is accepted and decided as played (stored games and records keep working)
    move = next(m for m in moves if m["type"] == "move" and m["pc"] == "maeve" and len(m["slots"]) == 1)
    assert move["slots"] == ["3.e"] and {**move, "slots": ["3.f"]} not in moves
    after, facts = play(RULES, state, 0, {**move, "slots": ["3.f"]}, 1, 1)
    assert after["slots"]["3.f"]["t"] is not None and "3.e" not in after["slots"]
    targets = RULES.targets(state, 0, moves)
    assert all(f"pc:{m['pc']}" in t for m, t in zip(moves, targets) if "pc" in m)
    assert any("npc:133" in t for t in targets)
