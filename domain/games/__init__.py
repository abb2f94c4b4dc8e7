"""The four hosted games. `load_all()` imports, and so registers, every game package."""

from __future__ import annotations

import importlib
import importlib.util

GAME_PACKAGES = ("my_fathers_work", "abomination", "adas_dream", "heredity")


def load_all() -> list[str]:
    """Import every game package that is present; return the names imported.

    A package that exists but fails to import raises: a broken game must never be
    silently missing from a server. `tests/engine/test_registry.py` requires all four.
    """
    loaded = []
    for name in GAME_PACKAGES:
        module = f"{__name__}.{name}"
        if importlib.util.find_spec(module) is None:
            continue
        importlib.import_module(module)
        loaded.append(name)
    return loaded
