"""The list of games for GET /games, following the application's notification log.

Each notification is read once per process (incrementally, on demand), so listing does
not load aggregates. Status follows `MovePlayed.finished` and `MovesUndone`. On a
partitioned cluster log every partition is followed, each from its own position.
"""

from __future__ import annotations

import threading
from typing import Any

from .partitions import logs_of


class GameIndex:
    """Every game of one application: id, type, status, version, players, names."""

    BATCH = 500

    def __init__(self, app: Any) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._logs: list[Any] | None = None
        self._positions: dict[int, int] = {}
        self._games: dict[str, dict] = {}
        #: Position of each game in the listing's order (creation order in this process's log
        #: reading): the cursor of `page` is a game id, and the next page starts after it.
        self._position: dict[str, int] = {}
        self._order: list[str] = []

    def _catch_up(self) -> None:
        if self._logs is None:
            self._logs = logs_of(self._app)  # every partition of a partitioned cluster log
        for log in self._logs:
            self._catch_up_log(log)

    def _catch_up_log(self, log: Any) -> None:
        while True:
            position = self._positions.get(log.k, 0)
            notifications = log.recorder.select_notifications(position, self.BATCH, inclusive_of_start=False)
            if not notifications:
                return
            for notification in notifications:
                self._positions[log.k] = notification.id
                if ":Game." not in notification.topic:
                    continue
                self._apply(self._app.mapper.to_domain_event(notification))
            if len(notifications) < self.BATCH:
                return

    def _apply(self, event: Any) -> None:
        kind = type(event).__name__
        key = str(event.originator_id)
        if kind == "Created":
            self._games[key] = {"id": key, "game": event.game_type, "status": "active",
                                "version": event.originator_version, "players": event.players,
                                "names": list(event.names), "created_at": event.timestamp.isoformat()}
            if key not in self._position:
                self._position[key] = len(self._order)
                self._order.append(key)
            return
        entry = self._games.get(key)
        if entry is None:
            return
        entry["version"] = event.originator_version
        if kind == "SeatJoined":
            entry["names"] = [event.name if seat == event.seat else name for seat, name in enumerate(entry["names"])]
        elif kind == "MovePlayed":
            entry["status"] = "finished" if event.finished else "active"
        elif kind == "MovesUndone":
            entry["status"] = "active"
        elif kind == "Reopened":          # TABLE-REOPEN-01: listed as reopened
            entry["reopened"] = True
        elif kind == "PracticeStarted":   # TABLE-PRACTICE-01: an imported prefix of a public record
            entry["practice"] = True

    def list(self, game: str | None = None, status: str | None = None) -> list[dict]:
        with self._lock:
            self._catch_up()
            return [dict(entry) for entry in self._games.values()
                    if (game is None or entry["game"] == game) and (status is None or entry["status"] == status)]

    def page(self, game: str | None, status: str | None, after: str | None, limit: int) -> tuple[list[dict], str | None]:
        """At most `limit` games after the game `after` (None: from the first), and the cursor of
        the next page (None on the last). KeyError when `after` is no game of this listing."""
        with self._lock:
            self._catch_up()
            start = 0 if after is None else self._position[after] + 1
            found: list[dict] = []
            for key in self._order[start:]:
                entry = self._games[key]
                if (game is None or entry["game"] == game) and (status is None or entry["status"] == status):
                    if len(found) == limit:
                        return found, found[-1]["id"]
                    found.append(dict(entry))
            return found, None
