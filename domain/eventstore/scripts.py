"""The Lua scripts of the Redis event store, and how they are called.

Storage of one aggregate (hash tag ``{<originator id>}``, so one cluster slot):

- ``<agg>`` (e.g. ``P:app:{id}:events``): sorted set, one member per stored batch;
  score and member are the batch's highest version.
- ``<agg>:<highest version>``: the batch, a string:
  ``b"<version> <state length> <topic>\\n"`` per event, ``b"\\0"``, then the states.
  A line's topic is left out (``b"<version> <state length>\\n"``) when it equals the
  topic of the line before, so a batch of one event type names its topic once.
  Strings are not hashed by Redis, so a 50-event batch costs about as much as one event.
- ``<agg>:mixed``: set once a batch was inserted below the aggregate's head (allowed by
  the library's contract for versions not yet used); readers then stop assuming that
  batches hold disjoint, increasing version ranges.
- ``<agg>:live``: a pub/sub channel, not a key: every append PUBLISHes the appended batch
  there (``?`` when it was staged), so the processes serving the game's live connections
  get its events without reading the store (api/live.py). A PUBLISH nobody listens to costs
  next to nothing, and the move is stored (and in the AOF) before it is published.

Large batches do not travel through Lua (copying a value into Lua costs about 1 us per
KB): the client pipelines ``SET <agg>:stage:<token> <batch> PX 60000`` before the
script, which RENAMEs the staged string into place (O(1)) or deletes it on a conflict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import redis

from domain.eventstore.cluster import ReplicationUnconfirmed

# KEYS: seq, stream, tracking, then per aggregate: index, batch key, staging key.
# ARGV: with_log ("1"/"0"), tracking name ("" = none), tracking id, number of events,
#       the log entry's fields o / c / m (one line per aggregate: originator id, event
#       count, highest version), then per aggregate: lowest version, highest version,
#       the batch ("" = staged in the staging key).
APPEND_LUA = r"""
local nagg = (#KEYS - 3) / 3
local function versions_of(batch, into)
  for v in string.gmatch(string.match(batch, '^[^%z]*'), '(%-?%d+) %d+[^\n]*\n') do
    into[v] = true
  end
end
local function fail(message)
  for k = 1, nagg do
    if ARGV[7 + 3 * k] == '' then redis.call('DEL', KEYS[3 + 3 * k]) end
  end
  return redis.error_reply(message)
end
-- 1. Checks, before any write.
for k = 1, nagg do
  if ARGV[7 + 3 * k] == '' and redis.call('EXISTS', KEYS[3 + 3 * k]) == 0 then
    return fail('HEIRLOOM_STAGING lost the staged batch ' .. KEYS[3 + 3 * k])
  end
end
local mixed = {}
for k = 1, nagg do
  local index = KEYS[1 + 3 * k]
  local low = ARGV[5 + 3 * k]
  local top = redis.call('ZREVRANGE', index, 0, 0, 'WITHSCORES')
  if top[2] and tonumber(low) <= tonumber(top[2]) then
    -- Not above the head: compare with every stored batch that could hold a version.
    local wanted = {}
    local batch = ARGV[7 + 3 * k]
    if batch == '' then batch = redis.call('GET', KEYS[3 + 3 * k]) end
    versions_of(batch, wanted)
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', index, low, '+inf')) do
      local stored = {}
      versions_of(redis.call('GET', index .. ':' .. m) or '', stored)
      for v in pairs(wanted) do
        if stored[v] then return fail('HEIRLOOM_CONFLICT ' .. index .. ' version ' .. v) end
      end
    end
    mixed[k] = true
  end
end
local tname = ARGV[2]
if tname ~= '' then
  local cur = redis.call('HGET', KEYS[3], tname)
  if cur and tonumber(cur) >= tonumber(ARGV[3]) then
    return fail('HEIRLOOM_TRACKING ' .. tname .. ' ' .. cur .. ' >= ' .. ARGV[3])
  end
end
-- 2. Writes.
for k = 1, nagg do
  local index, key, high = KEYS[1 + 3 * k], KEYS[2 + 3 * k], ARGV[6 + 3 * k]
  redis.call('ZADD', index, high, high)
  if ARGV[7 + 3 * k] == '' then
    redis.call('RENAME', KEYS[3 + 3 * k], key)
    redis.call('PERSIST', key)
  else
    redis.call('SET', key, ARGV[7 + 3 * k])
  end
  if mixed[k] then redis.call('SET', index .. ':mixed', '1') end
  -- Live subscribers of the aggregate (api/live.py): the batch, or '?' when it was staged.
  local live = ARGV[7 + 3 * k]
  if live == '' then live = '?' end
  redis.call('PUBLISH', index .. ':live', live)
end
local n = tonumber(ARGV[4])
local first = 0
if ARGV[1] == '1' and n > 0 then
  first = redis.call('INCRBY', KEYS[1], n) - n + 1
  redis.call('XADD', KEYS[2], string.format('%d-0', first),
    'o', ARGV[5], 'c', ARGV[6], 'm', ARGV[7])
end
if tname ~= '' then redis.call('HSET', KEYS[3], tname, ARGV[3]) end
return first
"""

# The common case, one event of one aggregate without tracking, with fewer arguments.
# KEYS: seq, stream, index, batch key. ARGV: with_log, originator id, version, batch.
# Optionally the aggregate's latest snapshot in the same call (no round trip of its own):
# KEYS[5], KEYS[6] = snapshot index and key, ARGV[5], ARGV[6] = its version and batch.
APPEND_ONE_LUA = r"""
local top = redis.call('ZREVRANGE', KEYS[3], 0, 0, 'WITHSCORES')
local v = ARGV[3]
if top[2] and tonumber(v) <= tonumber(top[2]) then
  return -1  -- not above the head: the general script decides, nothing was written
end
redis.call('ZADD', KEYS[3], v, v)
redis.call('SET', KEYS[4], ARGV[4])
redis.call('PUBLISH', KEYS[3] .. ':live', ARGV[4])  -- live subscribers (api/live.py)
if ARGV[5] then  -- the aggregate's snapshot, the latest only (as SNAPSHOT_PUT_LUA)
  local sindex = KEYS[5]
  local stop = redis.call('ZREVRANGE', sindex, 0, 0, 'WITHSCORES')
  if not (stop[2] and tonumber(ARGV[5]) <= tonumber(stop[2])) then
    for _, m in ipairs(redis.call('ZRANGE', sindex, 0, -1)) do redis.call('UNLINK', sindex .. ':' .. m) end
    redis.call('DEL', sindex)
    redis.call('ZADD', sindex, ARGV[5], ARGV[5])
    redis.call('SET', KEYS[6], ARGV[6])
  end
end
if ARGV[1] == '1' then
  local first = redis.call('INCRBY', KEYS[1], 1)
  redis.call('XADD', KEYS[2], first .. '-0', 'o', ARGV[2], 'c', '1', 'm', v)
  return first
end
return 0
"""

# The batches of one aggregate that can hold versions in (gt, lte], in the order asked,
# at most `limit` of them (each holds at least one wanted version), when a plain
# SORT ... GET cannot answer. A batch whose highest version is above lte may still hold
# versions <= lte: the first such batch is added. Once ":mixed", every batch above gt.
# KEYS[1] = index; ARGV = gt, lte, "1" for descending, limit ("" = none for each).
SELECT_EVENTS_LUA = r"""
local index = KEYS[1]
local low = '-inf'
if ARGV[1] ~= '' then low = '(' .. ARGV[1] end
local members
if redis.call('EXISTS', index .. ':mixed') == 1 then
  members = redis.call('ZRANGEBYSCORE', index, low, '+inf')
else
  local high = '+inf'
  if ARGV[2] ~= '' then high = ARGV[2] end
  local limit = {}
  if ARGV[4] ~= '' then limit = {'LIMIT', 0, ARGV[4]} end
  if ARGV[3] == '1' then
    members = redis.call('ZREVRANGEBYSCORE', index, high, low, unpack(limit))
  else
    members = redis.call('ZRANGEBYSCORE', index, low, high, unpack(limit))
  end
  if ARGV[2] ~= '' then
    local above = redis.call('ZRANGEBYSCORE', index, '(' .. ARGV[2], '+inf', 'LIMIT', 0, 1)
    if above[1] then members[#members + 1] = above[1] end
  end
end
local out = {}
for i = 1, #members, 1000 do  -- Lua's unpack() is limited to about 8000 values
  local keys = {}
  for j = i, math.min(i + 999, #members) do keys[#keys + 1] = index .. ':' .. members[j] end
  for _, batch in ipairs(redis.call('MGET', unpack(keys))) do out[#out + 1] = batch end
end
return out
"""

# Notifications from `first` (inclusive) to `stop` ("" = no end), at most `limit`,
# optionally only some topics. A stream entry is one appended batch: its id is the first
# notification id; o / c / m list its aggregates, their event counts and highest
# versions, which name the stored batch whose header lists the events in order.
# KEYS[1] = stream; ARGV = first, stop, limit, aggregate index head ("P:app:{"), tail
# ("}:events"), topics... Returns {selected, batches}: selected is flat (notification
# id, originator id, version, index of its batch in batches).
SELECT_LUA = r"""
local first = tonumber(ARGV[1])
local stop = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local head, tail = ARGV[4], ARGV[5]
local topics = nil
if #ARGV > 5 then
  topics = {}
  for t = 6, #ARGV do topics[ARGV[t]] = true end
end
local function lines(text)
  local t = {}
  for x in string.gmatch(text, '[^\n]+') do t[#t + 1] = x end
  return t
end
local sel, batches = {}, {}
local refs, parsed = {}, {}
-- The (versions, topics) of a batch's header lines; a line without a topic has the topic
-- of the line before.
local function parse(batch)
  local vs, ts = {}, {}
  local topic = ''
  for v, rest in string.gmatch(string.match(batch, '^[^%z]*'), '(%-?%d+) %d+([^\n]*)\n') do
    if rest ~= '' then topic = string.sub(rest, 2) end
    vs[#vs + 1] = v
    ts[#ts + 1] = topic
  end
  return vs, ts
end
local found = 0
local cursor = '-'
local before = redis.call('XREVRANGE', KEYS[1], string.format('%d-0', first), '-', 'COUNT', 1)
if #before > 0 then cursor = before[1][1] end
local chunk = 20
local done = false
while not done do
  local entries = redis.call('XRANGE', KEYS[1], cursor, '+', 'COUNT', chunk)
  if #entries == 0 then break end
  for _, e in ipairs(entries) do
    local nid = tonumber(string.match(e[1], '^(%d+)')) - 1
    local f = {}
    for j = 1, #e[2], 2 do f[e[2][j]] = e[2][j + 1] end
    local oids, counts, highs = lines(f['o']), lines(f['c']), lines(f['m'])
    for k = 1, #oids do
      if stop and nid + 1 > stop then done = true; break end
      local count = tonumber(counts[k])
      if nid + count < first then
        nid = nid + count
      else
        local key = head .. oids[k] .. tail .. ':' .. highs[k]
        local batch = redis.call('GET', key)
        local vs, ts, from, to
        if batch and string.sub(batch, 1, 2) ~= 'z\n' then
          vs, ts = parse(batch)
          from, to = 1, #vs
        else
          -- Compacted (compact.py): the batch was merged into the aggregate's batch that
          -- holds its highest version; its events are the `count` lines ending there.
          if not batch then
            local index = head .. oids[k] .. tail
            local holder = redis.call('ZRANGEBYSCORE', index, highs[k], '+inf', 'LIMIT', 0, 1)
            if holder[1] then
              key = index .. ':' .. holder[1]
              batch = redis.call('GET', key)
            end
          end
          if not batch then return redis.error_reply('HEIRLOOM_MISSING ' .. oids[k]) end
          if parsed[key] == nil then parsed[key] = {parse(batch)} end
          vs, ts = parsed[key][1], parsed[key][2]
          local high = tonumber(highs[k])
          local lo, hi = 1, #vs
          while lo < hi do  -- the line of version `high` (lines are in version order)
            local mid = math.floor((lo + hi) / 2)
            if tonumber(vs[mid]) < high then lo = mid + 1 else hi = mid end
          end
          from, to = lo - count + 1, lo
        end
        for i = from, to do
          nid = nid + 1
          if stop and nid > stop then done = true; break end
          if nid >= first and (topics == nil or topics[ts[i]]) then
            local ref = refs[key]
            if ref == nil then batches[#batches + 1] = batch; ref = #batches; refs[key] = ref end
            sel[#sel + 1] = nid
            sel[#sel + 1] = oids[k]
            sel[#sel + 1] = vs[i]
            sel[#sel + 1] = ref
            found = found + 1
            if found >= limit then done = true; break end
          end
        end
        if done then break end
      end
    end
    if done then break end
  end
  if #entries < chunk then break end
  cursor = '(' .. entries[#entries][1]
  if chunk < 1000 then chunk = chunk * 4 end
end
return {sel, batches}
"""

# Snapshots keep the latest only (a snapshot makes every older one useless, and each holds
# the whole aggregate). KEYS: index, batch key; ARGV: version, batch. An older or equal
# version than the stored one writes nothing (returns 0).
SNAPSHOT_PUT_LUA = r"""
local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if top[2] and tonumber(ARGV[1]) <= tonumber(top[2]) then return 0 end
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  redis.call('UNLINK', KEYS[1] .. ':' .. m)
end
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

# Replace every batch of an aggregate by one compact batch (compact.py) at its highest
# version, if nothing changed since the batches were read. KEYS[1] = index; ARGV: the
# highest member read, the number of members read, the compact batch. Returns 1, or 0
# (nothing written) when the aggregate moved on or has a batch below its head (":mixed").
COMPACT_LUA = r"""
local index = KEYS[1]
if redis.call('ZCARD', index) ~= tonumber(ARGV[2]) then return 0 end
local top = redis.call('ZREVRANGE', index, 0, 0)
if top[1] ~= ARGV[1] or redis.call('EXISTS', index .. ':mixed') == 1 then return 0 end
for _, m in ipairs(redis.call('ZRANGE', index, 0, -1)) do
  redis.call('UNLINK', index .. ':' .. m)
end
redis.call('DEL', index)
redis.call('ZADD', index, ARGV[1], ARGV[1])
redis.call('SET', index .. ':' .. ARGV[1], ARGV[3])
return 1
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


try:  # hiredis' C packer, when installed: a command in one call, no per-argument Python
    from hiredis import pack_command as _hiredis_pack
except ImportError:  # pragma: no cover - hiredis is a dependency
    _hiredis_pack = None


def _pack(conn: Any, command: tuple[Any, ...]) -> bytes:
    if _hiredis_pack is not None:
        try:
            return _hiredis_pack(command)
        except TypeError as e:
            raise redis.DataError(str(e)) from e
    return b"".join(conn.pack_command(*command))


class LuaScript:
    """EVALSHA with a reload on NOSCRIPT (a restarted Redis has forgotten its scripts).

    Calls go straight to a pooled connection: the commands are packed by hiredis and
    sent with one ``sendall`` (a staged SET and the EVALSHA leave in one write, so Redis
    reads and runs them in one event-loop turn), then the replies are read. The client
    is configured without retries, which this path keeps: a write is never re-sent.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()  # noqa: S324 - Redis' script id

    def __call__(
        self, client: redis.Redis, keys: Sequence[Any], args: Sequence[Any],
        wait: tuple[int, int] | None = None,
    ) -> Any:
        """Run the script; `wait` = (replicas, timeout ms) pipelines ``WAIT`` after it
        (cluster mode) and raises ReplicationUnconfirmed when fewer replicas confirm."""
        command = ("EVALSHA", self.sha, len(keys), *keys, *args)
        try:
            return _exchange(client, [command], wait=wait)
        except redis.exceptions.NoScriptError:
            self.load(client)
            return _exchange(client, [command], wait=wait)

    def load(self, client: redis.Redis) -> None:
        client.execute_command("SCRIPT", "LOAD", self.source)

    def after(
        self,
        client: redis.Redis,
        staged: Sequence[tuple[str, Sequence[bytes]]],
        keys: Sequence[Any],
        args: Sequence[Any],
        wait: tuple[int, int] | None = None,
    ) -> Any:
        """SET each staged key to the concatenation of its parts, then EVALSHA, in one
        round trip. The parts are framed here and joined once with the rest: the batch
        is copied once in Python (it was three times: joined, packed, joined).
        (Handing the parts to ``sendmsg`` unjoined measured no faster.)"""
        frames: list[bytes] = []
        for key, parts in staged:
            k = key.encode()
            frames.append(
                b"*5\r\n$3\r\nSET\r\n$%d\r\n%b\r\n$%d\r\n" % (len(k), k, sum(map(len, parts)))
            )
            frames += parts
            frames.append(b"\r\n$2\r\nPX\r\n$5\r\n60000\r\n")
        command = ("EVALSHA", self.sha, len(keys), *keys, *args)
        try:
            return _exchange(client, [command], frames, len(staged), wait)
        except redis.exceptions.NoScriptError:
            self.load(client)
            return _exchange(client, [command], frames, len(staged), wait)


def _exchange(
    client: redis.Redis,
    commands: Sequence[tuple[Any, ...]],
    frames: Sequence[bytes] = (),
    framed: int = 0,
    wait: tuple[int, int] | None = None,
) -> Any:
    """Send the `framed` commands already in RESP form in `frames`, then `commands`, in
    one write; read every reply; return the last one or raise the last error (a failed
    staging SET makes the script fail too, with a clear message).

    `wait` = (replicas, timeout ms) sends ``WAIT`` last on the same connection (it waits
    for this connection's writes) and raises ReplicationUnconfirmed if fewer replicas
    acknowledged them; its reply is not the result."""
    pool = client.connection_pool
    conn = pool.get_connection()
    try:
        if not frames and len(commands) == 1 and wait is None:
            conn.send_packed_command((_pack(conn, commands[0]),))
            return conn.read_response()
        packed = [*frames, *(_pack(conn, c) for c in commands)]
        if wait is not None:
            packed.append(_pack(conn, ("WAIT", wait[0], wait[1])))
        conn.send_packed_command((b"".join(packed),))
        error: Exception | None = None
        result: Any = None
        for _ in range(framed + len(commands)):
            try:
                result = conn.read_response()
            except redis.exceptions.ResponseError as e:
                error = e
        if wait is not None:
            confirmed = conn.read_response()
            if error is None and int(confirmed) < wait[0]:
                msg = (
                    f"the write was applied on the master but {confirmed} of {wait[0]} "
                    f"replica(s) confirmed it within {wait[1]} ms"
                )
                raise ReplicationUnconfirmed(msg)
        if error is not None:
            raise error
        return result
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        conn.disconnect()
        raise
    finally:
        pool.release(conn)


APPEND = LuaScript(APPEND_LUA)
APPEND_ONE = LuaScript(APPEND_ONE_LUA)
SELECT_EVENTS = LuaScript(SELECT_EVENTS_LUA)
SELECT = LuaScript(SELECT_LUA)
TRACK = LuaScript(TRACKING_LUA)
SNAPSHOT_PUT = LuaScript(SNAPSHOT_PUT_LUA)
COMPACT = LuaScript(COMPACT_LUA)
TRACKED_WRITE = LuaScript(TRACKED_WRITE_LUA)
