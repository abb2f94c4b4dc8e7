"""The job queue on Redis Streams (api/jobs/queue.py), on a real Redis: one queued job per game,
round-robin across games, kinds taking turns, jobs of a dead worker taken over after the idle
time and never while their worker still touches them."""

from __future__ import annotations

import time

import pytest
import redis

from api.jobs.queue import JobQueue


@pytest.fixture
def queue(redis_url, key_prefix):
    client = redis.Redis.from_url(redis_url)
    yield JobQueue(client, key_prefix, claim_idle=0.5)
    for key in client.scan_iter(f"{key_prefix}:*"):
        client.delete(key)
    client.close()


def test_a_game_has_at_most_one_bot_job_queued(queue):
    assert queue.enqueue_bot("g1") is True
    assert queue.enqueue_bot("g1") is False          # the scheduler and the worker both ask: one job
    job = queue.take("w1", block=0)
    assert job.body["game"] == "g1"
    assert queue.enqueue_bot("g1") is True           # taken: the next change queues the next one
    assert queue.take("w1", block=0).body["game"] == "g1"
    assert queue.take("w1", block=0) is None


def test_games_take_turns_when_each_requeues_itself_after_a_decision(queue):
    for game in ("busy1", "busy2", "busy3", "person"):
        queue.enqueue_bot(game)
    served = []
    for _ in range(12):
        job = queue.take("w1", block=0)
        served.append(job.body["game"])
        queue.enqueue_bot(job.body["game"])          # an all-bot game: its next decision, at the tail
        queue.ack(job, "w1")
    assert served == ["busy1", "busy2", "busy3", "person"] * 3   # round-robin: nobody waits on a long run


def test_the_kinds_of_work_take_turns(queue):
    for n in range(8):
        queue.enqueue_bot(f"table{n}")
        queue.enqueue_bot(f"allbots{n}", all_bots=True)
        queue.enqueue("analysis", {"kind": "analysis", "n": n})
        queue.enqueue("sims", {"kind": "sim", "n": n})
    streams = []
    for _ in range(12):
        job = queue.take("w1", block=0)
        streams.append(job.stream.rsplit(":", 1)[1])
        queue.ack(job, "w1")
    assert {name: streams.count(name) for name in set(streams)} == {"bots": 6, "autoplay": 2, "analysis": 2,
                                                                    "sims": 2}, streams
    assert queue.stats() == {"w1": {"bot": 8, "analysis": 2, "sim": 2}}


def test_a_persons_bot_opponent_goes_before_games_of_bots_only(queue):
    for n in range(6):
        queue.enqueue_bot(f"allbots{n}", all_bots=True)
    queue.enqueue_bot("person")
    taken = [queue.take("w1", block=0).body["game"] for _ in range(2)]
    assert "person" in taken


def test_a_job_of_a_worker_that_stopped_is_taken_over_after_the_idle_time(queue):
    queue.enqueue_bot("g1")
    held = queue.take("dead", block=0)
    assert queue.take("alive", block=0) is None      # taken, not acknowledged: nobody else has it yet
    queue._claimed_at = 0.0
    assert queue.take("alive", block=0) is None      # not idle long enough
    time.sleep(0.6)
    queue._claimed_at = 0.0
    again = queue.take("alive", block=0)
    assert again is not None and again.id == held.id and again.body == held.body
    queue.ack(again, "alive")
    queue._claimed_at = 0.0
    time.sleep(0.6)
    assert queue.take("third", block=0) is None      # done: gone for good


def test_a_worker_that_touches_its_job_keeps_it(queue):
    queue.enqueue("analysis", {"kind": "analysis", "game": "long"})
    held = queue.take("busy", block=0)
    for _ in range(4):
        time.sleep(0.3)
        queue.touch("busy", [held])
        queue._claimed_at = 0.0
        assert queue.take("other", block=0) is None
    queue.ack(held, "busy")


def test_a_blocking_take_wakes_when_a_job_arrives(queue):
    import threading

    threading.Timer(0.3, lambda: queue.enqueue("sims", {"kind": "sim", "n": 1})).start()
    started = time.monotonic()
    job = queue.take("w1", block=3.0)
    assert job is not None and job.kind == "sim" and time.monotonic() - started < 2.0


def test_a_dedupe_key_whose_job_was_lost_does_not_block_its_game_forever(queue):
    assert queue.enqueue_bot("g1") is True
    queue.client.delete(queue.stream("bots"))                 # the job is gone, its key still held
    queue._groups = False
    assert queue.enqueue_bot("g1") is False                  # held: taken for queued
    import orjson

    held = orjson.loads(queue.client.hget(queue.queued_key, "bot:g1"))
    queue.client.hset(queue.queued_key, "bot:g1", orjson.dumps({**held, "queued_at": time.time() - 301}))
    assert queue.enqueue_bot("g1") is True                   # held too long: queued again
    assert queue.take("w1", block=0).body["game"] == "g1"


def test_live_workers_are_those_with_a_recent_heartbeat(queue):
    queue.heartbeat("w1")
    queue.client.hset(queue.workers_key, "gone", time.time() - 60)
    assert queue.live_workers() == ["w1"]
    queue.leave("w1")
    assert queue.live_workers() == []


def test_a_deferred_job_waits_for_its_time_without_a_worker_sleeping(queue):
    assert queue.defer("bots", {"kind": "bot", "game": "paced"}, 0.4, dedupe="bot:paced") is True
    assert queue.enqueue_bot("paced") is False               # held meanwhile: not queued twice
    assert queue.take("w1", block=0) is None
    started = time.monotonic()
    job = queue.take("w1", block=2.0)                          # the wait ends when the job falls due
    assert job is not None and job.body["game"] == "paced" and 0.3 <= time.monotonic() - started < 1.0
    assert queue.enqueue_bot("paced") is True                 # taken: the key is free again


def test_a_job_given_back_unstarted_is_queued_again_once(queue):
    queue.enqueue_bot("g1")
    held = queue.client.xreadgroup("workers", "w1", {queue.stream("bots"): ">"}, count=1)   # as a blocking take reads
    from api.jobs.queue import Job, _text

    entry_id, fields = held[0][1][0]
    import orjson

    queue.release(Job(queue.stream("bots"), _text(entry_id), orjson.loads(fields[b"job"])))
    assert queue.enqueue_bot("g1") is False                  # still queued: not twice
    job = queue.take("w2", block=0)
    assert job is not None and job.body["game"] == "g1" and queue.take("w2", block=0) is None
