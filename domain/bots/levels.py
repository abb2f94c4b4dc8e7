"""Bot levels: how much search a level may spend, as iteration budgets (never time).

Budgets are counted in iterations so that a bot's choice is a function of its inputs and its
seed alone: the same position, level and seed give the same move on any machine, however busy.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """`iterations`: determinized search iterations per decision (0: pick a legal move at random).
    `rollout_depth`: moves played at random past the tree before the position is evaluated."""

    name: str
    iterations: int
    rollout_depth: int
    exploration: float = 0.7
    #: at most this many iterations per root move (a choice between two moves needs few)
    per_move: int = 12

    def budget(self, moves: int) -> int:
        return min(self.iterations, self.per_move * moves)


LEVELS: dict[str, Level] = {
    "random": Level("random", 0, 0),
    "easy": Level("easy", 12, 4),
    "normal": Level("normal", 64, 8),
}


def level(name: str) -> Level:
    """The level called `name`; KeyError names the known ones."""
    try:
        return LEVELS[name]
    except KeyError:
        raise KeyError(f"unknown bot level {name!r}; known: {list(LEVELS)}") from None


def level_names() -> list[str]:
    return list(LEVELS)
