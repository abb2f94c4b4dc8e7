"""Seeded random playouts: the generic check every registered game must pass.

After every move: replaying all facts from the initial state equals the live state,
states stay JSON-native, and every listed legal move is accepted by `decide` (which leaves
the state it is given unchanged).
"""

from __future__ import annotations

import random

import orjson

from domain.engine import Rules, copy_state, fold, is_json_native, new_game, play
from domain.engine.rng import Rng


def random_playout(rules: Rules, players: int, seed: int, *, max_moves: int = 20000,
                   check_every_legal_move: bool = True, options: dict | None = None) -> dict:
    """Play random legal moves to the end; assert the invariants; return a summary."""
    chooser = random.Random(seed * 7919 + players)
    options = options or {}
    state, setup_facts = new_game(rules, players, options, seed)
    initial = rules.initial_state(players, options)
    log = list(setup_facts)
    replayed = fold(rules.evolve, copy_state(initial), setup_facts)
    moves = 0
    while not rules.is_over(state):
        assert moves < max_moves, f"{rules.meta.name}: no end after {max_moves} moves (seed {seed})"
        decision = rules.decision(state)
        assert decision.seats, f"nobody to act but the game is not over (seed {seed}, move {moves})"
        seat = chooser.choice(list(decision.seats))
        legal = rules.legal_moves(state, seat)
        assert legal, f"seat {seat} must act but has no legal move (seed {seed}, move {moves})"
        if check_every_legal_move:
            # On the live state itself, as `play` calls it: a `decide` that changed its input
            # would make the live state differ from the replica below.
            for candidate in legal:
                rules.decide(state, seat, candidate, Rng(seed, moves + 1))
        move = chooser.choice(legal)
        moves += 1
        state, facts = play(rules, state, seat, move, seed, moves)
        log.extend(facts)
        assert isinstance(rules.describe(state, seat, move, facts), str)
        # The replica is built from facts alone, never from decide.
        replayed = fold(rules.evolve, replayed, orjson.loads(orjson.dumps(facts)))
        assert replayed == state, f"replay differs from live state after move {moves} (seed {seed})"
    assert is_json_native(state), "state is not JSON-native"
    assert fold(rules.evolve, copy_state(initial), log) == state, "full replay differs at the end"
    return {"moves": moves, "scores": rules.scores(state), "winners": rules.winners(state), "state": state}
