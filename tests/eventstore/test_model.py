"""Model-based checks beyond the library suites: random batches (small ones through the
script, large ones staged), inserts below an aggregate's head, several aggregates per
call, against the library's SQLite recorder (in memory) as the reference."""

from __future__ import annotations

import random
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import Environment

from domain.eventstore import RedisFactory
from domain.eventstore.recorders import STAGE_ABOVE_BYTES


def state(rng: random.Random) -> bytes:
    size = rng.choice([0, 5, 300, STAGE_ABOVE_BYTES // 4, STAGE_ABOVE_BYTES + 10])
    return bytes(rng.randrange(256) for _ in range(min(size, 64))) * (size // 64 + 1)


def grouped(batch: list[StoredEvent]) -> list[StoredEvent]:
    """The order this store gives notification ids: aggregate by aggregate."""
    order: dict[UUID | str, list[StoredEvent]] = {}
    for s in batch:
        order.setdefault(s.originator_id, []).append(s)
    return [s for events in order.values() for s in events]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_batches_match_the_reference(store_env: dict[str, str], seed: int) -> None:
    rng = random.Random(seed)
    factory = RedisFactory(Environment(env=store_env))
    ours = factory.application_recorder()
    ref = SQLiteFactory(Environment(env={"SQLITE_DBNAME": ":memory:"})).application_recorder()
    aggregates = [uuid4() for _ in range(4)]
    used: dict[UUID, set[int]] = {a: set() for a in aggregates}
    below_head_accepted = 0
    try:
        for _ in range(60):
            batch: list[StoredEvent] = []
            for a in rng.sample(aggregates, rng.randint(1, 3)):
                top = max(used[a], default=0)
                if rng.random() < 0.25:  # below the head, possibly clashing
                    versions = rng.sample(range(1, top + 3), min(rng.randint(1, 3), top + 2))
                else:
                    low = top + 1 + rng.choice([0, 0, 3])  # sometimes leave a gap
                    versions = list(range(low, low + rng.randint(1, 6)))
                batch += [StoredEvent(a, v, rng.choice("abc"), state(rng)) for v in versions]
            try:
                ref_ids = ref.insert_events(grouped(batch))
            except IntegrityError:
                with pytest.raises(IntegrityError):
                    ours.insert_events(batch)
                continue
            ids = ours.insert_events(batch)
            assert ids is not None and ref_ids is not None
            keys = [(s.originator_id, s.originator_version) for s in grouped(batch)]
            expected = dict(zip(keys, ref_ids))
            assert ids == [expected[(s.originator_id, s.originator_version)] for s in batch]
            for s in batch:
                if s.originator_version < max(used[s.originator_id], default=0):
                    below_head_accepted += 1
                used[s.originator_id].add(s.originator_version)
        assert below_head_accepted, "the scenario never inserted below a head"

        top_id = ref.max_notification_id()
        assert ours.max_notification_id() == top_id
        for a in aggregates:
            assert ours.select_events(a) == ref.select_events(a)
            for _ in range(25):
                kwargs = {
                    "gt": rng.choice([None, 0, 1, 3, 7, 12]),
                    "lte": rng.choice([None, 1, 4, 9, 30]),
                    "desc": rng.random() < 0.5,
                    "limit": rng.choice([None, 1, 2, 5]),
                }
                assert ours.select_events(a, **kwargs) == ref.select_events(a, **kwargs), kwargs
        for _ in range(40):
            start = rng.choice([None, 1, 2, 5, 17, (top_id or 0) + 1])
            args = {
                "limit": rng.choice([1, 3, 10, 1000]),
                "stop": rng.choice([None, 4, 20, 60]),
                "topics": rng.choice([(), ("a",), ("b", "c")]),
                "inclusive_of_start": rng.random() < 0.5,
            }
            got = ours.select_notifications(start, **args)
            want = ref.select_notifications(start, **args)
            assert got == want, (start, args)
    finally:
        factory.close()


def test_conflict_on_a_staged_batch_leaves_nothing_behind(store_env: dict[str, str]) -> None:
    factory = RedisFactory(Environment(env=store_env))
    recorder = factory.application_recorder()
    try:
        oid = uuid4()
        big = b"x" * (STAGE_ABOVE_BYTES * 2)
        recorder.insert_events([StoredEvent(oid, v, "t", big) for v in (1, 2)])
        with pytest.raises(IntegrityError):
            recorder.insert_events([StoredEvent(oid, v, "t", big) for v in (3, 2)])
        client = factory.datastore.client
        keys = sorted(k.decode() for k in client.scan_iter(match=f"*{oid}*"))
        assert [k.rsplit(":", 1)[-1] for k in keys] == ["events", "2"]  # no stage left
        assert recorder.max_notification_id() == 2
    finally:
        factory.close()


def test_long_aggregate_reads_with_bounds(store_env: dict[str, str]) -> None:
    """More batches than Lua can unpack at once (about 8000): bounded reads still work."""
    factory = RedisFactory(Environment(env=store_env))
    recorder = factory.application_recorder()
    try:
        oid = uuid4()
        n = 8500
        client = factory.datastore.client
        # Write the batches with the recorder's own packing, pipelined for speed.
        index = recorder.aggregate_key(oid)
        pipe = client.pipeline(transaction=False)
        for v in range(1, n + 1):
            pipe.zadd(index, {str(v): v})
            pipe.set(f"{index}:{v}", b"%d 1 t\n\0x" % v)
        pipe.execute()
        assert len(recorder.select_events(oid)) == n
        assert len(recorder.select_events(oid, lte=n - 1)) == n - 1
        assert [e.originator_version for e in recorder.select_events(oid, gt=10, limit=3)] == [
            11, 12, 13,
        ]
        assert recorder.select_events(oid, desc=True, limit=1)[0].originator_version == n
    finally:
        factory.close()


def test_text_originator_ids_and_invalid_names(store_env: dict[str, str]) -> None:
    from eventsourcing.persistence import DataError

    factory = RedisFactory(Environment(env={**store_env, "ORIGINATOR_ID_TYPE": "text"}))
    recorder = factory.application_recorder()
    try:
        recorder.insert_events(
            [StoredEvent("game-1", 1, "t", b"a"), StoredEvent("game-1", 2, "t", b"b")]
        )
        notifications = recorder.select_notifications(None, 10)
        assert [(n.originator_id, n.originator_version) for n in notifications] == [
            ("game-1", 1),
            ("game-1", 2),
        ]
        assert [e.state for e in recorder.select_events("game-1")] == [b"a", b"b"]
        with pytest.raises(DataError):
            recorder.insert_events([StoredEvent("game-2", 1, "bad\ntopic", b"")])
        with pytest.raises(DataError):
            recorder.insert_events(
                [StoredEvent("bad\nid", 1, "t", b""), StoredEvent("x", 1, "t", b"")]
            )
        assert recorder.max_notification_id() == 2  # nothing written by the refused calls
    finally:
        factory.close()
