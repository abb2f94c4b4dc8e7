"""Failover on a real Redis Cluster: nothing acknowledged is lost when a master is SIGKILLed.

Four threads append moves to their own games (four log partitions spread over three
masters, every write confirmed by a replica with WAIT before it counts as acknowledged)
while the master of partition 0 is killed with SIGKILL. The cluster promotes its replica;
writers see OperationalError (HTTP 503 store_unavailable) for a while and carry on from
the stored head of their game. Afterwards every acknowledged event is stored byte for
byte, every game's versions run 1..n, and every partition numbers its notifications
1..N without a gap, one per stored event.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from eventsourcing.utils import Environment

from domain.eventstore import RedisApplicationRecorder, RedisFactory
from domain.eventstore.cluster import partition_of
from tests.support.redis_cluster import LocalCluster, start_cluster
from tests.support.redis_fixtures import new_prefix

pytestmark = pytest.mark.slow

PARTITIONS = 4


@pytest.fixture(scope="module")
def cluster() -> Any:
    local = start_cluster()
    yield local
    local.stop()


def factory_for(cluster: LocalCluster, **extra: str) -> RedisFactory:
    env = {"REDIS_URL": cluster.url, "REDIS_CLUSTER": "1", "REDIS_KEY_PREFIX": new_prefix(),
           "HEIRLOOM_LOG_PARTITIONS": str(PARTITIONS), **extra}
    return RedisFactory(Environment("Games", env=env))


def test_write_not_confirmed_by_enough_replicas_is_an_operational_error(cluster: LocalCluster) -> None:
    """WAIT cannot be satisfied (2 replicas asked, 1 exists): 503, though the master has it."""
    factory = factory_for(cluster, REDIS_WAIT_REPLICAS="2", REDIS_WAIT_TIMEOUT_MS="50")
    try:
        recorder = factory.application_recorder()
        oid = uuid.uuid4()
        with pytest.raises(OperationalError, match="replica"):
            recorder.insert_events([StoredEvent(oid, 1, "t", b"x")])
        assert [e.state for e in recorder.select_events(oid)] == [b"x"]
    finally:
        factory.close()


def test_sigkill_of_a_master_loses_nothing_acknowledged(cluster: LocalCluster) -> None:
    factory = factory_for(cluster, REDIS_WAIT_TIMEOUT_MS="500")
    recorder = factory.application_recorder()
    assert isinstance(recorder, RedisApplicationRecorder)
    acknowledged: dict[tuple[uuid.UUID, int], bytes] = {}
    lock = threading.Lock()
    stop = threading.Event()
    counts = Counter()

    def writer(games: list[uuid.UUID]) -> None:
        head = dict.fromkeys(games, 0)
        i = 0
        while not stop.is_set():
            oid = games[i % len(games)]
            i += 1
            v = head[oid] + 1
            state = b"%s:%d:%s" % (str(oid).encode(), v, os.urandom(8).hex().encode())
            try:
                recorder.insert_events([StoredEvent(oid, v, "t", state)])
            except (OperationalError, IntegrityError):
                with lock:
                    counts["refused"] += 1
                # The outcome may be unknown: carry on from what the store holds.
                while not stop.is_set():
                    try:
                        stored = recorder.select_events(oid)
                        head[oid] = stored[-1].originator_version if stored else 0
                        break
                    except OperationalError:
                        time.sleep(0.1)
                continue
            head[oid] = v
            with lock:
                acknowledged[(oid, v)] = state
                counts["acknowledged"] += 1

    # Games for every partition, so some live on the master that dies.
    games = []
    while len({partition_of(g, PARTITIONS) for g in games}) < PARTITIONS or len(games) < 16:
        games.append(uuid.uuid4())
    threads = [threading.Thread(target=writer, args=(games[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    try:
        time.sleep(1.5)
        host, port = factory.datastore.router.node_address(recorder.partition_keys(0)[0])
        victim = next(n for n in cluster.nodes if n.port == port)
        replica = next(n for n in cluster.nodes if n is not victim and n.role() == "slave"
                       and int(n.client().info("replication")["master_port"]) == port)
        before_kill = counts["acknowledged"]
        victim.kill()
        killed_at = time.monotonic()
        while replica.role() != "master":
            assert time.monotonic() - killed_at < 30, "the replica was not promoted"
            time.sleep(0.1)
        promoted_after = time.monotonic() - killed_at
        cluster.wait_ok(timeout=30)
        at_promotion = counts["acknowledged"]
        time.sleep(3.0)  # writes continue on the new topology
        after_failover = counts["acknowledged"]
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    print(f"acknowledged {counts['acknowledged']} ({before_kill} before the kill, "
          f"{at_promotion} at the promotion), "
          f"refused {counts['refused']}, replica promoted after {promoted_after:.1f} s")
    assert before_kill > 20
    assert after_failover > at_promotion + 20  # the new topology takes writes
    assert counts["refused"] > 0  # the kill was felt

    stored_per_partition: Counter[int] = Counter()
    for oid in games:
        events = recorder.select_events(oid)
        versions = [e.originator_version for e in events]
        assert versions == list(range(1, len(versions) + 1)), oid
        by_version = {e.originator_version: e.state for e in events}
        for (acked_oid, v), state in acknowledged.items():
            if acked_oid == oid:
                assert by_version.get(v) == state, (oid, v)
        stored_per_partition[partition_of(oid, PARTITIONS)] += len(events)
    for k in range(PARTITIONS):
        log = recorder.log_partition_recorder(k)
        notes = log.select_notifications(start=None, limit=100000)
        assert [n.id for n in notes] == list(range(1, len(notes) + 1))
        assert len(notes) == stored_per_partition[k]
        assert log.max_notification_id() == (len(notes) or None)
    factory.close()
