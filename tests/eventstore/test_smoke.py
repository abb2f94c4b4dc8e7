"""The fixture module and the factory work together (both ways of running Redis)."""

from __future__ import annotations

import pytest

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Counter(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Incremented")
    def inc(self, by: int) -> None:
        self.n += by


def test_application_round_trip(store_env: dict[str, str]) -> None:
    app = Application(env=store_env)
    try:
        c = Counter()
        c.inc(2)
        c.inc(3)
        app.save(c)
        again = app.repository.get(c.id)
        assert again.n == 5 and again.version == 3
        ids = [n.id for n in app.notification_log.select(start=1, limit=10)]
        assert ids == [1, 2, 3]
    finally:
        app.close()


def test_batch_format_names_a_topic_once_and_reads_older_batches(
    store_env: dict[str, str],
) -> None:
    """A batch names a topic only where it changes; batches written before that (every
    header line with its topic) still read back, by aggregate and through the log."""
    from uuid import uuid4

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.utils import Environment

    from domain.eventstore import RedisFactory

    f = RedisFactory(Environment(env=store_env))
    try:
        recorder = f.application_recorder()
        oid = uuid4()
        topics = ["a", "a", "b", "b", "a", ""]
        events = [StoredEvent(oid, v, t, b"s%d" % v * 2000) for v, t in enumerate(topics, 1)]
        recorder.insert_events(events[:3])  # above 4 KB: staged
        recorder.insert_events(events[3:4])  # one event: the small script
        recorder.insert_events(events[4:])
        index = recorder.aggregate_key(oid)
        stored = f.datastore.client.get(f"{index}:3")
        assert stored.split(b"\0", 1)[0] == b"1 4000 a\n2 4000\n3 4000 b\n"
        assert [(s.originator_version, s.topic) for s in recorder.select_events(oid)] == list(
            enumerate(topics, 1)
        )
        assert [s.state for s in recorder.select_events(oid, gt=1, lte=5)] == [
            e.state for e in events[1:5]
        ]
        assert [(n.id, n.topic) for n in recorder.select_notifications(1, 10, topics=["a"])] == [
            (1, "a"), (2, "a"), (5, "a")
        ]
        # An older batch: every line names its topic (an empty one too).
        old = uuid4()
        old_index = recorder.aggregate_key(old)
        client = f.datastore.client
        client.set(f"{old_index}:2", b"1 1 x\n2 2 \n\0ABC")
        client.zadd(old_index, {"2": 2})
        assert [(s.originator_version, s.topic, s.state) for s in recorder.select_events(old)] == [
            (1, "x", b"A"), (2, "", b"BC")
        ]
    finally:
        f.close()


def test_scripts_unknown_to_redis_are_loaded_on_first_use(
    store_env: dict[str, str], monkeypatch: "pytest.MonkeyPatch"
) -> None:
    """A Redis that does not know a script (restarted, or SCRIPT FLUSH) answers NOSCRIPT;
    the append loads it and retries, also when a staged batch went ahead of it (the
    staged SET is simply sent again)."""
    from uuid import uuid4

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.utils import Environment

    from domain.eventstore import RedisFactory, recorders, scripts

    token = uuid4().hex  # a source Redis has never seen: a new sha
    monkeypatch.setattr(recorders, "APPEND", scripts.LuaScript(f"{scripts.APPEND_LUA}--{token}"))
    monkeypatch.setattr(
        recorders, "APPEND_ONE", scripts.LuaScript(f"{scripts.APPEND_ONE_LUA}--{token}")
    )
    f = RedisFactory(Environment(env=store_env))
    try:
        recorder = f.application_recorder()
        oid = uuid4()
        big = [StoredEvent(oid, v, "t", b"x" * 3000) for v in (1, 2)]
        assert recorder.insert_events(big) == [1, 2]
        assert recorder.insert_events([StoredEvent(oid, 3, "t", b"y")]) == [3]
        assert [s.state for s in recorder.select_events(oid)] == [b"x" * 3000] * 2 + [b"y"]
        stages = list(f.datastore.client.scan_iter(recorder.aggregate_key(oid) + ":stage:*"))
        assert stages == []
    finally:
        f.close()
