"""Moves and facts: small JSON records, and who may see which fact.

A **move** is what a seat submits: a JSON object with a ``"type"`` key, e.g.
``{"type": "place", "location": "blacksmith", "pieces": 2}``. Every element returned by
``legal_moves`` can be posted back as-is.

A **fact** is what happened: a JSON object with a ``"type"`` key, e.g.
``{"type": "DiceRolled", "seat": 1, "values": [3, 5]}``. Rules produce facts once, at
decision time; replay only applies them. Facts are plain dicts (fast, JSON-native,
trivially stored); `fact()` builds one and documents the two reserved keys:

- ``private_to``: list of seats allowed to see the whole fact while the game runs
  (absent means public). An empty list means nobody (e.g. a shuffled deck order).
- ``public``: the redacted version everybody else sees (absent means
  ``{"type": <type>, "hidden": true}``).

Once a game is finished every fact is shown in full.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Union

Move = dict[str, Any]
Fact = dict[str, Any]

#: Who is looking: a seat number, a spectator, or everyone (finished games, audits).
Viewer = Union[int, Literal["spectator", "all"]]
SPECTATOR: Literal["spectator"] = "spectator"
EVERYONE: Literal["all"] = "all"

PRIVATE_KEY = "private_to"
PUBLIC_KEY = "public"


def fact(type_: str, *, private_to: Iterable[int] | None = None, public: dict | None = None, **data: Any) -> Fact:
    """Build a fact record; see the module docstring for `private_to` and `public`."""
    record: Fact = {"type": type_, **data}
    if private_to is not None:
        record[PRIVATE_KEY] = sorted(private_to)
        if public is not None:
            record[PUBLIC_KEY] = {"type": type_, **public}
    return record


def can_see(viewer: Viewer, seat: int) -> bool:
    """True when `viewer` may see what is private to `seat`."""
    return viewer == EVERYONE or viewer == seat


def visible_fact(record: Fact, viewer: Viewer) -> Fact:
    """The fact as `viewer` may see it (the whole record, or its public version)."""
    private_to = record.get(PRIVATE_KEY)
    if private_to is None or viewer == EVERYONE or viewer in private_to:
        return record
    return record.get(PUBLIC_KEY) or {"type": record["type"], "hidden": True}


def visible_facts(records: Iterable[Fact], viewer: Viewer) -> list[Fact]:
    return [visible_fact(r, viewer) for r in records]


def reveals_hidden(records: Iterable[Fact]) -> bool:
    """True when any fact carries hidden or random information (undo policy needs it)."""
    return any(PRIVATE_KEY in r or r.get("random") for r in records)
