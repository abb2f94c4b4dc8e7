"""Positions for the bot tests: seeded random play to the first decisions worth searching."""

from __future__ import annotations

import random

from domain.engine import copy_state, get_rules, new_game, play
from domain.games import load_all

load_all()

GAMES = ("my_fathers_work", "abomination", "adas_dream", "heredity")


def positions(game: str, seed: int, count: int, players: int = 2, skip: int = 3, options: dict | None = None):
    """Up to `count` (state, seat) pairs where `seat` must choose among two moves or more."""
    rules = get_rules(game)
    chooser = random.Random(seed)
    state, _ = new_game(rules, players, options or {}, seed)
    found, moves = [], 0
    while not rules.is_over(state) and len(found) < count and moves < 3000:
        decision = rules.decision(state)
        seat = chooser.choice(list(decision.seats))
        legal = rules.legal_moves(state, seat)
        if len(legal) > 1 and moves % skip == 0:
            found.append((copy_state(state), seat))
        moves += 1
        state, _ = play(rules, state, seat, chooser.choice(legal), seed, moves)
    return found
