"""Plain-language move descriptions: the convention games follow, naming the players, and the
small grammar every game's words share (plural, join, article, upper_first, final_scores).

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


# ----------------------------------------------------------------------------- small grammar

def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 card", "3 cards", "2 bodies" (`many`: the irregular plural)."""
    return f"{n} {word if abs(n) == 1 else (many or word + 's')}"


def join(bits: list[str], last: str = "and") -> str:
    """"a, b and c" ("a, b or c" with `last="or"`); empty parts are left out."""
    bits = [b for b in bits if b]
    if len(bits) <= 1:
        return "".join(bits)
    return ", ".join(bits[:-1]) + f" {last} " + bits[-1]


def article(word: str) -> str:
    """"a card", "an organ", "an A"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def upper_first(text: str) -> str:
    """The sentence with its first letter upper case (the rest untouched, unlike str.capitalize)."""
    return text[:1].upper() + text[1:]


def final_scores(totals: dict, winners: list) -> str:
    """"Final scores: Seat 0 41, Seat 1 37. Seat 0 wins." (`totals`: seat -> points; seats as int or str)."""
    listed = ", ".join(f"Seat {seat} {points}" for seat, points in sorted(totals.items(), key=lambda item: int(item[0])))
    won = [f"Seat {w}" for w in winners]
    verdict = f"{won[0]} wins" if len(won) == 1 else f"{join(won)} share the win" if won else "nobody wins"
    return f"Final scores: {listed}. {verdict}."
