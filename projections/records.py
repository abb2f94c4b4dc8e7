"""Event records: the read side's plain-dict form of a stored `Game` event.

Projections and the pure functions below them work on these dicts, never on library
objects, so they can be tested without a store and reason about the event schema of
the shared design (briefs/platform.md) only:

    {"type": "MovePlayed", "game_id": "<uuid>", "version": 3, "recorded_at": "<iso>",
     "seat": 0, "move": {...}, "facts": [...], "move_no": 2, ... every other field}
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

CREATED = "Created"
MOVE_PLAYED = "MovePlayed"
UNDO_REQUESTED = "UndoRequested"
UNDO_VOTED = "UndoVoted"
MOVES_UNDONE = "MovesUndone"
UNDO_REJECTED = "UndoRejected"

#: Fields of a stored event that are library bookkeeping, not domain data.
_BOOKKEEPING = ("originator_id", "originator_version", "timestamp", "originator_topic")

EventRecord = dict[str, Any]


def event_type(domain_event: Any) -> str:
    """The short event name: the class name (`Game.MovePlayed` -> "MovePlayed")."""
    return type(domain_event).__name__


def to_record(domain_event: Any) -> EventRecord:
    """The plain-dict record of an eventsourcing domain event of a `Game`."""
    fields = dict(vars(domain_event))
    timestamp = fields.get("timestamp")
    record: EventRecord = {
        "type": event_type(domain_event),
        "game_id": str(fields.get("originator_id")),
        "version": int(fields.get("originator_version", 0)),
        "recorded_at": iso_time(timestamp),
    }
    for key, value in fields.items():
        if key not in _BOOKKEEPING and key not in record:
            record[key] = value
    return record


def iso_time(value: Any) -> str | None:
    """ISO-8601 UTC text for a datetime (other values pass through as text)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def game_records(records: Iterable[EventRecord], game_id: str) -> list[EventRecord]:
    """The records of one game, in version order."""
    return sorted((r for r in records if r["game_id"] == game_id), key=lambda r: r["version"])
