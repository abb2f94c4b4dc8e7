"""Bot playouts for the deeper tests: bots play a seeded game; after every move the state
replayed from the recorded facts (a JSON round trip, as the store gives them back) must equal
the live state."""

from __future__ import annotations

import orjson

from domain.bots import bot_move
from domain.engine import copy_state, derive_seed, fold, get_rules, new_game, play


def bot_playout(game: str, players: int, seed: int, levels: list[str], options: dict | None = None,
                stop=None, max_moves: int = 3000, nudge=None) -> dict:
    """Play to the end (or until `stop(state, facts)` is true); return the final state, the facts, moves.
    `nudge(rules, state, seat)`, when given, may return a legal move to play instead of the bot's
    (a scripted preference; the move is still checked by the rules like any other)."""
    rules = get_rules(game)
    options = options or {}
    state, setup = new_game(rules, players, options, seed)
    replica = fold(rules.evolve, copy_state(rules.initial_state(players, options)), orjson.loads(orjson.dumps(setup)))
    assert replica == state
    log, moves = [], 0
    while not rules.is_over(state) and moves < max_moves:
        decision = rules.decision(state)
        seat = decision.seats[moves % len(decision.seats)]
        move = nudge(rules, state, seat) if nudge is not None else None
        if move is None:
            move = bot_move(rules, state, seat, levels[seat % len(levels)], derive_seed(seed, f"test/{moves}"))
        moves += 1
        state, facts = play(rules, state, seat, move, seed, moves)
        replica = fold(rules.evolve, replica, orjson.loads(orjson.dumps(facts)))
        assert replica == state, f"{game}: replay differs from the live state after move {moves} (seed {seed})"
        log.append(facts)
        if stop is not None and stop(state, facts):
            break
    return {"state": state, "facts": log, "moves": moves, "rules": rules}
