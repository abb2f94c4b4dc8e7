"""Read-side benchmark: projection throughput and checkpointed replay against folding.

Run:  .venv/bin/python ops/bench/projections.py [--games N] [--long-moves 2000] [--samples 200]

Against a real Redis (REDIS_URL, default redis://127.0.0.1:6379/0) under a fresh key prefix
that is deleted afterwards. It

1. plays N random Dice Duel games plus one long Count Up game (`--long-moves` moves)
   through the `GameService`, then rebuilds each projection from scratch and prints the
   events per second it applies (batches of 500 notifications, one transaction each), and
   the same with one event per transaction (the live, low-latency case);
2. replays random steps of the long game through the replay projection (checkpoint every
   K moves: one checkpoint read + at most K-1 folds) and, as the baseline, by folding the
   game's facts from step 0 (the moves read from the same view), and prints both and their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import redis  # noqa: E402

from domain.engine import copy_state, get_rules  # noqa: E402
from domain.service import SPECTATOR_CALLER, GameService  # noqa: E402
from projections.readside import PROJECTION_CLASSES, ReadSide  # noqa: E402
from projections.replay import effective_entries, replay_step  # noqa: E402
from projections.runner import catch_up  # noqa: E402
from projections.timeline import fold_moves, initial_state  # noqa: E402
from tests.support import api_count, dice_duel  # noqa: E402,F401  (register the bench games)


def play_games(service: GameService, count: int, seed: int) -> int:
    rules = get_rules("dice_duel")
    chooser = random.Random(seed)
    for index in range(count):
        created = service.create_game("dice_duel", 2, [f"p{index % 7}", f"p{index % 5 + 7}"], seed=seed + index)
        tokens = [seat["token"] for seat in created["seats"]]
        state = service.game(created["id"]).state
        while not rules.is_over(state):
            seat = chooser.choice(list(rules.decision(state).seats))
            service.play(created["id"], tokens[seat], chooser.choice(rules.legal_moves(state, seat)))
            state = service.game(created["id"]).state
    return count


def play_long_game(service: GameService, moves: int) -> str:
    created = service.create_game("api_count", 2, ["long-a", "long-b"], seed=1, options={"target": 10000})
    tokens = [seat["token"] for seat in created["seats"]]
    for move_no in range(moves):
        service.play(created["id"], tokens[move_no % 2], {"type": "add", "amount": 1 + move_no % 2})
    return created["id"]


def time_rebuilds(service: GameService, batch: int) -> dict[str, float]:
    rates = {}
    total = service.recorder.max_notification_id() or 0
    for name in PROJECTION_CLASSES:
        read_side = ReadSide(service, names=[name], name_suffix=f"-bench{batch}")
        projection = read_side.projections[name]
        projection.view.clear()
        projection.forget()
        started = time.perf_counter()
        done = catch_up(service, projection, batch_size=batch)
        elapsed = time.perf_counter() - started
        assert done == total, (done, total)
        rates[name] = done / elapsed
    return rates


def time_replays(service: GameService, game_id: str, samples: int) -> tuple:
    read_side = ReadSide(service, names=["replay"])
    read_side.catch_up()
    view = read_side.replay_view
    rules = get_rules("api_count")
    meta, status, _ = effective_entries(view, game_id)
    steps = status["steps"]
    chooser = random.Random(7)
    picks = [chooser.randint(0, steps) for _ in range(samples)]
    checkpointed, folded = [], []
    for step in picks:
        started = time.perf_counter()
        answer = replay_step(view, get_rules, game_id, step, SPECTATOR_CALLER, read_side.checkpoint_every)
        checkpointed.append(time.perf_counter() - started)
        started = time.perf_counter()
        _, _, entries = effective_entries(view, game_id)  # the same view, every move
        state = fold_moves(rules, initial_state(rules, meta), entries[:step])
        folded.append(time.perf_counter() - started)
        assert rules.view(state, "spectator") == answer["state"]
    # The same comparison without I/O: the fold work alone (entries and checkpoints in memory).
    _, _, entries = effective_entries(view, game_id)
    every = read_side.checkpoint_every
    checkpoints = {base: fold_moves(rules, initial_state(rules, meta), entries[:base])
                   for base in range(0, steps + 1, every)}
    memory_checkpointed, memory_folded = [], []
    for step in picks:
        started = time.perf_counter()
        base = (step // every) * every
        fold_moves(rules, copy_state(checkpoints[base]), entries[base:step])
        memory_checkpointed.append(time.perf_counter() - started)
        started = time.perf_counter()
        fold_moves(rules, initial_state(rules, meta), entries[:step])
        memory_folded.append(time.perf_counter() - started)
    median_ms = lambda values: statistics.median(values) * 1000  # noqa: E731
    return (median_ms(checkpointed), median_ms(folded), steps, median_ms(memory_checkpointed),
            median_ms(memory_folded))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random Dice Duel games (default 200)")
    parser.add_argument("--long-moves", type=int, default=2000, help="moves of the long game (default 2000)")
    parser.add_argument("--samples", type=int, default=200, help="random replay steps timed (default 200)")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"bench-projections-{uuid.uuid4().hex[:8]}"
    service = GameService(env={"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": url,
                               "REDIS_KEY_PREFIX": prefix})
    client = redis.Redis.from_url(url)
    try:
        started = time.perf_counter()
        play_games(service, args.games, seed=1)
        game_id = play_long_game(service, args.long_moves)
        events = service.recorder.max_notification_id()
        print(f"wrote {events} events ({args.games} games + one of {args.long_moves} moves) "
              f"in {time.perf_counter() - started:.1f}s")
        print("\nprojection throughput (rebuild from scratch, events applied per second):")
        batched, single = time_rebuilds(service, 500), time_rebuilds(service, 1)
        for name in PROJECTION_CLASSES:
            print(f"  {name:<11} {batched[name]:>9,.0f} ev/s in batches of 500   "
                  f"{single[name]:>8,.0f} ev/s one per transaction   ratio {batched[name] / single[name]:.1f}x")
        checkpointed, folded, steps, memory_checkpointed, memory_folded = time_replays(service, game_id,
                                                                                      args.samples)
        every = ReadSide(service, names=["replay"]).checkpoint_every
        print(f"\nreplay of a random step of a {steps}-move game (median of {args.samples}; K = {every}):")
        print(f"  from Redis:  checkpointed {checkpointed:8.2f} ms   folded from step 0 {folded:8.2f} ms   "
              f"ratio {folded / checkpointed:6.1f}x")
        print(f"  fold only:   checkpointed {memory_checkpointed:8.3f} ms   folded from step 0 {memory_folded:8.3f} ms"
              f"   ratio {memory_folded / memory_checkpointed:6.1f}x")
    finally:
        batch = []
        for key in client.scan_iter(match=f"{prefix}:*", count=10_000):
            batch.append(key)
            if len(batch) >= 1000:
                client.unlink(*batch)
                batch.clear()
        if batch:
            client.unlink(*batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
