"""GET /games/{id}/events: the audit log of one game, every event, as a caller may see it.

The write side hands over the raw stored events and the caller's viewer
(`GameService.event_slice`); this module shows them (API.md's events listing): undone
moves marked, moves and facts redacted while the game runs (`domain.engine.redaction`).
"""

from __future__ import annotations

from typing import Any, Sequence

from domain.engine import Viewer, visible_facts
from domain.engine.redaction import redact_move

from .actor_words import actor_note, event_words


def event_record(rules: Any, event: Any, viewer: Viewer, undone_versions: set[int] | frozenset,
                 names: Sequence[str] | None = None) -> dict:
    """One stored event as a caller may see it; a timeout or a takeover also in words (`description`)."""
    kind = type(event).__name__
    record = {
        "version": event.originator_version, "type": kind, "move_no": None, "seat": None,
        "actor": None, "move": None, "facts": [], "recorded_at": event.timestamp.isoformat(),
        "undone": event.originator_version in undone_versions,
        "hash": event.hash, "prev_hash": event.prev_hash,
    }
    if kind == "Created":
        record["actor"] = "system"
        record["facts"] = visible_facts(event.setup_facts, viewer)
        record["payload"] = {"game_type": event.game_type, "content_version": event.content_version,
                             "players": event.players, "names": list(event.names), "options": event.options,
                             "seed_commitment": getattr(event, "seed_commitment", None)}
    elif kind == "MovePlayed":
        record.update(move_no=event.move_no, seat=event.seat, actor=event.actor,
                      move=redact_move(rules, event.move, event.facts, event.seat, viewer),
                      facts=visible_facts(event.facts, viewer))
        record["description"] = event.description
        record["actor_note"] = actor_note(event.actor, names, event.seat)
        record["payload"] = {"scores": event.scores, "finished": event.finished}
    elif kind == "SeatsInvited":  # the invitation hashes stay out
        record["actor"] = "system"
        record["payload"] = {"seats": len(event.invite_hashes)}
    elif kind == "SeatJoined":  # the token and invitation hashes stay out
        record.update(actor=f"seat:{event.seat}", seat=event.seat)
        record["payload"] = {"seat": event.seat, "name": event.name}
    elif kind == "UndoRequested":
        record["actor"] = event.by
        record["payload"] = {"request_id": event.request_id, "to_move": event.to_move, "reason": event.reason}
    elif kind == "Reopened":  # the new seed material and the position dealt again stay out
        record["actor"] = event.by
        record["payload"] = {"request_id": event.request_id, "to_move": event.to_move, "reason": event.reason,
                             "seed_commitment": event.seed_commitment}
    elif kind == "UndoVoted":
        record.update(actor=f"seat:{event.seat}", seat=event.seat)
        record["payload"] = {"request_id": event.request_id, "approve": event.approve}
    elif kind == "MovesUndone":
        record["payload"] = {"request_id": event.request_id, "to_move": event.to_move,
                             "undone_versions": list(event.undone_versions)}
    elif kind == "UndoRejected":
        record["actor"] = event.by
        record["payload"] = {"request_id": event.request_id, "reason": getattr(event, "reason", "")}
    elif kind == "SeatPassed":
        record.update(actor=f"seat:{event.seat}", seat=event.seat)
        record["payload"] = {"seat": event.seat, "prompt": event.prompt}
    elif kind == "UndoExpired":
        record["actor"] = "system"
        record["payload"] = {"request_id": event.request_id, "reason": event.reason}
    elif kind == "ClockExpired":
        record.update(actor="clock", seat=event.seat)
        record["payload"] = {"seat": event.seat, "deadline": event.deadline, "action": event.action}
        record["description"] = event_words(kind, record["payload"], names)
    elif kind == "SeatTakenOver":
        record.update(actor=f"seat:{event.seat}", seat=event.seat)
        record["payload"] = {"seat": event.seat, "level": event.level, "reason": event.reason}
        record["description"] = event_words(kind, record["payload"], names)
    return record


def event_log(app: Any, game_id: str, token: str | None, after: int = 0, limit: int = 100) -> dict:
    """``{"events": [...]}``: up to `limit` events after version `after`, redacted for the caller."""
    part = app.event_slice(game_id, token, after, limit)
    return {"events": [event_record(part.rules, event, part.viewer, part.undone_versions, part.names)
                       for event in part.events]}
