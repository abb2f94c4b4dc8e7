"""eventsourcing recorders on Redis (redis-py): one Lua script call per append.

Key layout (``P`` = REDIS_KEY_PREFIX, ``app`` = lower-cased application name or "stored"):

- ``P:app:{<originator id>}:events`` and ``...:events:<version>``: an aggregate's batches
  (index sorted set + one string per appended batch; see ``scripts.py``);
  ``...:snapshots`` likewise for snapshots. The hash tag ``{<originator id>}`` puts every
  key of one aggregate (a game) on one Redis Cluster slot.
- ``P:{app:log}:seq``: the last notification id (INCRBY inside the append script).
- ``P:{app:log}:stream``: the notification log, one stream entry per appended batch, id
  ``<first notification id>-0``, pointing at the stored batches (bodies are stored once).
- ``P:tname:tracking``: hash, upstream application name -> max processed notification id.

The append script checks everything first (no stored version reused, tracking moves
forward), then writes; so a rejected batch writes nothing and an accepted one writes its
events, notification ids and tracking record together. Redis runs a script atomically,
and refuses a writing script on OOM before its first write, so no batch is half applied;
the AOF records the script's writes as one MULTI/EXEC block, which a restart either
replays whole or drops whole (a torn tail is truncated).

Notification ids within one call follow the order of aggregates in the batch (all events
of the first aggregate, then the next...), which is the order eventsourcing's
Application.save() produces; insert_events() returns each event's id in input order.

Subscriptions wait on the stream with ``XREAD BLOCK`` (no polling); see subscription.py. The
client and key naming are in datastore.py, the tracking and process recorders in tracking.py.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from uuid import UUID

import redis
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    DataError,
    IntegrityError,
    Notification,
    ProgrammingError,
    Recorder,
    StoredEvent,
    Subscription,
    Tracking,
)

from domain.eventstore.cluster import partition_of
from domain.eventstore.compact import is_compact
from domain.eventstore.compact import pack as pack_compact
from domain.eventstore.compact import split as split_compact
from domain.eventstore.datastore import RedisDatastore, translate
from domain.eventstore.errors import is_store_full
from domain.eventstore.subscription import LogWaiter, RedisSubscription
from domain.eventstore.scripts import (
    APPEND,
    APPEND_ONE,
    COMPACT,
    SELECT,
    SELECT_EVENTS,
    SNAPSHOT_PUT,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

# Batches larger than this are staged with SET and renamed into place by the script,
# instead of being copied into Lua as an argument (see scripts.py).
STAGE_ABOVE_BYTES = 4096
# Latest-only snapshots larger than this are stored zstd-compressed (compact.py's format).
COMPRESS_SNAPSHOTS_ABOVE = 1024



def unpack_batch(batch: bytes) -> list[tuple[int, bytes, bytes]]:
    """(version, topic, state) for each event of a stored batch, in notification order.

    A header line without a topic (``b"<version> <length>"``) has the topic of the line
    before it."""
    if is_compact(batch):
        header, body = split_compact(batch)
    else:
        header, _, body = batch.partition(b"\0")
    rows = []
    pos = 0
    topic = b""
    for line in header.split(b"\n")[:-1]:
        fields = line.split(b" ", 2)
        if len(fields) == 3:
            v, length, topic = fields
        else:
            v, length = fields
        end = pos + int(length)
        rows.append((int(v), topic, body[pos:end]))
        pos = end
    return rows


def _version(row: tuple[int, bytes, bytes]) -> int:
    return row[0]


# ----------------------------------------------------------------------- recorders


class RedisRecorder(Recorder):
    def __init__(self, datastore: RedisDatastore, name: str = "stored") -> None:
        self.datastore = datastore
        self.client = datastore.client
        self.name = name
        self._topics: dict[bytes, str] = {}
        self._encoded_topics: dict[str, bytes] = {}

    def create_table(self) -> None:
        """Nothing to create: Redis keys appear on first write (kept for API parity)."""

    def _originator_id(self, text: bytes | str) -> UUID | str:
        s = text.decode() if isinstance(text, bytes) else text
        return UUID(s) if self.datastore.uuid_ids else s

    def _topic(self, raw: bytes) -> str:
        topic = self._topics.get(raw)
        if topic is None:
            topic = self._topics[raw] = raw.decode()
        return topic


class RedisAggregateRecorder(RedisRecorder, AggregateRecorder):
    """Events per aggregate (batches indexed by highest version); no notification log."""

    with_log = False

    def __init__(
        self, datastore: RedisDatastore, name: str = "stored", purpose: str = "events"
    ) -> None:
        super().__init__(datastore, name)
        self.purpose = purpose
        p = datastore.prefix
        self.key_head = f"{p}:{name}:{{"
        self.key_tail = f"}}:{purpose}"
        self.seq_key = f"{p}:{{{name}:log}}:seq"
        self.stream_key = f"{p}:{{{name}:log}}:stream"
        self.tracking_key = f"{p}:{name}:tracking"
        self.tracking_name = name
        self.cluster = datastore.router is not None
        self.partitions = datastore.partitions
        if self.cluster:  # the log of partition 0; others: log_partition_recorder(k)
            self.select_log_partition(0 if self.partitions == 1 else None)

    # Cluster mode: every key of a partition carries its hash tag {<name>:p<k>} (cluster.py).
    def partition_of(self, originator_id: UUID | str) -> int:
        """The log partition of an aggregate (always 0 on a single node)."""
        return partition_of(originator_id, self.partitions) if self.cluster else 0

    def partition_keys(self, k: int) -> tuple[str, str, str]:
        """(seq, stream, tracking) keys of partition `k`; on a single node the one log's."""
        if not self.cluster:
            return self.seq_key, self.stream_key, self.tracking_key
        p, tag = self.datastore.prefix, f"{{{self.name}:p{k}}}"
        return f"{p}:{tag}:seq", f"{p}:{tag}:stream", f"{p}:{tag}:{self.tracking_name}:tracking"

    def _head_tail(self, k: int, purpose: str | None = None) -> tuple[str, str]:
        """An aggregate's index key is head + id + tail (the read scripts build it so)."""
        if not self.cluster:
            return f"{self.datastore.prefix}:{self.name}:{{", f"}}:{purpose or self.purpose}"
        return (
            f"{self.datastore.prefix}:{self.name}:{{{self.name}:p{k}}}:",
            f":{purpose or self.purpose}",
        )

    def select_log_partition(self, k: int | None) -> None:
        """Point the notification-log methods at partition `k` (cluster mode)."""
        self.log_partition = k
        if k is None:
            self.seq_key = self.stream_key = ""
            return
        self.seq_key, self.stream_key, _ = self.partition_keys(k)
        self.key_head, self.key_tail = self._head_tail(k)

    def aggregate_key(self, originator_id: UUID | str, purpose: str | None = None) -> str:
        """The index key of an aggregate; its batches are ``<index>:<version>``."""
        if not self.cluster:
            return f"{self.key_head}{originator_id}}}:{purpose or self.purpose}"
        head, tail = self._head_tail(self.partition_of(originator_id), purpose)
        return f"{head}{originator_id}{tail}"

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Append; ``snapshot=<StoredEvent>`` also stores the aggregate's latest snapshot
        (inside the same script for a single event, else right after the append)."""
        snapshot = kwargs.get("snapshot")
        ids = self._insert(stored_events, kwargs.get("tracking"), snapshot)
        return ids if self.with_log else None

    def snapshot_batch(self, snapshot: StoredEvent) -> tuple[str, str, int, bytes]:
        """(index, key, version, batch) of a latest-only snapshot (RedisSnapshotRecorder's layout)."""
        oid = str(snapshot.originator_id)
        topic = snapshot.topic.encode()
        if b"\n" in topic or b"\0" in topic or "\n" in oid:
            msg = f"Topic {snapshot.topic!r} or id {oid!r} contains a newline or NUL"
            raise DataError(msg)
        index = self.aggregate_key(oid, "snapshots")
        v = snapshot.originator_version
        if len(snapshot.state) > COMPRESS_SNAPSHOTS_ABOVE:  # a whole game state: compressed
            batch = pack_compact([(v, topic, snapshot.state)], level=3)
        else:
            batch = b"%d %d %s\n\0%s" % (v, len(snapshot.state), topic, snapshot.state)
        return index, f"{index}:{v}", v, batch

    def _insert(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None,
        snapshot: StoredEvent | None = None,
    ) -> list[int] | None:
        n = len(stored_events)
        if n == 1 and tracking is None:
            return self._insert_one(stored_events[0], snapshot)
        ids = self._insert_without_snapshot(stored_events, tracking)
        if snapshot is not None:
            self._put_snapshot(snapshot)
        return ids

    def _put_snapshot(self, snapshot: StoredEvent) -> None:
        index, key, v, batch = self.snapshot_batch(snapshot)
        try:
            self.datastore.route(
                index, lambda c: SNAPSHOT_PUT(c, [index, key], [v, batch], self.datastore.wait),
                write=True,
            )
        except redis.RedisError as e:
            raise translate(e) from e

    def _insert_without_snapshot(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None
    ) -> list[int] | None:
        n = len(stored_events)
        if n == 0 and tracking is None:
            return None if not self.with_log else []
        return self._insert_many(stored_events, tracking)

    def _insert_many(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None
    ) -> list[int] | None:
        n = len(stored_events)
        # Group the batch by aggregate (first appearance order): one stored batch each.
        groups: dict[str, list[StoredEvent]]
        first_id = stored_events[0].originator_id if n else None
        if all(s.originator_id is first_id for s in stored_events):  # the usual case
            groups = {str(first_id): list(stored_events)} if n else {}
        else:
            groups = {}
            for s in stored_events:
                groups.setdefault(str(s.originator_id), []).append(s)
        for oid in groups:
            if "\n" in oid:
                msg = f"Originator id {oid!r} contains a newline"
                raise DataError(msg)
        topics = self._encoded_topics
        for s in stored_events:
            if s.topic not in topics:
                topic = s.topic.encode()
                if b"\n" in topic or b"\0" in topic:
                    msg = f"Topic {s.topic!r} contains a newline or NUL"
                    raise DataError(msg)
                topics[s.topic] = topic
        partition = self.partition_of(next(iter(groups))) if groups else 0
        if self.cluster and any(self.partition_of(oid) != partition for oid in groups):
            msg = "In cluster mode one append must keep to one log partition (its aggregates')"
            raise ProgrammingError(msg)
        keys: list[str] = list(self.partition_keys(partition))
        per_aggregate: list[Any] = []
        staged: list[tuple[str, list[bytes]]] = []
        counts: list[bytes] = []
        highs: list[bytes] = []
        for oid, events in groups.items():
            versions = [s.originator_version for s in events]
            if len(set(versions)) != len(versions):
                msg = f"Stored events are not unique: {stored_events}"
                raise IntegrityError(msg)
            # Header lines name the topic only when it differs from the line before;
            # the batch is built by one join (the states are copied once).
            parts: list[bytes] = []
            previous = None
            for s in events:
                state = s.state
                if s.topic == previous:
                    parts.append(b"%d %d\n" % (s.originator_version, len(state)))
                else:
                    previous = s.topic
                    parts.append(
                        b"%d %d %s\n" % (s.originator_version, len(state), topics[previous])
                    )
            parts.append(b"\0")
            parts += [s.state for s in events]
            high = max(versions)
            index = self.aggregate_key(oid)
            batch = b""
            if sum(map(len, parts)) > STAGE_ABOVE_BYTES:
                stage = f"{index}:stage:{os.urandom(8).hex()}"
                staged.append((stage, parts))  # sent part by part, never joined
            else:
                batch = b"".join(parts)
                stage = f"{index}:{high}"  # unused by the script
            keys += (index, f"{index}:{high}", stage)
            per_aggregate += (min(versions), high, batch)
            counts.append(b"%d" % len(events))
            highs.append(b"%d" % high)
        args = [
            b"1" if self.with_log else b"0",
            tracking.application_name if tracking else b"",
            tracking.notification_id if tracking else 0,
            n,
            "\n".join(groups),
            b"\n".join(counts),
            b"\n".join(highs),
            *per_aggregate,
        ]
        wait = self.datastore.wait
        try:
            if staged:
                first = self.datastore.route(
                    keys[0], lambda c: APPEND.after(c, staged, keys, args, wait), write=True
                )
            else:
                first = self.datastore.route(
                    keys[0], lambda c: APPEND(c, keys, args, wait), write=True
                )
        except redis.RedisError as e:
            raise translate(e) from e
        if not self.with_log:
            return None
        if len(groups) <= 1:
            return list(range(first, first + n))
        ids: dict[tuple[str, int], int] = {}
        nid = first
        for oid, events in groups.items():
            for s in events:
                ids[(oid, s.originator_version)] = nid
                nid += 1
        return [ids[(str(s.originator_id), s.originator_version)] for s in stored_events]

    def _insert_one(self, s: StoredEvent, snapshot: StoredEvent | None = None) -> list[int] | None:
        """The common case (one move of one game), with as little work as possible."""
        oid = str(s.originator_id)
        topic = self._encoded_topics.get(s.topic)
        state = s.state
        if topic is None or "\n" in oid or len(state) > STAGE_ABOVE_BYTES:
            ids = self._insert_many([s], None)  # validates, caches, stages
            if snapshot is not None:
                self._put_snapshot(snapshot)
            return ids
        v = s.originator_version
        if self.cluster:
            index = self.aggregate_key(oid)
            seq, stream, _ = self.partition_keys(self.partition_of(oid))
            keys: tuple[Any, ...] = (seq, stream, index, f"{index}:{v}")
        else:
            index = self.key_head + oid + self.key_tail
            keys = (self.seq_key, self.stream_key, index, f"{index}:{v}")
        args: tuple[Any, ...] = (
            b"1" if self.with_log else b"0", oid, v, b"%d %d %s\n\0%s" % (v, len(state), topic, state),
        )
        if snapshot is not None:
            sindex, skey, sv, sbatch = self.snapshot_batch(snapshot)
            keys += (sindex, skey)
            args += (sv, sbatch)
        try:
            if self.cluster:
                wait = self.datastore.wait
                first = self.datastore.route(
                    index, lambda c: APPEND_ONE(c, keys, args, wait), write=True
                )
            else:
                first = APPEND_ONE(self.client, keys, args)
        except redis.RedisError as e:
            raise translate(e) from e
        if first < 0:  # not above the aggregate's head: conflict or insert below it
            ids = self._insert_many([s], None)
            if snapshot is not None:
                self._put_snapshot(snapshot)
            return ids
        return [first] if self.with_log else None

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        index = self.aggregate_key(originator_id)
        try:
            batches = None
            if gt is None and lte is None and limit is None and not self.cluster:
                # Loading a whole aggregate: one native command, no Lua (a cluster refuses
                # SORT ... GET, so there the read script loads it).
                try:
                    batches = self.datastore.route(index, lambda c: c.execute_command(
                        "SORT", index, "BY", "nosort", "GET", index + ":*"
                    ))
                except redis.ResponseError as e:
                    # SORT counts as a write (it may STORE): a Redis refusing writes (OOM, full
                    # disk) refuses it too, so read with the script, which only reads.
                    if not is_store_full(e):
                        raise
            if batches is None:
                batches = self.datastore.route(index, lambda c: SELECT_EVENTS(
                    c,
                    [index],
                    [
                        "" if gt is None else gt,
                        "" if lte is None else lte,
                        "1" if desc else "0",
                        "" if limit is None else limit,
                    ],
                ))
        except redis.RedisError as e:
            raise translate(e) from e
        if len(batches) == 1:
            rows = unpack_batch(batches[0])
        else:
            rows = []
            for b in batches:
                if b is not None:
                    rows += unpack_batch(b)
        if gt is not None or lte is not None:
            low = -(2**63) if gt is None else gt
            high = 2**63 if lte is None else lte
            rows = [r for r in rows if low < r[0] <= high]
        if desc or len(batches) > 1:
            rows.sort(key=_version, reverse=desc)
        if limit is not None:
            rows = rows[:limit]
        topic = self._topic
        return [StoredEvent(originator_id, v, topic(t), state) for v, t, state in rows]


    def compact(self, originator_id: UUID | str) -> bool:
        """Fold every stored batch of an aggregate into one compressed batch (compact.py).

        For finished games (off the request path): reads, the log, appends (an undo may
        reopen the game) and the version checks all work on the compact batch. Returns
        False when there was nothing to do or the aggregate changed meanwhile (then
        nothing was written); an aggregate with a batch below its head is left alone.
        """
        index = self.aggregate_key(originator_id)

        def read(client: redis.Redis) -> list[Any]:
            if self.cluster:  # SORT ... GET is refused there; COMPACT rechecks the members
                members, mixed = client.zrange(index, 0, -1), client.exists(index + ":mixed")
                keys = [f"{index}:{m.decode()}" for m in members]
                return [members, client.mget(keys) if keys else [], mixed]
            with client.pipeline(transaction=True) as pipe:
                pipe.zrange(index, 0, -1)
                pipe.execute_command("SORT", index, "BY", "nosort", "GET", index + ":*")
                pipe.exists(index + ":mixed")
                return pipe.execute()

        try:
            members, batches, mixed = self.datastore.route(index, read)
            if mixed or not members or (len(members) == 1 and is_compact(batches[0] or b"")):
                return False
            rows: list[tuple[int, bytes, bytes]] = []
            for batch in batches:
                if batch is None:
                    return False
                rows += unpack_batch(batch)
            rows.sort(key=_version)
            args = [members[-1], len(members), pack_compact(rows)]
            done = self.datastore.route(
                index, lambda c: COMPACT(c, [index], args, self.datastore.wait), write=True
            )
        except redis.RedisError as e:
            raise translate(e) from e
        return bool(done)


class RedisSnapshotRecorder(RedisAggregateRecorder):
    """Snapshots, the latest only per aggregate: a new one replaces the older ones.

    A snapshot holds the whole aggregate, so keeping every one made a long game's
    snapshots grow with the square of its length. Reads are those of any aggregate
    recorder; a historical version below the latest snapshot is rebuilt from events.
    An application may instead hand the snapshot to the append (``snapshot=``, see
    `RedisAggregateRecorder.insert_events`), which writes it in the same script.
    """

    latest_only = True

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        latest: dict[str, StoredEvent] = {}
        for s in stored_events:
            oid = str(s.originator_id)
            if oid not in latest or s.originator_version > latest[oid].originator_version:
                latest[oid] = s
        for s in latest.values():
            self._put_snapshot(s)
        return None


class RedisApplicationRecorder(RedisAggregateRecorder, ApplicationRecorder):
    """Aggregate events plus the application's notification log (a Redis stream)."""

    with_log = True

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        if start is None:
            first = 1
        else:
            first = start if inclusive_of_start else start + 1
        first = max(first, 1)
        if limit <= 0 or (stop is not None and stop < first):
            return []
        stream = self._log_stream()
        args = [first, "" if stop is None else stop, limit, self.key_head, self.key_tail, *topics]
        try:
            selected, batches = self.datastore.route(stream, lambda c: SELECT(c, [stream], args))
        except redis.RedisError as e:
            raise translate(e) from e
        unpacked: dict[int, dict[int, tuple[bytes, bytes]]] = {}
        out = []
        for i in range(0, len(selected), 4):
            ref = selected[i + 3]
            rows = unpacked.get(ref)
            if rows is None:
                rows = unpacked[ref] = {
                    v: (t, state) for v, t, state in unpack_batch(batches[ref - 1])
                }
            version = int(selected[i + 2])
            t, state = rows[version]
            out.append(
                Notification(
                    id=selected[i],
                    originator_id=self._originator_id(selected[i + 1]),
                    originator_version=version,
                    topic=self._topic(t),
                    state=state,
                )
            )
        return out

    def _log_stream(self) -> str:
        if not self.stream_key:
            msg = (
                f"The notification log has {self.partitions} partitions: read one, "
                "recorder.log_partition_recorder(k)"
            )
            raise ProgrammingError(msg)
        return self.stream_key

    def log_partition_recorder(self, k: int) -> RedisApplicationRecorder:
        """This recorder reading the notification log of partition `k` (cluster mode)."""
        import copy

        view = copy.copy(self)
        view.select_log_partition(k)
        return view

    def max_notification_id(self) -> int | None:
        self._log_stream()
        seq = self.seq_key
        try:
            value = self.datastore.route(seq, lambda c: c.get(seq))
        except redis.RedisError as e:
            raise translate(e) from e
        return int(value) if value else None

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return RedisSubscription(recorder=self, gt=gt, topics=topics)

    def log_waiter(self) -> LogWaiter:
        """A blocking wait for the log to grow, for followers that read it themselves."""
        return LogWaiter(self)
