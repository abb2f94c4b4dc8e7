"""Redis materialised views with their tracking position, written atomically together.

Every view keeps its keys under ``<prefix>:proj:<name>:`` and its tracking position in
``<prefix>:proj:<name>:tracking`` (a hash: application name -> last notification id).
`commit` writes a batch of view changes and the new position in one MULTI/EXEC guarded
by WATCH on the tracking and generation keys, so:

- a change is applied together with its position or not at all (a crash in between
  leaves neither), and after a restart the runner resumes after the recorded position:
  every event is applied exactly once;
- if two runners follow the same view (the API process and ``heirloom projections run``),
  the second one to commit a position sees it already taken and gets `IntegrityError`
  instead of applying the events twice;
- ``rebuild`` bumps the generation, so a runner holding a view of the old generation gets
  `StaleView` and reloads instead of writing into the fresh one.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import orjson
import redis
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder

Op = tuple  # ("hset", key, field, value), ("rpush", key, value), ... applied to a pipeline


# Several views' changes and tracking positions in one script: checks every view first
# (generation, position), then writes. ARGV: number of views, then per view: tracking key,
# generation key, expected generation, application name, position read after ("" = any
# below the new one), new position, number of commands, then per command: number of
# words, the words. A failed check writes nothing and names the view (1-based).
COMMIT_VIEWS_LUA = """
local nviews = tonumber(ARGV[1])
local i = 2
local generation_keys = {}
for v = 1, nviews do  -- every view's generation in one MGET
  generation_keys[v] = ARGV[i + 1]
  local n = tonumber(ARGV[i + 6])
  i = i + 7
  for c = 1, n do i = i + tonumber(ARGV[i]) + 1 end
end
local generations = {}
if nviews > 0 then generations = redis.call('MGET', unpack(generation_keys)) end
i = 2
local views = {}
for v = 1, nviews do
  local tk, gk, gen, app, after, pos, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], tonumber(ARGV[i + 6])
  local current = tonumber(generations[v] or '0')
  if current ~= tonumber(gen) or current < 0 then
    return redis.error_reply('HEIRLOOM_STALE ' .. v)
  end
  local at = tonumber(redis.call('HGET', tk, app) or '0')
  if (after ~= '' and at ~= tonumber(after)) or at >= tonumber(pos) then
    return redis.error_reply('HEIRLOOM_TRACKING ' .. v .. ' ' .. at)
  end
  i = i + 7
  views[v] = {tk, app, pos, i, n}
  for c = 1, n do i = i + tonumber(ARGV[i]) + 1 end
end
for _, view in ipairs(views) do
  local j = view[4]
  for c = 1, view[5] do
    local n = tonumber(ARGV[j])
    redis.call(unpack(ARGV, j + 1, j + n))
    j = j + n + 1
  end
  redis.call('HSET', view[1], view[2], view[3])
end
return 1
"""


#: Commands whose repeats on one key merge into one: the last SET wins; RPUSH and HSET
#: take every value in order (HSET's later value of a field wins, as when run one by one).
MERGEABLE = frozenset({"SET", "RPUSH", "HSET"})


def coalesce(commands: Iterable[list[Any]]) -> list[list[Any]]:
    """One flush's commands with the repeats on a key merged (`MERGEABLE`): a page of many
    moves of one game writes each of its keys once (one RPUSH of all the new entries, the
    last status), so the read side's commands grow with the games in a page, not its moves.

    A command merges into the latest earlier command on the same key only if that one has
    the same name, so the commands on each key keep their order (nothing in a commit reads
    between them, and commands on different keys do not depend on each other's order)."""
    merged: list[list[Any]] = []
    last: dict[Any, int] = {}
    for command in commands:
        name = command[0]
        keys = command[1:] if name == "DEL" else command[1:2]
        at = last.get(command[1]) if name in MERGEABLE and len(command) > 2 else None
        if at is not None and merged[at][0] == name:
            if name == "SET":
                if len(command) == 3 and len(merged[at]) == 3:
                    merged[at] = list(command)
                    continue
            else:
                merged[at].extend(command[2:])
                continue
        merged.append(list(command))
        for key in keys:
            last[key] = len(merged) - 1
    return merged


def command_of(op: Op) -> list[Any] | None:
    """The Redis command of a pipeline-style op (None: nothing to do)."""
    name, *args = op
    if name == "delete":
        return ["DEL", *args]
    if name == "hset" and len(args) == 4 and args[1] is None:  # ("hset", key, None, None, mapping)
        mapping = args[3]
        if not mapping:
            return None
        words: list[Any] = ["HSET", args[0]]
        for field, value in mapping.items():
            words += (field, value)
        return words
    return [name.upper(), *args]


class StaleView(Exception):
    """The view was cleared for a rebuild since this runner loaded it."""


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


def loads(raw: bytes | str | None, default: Any = None) -> Any:
    return default if raw is None else orjson.loads(raw)


class RedisView(TrackingRecorder):
    """Base of the projections' views: key naming, tracking, atomic commits, clearing."""

    def __init__(self, client: redis.Redis, prefix: str, name: str) -> None:
        self.client = client
        self.name = name
        if isinstance(client, redis.RedisCluster):
            # Redis Cluster: every view under the one hash tag {proj}, so the script that
            # commits all views at once touches one slot (the read side lives on one master).
            self.base = f"{prefix}:{{proj}}:{name}"
            self.generation_key = f"{prefix}:{{proj}}:generation:{name}"
        else:
            self.base = f"{prefix}:proj:{name}"
            self.generation_key = f"{prefix}:proj-generation:{name}"
        self.tracking_key = f"{self.base}:tracking"
        self.generation = self.current_generation()

    def key(self, *parts: Any) -> str:
        return ":".join([self.base, *map(str, parts)])

    # ---- tracking (eventsourcing TrackingRecorder)

    def max_tracking_id(self, application_name: str) -> int | None:
        raw = self.client.hget(self.tracking_key, application_name)
        return None if raw is None else int(raw)

    def insert_tracking(self, tracking: Tracking) -> None:
        self.commit(tracking, [])

    def current_generation(self) -> int:
        return int(self.client.get(self.generation_key) or 0)

    def commit(self, tracking: Tracking, ops: Sequence[Op], after: int | None = None) -> None:
        """Apply `ops` and record `tracking`, atomically; see the module docstring.

        `after` is the position the batch was read after: if the recorded position is no
        longer that (another runner committed meanwhile), nothing is written and
        `IntegrityError` is raised, since the batch was computed from outdated caches.
        """
        with self.client.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self.tracking_key, self.generation_key)
                    generation = int(pipe.get(self.generation_key) or 0)
                    if generation != self.generation or generation < 0:
                        raise StaleView(f"projection {self.name!r} is being rebuilt or was rebuilt")
                    current = pipe.hget(self.tracking_key, tracking.application_name)
                    position = None if current is None else int(current)
                    if after is not None and (position or 0) != after:
                        raise IntegrityError(
                            f"{self.name}: position is {position}, not {after}: another runner applied events")
                    if position is not None and position >= tracking.notification_id:
                        raise IntegrityError(
                            f"{self.name}: notification {tracking.notification_id} already applied "
                            f"(position {position})")
                    pipe.multi()
                    for op in ops:
                        getattr(pipe, op[0])(*op[1:])
                    pipe.hset(self.tracking_key, tracking.application_name, tracking.notification_id)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def commit_command(self, tracking: Tracking, ops: Sequence[Op], after: int | None) -> list[Any]:
        """This view's part of a COMMIT_VIEWS_LUA call."""
        commands = coalesce(c for c in map(command_of, ops) if c is not None)
        words: list[Any] = [self.tracking_key, self.generation_key, self.generation, tracking.application_name,
                            "" if after is None else after, tracking.notification_id, len(commands)]
        for command in commands:
            words.append(len(command))
            words += command
        return words

    # ---- games set aside (see GameProjection.quarantine)

    def failures(self) -> dict[str, dict]:
        return {k.decode(): loads(v) for k, v in self.client.hgetall(self.key("failed")).items()}

    def failure(self, game_id: str) -> dict | None:
        return loads(self.client.hget(self.key("failed"), game_id))

    # ---- rebuild support

    def kept_per_game(self, suffix: str) -> bool:
        """Whether the per-game key ``<base>:<suffix>`` survives the rebuild of its game's
        partition (projections/partitions.py): a view keeping a game's contribution to
        totals there keeps it, so replaying the game does not add it again."""
        return False

    def data_keys(self) -> Iterable[str]:
        return self.client.scan_iter(match=f"{self.base}:*", count=1000)

    def clear(self) -> None:
        """Forget everything (keys of this view only) and start a new generation.

        While the keys are deleted the generation is negative, so no runner can commit
        into a half-cleared view; the new (positive) generation is set once they are gone.
        """
        generation = abs(self.current_generation()) + 1
        self.client.set(self.generation_key, -generation)
        batch: list = []
        for key in self.data_keys():
            batch.append(key)
            if len(batch) >= 500:
                self.client.unlink(*batch)
                batch.clear()
        if batch:
            self.client.unlink(*batch)
        self.client.set(self.generation_key, generation)
        self.generation = generation

    def refresh_generation(self) -> None:
        self.generation = self.current_generation()

    def expanded(self, suffix: str, compact: Any) -> dict[str, Any]:
        """The keys (as `dump` lists them) a compact string ``<suffix>:z`` stands for
        (projections/compaction.py): a dump does not tell a compacted game from a plain one."""
        return {suffix: compact}

    def dump(self) -> dict[str, Any]:
        """Every key of the view (except tracking) with its decoded content (tests, rebuild checks)."""
        result: dict[str, Any] = {}
        for raw_key in sorted(self.data_keys()):
            key = raw_key.decode() if isinstance(raw_key, bytes) else raw_key
            if key == self.tracking_key:
                continue
            kind = self.client.type(key)
            kind = kind.decode() if isinstance(kind, bytes) else kind
            suffix = key[len(self.base) + 1:]
            if kind == "string" and suffix.endswith(":z"):  # a finished game's compact form
                from .compaction import unpack

                result.update(self.expanded(suffix[:-len(":z")], unpack(self.client.get(key))))
            elif kind == "string":
                result[suffix] = loads(self.client.get(key))
            elif kind == "list":
                result[suffix] = [loads(item) for item in self.client.lrange(key, 0, -1)]
            elif kind == "hash":
                result[suffix] = {field.decode(): loads(value) for field, value in self.client.hgetall(key).items()}
            elif kind == "set":
                result[suffix] = sorted(member.decode() for member in self.client.smembers(key))
        return result
