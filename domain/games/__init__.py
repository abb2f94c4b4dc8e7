"""The four hosted games. Importing `load_all()` registers every game type."""

from __future__ import annotations

import importlib

GAME_PACKAGES = ("my_fathers_work", "abomination", "adas_dream", "heredity")


def load_all() -> None:
    """Import (and so register) every game package."""
    for name in GAME_PACKAGES:
        importlib.import_module(f"{__name__}.{name}")
