"""Stored games are forever: facts recorded under the names of earlier releases still fold and read.

Every registered game whose `evolve.py` keeps `RENAMED = {old name: current name}` (the template's
renames, issue 18; domain/games/README.md) replays a seeded random game twice: as played, and with
every renamed fact under its old name. Both folds give the same state, and every move's sentence
is the same, so describe reads the old names too.
"""

from __future__ import annotations

import importlib
import random

import pytest

from domain.engine import copy_state, fold, game_types, new_game, play
from domain.games import load_all

load_all()
RENAMING = {}
for _rules in game_types():
    if type(_rules).__module__.startswith("domain.games."):
        _renamed = getattr(importlib.import_module(f"domain.games.{_rules.meta.name}.evolve"), "RENAMED", None)
        if _renamed:
            RENAMING[_rules.meta.name] = (_rules, _renamed)
MAX_MOVES = 400
#: Old fact names that stored games hold: a game's RENAMED may grow, never lose one of these.
STORED_OLD_NAMES = {
    "abomination": {"PendingPopped"},
    "my_fathers_work": {"Asked", "Answered", "QueueSaved"},
    "heredity": {"Pending", "PendingCleared", "StackPush", "StackPop", "StackStep", "FrameVar"},
}


@pytest.mark.parametrize("name", sorted(STORED_OLD_NAMES))
def test_every_stored_old_name_is_still_renamed(name):
    assert name in RENAMING and set(RENAMING[name][1]) >= STORED_OLD_NAMES[name]


@pytest.mark.parametrize("name", sorted(RENAMING))
def test_a_game_recorded_with_the_old_fact_names_replays_and_reads_the_same(name):
    rules, renamed = RENAMING[name]
    old_name = {}
    for old, new in renamed.items():
        old_name.setdefault(new, old)  # the first old name of each current one (all of them: below)
    players = min(3, rules.meta.max_players)
    rnd = random.Random(4)
    state, log = new_game(rules, players, {}, 4)
    seen = set()
    for k in range(MAX_MOVES):
        if rules.is_over(state):
            break
        seat = rnd.choice(list(rules.decision(state).seats))
        move = rnd.choice(rules.legal_moves(state, seat))
        after, facts = play(rules, state, seat, move, 4, k + 1)
        old = [dict(f, type=old_name.get(f["type"], f["type"])) for f in facts]
        seen |= {f["type"] for f in old} & set(renamed)
        assert rules.describe(state, seat, move, old) == rules.describe(state, seat, move, facts), move
        state, log = after, log + facts
    assert seen, f"{name}: the playout met none of the renamed facts {sorted(renamed)}"
    olds = {}
    for old, new in renamed.items():
        olds.setdefault(new, []).append(old)
    for i in range(max(len(names) for names in olds.values())):  # each old name of a current one in turn
        alias = {new: names[min(i, len(names) - 1)] for new, names in olds.items()}
        old_log = [dict(f, type=alias.get(f["type"], f["type"])) for f in log]
        assert fold(rules.evolve, copy_state(rules.initial_state(players, {})), old_log) == state, alias
