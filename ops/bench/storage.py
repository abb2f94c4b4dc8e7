"""What a game costs to keep and to load: Redis memory per finished game, and loading a
10,000-event game against a 100-event one, side by side (own redis-server, interleaved).

    .venv/bin/python ops/bench/storage.py [--quick] [--games api_count,dice_duel,heredity,...]

1. Load: a fresh rebuild of the aggregate from the store (latest snapshot + the events after
   it: what a process that does not have the game cached does), alternating a 100-event and
   a 10,000-event game of the test game `api_count`, rounds interleaved; target: the long
   game loads in at most 1.5x the short one's time.
2. Memory (``MEMORY USAGE`` of every key): a finished game of each type, played through the
   service with seeded random legal moves, before and after compaction (`compact`: one
   zstd record), split into the game's event-store keys (events + snapshot), its read-side
   keys (replay, scoreboard, analytics views) and its share of the notification log; target:
   at most 20 KB of event-store memory for a finished 100-move test game.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))  # after the repo: ops/bench/projections.py

import redis  # noqa: E402

from common import fmt, own_redis, verdict  # noqa: E402

REAL_GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]


def service_for(url: str, prefix: str):
    import importlib

    import tests.support.api_count  # noqa: F401 - registers the test games
    import tests.support.dice_duel  # noqa: F401
    from domain.service import GameService

    for name in REAL_GAMES:
        try:
            importlib.import_module(f"domain.games.{name}")
        except Exception as error:  # noqa: BLE001 - reported as not available below
            print(f"(game {name} does not import: {error})")

    env = {"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix,
           "SNAPSHOTS_KEEP": "latest"}
    return GameService(env=env)


def play_count_up(service, moves: int) -> str:
    """A game of `api_count` with exactly `moves` moves (adds of 1; the last one wins)."""
    created = service.create_game("api_count", 2, options={"target": moves}, seed=1)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    version = created["version"]
    for n in range(moves):
        version = service.play(game_id, tokens[n % 2], {"type": "add", "amount": 1}, expected_version=version)["version"]
    return game_id


def play_random(service, game_type: str, seed: int, limit: int = 5000) -> tuple[str, int, bool]:
    from domain.engine import get_rules

    rules = get_rules(game_type)
    players = max(rules.meta.min_players, min(3, rules.meta.max_players))
    created = service.create_game(game_type, players, seed=seed)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    chooser = random.Random(seed)
    moves = 0
    while moves < limit:
        view = service.game_view(game_id, None)
        if view["status"] == "finished" or not view["to_act"]:
            break
        seat = chooser.choice(view["to_act"])
        legal = service.legal_moves(game_id, tokens[seat])["moves"]
        service.play(game_id, tokens[seat], chooser.choice(legal), expected_version=view["version"])
        moves += 1
    return game_id, moves, service.game_view(game_id, None)["status"] == "finished"


def memory_of(client: redis.Redis, prefix: str, game_id: str) -> dict[str, int]:
    """Bytes by part: the game's event-store keys, its read-side keys, its share of the log."""
    parts = {"events": 0, "snapshot": 0, "read side": 0}
    for key in client.scan_iter(match=f"{prefix}:*{game_id}*", count=1000):
        size = client.memory_usage(key, samples=0) or 0
        text = key.decode()
        if ":proj:" in text:
            parts["read side"] += size
        elif ":snapshots" in text:
            parts["snapshot"] += size
        else:
            parts["events"] += size
    # The log stream holds one entry per append of every game: this game's share by entries.
    stream = f"{prefix}:{{heirloom:log}}:stream"
    entries = client.xlen(stream)
    if entries:
        mine = sum(1 for _, fields in client.xrange(stream) if game_id.encode() in fields[b"o"])
        parts["log share"] = int((client.memory_usage(stream, samples=0) or 0) * mine / entries)
    return parts


def load_ratio(service, short_id: str, long_id: str, rounds: int, per_round: int) -> None:
    from uuid import UUID

    short_key, long_key = UUID(short_id), UUID(long_id)
    heads = {key: service.game(str(key)).version for key in (short_key, long_key)}

    def timed(key) -> float:
        started = time.perf_counter()
        for _ in range(per_round):
            game = service.repository.get(key, version=heads[key])  # bypasses the cache
            assert game.version == heads[key]
        return (time.perf_counter() - started) / per_round * 1e3

    timed(short_key), timed(long_key)  # warm up
    short, long, ratios = [], [], []
    for _ in range(rounds):
        a = timed(short_key)
        b = timed(long_key)
        short.append(a)
        long.append(b)
        ratios.append(b / a)
    print(f"load, {heads[short_key]}-event game:    {fmt(short, ' ms', 3)}")
    print(f"load, {heads[long_key]}-event game: {fmt(long, ' ms', 3)}")
    print(f"ratio long/short: {fmt(ratios, 'x')}")
    print(verdict("10,000-event load / 100-event load", statistics.median(ratios), 1.5, False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", default=",".join(["api_count", *REAL_GAMES]))
    parser.add_argument("--long", type=int, default=10_000)
    args = parser.parse_args()
    prefix = f"bench-storage-{uuid.uuid4().hex[:8]}"
    with own_redis(appendonly=False) as url:
        client = redis.Redis.from_url(url)
        service = service_for(url, prefix)
        from projections.readside import ReadSide

        read_side = ReadSide(service)
        print(f"Redis {client.info('server')['redis_version']} (own server, no AOF: memory and load only)")
        print("\n== load: a long game against a short one (snapshot + events after it, no cache)")
        started = time.perf_counter()
        short_id = play_count_up(service, 99)
        long_id = play_count_up(service, 2_000 if args.quick else args.long - 1)
        print(f"(played {100 + (2_000 if args.quick else args.long)} events in {time.perf_counter() - started:.1f} s)")
        load_ratio(service, short_id, long_id, rounds=7 if args.quick else 21, per_round=30)

        print("\n== memory per finished game (MEMORY USAGE), before and after compaction")
        for game_type in args.games.split(","):
            if game_type == "api_count":
                game_id, moves, finished = play_count_up(service, 100), 100, True
            else:
                try:
                    game_id, moves, finished = play_random(service, game_type, seed=7)
                except KeyError as error:
                    print(f"{game_type}: not available ({error})")
                    continue
            read_side.catch_up()  # the read side of the game, as a server keeps it
            before = memory_of(client, prefix, game_id)
            compacted = service.recorder.compact(uuid.UUID(game_id))
            after = memory_of(client, prefix, game_id)
            events = service.game(game_id).version
            status = "finished" if finished else f"NOT finished after {moves} moves"
            print(f"{game_type}: {moves} moves, {events} events, {status}; compacted: {compacted}")
            print(f"  before: {before}")
            print(f"  after:  {after}  -> event store {after['events'] + after['snapshot']:,} bytes "
                  f"({(after['events'] + after['snapshot']) / events:.0f} per event)")
            if game_type == "api_count":
                print(verdict("event-store KB per finished 100-move test game",
                              (after["events"] + after["snapshot"]) / 1024, 20, False))
        service.close()
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
