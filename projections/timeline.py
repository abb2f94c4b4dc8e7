"""A game's timeline from its event records: effective and undone moves, undo requests.

Pure functions over event records (see `records.py`) and game states. "Step n" is the
state after the first n effective moves; step 0 is the state after setup. After
`MovesUndone(to_move=n)` the effective moves are those before move n, exactly as the
write side defines it, and the undone ones stay listed with `undone: true`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from domain.engine import Rules, State, copy_state, fold

from .records import (
    CREATED, MOVE_PLAYED, MOVES_UNDONE, UNDO_REJECTED, UNDO_REQUESTED, UNDO_VOTED, EventRecord,
)

MoveEntry = dict[str, Any]


def move_entry(record: EventRecord) -> MoveEntry:
    """What the read side keeps of a `MovePlayed` event."""
    return {
        "version": record["version"],
        "move_no": record.get("move_no"),
        "seat": record.get("seat"),
        "actor": record.get("actor"),
        "move": record.get("move") or {},
        "facts": list(record.get("facts") or []),
        "description": record.get("description") or "",
        "scores": {str(k): v for k, v in (record.get("scores") or {}).items()},
        "finished": bool(record.get("finished")),
        "recorded_at": record.get("recorded_at"),
    }


def game_meta(created: EventRecord) -> dict[str, Any]:
    """What the read side keeps of a `Created` event (never the seed or token hashes)."""
    players = int(created.get("players") or 0)
    names = list(created.get("names") or [])
    names += [f"seat {seat}" for seat in range(len(names), players)]
    return {
        "game_id": created["game_id"],
        "game_type": created.get("game_type"),
        "content_version": created.get("content_version"),
        "players": players,
        "names": names,
        "options": created.get("options") or {},
        "setup_facts": list(created.get("setup_facts") or []),
        "created_at": created.get("recorded_at"),
    }


def joined_names(names: list[str], joined: EventRecord) -> list[str]:
    """The player names after a `SeatJoined` (an invited seat taken under its player's name)."""
    seat = int(joined.get("seat") or 0)
    return [joined.get("name") or name if index == seat else name for index, name in enumerate(names)]


def undo_request(record: EventRecord) -> dict[str, Any]:
    return {
        "request_id": record.get("request_id"),
        "by": record.get("by"),
        "to_move": record.get("to_move"),
        "reason": record.get("reason") or "",
        "status": "pending",
        "votes": {},
        "requested_at": record.get("recorded_at"),
        "version": record["version"],
    }


@dataclass
class Timeline:
    """Everything the history of one game says, folded from its records in order."""

    meta: dict[str, Any] | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    effective: list[MoveEntry] = field(default_factory=list)
    undo_requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    version: int = 0

    @property
    def finished(self) -> bool:
        return bool(self.effective and self.effective[-1]["finished"])

    @property
    def steps(self) -> int:
        return len(self.effective)

    def apply(self, record: EventRecord) -> None:
        kind = record["type"]
        self.version = max(self.version, record["version"])
        if kind == CREATED:
            self.meta = game_meta(record)
        elif kind == MOVE_PLAYED:
            entry = dict(move_entry(record), undone=False)
            self.moves.append(entry)
            self.effective.append(entry)
            for request in self.undo_requests.values():  # a later move: pending requests lapse
                if request["status"] == "pending":
                    request["status"] = "expired"
        elif kind == "SeatJoined" and self.meta is not None:
            self.meta["names"] = joined_names(self.meta["names"], record)
        elif kind == MOVES_UNDONE:
            keep = max(0, int(record.get("to_move") or 1) - 1)
            undone = set(record.get("undone_versions") or [])
            undone.update(entry["version"] for entry in self.effective[keep:])
            self.effective = self.effective[:keep]
            for entry in self.moves:
                if entry["version"] in undone:
                    entry["undone"] = True
            self._request(record)["status"] = "applied"
        elif kind == UNDO_REQUESTED:
            self.undo_requests[record.get("request_id")] = undo_request(record)
        elif kind == UNDO_VOTED:
            self._request(record)["votes"][str(record.get("seat"))] = bool(record.get("approve"))
        elif kind in (UNDO_REJECTED, "UndoExpired"):  # settled, with the reason why (issue 25)
            request = self._request(record)
            request["status"] = "rejected" if kind == UNDO_REJECTED else "expired"
            if record.get("reason") and record.get("request_id") in self.undo_requests:
                request["outcome"] = record.get("reason")

    def _request(self, record: EventRecord) -> dict[str, Any]:
        request_id = record.get("request_id")
        if request_id not in self.undo_requests:
            self.undo_requests[request_id] = undo_request(record)
        return self.undo_requests[request_id]


def build_timeline(records: Iterable[EventRecord]) -> Timeline:
    timeline = Timeline()
    for record in sorted(records, key=lambda r: r["version"]):
        timeline.apply(record)
    return timeline


def initial_state(rules: Rules, meta: dict[str, Any]) -> State:
    """The state after setup (step 0): the empty table folded with the setup facts."""
    state = rules.initial_state(meta["players"], meta["options"])
    return fold(rules.evolve, state, copy_state(meta["setup_facts"]))


def fold_moves(rules: Rules, state: State, moves: Iterable[MoveEntry]) -> State:
    """Apply the facts of `moves` to `state` (mutated and returned)."""
    for entry in moves:
        state = fold(rules.evolve, state, copy_state(entry["facts"]))
    return state


def state_at(rules: Rules, meta: dict[str, Any], effective: Sequence[MoveEntry], step: int) -> State:
    """The state after `step` effective moves, folded from step 0 (the reference replay)."""
    return fold_moves(rules, initial_state(rules, meta), effective[:step])
