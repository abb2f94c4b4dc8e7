"""Subscriptions wake on new events without polling; views write data and tracking
atomically; eventsourcing's ProjectionRunner runs on this store end to end."""

from __future__ import annotations

import threading
import time
from functools import singledispatchmethod
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, DomainEvent, event
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.utils import Environment

from domain.eventstore import RedisFactory, RedisTrackingRecorder


def factory(store_env: dict[str, str]) -> RedisFactory:
    return RedisFactory(Environment(env=store_env))


def test_subscription_wakes_at_once_and_does_not_poll(store_env: dict[str, str]) -> None:
    f = factory(store_env)
    recorder = f.application_recorder()
    calls = {"select": 0}
    original = recorder.select_notifications

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls["select"] += 1
        return original(*args, **kwargs)

    recorder.select_notifications = counting  # type: ignore[method-assign]
    received: list[tuple[int, float]] = []
    try:
        with recorder.subscribe(gt=None) as subscription:

            def consume() -> None:
                for n in subscription:
                    received.append((n.id, time.monotonic()))
                    if len(received) == 3:
                        break

            consumer = threading.Thread(target=consume)
            consumer.start()
            time.sleep(0.3)
            idle_before = calls["select"]
            time.sleep(1.0)  # idle: a polling loop would call select_notifications here
            assert calls["select"] == idle_before, "the subscription polled while idle"

            latencies = []
            for i in range(3):
                sent = time.monotonic()
                recorder.insert_events([StoredEvent(uuid4(), 1, "t", b"{}")])
                deadline = sent + 2
                while len(received) <= i and time.monotonic() < deadline:
                    time.sleep(0.001)
                assert len(received) > i, "the subscription did not wake on a new event"
                latencies.append(received[i][1] - sent)
            consumer.join(timeout=5)
        assert [r[0] for r in received] == [1, 2, 3]
        # The backstop timeout is 5 s; waking is event driven, so far below it.
        assert max(latencies) < 1.0
    finally:
        f.close()


def test_subscription_filters_topics_and_starts_after_gt(store_env: dict[str, str]) -> None:
    f = factory(store_env)
    recorder = f.application_recorder()
    try:
        oid = uuid4()
        recorder.insert_events(
            [StoredEvent(oid, v, "a" if v % 2 else "b", b"%d" % v) for v in range(1, 7)]
        )
        with recorder.subscribe(gt=2, topics=["a"]) as subscription:
            got = []
            for n in subscription:
                got.append((n.id, n.topic, n.state))
                if len(got) == 2:
                    break
        assert got == [(3, "a", b"3"), (5, "a", b"5")]
    finally:
        f.close()


class CountView(RedisTrackingRecorder):
    """A tiny materialised view: counts events per topic, applied exactly once."""

    def incr(self, topic: str, tracking: Tracking) -> None:
        self.write_with_tracking(tracking, [("HINCRBY", self.key("counts"), topic, 1)])

    def counts(self) -> dict[str, int]:
        raw = self.client.hgetall(self.key("counts"))
        return {k.decode(): int(v) for k, v in raw.items()}


def test_write_with_tracking_is_atomic_and_once(store_env: dict[str, str]) -> None:
    f = factory(store_env)
    view = f.tracking_recorder(CountView)
    try:
        view.incr("x", Tracking("Games", 1))
        view.incr("x", Tracking("Games", 2))
        with pytest.raises(IntegrityError):
            view.incr("x", Tracking("Games", 2))  # replayed: refused, nothing written
        assert view.counts() == {"x": 2}
        assert view.max_tracking_id("Games") == 2
    finally:
        f.close()


class Counter(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Incremented")
    def inc(self) -> None:
        self.n += 1


class Counters(Application):
    name = "Counters"


class CountProjection(Projection[CountView]):
    name = "countprojection"

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        assert isinstance(domain_event, DomainEvent)
        self.view.incr(type(domain_event).__qualname__, tracking)


def test_projection_runner_end_to_end(store_env: dict[str, str]) -> None:
    env = {**store_env}
    app = Counters(env=env)
    c = Counter()
    c.inc()
    c.inc()
    app.save(c)
    with ProjectionRunner(
        application_class=Counters,
        projection_class=CountProjection,
        view_class=CountView,
        env=env,
    ) as runner:
        runner.wait(app.recorder.max_notification_id(), timeout=5)
        assert runner.view.counts() == {"Counter.Created": 1, "Counter.Incremented": 2}
        c.inc()
        recordings = app.save(c)
        runner.wait(recordings[-1].notification.id, timeout=5)
        assert runner.view.counts()["Counter.Incremented"] == 3
    # A new runner resumes from its tracking record: nothing is applied twice.
    with ProjectionRunner(
        application_class=Counters,
        projection_class=CountProjection,
        view_class=CountView,
        env=env,
    ) as runner:
        runner.wait(app.recorder.max_notification_id(), timeout=5)
        assert runner.view.counts() == {"Counter.Created": 1, "Counter.Incremented": 3}
    app.close()


def test_log_waiter_blocks_until_an_append_and_unblocks_on_request(
    store_env: dict[str, str],
) -> None:
    f = factory(store_env)
    recorder = f.application_recorder()
    waiter = recorder.log_waiter()
    try:
        assert waiter.last_id() == 0
        recorder.insert_events([StoredEvent(uuid4(), 1, "t", b"{}")])
        assert waiter.wait(0, timeout=5) == 1  # already above: no wait
        started = time.monotonic()
        assert waiter.wait(1, timeout=0.2) == 1  # nothing new: the timeout ends it
        assert 0.15 < time.monotonic() - started < 2

        woke: list[tuple[int, float]] = []
        thread = threading.Thread(target=lambda: woke.append((waiter.wait(1, 5), time.monotonic())))
        thread.start()
        time.sleep(0.3)
        assert not woke, "the waiter returned before any append"
        sent = time.monotonic()
        recorder.insert_events([StoredEvent(uuid4(), 1, "t", b"{}")])
        thread.join(timeout=3)
        assert woke and woke[0][0] == 2 and woke[0][1] - sent < 1.0

        thread = threading.Thread(target=lambda: woke.append((waiter.wait(2, 30), time.monotonic())))
        thread.start()
        time.sleep(0.3)
        asked = time.monotonic()
        while thread.is_alive() and time.monotonic() - asked < 3:
            waiter.unblock()
            thread.join(timeout=0.05)
        assert not thread.is_alive() and woke[1][0] == 2 and woke[1][1] - asked < 1.0
    finally:
        waiter.close()
        f.close()
