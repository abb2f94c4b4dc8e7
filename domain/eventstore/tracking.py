"""Tracking on Redis: a view's position per upstream log (`RedisTrackingRecorder`, one hash),
written in the same script as what it tracks, and the process recorder that appends events with
their tracking record at once (`RedisProcessRecorder`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import redis
from eventsourcing.persistence import ProcessRecorder, Tracking, TrackingRecorder

from domain.eventstore.datastore import RedisDatastore, translate
from domain.eventstore.recorders import RedisApplicationRecorder, RedisRecorder
from domain.eventstore.scripts import TRACK, TRACKED_WRITE

if TYPE_CHECKING:
    from collections.abc import Sequence


class RedisTrackingRecorder(RedisRecorder, TrackingRecorder):
    """Max processed notification id per upstream application, in one hash.

    Materialised views (eventsourcing ``ProjectionRunner(view_class=...)``) subclass this
    class; the factory constructs them as ``view_class(datastore, name=<projection name>)``.
    A view updates its data and its tracking record atomically with
    ``write_with_tracking(tracking, [("HSET", key, field, value), ...])`` and names its
    keys with ``key(...)`` so they live under REDIS_KEY_PREFIX and the projection's name.
    """

    def __init__(self, datastore: RedisDatastore, name: str = "notification", **_: Any) -> None:
        super().__init__(datastore, name)
        # Cluster mode: the view's keys and its tracking share the hash tag {<name>}, so
        # write_with_tracking stays one single-slot script (one view lives on one master).
        self._space = f"{{{name}}}" if datastore.router is not None else name
        self.tracking_key = f"{datastore.prefix}:{self._space}:tracking"

    def key(self, *parts: object) -> str:
        """A key of this view: ``<prefix>:<name>:<part>:<part>...`` (cluster mode:
        ``<prefix>:{<name>}:<part>...``, the view's hash tag)."""
        return ":".join((self.datastore.prefix, self._space, *map(str, parts)))

    def write_with_tracking(
        self, tracking: Tracking, commands: Sequence[Sequence[Any]] = ()
    ) -> None:
        """Run Redis write commands and record `tracking`, all in one atomic script.

        Raises IntegrityError (and writes nothing) if this view already recorded a
        notification id >= tracking.notification_id for that application: so an event is
        applied to the view exactly once, even across restarts. The commands must be
        valid writes (Redis does not roll back a script that fails half way).
        """
        args: list[Any] = [tracking.application_name, tracking.notification_id, len(commands)]
        for command in commands:
            args.append(len(command))
            args.extend(command)
        key, wait = self.tracking_key, self.datastore.wait
        try:
            self.datastore.route(key, lambda c: TRACKED_WRITE(c, [key], args, wait), write=True)
        except redis.RedisError as e:
            raise translate(e) from e

    def insert_tracking(self, tracking: Tracking) -> None:
        key, wait = self.tracking_key, self.datastore.wait
        args = [tracking.application_name, tracking.notification_id]
        try:
            self.datastore.route(key, lambda c: TRACK(c, [key], args, wait), write=True)
        except redis.RedisError as e:
            raise translate(e) from e

    def max_tracking_id(self, application_name: str) -> int | None:
        return self._hget_tracking(self.tracking_key, application_name)

    def _hget_tracking(self, key: str, application_name: str) -> int | None:
        try:
            value = self.datastore.route(key, lambda c: c.hget(key, application_name))
        except redis.RedisError as e:
            raise translate(e) from e
        return int(value) if value is not None else None


class RedisProcessRecorder(RedisTrackingRecorder, RedisApplicationRecorder, ProcessRecorder):
    """Events, notification log and tracking written by one script call."""

    def __init__(
        self,
        datastore: RedisDatastore,
        name: str = "stored",
        tracking_name: str = "notification",
    ) -> None:
        RedisApplicationRecorder.__init__(self, datastore, name)
        self.tracking_key = f"{datastore.prefix}:{tracking_name}:tracking"
        self.tracking_name = tracking_name
        if self.cluster:  # tracked with the events: one tracking key per log partition
            self.tracking_key = self.partition_keys(0)[2]

    def max_tracking_id(self, application_name: str) -> int | None:
        if not self.cluster:
            return super().max_tracking_id(application_name)
        found = [
            self._hget_tracking(self.partition_keys(k)[2], application_name)
            for k in range(self.partitions)
        ]
        values = [v for v in found if v is not None]
        return max(values) if values else None
