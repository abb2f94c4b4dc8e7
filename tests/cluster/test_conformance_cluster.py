"""The eventsourcing library's conformance suites on a real Redis Cluster (REDIS_CLUSTER=1).

One local cluster (3 masters, 3 replicas, tests/support/redis_cluster.py) serves this
module. With one log partition every suite of tests/eventstore/test_conformance.py runs
unchanged; with four partitions the application recorder's suites run on one partition
(partition 3: a recorder class whose aggregates all fall into it), and a test checks that
random games spread over the partitions, each partition numbering its notifications
1..n without gaps, every key of a partition on one slot.
"""

from __future__ import annotations

import pytest

pytest.importorskip("Crypto", reason="needs pycryptodome (eventsourcing[crypto]) installed")

import uuid
from collections import Counter
from typing import Any, ClassVar

from eventsourcing.persistence import ApplicationRecorder, StoredEvent
from eventsourcing.tests import persistence as lib
from eventsourcing.utils import Environment
from redis.cluster import key_slot

from domain.eventstore import RedisApplicationRecorder, RedisFactory
from domain.eventstore.cluster import partition_of
from tests.eventstore import test_conformance as base
from tests.support.redis_cluster import LocalCluster, start_cluster
from tests.support.redis_fixtures import new_prefix

pytestmark = pytest.mark.slow

_cluster: LocalCluster | None = None


def cluster_url() -> str:
    global _cluster
    if _cluster is None:
        _cluster = start_cluster()
    return _cluster.url


@pytest.fixture(scope="module", autouse=True)
def _local_cluster():
    global _cluster
    yield
    if _cluster is not None:
        _cluster.stop()
        _cluster = None


class ClusterMode(base.RedisMode):
    mode: ClassVar[str] = "cluster"
    partitions: ClassVar[int] = 1

    def redis_env(self) -> dict[str, str]:
        if not hasattr(self, "_prefix"):
            self._prefix = new_prefix()
            self._factories = []
        return {
            "REDIS_URL": cluster_url(),
            "REDIS_CLUSTER": "1",
            "HEIRLOOM_LOG_PARTITIONS": str(self.partitions),
            "REDIS_KEY_PREFIX": self._prefix,
            # These suites check the recorders' semantics, not replication latency: a replica
            # of a cluster just started on a loaded 2-core machine can take over a second.
            "REDIS_WAIT_TIMEOUT_MS": "10000",
        }


class PinnedToPartition3(RedisApplicationRecorder):
    """Every aggregate in partition 3 of 4, and the log read from it: the library's
    suite (which appends several random ids in one call) then runs on one partition."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.select_log_partition(3)

    def partition_of(self, originator_id: object) -> int:
        return 3


class PartitionedApplicationRecorderCase(ClusterMode, lib.ApplicationRecorderTestCase[ApplicationRecorder]):
    partitions = 4

    def create_recorder(self) -> ApplicationRecorder:
        recorder = self.new_factory(
            APPLICATION_RECORDER_TOPIC=f"{__name__}:PinnedToPartition3"
        ).application_recorder()
        assert recorder.stream_key.endswith(":p3}:stream")
        return recorder

    def test_insert_subscribe(self) -> None:
        self.optional_test_insert_subscribe()


class PartitionedNonInterleavingCase(ClusterMode, lib.NonInterleavingNotificationIDsBaseCase):
    partitions = 4

    def create_recorder(self) -> ApplicationRecorder:
        return self.new_factory(
            APPLICATION_RECORDER_TOPIC=f"{__name__}:PinnedToPartition3"
        ).application_recorder()


for _suite in base._SUITES:  # noqa: SLF001 - the same suites as on a single node
    _name = f"TestCluster{_suite.__name__.removesuffix('Case')}"
    globals()[_name] = type(
        _name, (ClusterMode, _suite), {"__module__": __name__, "__test__": True}
    )
for _suite in (PartitionedApplicationRecorderCase, PartitionedNonInterleavingCase):
    _name = f"TestCluster{_suite.__name__.removesuffix('Case')}"
    globals()[_name] = type(_name, (_suite,), {"__module__": __name__, "__test__": True})
    _suite.__test__ = False  # type: ignore[attr-defined]
del _suite, _name


def test_games_spread_over_partitions_each_numbered_without_gaps() -> None:
    prefix = new_prefix()
    env = {"REDIS_URL": cluster_url(), "REDIS_CLUSTER": "1", "HEIRLOOM_LOG_PARTITIONS": "4",
           "REDIS_KEY_PREFIX": prefix, "REDIS_WAIT_TIMEOUT_MS": "10000"}
    factory = RedisFactory(Environment("Games", env=env))
    try:
        recorder = factory.application_recorder()
        assert isinstance(recorder, RedisApplicationRecorder)
        games = [uuid.uuid4() for _ in range(40)]
        expected: Counter[int] = Counter()
        for round_ in range(3):
            for oid in games:
                ids = recorder.insert_events([StoredEvent(oid, round_ + 1, "t", b"%d" % round_)])
                assert ids is not None and len(ids) == 1
                expected[partition_of(oid, 4)] += 1
        assert len(expected) == 4  # 40 random games reach every partition
        slots = set()
        for k in range(4):
            log = recorder.log_partition_recorder(k)
            notes = log.select_notifications(start=None, limit=1000)
            assert [n.id for n in notes] == list(range(1, expected[k] + 1))
            assert log.max_notification_id() == expected[k]
            assert all(partition_of(n.originator_id, 4) == k for n in notes)
            for n in notes:  # an aggregate's versions come in order within its partition
                assert n.state == b"%d" % (n.originator_version - 1)
            keys = [*recorder.partition_keys(k)[:2],
                    *(recorder.aggregate_key(oid) for oid in games if partition_of(oid, 4) == k)]
            assert len({key_slot(key.encode()) for key in keys}) == 1
            slots.add(key_slot(keys[0].encode()))
        assert len(slots) == 4
        for oid in games:
            assert [e.originator_version for e in recorder.select_events(oid)] == [1, 2, 3]
        with pytest.raises(Exception, match="log_partition_recorder"):
            recorder.select_notifications(start=None, limit=10)
    finally:
        factory.close()
