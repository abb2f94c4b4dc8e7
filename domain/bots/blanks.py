"""Helpers for the games' `knowledge` hooks: find the card ids a structure names, blank them.

A game's knowledge keeps the shape of its state; hidden ids inside it (a deck, another seat's
hand, a continuation that names a card) are replaced by `UNKNOWN`, so nothing a seat cannot see
survives, whatever structure it sits in.
"""

from __future__ import annotations

from typing import Any

from domain.engine import copy_state

UNKNOWN = "?"


def strings_in(value: Any, out: set | None = None) -> set:
    """Every string anywhere in a JSON-like value."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            strings_in(item, out)
    elif isinstance(value, list):
        for item in value:
            strings_in(item, out)
    return out


def blank(value: Any, hidden: set) -> Any:
    """A copy of `value` with every string in `hidden` replaced by UNKNOWN (dict keys too)."""
    if isinstance(value, str):
        return UNKNOWN if value in hidden else value
    if isinstance(value, dict):
        return {(UNKNOWN if k in hidden else k): blank(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [blank(v, hidden) for v in value]
    return value


def fill(value: Any, supply: list) -> Any:
    """A copy of `value` whose UNKNOWN strings are replaced, in order, from `supply` (consumed)."""
    if value == UNKNOWN:
        return supply.pop() if supply else UNKNOWN
    if isinstance(value, dict):
        return {k: fill(v, supply) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, supply) for v in value]
    return value


def unseen_cards(knowledge: dict, pools: dict[str, list], rng: Any) -> tuple[dict, dict | None, dict[str, list]]:
    """The start of a game's `sample`: a copy of the knowledge without its `_bot` record, that record
    (None: nothing is hidden) and, per pool, the pool's cards the knowledge does not name, shuffled."""
    state = copy_state(knowledge)
    blanks = state.pop("_bot", None)
    if blanks is None:
        return state, None, {}
    seen = strings_in(state)
    return state, blanks, {name: rng.shuffled([c for c in pool if c not in seen]) for name, pool in pools.items()}
