"""Game state helpers. A state is a JSON-native dict: str keys, lists, str, int, bool, None.

Keeping states JSON-native makes snapshots, replay comparisons and checkpoints trivial
and exact. `evolve` may mutate the state it is given (for speed); whoever needs the
old state keeps a `copy_state` first. `decide` never mutates its input.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import orjson

State = dict[str, Any]


def copy_state(state: State) -> State:
    """A deep copy; an orjson round trip is several times faster than copy.deepcopy."""
    return orjson.loads(orjson.dumps(state))


def is_json_native(value: Any) -> bool:
    """True when `value` survives a JSON round trip unchanged (no tuples, int keys, sets)."""
    try:
        return orjson.loads(orjson.dumps(value)) == value
    except TypeError:
        return False


#: The one setup fact of a fork: the whole position it starts from (domain/engine/redeal.py).
FORKED_POSITION = "ForkedPosition"


def fold(evolve: Callable[[State, dict], State], state: State, facts: Iterable[dict]) -> State:
    """Apply facts in order; the replay primitive. A fork's `ForkedPosition` sets the whole state,
    the same way for every game (so no game's evolve names it)."""
    for record in facts:
        if record.get("type") == FORKED_POSITION:
            state = copy_state(record["state"])
        else:
            state = evolve(state, record)
    return state
