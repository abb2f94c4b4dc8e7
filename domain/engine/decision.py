"""Who must decide now: the decision model every game reports.

A game is a sequence of decisions. At any moment exactly one of three things holds:
- ``single``: one seat must act;
- ``simultaneous``: several seats each commit a hidden choice; the choices are revealed
  together once the last one is in (seats that already committed are no longer listed);
- ``team``: any one of the listed seats may act (cooperative games);
or the game is over and nobody acts (``seats == ()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DecisionMode = Literal["single", "simultaneous", "team", "none"]


@dataclass(frozen=True)
class Decision:
    """The seats that may submit a move now, how they act, and a short prompt.

    `prompt` and `extra` are shown to every caller (GET /games/{id} `decision`): they must
    hold public information only.
    """

    seats: tuple[int, ...]
    mode: DecisionMode = "single"
    prompt: str = ""
    extra: dict = field(default_factory=dict)

    @classmethod
    def single(cls, seat: int, prompt: str = "") -> "Decision":
        return cls((seat,), "single", prompt)

    @classmethod
    def simultaneous(cls, seats, prompt: str = "") -> "Decision":
        return cls(tuple(seats), "simultaneous", prompt)

    @classmethod
    def team(cls, seats, prompt: str = "") -> "Decision":
        return cls(tuple(seats), "team", prompt)

    @classmethod
    def nobody(cls, prompt: str = "game over") -> "Decision":
        return cls((), "none", prompt)

    def allows(self, seat: int) -> bool:
        return seat in self.seats

    def to_json(self) -> dict:
        """What clients see in GET /games/{id} as `decision` (`extra` only when a game sets it)."""
        record = {"seats": list(self.seats), "mode": self.mode, "prompt": self.prompt}
        if self.extra:
            record["extra"] = dict(self.extra)
        return record
