"""A memo for one state while its legal moves are listed (issue 13.5).

Listing reads the same derived facts (a PC's slots and Items, Dying, the Terrain graph) hundreds of times from
a state that does not change meanwhile. `listing` marks the state being listed; `frozen` queries computed on
that very state object are kept until the listing returns. Outside a listing nothing is kept, so a state that
is changed later (the resolver's working copy) is never served stale values.
"""

from __future__ import annotations

_MEMO: dict = {}


def frozen(fn):
    """`fn(state, ...)` computed once per listed state and arguments (hashable arguments only)."""
    name = fn.__name__

    def wrapper(state, *args):
        if _MEMO.get("state") is not state:
            return fn(state, *args)
        key = (name,) + args
        if key not in _MEMO:
            _MEMO[key] = fn(state, *args)
        return _MEMO[key]
    wrapper.__name__, wrapper.__qualname__, wrapper.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    wrapper.__wrapped__ = fn
    return wrapper


def listing(fn):
    """Run `fn(state, ...)` with the memo of `state` (nested listings of the same state share it)."""
    def wrapper(state, *args):
        if _MEMO.get("state") is state:
            return fn(state, *args)
        _MEMO.clear()
        _MEMO["state"] = state
        try:
            return fn(state, *args)
        finally:
            _MEMO.clear()
    wrapper.__name__, wrapper.__qualname__, wrapper.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    wrapper.__wrapped__ = fn
    return wrapper


def kept(state, key, compute):
    """`compute()` once per listed state under `key` (for callers whose state is not the first argument)."""
    if _MEMO.get("state") is not state:
        return compute()
    if key not in _MEMO:
        _MEMO[key] = compute()
    return _MEMO[key]
