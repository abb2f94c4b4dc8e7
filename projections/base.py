"""What every Heirloom projection shares: event dispatch, batching, per-game caches.

A projection turns event records into view changes (`ops`) and commits them with the
tracking position through its `RedisView`. Reads inside a batch go through in-memory
caches that are updated with every change, so a batch of many events can be committed
as one transaction; caches are trimmed only after a commit and dropped after any failure.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Iterable, Protocol, Sequence
from uuid import UUID

import logging

import redis
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import Projection

from domain.engine import Rules, get_rules

from .records import EventRecord, to_record
from .views import Op, RedisView, StaleView, dumps

log = logging.getLogger("heirloom.projections")

CACHE_SIZE = 512


class GameFailed(Exception):
    """Applying one game's event raised: the game, not the projection, is at fault."""

    def __init__(self, record: EventRecord, error: BaseException) -> None:
        super().__init__(f"{record['type']} v{record['version']} of game {record['game_id']}: "
                         f"{type(error).__name__}: {error}")
        self.record = record
        self.error = error


class EventSource(Protocol):
    """Reads one game's stored events (the projections' only query of the write side)."""

    def records(self, game_id: str, lte: int | None = None) -> list[EventRecord]: ...


class ApplicationEvents:
    """`EventSource` over an eventsourcing application (its recorder and mapper)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def records(self, game_id: str, lte: int | None = None) -> list[EventRecord]:
        stored = self.app.recorder.select_events(UUID(str(game_id)), lte=lte)
        return [to_record(self.app.mapper.to_domain_event(item)) for item in stored]


class GameProjection(Projection[RedisView]):
    """Base class: dispatches records to `on_<Type>` methods and commits their ops."""

    name = "game-projection"
    view_class: type[RedisView] = RedisView

    def __init__(self, view: RedisView, *, events: EventSource | None = None,
                 rules_for: Callable[[str], Rules] = get_rules) -> None:
        super().__init__(view)
        self.events = events
        self.rules_for = rules_for
        self.cache: OrderedDict[str, Any] = OrderedDict()
        #: The view's position per followed log (tracking name) the caches are valid at
        #: (none: unknown, caches empty); one log on a single node, one per partition.
        self.positions: dict[str | None, int] = {}
        #: Apply a game's contribution to views spanning games only once, however often its
        #: events are replayed (set on a partitioned log and while one partition is rebuilt).
        self.idempotent = False
        #: Values written by the batch being applied (not yet readable from Redis).
        self.pending: dict[Any, Any] = {}

    # ---- eventsourcing Projection interface

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:  # type: ignore[override]
        record = to_record(domain_event)
        record["notification_id"] = tracking.notification_id
        self.process_batch([record], tracking)  # `after` read from the view: one event at a time

    # ---- batches

    def process_batch(self, records: Sequence[EventRecord], tracking: Tracking, after: int | None = None) -> None:
        """Apply `records` (in notification order) and commit them with `tracking`.

        `after`: the position the records were read after (see `RedisView.commit`).
        """
        if after is None:
            after = self.view.max_tracking_id(tracking.application_name) or 0
        log = tracking.application_name
        ops = self.prepare(records, after, log)
        try:
            self.view.commit(tracking, ops, after)
        except BaseException:
            self.settle(tracking.notification_id, committed=False, log=log)
            raise
        self.settle(tracking.notification_id, committed=True, log=log)

    @property
    def position(self) -> int | None:
        """Where the caches are valid on the one log (single node), None if unknown."""
        return next(iter(self.positions.values()), None) if len(self.positions) == 1 else None

    def prepare(self, records: Sequence[EventRecord], after: int, log: str | None = None) -> list[Op]:
        """The view changes of `records`, read from log `log` (a tracking name) after
        position `after`, not yet committed: the caller commits them (alone, or with other
        views' in one script: runner.py) and then calls `settle`."""
        if self.positions.get(log) != after:  # another runner moved the view: the caches are outdated
            self.forget()
        ops: list[Op] = []
        self.pending = {}
        try:
            broken = self.broken_games()
            for record in records:
                handler = getattr(self, f"on_{record['type']}", None)
                if handler is None or record["game_id"] in broken:
                    continue
                try:
                    handler(record, ops)
                except (redis.RedisError, StaleView, IntegrityError):
                    raise
                except Exception as error:
                    raise GameFailed(record, error) from error
        except BaseException:
            self.forget()
            self.pending = {}
            raise
        return ops

    def settle(self, notification_id: int, *, committed: bool, log: str | None = None) -> None:
        """After the commit of `prepare`'s changes: the caches are valid at the new position
        of `log`, or, if the commit failed, dropped."""
        self.pending = {}
        if committed:
            self.positions[log] = notification_id
        else:
            self.forget()
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def broken_games(self) -> set[str]:
        """Games this projection stopped following because applying one of their events failed."""
        return self.cached("__broken__", lambda: set(self.view.failures()))

    def quarantine(self, failure: GameFailed, tracking: Tracking, after: int) -> None:
        """Record `failure` and move past its event, so one broken game does not stop the others.

        The game's views stay as they were before the failing event; its read endpoints
        answer ``503 projection_failed`` until a rebuild (after a fix) applies it again.
        """
        record = failure.record
        log.error("projection %s: %s; the game is set aside", self.name, failure)
        detail = {"version": record["version"], "type": record["type"], "notification_id": tracking.notification_id,
                  "error": f"{type(failure.error).__name__}: {failure.error}"}
        self.forget()
        self.view.commit(tracking, [("hset", self.view.key("failed"), record["game_id"], dumps(detail))], after)
        self.positions[tracking.application_name] = tracking.notification_id

    def forget(self) -> None:
        """Drop every cache (after a failed commit, a conflict or a rebuild)."""
        self.cache.clear()
        self.positions = {}
        self.view.refresh_generation()

    def cached(self, key: str, load: Callable[[], Any]) -> Any:
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        value = self.cache[key] = load()
        return value

    def rules(self, game_type: str) -> Rules:
        return self.rules_for(game_type)

    def game_records(self, game_id: str, lte: int) -> list[EventRecord]:
        if self.events is None:
            raise RuntimeError(f"projection {self.name!r} needs an event source to summarise games")
        return self.events.records(game_id, lte=lte)


def keep_first(key: str, count: int) -> Iterable[Op]:
    """Ops that keep the first `count` items of a list (LTRIM 0 -1 would keep them all)."""
    return [("delete", key)] if count <= 0 else [("ltrim", key, 0, count - 1)]
