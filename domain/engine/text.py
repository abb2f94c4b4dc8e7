"""Plain-language move descriptions: the convention games follow, and naming the players.

Every game's `describe()` refers to players as "Seat N" (or "seat N" mid-sentence), because
the rules never know the players' names. When a game was created with names, the service
writes them into the stored description, so the audit log and the moves-log read
"annette places 2 Servants on the Blacksmith" rather than "Seat 0 places ...".
"""

from __future__ import annotations

import re
from typing import Sequence

SEAT_REFERENCE = re.compile(r"\b[Ss]eat (\d+)\b")


def default_seat_name(seat: int) -> str:
    """The name a seat gets when the creator gave none."""
    return f"seat {seat}"


def name_seats(text: str, names: Sequence[str]) -> str:
    """`text` with every "Seat N" replaced by the player's name, where one was given."""

    def player(match: re.Match) -> str:
        seat = int(match.group(1))
        if seat < len(names) and names[seat] and names[seat] != default_seat_name(seat):
            return names[seat]
        return match.group(0)

    return SEAT_REFERENCE.sub(player, text)
