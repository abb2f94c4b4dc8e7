"""eventsourcing recorders on Redis (redis-py), one Lua script per append.

Key layout (``P`` = REDIS_KEY_PREFIX, ``app`` = lower-cased application name or "stored"):

- ``P:app:{<originator id>}:events``  sorted set, score = originator version, member =
  ``b"<version>\\0<topic>\\0<state>"``; ``...:snapshots`` for snapshots (purpose). The hash
  tag ``{<originator id>}`` puts every key of one aggregate (a game) on one cluster slot.
- ``P:{app:log}:seq``  the last notification id (INCRBY inside the append script).
- ``P:{app:log}:stream``  the notification log: a stream whose entry ids are
  ``<notification id>-0`` and whose fields point at the event (``i`` originator id,
  ``v`` version, ``t`` topic). Bodies live once, in the aggregate's sorted set.
- ``P:tname:tracking``  hash: upstream application name -> max processed notification id.

The append script checks everything first (no stored version may be reused, tracking
must move forward), then writes: so a rejected batch writes nothing, and an accepted one
writes the events, the notification ids and the tracking record together. Redis runs a
script atomically and (before 7.0 as after) refuses a writing script on OOM before its
first write, so no batch is ever half applied.

Subscriptions wait on the stream with ``XREAD BLOCK`` (no polling); see RedisSubscription.
"""

from __future__ import annotations

import hashlib
import threading
from typing import TYPE_CHECKING, Any
from uuid import UUID

import redis
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    IntegrityError,
    ListenNotifySubscription,
    Notification,
    OperationalError,
    PersistenceError,
    ProcessRecorder,
    ProgrammingError,
    Recorder,
    StoredEvent,
    Subscription,
    Tracking,
    TrackingRecorder,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# ---------------------------------------------------------------------------- Lua

# KEYS[1] = seq, KEYS[2] = stream, KEYS[3] = tracking hash, KEYS[4..] = aggregate keys
# ARGV[1] = "1" to write the notification log, ARGV[2] = tracking app name ("" = none),
# ARGV[3] = tracking notification id, ARGV[4] = number of events,
# then per event: key index (into KEYS), version, member, originator id, topic.
APPEND_LUA = r"""
local with_log = ARGV[1] == '1'
local tname = ARGV[2]
local tid = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local top = {}
for i = 0, n - 1 do
  local b = 5 + i * 5
  local k = KEYS[tonumber(ARGV[b])]
  local v = tonumber(ARGV[b + 1])
  local m = top[k]
  if m == nil then
    local r = redis.call('ZREVRANGE', k, 0, 0, 'WITHSCORES')
    if r[2] then m = tonumber(r[2]) else m = false end
  end
  if m ~= false and v <= m then
    if redis.call('ZCOUNT', k, v, v) > 0 then
      return redis.error_reply('HEIRLOOM_CONFLICT ' .. ARGV[b + 3] .. ' version ' .. ARGV[b + 1])
    end
  else
    m = v
  end
  top[k] = m
end
if tname ~= '' then
  local cur = redis.call('HGET', KEYS[3], tname)
  if cur and tonumber(cur) >= tid then
    return redis.error_reply('HEIRLOOM_TRACKING ' .. tname .. ' ' .. cur .. ' >= ' .. ARGV[3])
  end
end
local first = 0
if with_log and n > 0 then
  first = redis.call('INCRBY', KEYS[1], n) - n + 1
end
local batch, bkey = {}, nil
for i = 0, n - 1 do
  local b = 5 + i * 5
  local k = KEYS[tonumber(ARGV[b])]
  if k ~= bkey or #batch >= 1000 then
    if bkey then redis.call('ZADD', bkey, unpack(batch)) end
    batch, bkey = {}, k
  end
  batch[#batch + 1] = ARGV[b + 1]
  batch[#batch + 1] = ARGV[b + 2]
  if with_log then
    redis.call('XADD', KEYS[2], string.format('%d-0', first + i),
      'i', ARGV[b + 3], 'v', ARGV[b + 1], 't', ARGV[b + 4])
  end
end
if bkey then redis.call('ZADD', bkey, unpack(batch)) end
if tname ~= '' then redis.call('HSET', KEYS[3], tname, ARGV[3]) end
return first
"""

# KEYS[1] = stream; ARGV[1] = first id (inclusive), ARGV[2] = last id (inclusive or '+'),
# ARGV[3] = limit, ARGV[4] = aggregate key head ("P:app:{"), ARGV[5] = tail ("}:events"),
# ARGV[6..] = topics (none = all). Returns a flat list: id, originator id, member, ...
SELECT_LUA = r"""
local start = ARGV[1]
local stop = ARGV[2]
local limit = tonumber(ARGV[3])
local head, tail = ARGV[4], ARGV[5]
local topics = nil
if #ARGV > 5 then
  topics = {}
  for i = 6, #ARGV do topics[ARGV[i]] = true end
end
local out = {}
local found = 0
local chunk = limit
if topics then chunk = math.max(limit, 100) end
while found < limit do
  local entries = redis.call('XRANGE', KEYS[1], start, stop, 'COUNT', chunk)
  if #entries == 0 then break end
  for _, e in ipairs(entries) do
    local f = e[2]
    local oid, ver, topic
    for j = 1, #f, 2 do
      if f[j] == 'i' then oid = f[j + 1]
      elseif f[j] == 'v' then ver = f[j + 1]
      elseif f[j] == 't' then topic = f[j + 1] end
    end
    if topics == nil or topics[topic] then
      local r = redis.call('ZRANGEBYSCORE', head .. oid .. tail, ver, ver)
      out[#out + 1] = e[1]
      out[#out + 1] = oid
      out[#out + 1] = r[1] or false
      found = found + 1
      if found >= limit then break end
    end
  end
  if #entries < chunk then break end
  start = '(' .. entries[#entries][1]
end
return out
"""

# KEYS[1] = tracking hash; ARGV[1] = application name, ARGV[2] = notification id
TRACKING_LUA = r"""
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then
  return redis.error_reply('HEIRLOOM_TRACKING ' .. ARGV[1] .. ' ' .. cur .. ' >= ' .. ARGV[2])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


# KEYS[1] = tracking hash; ARGV[1] = application name, ARGV[2] = notification id,
# ARGV[3] = number of commands, then per command: number of words, the words.
# Checks the tracking record moves forward, runs the commands, records the tracking.
TRACKED_WRITE_LUA = r"""
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then
  return redis.error_reply('HEIRLOOM_TRACKING ' .. ARGV[1] .. ' ' .. cur .. ' >= ' .. ARGV[2])
end
local i = 4
for c = 1, tonumber(ARGV[3]) do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class LuaScript:
    """EVALSHA with a reload on NOSCRIPT (a restarted Redis has forgotten its scripts)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()  # noqa: S324 - Redis' script id

    def __call__(self, client: redis.Redis, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        try:
            return client.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            client.execute_command("SCRIPT", "LOAD", self.source)
            return client.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)


APPEND = LuaScript(APPEND_LUA)
SELECT = LuaScript(SELECT_LUA)
TRACK = LuaScript(TRACKING_LUA)
TRACKED_WRITE = LuaScript(TRACKED_WRITE_LUA)


def translate(e: redis.RedisError) -> PersistenceError:
    """Map a redis-py error to the eventsourcing exception hierarchy."""
    text = str(e)
    if "HEIRLOOM_CONFLICT" in text or "HEIRLOOM_TRACKING" in text:
        return IntegrityError(text)
    if isinstance(e, (redis.ConnectionError, redis.TimeoutError)):
        return OperationalError(f"Redis is unavailable: {text}")
    if isinstance(e, redis.ResponseError):
        return ProgrammingError(text)
    return OperationalError(text)


# ---------------------------------------------------------------------- datastore


class RedisDatastore:
    """A redis-py client plus the key naming shared by the recorders of one factory."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        *,
        originator_id_type: str = "uuid",
        open_client: Callable[[], redis.Redis] | None = None,
        description: str = "",
    ) -> None:
        if "{" in prefix or "}" in prefix:
            msg = f"REDIS_KEY_PREFIX must not contain braces: {prefix!r}"
            raise ValueError(msg)
        self.client = client
        self.prefix = prefix
        self.uuid_ids = originator_id_type.lower() == "uuid"
        # Opens another client to the same server (subscriptions block on their own).
        self._open_client = open_client
        self.description = description

    def new_client(self) -> redis.Redis:
        if self._open_client is not None:
            return self._open_client()
        kwargs = dict(self.client.connection_pool.connection_kwargs)
        return redis.Redis(connection_pool=type(self.client.connection_pool)(
            connection_class=self.client.connection_pool.connection_class, **kwargs))

    def close(self) -> None:
        self.client.close()
        self.client.connection_pool.disconnect()


def id_text(originator_id: UUID | str) -> str:
    return str(originator_id)


# ----------------------------------------------------------------------- recorders


class RedisRecorder(Recorder):
    def __init__(self, datastore: RedisDatastore, name: str = "stored") -> None:
        self.datastore = datastore
        self.client = datastore.client
        self.name = name

    def create_table(self) -> None:
        """Nothing to create: Redis keys appear on first write (kept for API parity)."""

    def _originator_id(self, text: bytes | str) -> UUID | str:
        s = text.decode() if isinstance(text, bytes) else text
        return UUID(s) if self.datastore.uuid_ids else s


class RedisAggregateRecorder(RedisRecorder, AggregateRecorder):
    """Events per aggregate in a sorted set keyed by version; no notification log."""

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

    def aggregate_key(self, originator_id: UUID | str) -> str:
        return f"{self.key_head}{originator_id}{self.key_tail}"

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = self._insert(stored_events, kwargs.get("tracking"))
        return ids if self.with_log else None

    def _insert(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None
    ) -> list[int] | None:
        n = len(stored_events)
        if n == 0 and tracking is None:
            return None if not self.with_log else []
        keys: list[str] = [self.seq_key, self.stream_key, self.tracking_key]
        key_index: dict[str, int] = {}
        args: list[Any] = [
            b"1" if self.with_log else b"0",
            tracking.application_name if tracking else b"",
            tracking.notification_id if tracking else 0,
            n,
        ]
        seen: set[tuple[str, int]] = set()
        for s in stored_events:
            oid = str(s.originator_id)
            key = self.key_head + oid + self.key_tail
            idx = key_index.get(key)
            if idx is None:
                keys.append(key)
                idx = key_index[key] = len(keys)
            v = s.originator_version
            seen.add((oid, v))
            args += (idx, v, b"%d\0%s\0%s" % (v, s.topic.encode(), s.state), oid, s.topic)
        if len(seen) != n:
            msg = f"Stored events are not unique: {stored_events}"
            raise IntegrityError(msg)
        try:
            first = APPEND(self.client, keys, args)
        except redis.RedisError as e:
            raise translate(e) from e
        if not self.with_log:
            return None
        return list(range(first, first + n))

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        key = self.key_head + str(originator_id) + self.key_tail
        low = "-inf" if gt is None else f"({gt}"
        high = "+inf" if lte is None else lte
        cmd: list[Any]
        if desc:
            cmd = ["ZREVRANGEBYSCORE", key, high, low]
        else:
            cmd = ["ZRANGEBYSCORE", key, low, high]
        if limit is not None:
            cmd += ["LIMIT", 0, limit]
        try:
            members = self.client.execute_command(*cmd)
        except redis.RedisError as e:
            raise translate(e) from e
        result = []
        for m in members:
            v, topic, state = m.split(b"\0", 2)
            result.append(StoredEvent(originator_id, int(v), topic.decode(), state))
        return result


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
        last = "+" if stop is None else f"{stop}"
        try:
            flat = SELECT(
                self.client,
                [self.stream_key],
                [f"{first}-0", last, limit, self.key_head, self.key_tail, *topics],
            )
        except redis.RedisError as e:
            raise translate(e) from e
        out = []
        for i in range(0, len(flat), 3):
            member = flat[i + 2]
            if not member:  # pragma: no cover - a pointer without its event: corruption
                msg = f"Notification {flat[i]!r} points at a missing event"
                raise PersistenceError(msg)
            v, topic, state = member.split(b"\0", 2)
            out.append(
                Notification(
                    id=int(flat[i].split(b"-", 1)[0]),
                    originator_id=self._originator_id(flat[i + 1]),
                    originator_version=int(v),
                    topic=topic.decode(),
                    state=state,
                )
            )
        return out

    def max_notification_id(self) -> int | None:
        try:
            value = self.client.get(self.seq_key)
        except redis.RedisError as e:
            raise translate(e) from e
        return int(value) if value else None

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return RedisSubscription(recorder=self, gt=gt, topics=topics)


class RedisSubscription(ListenNotifySubscription[RedisApplicationRecorder]):
    """Wakes the library's pull loop when the notification stream grows.

    A listener thread blocks in ``XREAD BLOCK`` on the stream (its own connection), from
    the position the subscription started at. When XREAD returns it reads the current
    last id, then sets the "notified" event, so the pull that follows sees at least that
    id and any later append makes the next XREAD return: nothing is missed and nothing
    polls. ``stop()`` unblocks the XREAD at once with ``CLIENT UNBLOCK``.
    """

    BLOCK_MS = 5000  # backstop only; stop() unblocks immediately

    def __init__(
        self,
        recorder: RedisApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
    ) -> None:
        assert isinstance(recorder, RedisApplicationRecorder)
        self._listen_client = recorder.datastore.new_client()
        self._listen_client_id: int | None = None
        self._listen_ready = threading.Event()
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._listen_thread = threading.Thread(target=self._listen, daemon=True)
        self._listen_thread.start()
        self._listen_ready.wait(timeout=5)

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            # stop() may have raced the listener's next XREAD: unblock until it is gone.
            while self._listen_thread.is_alive():
                self._unblock()
                self._listen_thread.join(timeout=0.05)

    def stop(self) -> None:
        super().stop()
        self._unblock()

    def _unblock(self) -> None:
        client_id = self._listen_client_id
        if client_id is not None:
            try:
                self._recorder.client.execute_command("CLIENT", "UNBLOCK", client_id)
            except redis.RedisError:
                pass

    def _listen(self) -> None:
        client = self._listen_client
        position = f"{self._last_notification_id or 0}-0"
        try:
            self._listen_client_id = int(client.execute_command("CLIENT", "ID"))
            self._listen_ready.set()
            stream = self._recorder.stream_key
            while not self._has_been_stopped:
                reply = client.execute_command(
                    "XREAD", "COUNT", 1, "BLOCK", self.BLOCK_MS, "STREAMS", stream, position
                )
                if self._has_been_stopped:
                    break
                if reply:
                    last = client.get(self._recorder.seq_key)
                    position = f"{int(last)}-0" if last else position
                    self._has_been_notified.set()
        except BaseException as e:  # noqa: BLE001 - handed to the iterating thread
            if not self._has_been_stopped and self._thread_error is None:
                self._thread_error = e
                self.stop()
        finally:
            self._listen_ready.set()
            client.close()


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
        self.tracking_key = f"{datastore.prefix}:{name}:tracking"

    def key(self, *parts: object) -> str:
        """A key of this view: ``<prefix>:<name>:<part>:<part>...``."""
        return ":".join((self.datastore.prefix, self.name, *map(str, parts)))

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
        try:
            TRACKED_WRITE(self.client, [self.tracking_key], args)
        except redis.RedisError as e:
            raise translate(e) from e

    def insert_tracking(self, tracking: Tracking) -> None:
        try:
            TRACK(
                self.client,
                [self.tracking_key],
                [tracking.application_name, tracking.notification_id],
            )
        except redis.RedisError as e:
            raise translate(e) from e

    def max_tracking_id(self, application_name: str) -> int | None:
        try:
            value = self.client.hget(self.tracking_key, application_name)
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
