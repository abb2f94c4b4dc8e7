"""Per-game move cost: legal moves + decide + evolve during seeded random playouts.

Run:  .venv/bin/python ops/bench/games.py [--games NAME ...] [--playouts N]

For every registered game and player count it plays random legal games in-process and
times, per move, `legal_moves` for the acting seat plus `play` (decide + evolve). It prints
moves per second, p50 and p99 per move, and the ratio of p50 to the 2 ms target, side by
side with a baseline: one `copy_state` of the same game's state (the floor any move pays).
The `legal` columns time `legal_moves` alone (its p50 and p99 per call) in thread CPU time, which a
shared, busy machine does not inflate the way it inflates wall-clock percentiles.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domain.engine import copy_state, game_types, new_game, play
from domain.games import load_all

TARGET_P50_MS = 2.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def time_game(rules, players: int, playouts: int, max_moves: int = 20000) -> dict:
    per_move: list[float] = []
    legal_times: list[float] = []
    baseline: list[float] = []
    for seed in range(playouts):
        chooser = random.Random(seed)
        state, _ = new_game(rules, players, {}, seed)
        move_no = 0
        while not rules.is_over(state) and move_no < max_moves:
            started = time.perf_counter()
            seat = chooser.choice(list(rules.decision(state).seats))
            listed = time.thread_time()
            legal = rules.legal_moves(state, seat)
            legal_times.append(time.thread_time() - listed)
            move = chooser.choice(legal)
            move_no += 1
            state, _ = play(rules, state, seat, move, seed, move_no)
            per_move.append(time.perf_counter() - started)
            started = time.perf_counter()
            copy_state(state)
            baseline.append(time.perf_counter() - started)
    total = sum(per_move)
    return {
        "moves": len(per_move),
        "moves_per_s": len(per_move) / total if total else 0.0,
        "p50_ms": statistics.median(per_move) * 1000,
        "p99_ms": percentile(per_move, 0.99) * 1000,
        "copy_p50_ms": statistics.median(baseline) * 1000,
        "legal_p50_ms": statistics.median(legal_times) * 1000,
        "legal_p99_ms": percentile(legal_times, 0.99) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", help="game type names (default: all registered)")
    parser.add_argument("--playouts", type=int, default=5, help="random playouts per player count")
    args = parser.parse_args()
    load_all()
    header = f"{'game':<18}{'players':>8}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'p50/target':>11}{'p50/copy':>10}{'legal p50':>10}{'legal p99':>10}"
    print(header)
    print("-" * len(header))
    for rules in game_types():
        if args.games and rules.meta.name not in args.games:
            continue
        for players in range(rules.meta.min_players, rules.meta.max_players + 1):
            row = time_game(rules, players, args.playouts)
            print(
                f"{rules.meta.name:<18}{players:>8}{row['moves']:>8}{row['moves_per_s']:>10.0f}"
                f"{row['p50_ms']:>9.3f}{row['p99_ms']:>9.3f}{row['p50_ms'] / TARGET_P50_MS:>11.2f}"
                f"{row['p50_ms'] / max(row['copy_p50_ms'], 1e-9):>10.1f}"
                f"{row['legal_p50_ms']:>10.3f}{row['legal_p99_ms']:>10.3f}"
            )


if __name__ == "__main__":
    main()
