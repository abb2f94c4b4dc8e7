"""The one generic fact of a fork: `Redealt`, the cards nobody has seen dealt again.

A fork (POST /games/{id}/fork) starts a new game from a position with a new seed. Randomness
already decided but seen by no seat (a draw pile's order, a face-down card) would otherwise
repeat the source game; so the fork's setup facts end with one `Redealt` fact that puts, in
some piles of the state, the same cards in a new random order (domain/bots/redeal.py decides
it from the game's `redeal_places` hook). Every game's evolve understands it the same way,
through `with_redeal` (domain/games/adapter.py wraps each package's evolve), so a replay of the
fork folds exactly what the live fork holds.

The fact is private to nobody (``private_to: []``), like a shuffled deck at setup: while the
game runs everybody sees only which piles were dealt again and their sizes; once finished,
everything, as for every fact.
"""

from __future__ import annotations

from typing import Any, Callable

from .facts import Fact
from .state import State

REDEALT = "Redealt"


def redealt_fact(piles: list[tuple[list, list]]) -> Fact:
    """The fact that sets each pile (a path of keys and indices into the state) to its new cards."""
    return {"type": REDEALT, "piles": [[list(path), list(cards)] for path, cards in piles],
            "private_to": [], "random": True,
            "public": {"type": REDEALT, "sizes": [[list(path), len(cards)] for path, cards in piles]}}


def apply_redealt(state: State, record: Fact) -> State:
    """Put each pile's new cards in place (the pile keeps its path and its size)."""
    for path, cards in record["piles"]:
        holder: Any = state
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = list(cards)
    return state


def with_redeal(evolve: Callable[[State, Fact], State]) -> Callable[[State, Fact], State]:
    """A game's evolve that also folds `Redealt` (every game the same way)."""
    def evolve_with_redeal(state: State, record: Fact) -> State:
        if record.get("type") == REDEALT:
            return apply_redealt(state, record)
        return evolve(state, record)
    evolve_with_redeal.__wrapped__ = evolve
    evolve_with_redeal.__doc__ = evolve.__doc__
    return evolve_with_redeal
