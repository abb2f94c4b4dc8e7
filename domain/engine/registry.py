"""The registry of game types: one line at the bottom of each game module registers it."""

from __future__ import annotations

from .rules import Rules

_GAMES: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Register a game's rules under its meta name (re-registering replaces it)."""
    _GAMES[rules.meta.name] = rules
    return rules


def get_rules(name: str) -> Rules:
    """The rules for `name`; KeyError names the known games."""
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game type {name!r}; known: {sorted(_GAMES)}") from None


def game_types() -> list[Rules]:
    return [_GAMES[name] for name in sorted(_GAMES)]


def unregister(name: str) -> None:
    """For tests that register a throwaway game."""
    _GAMES.pop(name, None)
