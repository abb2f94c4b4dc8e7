"""One bot for every game: determinized Monte Carlo tree search over the `Rules` protocol.

PURE like the rest of the domain (no I/O, no clock, no global randomness): a choice is a
function of what the seat knows, its legal moves, the level and a seed. The only call the bot
makes on a real state is the game's `knowledge(state, seat)` (its view in the shape of a state)
and `legal_moves(state, seat)` (complete and binding, what the seat's client is shown anyway);
see `hooks.py` for what each game supplies and `search.py` for the search.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Rng

from .hooks import hooks_for
from .levels import LEVELS, Level, level, level_names
from .search import Result, search

__all__ = ["LEVELS", "Level", "Result", "bot_move", "choose", "level", "level_names", "think"]


def bot_move(rules: Any, state: dict, seat: int, level_name: str, seed: int, moves: list | None = None) -> dict:
    """The move a bot of `level_name` plays for `seat` now (the seat must be deciding), chosen among
    `moves` when given (the part of its legal moves the table lets it play, domain/app/bot_turns.py)."""
    moves = rules.legal_moves(state, seat) if moves is None else moves
    if not moves:
        raise ValueError(f"seat {seat} has no decision to make")
    if len(moves) == 1 or level(level_name).iterations == 0:
        return choose(rules, None, seat, moves, level_name, seed, 0)
    knowledge = hooks_for(rules).knowledge(state, seat)
    return choose(rules, knowledge, seat, moves, level_name, seed, len(rules.scores(state)))


def choose(rules: Any, knowledge: dict | None, seat: int, moves: list[dict], level_name: str, seed: int,
           players: int) -> dict:
    """Pick one of `moves` from `knowledge` alone (never the real state)."""
    budget = level(level_name)
    if len(moves) == 1:
        return moves[0]
    if budget.iterations == 0:
        return Rng(seed, "bot/random").choice(moves)
    return think(rules, knowledge, seat, moves, budget, seed, players).move


def think(rules: Any, knowledge: dict, seat: int, moves: list[dict], budget: Level, seed: int, players: int,
          *, min_visits: int = 0) -> Result:
    """The whole search result (per-move statistics), for analysis."""
    return search(rules, hooks_for(rules), knowledge, seat, moves, budget, seed, players, min_visits=min_visits)
