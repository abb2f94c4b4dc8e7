"""Compact finished aggregates (one zstd batch) and latest-only snapshots, on a real Redis."""

from __future__ import annotations

from uuid import uuid4

import pytest
import redis
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import Environment

from domain.eventstore import RedisFactory
from domain.eventstore.compact import is_compact


@pytest.fixture
def factory(redis_url: str, key_prefix: str):
    f = RedisFactory(Environment(env={"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": key_prefix}))
    yield f
    f.close()


def rows(notifications):
    return [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in notifications]


def test_a_compacted_aggregate_reads_the_same_by_aggregate_and_through_the_log(factory) -> None:
    recorder = factory.application_recorder()
    a, b = uuid4(), uuid4()
    for v in range(1, 11):  # interleaved with another aggregate, single-event appends
        recorder.insert_events([StoredEvent(a, v, "ta" if v % 3 else "tb", b"a%d" % v * 50)])
        recorder.insert_events([StoredEvent(b, v, "t", b"b%d" % v)])
    recorder.insert_events([StoredEvent(a, 11, "ta", b"x"), StoredEvent(a, 12, "ta", b"y" * 5000)])  # staged
    log = rows(recorder.select_notifications(1, 100))
    only_tb = rows(recorder.select_notifications(1, 100, topics=["tb"]))
    events = recorder.select_events(a)

    assert recorder.compact(a) is True
    assert recorder.compact(a) is False  # already one compact batch
    client = factory.datastore.client
    index = recorder.aggregate_key(a)
    assert client.zrange(index, 0, -1) == [b"12"]
    stored = client.get(f"{index}:12")
    assert is_compact(stored) and len(stored) < 1000  # 5.5 KB of states, compressed

    assert rows(recorder.select_notifications(1, 100)) == log
    assert rows(recorder.select_notifications(1, 100, topics=["tb"])) == only_tb
    for start in range(1, len(log) + 1):  # every page boundary, inside and across batches
        for limit in (1, 3, 7):
            page = rows(recorder.select_notifications(start, limit))
            assert page == [row for row in log if row[0] >= start][:limit]
    assert rows(recorder.select_notifications(5, 100, stop=9)) == [r for r in log if 5 <= r[0] <= 9]
    assert recorder.select_events(a) == events
    assert list(recorder.select_events(a, gt=3, lte=7)) == events[3:7]
    assert list(recorder.select_events(a, desc=True, limit=2)) == events[::-1][:2]

    # The version check still sees every compacted version; the aggregate goes on.
    with pytest.raises(IntegrityError):
        recorder.insert_events([StoredEvent(a, 5, "ta", b"again")])
    with pytest.raises(IntegrityError):
        recorder.insert_events([StoredEvent(a, 12, "ta", b"again"), StoredEvent(a, 13, "ta", b"z")])
    recorder.insert_events([StoredEvent(a, 13, "ta", b"new")])
    assert [e.state for e in recorder.select_events(a)] == [e.state for e in events] + [b"new"]
    log_after = rows(recorder.select_notifications(1, 100))
    assert log_after[:-1] == log and log_after[-1][2:] == (13, "ta", b"new")
    assert recorder.compact(a) is True  # compact again, with the new event
    assert rows(recorder.select_notifications(1, 100)) == log_after
    assert [e.state for e in recorder.select_events(a)] == [e.state for e in events] + [b"new"]


def test_compaction_writes_nothing_when_the_aggregate_moved_on(factory) -> None:
    from domain.eventstore.scripts import COMPACT

    recorder = factory.application_recorder()
    a = uuid4()
    recorder.insert_events([StoredEvent(a, 1, "t", b"one")])
    recorder.insert_events([StoredEvent(a, 2, "t", b"two")])
    index = recorder.aggregate_key(a)
    # As if a third event arrived between compact()'s read and its script.
    recorder.insert_events([StoredEvent(a, 3, "t", b"three")])
    assert COMPACT(factory.datastore.client, [index], [b"2", 2, b"z\n1 3 t\n\0junk"]) == 0
    assert [e.state for e in recorder.select_events(a)] == [b"one", b"two", b"three"]


def test_snapshots_keep_the_latest_only(redis_url: str, key_prefix: str) -> None:
    env = {"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": key_prefix, "SNAPSHOTS_KEEP": "latest"}
    factory = RedisFactory(Environment(env=env))
    snapshots = factory.aggregate_recorder("snapshots")
    a = uuid4()
    for v in (50, 100, 75):  # an older one arriving late changes nothing
        snapshots.insert_events([StoredEvent(a, v, "s", b"snapshot %d" % v)])
    assert [(s.originator_version, s.state) for s in snapshots.select_events(a)] == [(100, b"snapshot 100")]
    assert list(snapshots.select_events(a, desc=True, limit=1, lte=99)) == []
    client = redis.Redis.from_url(redis_url)
    try:
        keys = sorted(k.decode() for k in client.scan_iter(match=f"{key_prefix}:*{a}*"))
    finally:
        client.close()
        factory.close()
    assert [k.rsplit(":", 1)[-1] for k in keys] == ["snapshots", "100"]


def test_a_large_snapshot_is_stored_compressed_and_reads_back(redis_url: str, key_prefix: str) -> None:
    env = {"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": key_prefix, "SNAPSHOTS_KEEP": "latest"}
    factory = RedisFactory(Environment(env=env))
    try:
        snapshots = factory.aggregate_recorder("snapshots")
        a = uuid4()
        state = b'{"hands": [1, 2, 3], "log": "%s"}' % (b"move " * 4000)
        snapshots.insert_events([StoredEvent(a, 50, "s", state)])
        stored = factory.datastore.client.get(f"{snapshots.aggregate_key(a)}:50")
        assert is_compact(stored) and len(stored) < len(state) / 10
        assert [(s.originator_version, s.topic, s.state) for s in snapshots.select_events(a, desc=True, limit=1)] \
            == [(50, "s", state)]
    finally:
        factory.close()
