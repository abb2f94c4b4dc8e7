"""Stored games are forever: facts recorded under the names of earlier releases still fold."""

from __future__ import annotations

import random

from domain.engine import copy_state, fold, new_game, play
from domain.games.my_fathers_work import RULES
from domain.games.my_fathers_work.evolve import RENAMED

OLD_NAMES = {new: old for old, new in RENAMED.items()}  # the template renames (issue 18)


def test_a_game_recorded_with_the_old_fact_names_replays_to_the_same_state():
    rnd = random.Random(4)
    state, log = new_game(RULES, 3, {}, 4)
    for k in range(400):
        if RULES.is_over(state):
            break
        seat = rnd.choice(list(RULES.decision(state).seats))
        state, facts = play(RULES, state, seat, rnd.choice(RULES.legal_moves(state, seat)), 4, k + 1)
        log += facts
    old = [dict(f, type=OLD_NAMES.get(f["type"], f["type"])) for f in log]
    assert any(f["type"] == "Asked" for f in old) and any(f["type"] == "QueueSaved" for f in old)
    assert fold(RULES.evolve, copy_state(RULES.initial_state(3, {})), old) == state
