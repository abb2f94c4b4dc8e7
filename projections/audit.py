"""Audit verification: recompute a game's hash chain from the events as stored.

It reads the stored events themselves (never a projection), so an event altered,
removed, inserted or reordered directly in Redis is found: the first event whose
version is not the next one, whose ``prev_hash`` is not its predecessor's hash, whose
``hash`` does not match its content, or that cannot even be decoded, is named.
The chain is the write side's (`domain.audit`).
"""

from __future__ import annotations

from typing import Any, Iterable
from uuid import UUID

from domain.audit import GENESIS, event_hash

from .records import event_type


def verify_events(events: Iterable[tuple[int, Any]]) -> dict[str, Any]:
    """Check (stored version, decoded event or Exception) pairs of one game in stored order."""
    expected_prev = GENESIS
    expected_version = 1
    count = 0
    for version, event in events:
        problem = None
        if isinstance(event, Exception):
            problem = f"version {version}: the stored event cannot be decoded ({type(event).__name__})"
        elif version != expected_version:
            problem = f"version {version} found where {expected_version} was expected"
        else:
            fields = vars(event)
            if fields.get("prev_hash") != expected_prev:
                problem = f"version {version}: prev_hash does not match the previous event's hash"
            elif fields.get("hash") != event_hash(event_type(event), version, fields):
                problem = f"version {version}: hash does not match the event's content"
        if problem is not None:
            return {"ok": False, "events": count, "head": expected_prev,
                    "first_bad_version": min(version, expected_version), "problem": problem}
        expected_prev = fields["hash"]
        expected_version += 1
        count += 1
    return {"ok": True, "events": count, "head": expected_prev}


def verify_game(app: Any, game_id: str, known_version: int | None = None) -> dict[str, Any] | None:
    """Verify one game of an eventsourcing application; None when it has no events.

    `known_version` is the last version the read side saw in the notification log; a
    chain that is intact but shorter lost its last events, which the chain alone cannot show.
    """
    stored = app.recorder.select_events(UUID(str(game_id)))
    if not stored:
        return None

    def decoded() -> Iterable[tuple[int, Any]]:
        for item in stored:
            try:
                yield item.originator_version, app.mapper.to_domain_event(item)
            except Exception as error:  # a tampered payload may not even decode
                yield item.originator_version, error

    result = verify_events(decoded())
    if result["ok"] and known_version is not None and result["events"] < known_version:
        result.update(ok=False, first_bad_version=result["events"] + 1,
                      problem=f"events after version {result['events']} are missing "
                              f"(the notification log had version {known_version})")
    return result
