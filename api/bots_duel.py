"""`heirloom bots duel`: bots play each other, to measure their strength and speed.

Seats are dealt round the bots in turn, shifted by one each game, so every bot plays every seat
equally often. Game g uses seed S+g; a bot's seed for a decision is derived from it, so a duel
is reproducible. Timing (the only impure part) is measured here, never in domain/bots.
"""

from __future__ import annotations

import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domain.bots import bot_move, level
from domain.engine import derive_seed, get_rules, new_game, play
from domain.games import load_all


def seat_bots(bots: list[str], players: int, game_no: int) -> list[str]:
    return [bots[(seat + game_no) % len(bots)] for seat in range(players)]


def play_one(game: str, players: int, bots: list[str], seed: int, game_no: int, max_moves: int = 5000) -> dict:
    """One game between bots: per seat its bot, the final scores, the winners, decision times."""
    load_all()
    rules = get_rules(game)
    cast = seat_bots(bots, players, game_no)
    game_seed = seed + game_no
    state, _ = new_game(rules, players, {}, game_seed)
    times: dict[str, list[float]] = {name: [] for name in set(cast)}
    cpu: dict[str, list[float]] = {name: [] for name in set(cast)}
    moves = 0
    while not rules.is_over(state) and moves < max_moves:
        decision = rules.decision(state)
        seat = decision.seats[moves % len(decision.seats)] if len(decision.seats) > 1 else decision.seats[0]
        started, started_cpu = time.perf_counter(), time.process_time()
        move = bot_move(rules, state, seat, cast[seat], derive_seed(game_seed, f"bot/{seat}/{moves}"))
        times[cast[seat]].append(time.perf_counter() - started)
        cpu[cast[seat]].append(time.process_time() - started_cpu)
        moves += 1
        state, _ = play(rules, state, seat, move, game_seed, moves)
    scores = rules.scores(state)
    return {"seats": cast, "scores": [scores[s] for s in range(players)], "winners": rules.winners(state),
            "over": rules.is_over(state), "moves": moves, "times": times, "cpu": cpu}


def duel(game: str, players: int, games: int, bots: list[str], seed: int, jobs: int = 1) -> dict:
    """Play `games` games and summarise per bot: wins, win rate, mean score, decision times."""
    for name in bots:
        level(name)
    load_all()
    rules = get_rules(game)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_one, [game] * games, [players] * games, [bots] * games,
                                    [seed] * games, range(games)))
    else:
        results = [play_one(game, players, bots, seed, g) for g in range(games)]
    return summarise(rules, players, bots, results)


def summarise(rules: Any, players: int, bots: list[str], results: list[dict]) -> dict:
    per_bot: dict[str, dict] = {}
    for name in dict.fromkeys(bots):
        seats = [(r, s) for r in results for s in range(players) if r["seats"][s] == name]
        games_in = [r for r in results if name in r["seats"]]
        wins = sum(1 for r in games_in if any(r["seats"][w] == name for w in r["winners"]))
        times = sorted(t for r in results for t in r["times"].get(name, []))
        cpu = sorted(t for r in results for t in r["cpu"].get(name, []))
        per_bot[name] = {
            "games": len(games_in), "wins": wins,
            "win_rate": round(wins / len(games_in), 3) if games_in else 0.0,
            "mean_score": round(statistics.fmean(r["scores"][s] for r, s in seats), 2) if seats else 0.0,
            "decisions": len(times),
            "decision_ms": {"p50": _ms(times, 0.5), "p90": _ms(times, 0.9), "max": _ms(times, 1.0)},
            "decision_cpu_ms": {"p50": _ms(cpu, 0.5), "p90": _ms(cpu, 0.9)},
        }
    summary = {"game": rules.meta.name, "players": players, "games": len(results), "bots": per_bot,
               "unfinished": sum(1 for r in results if not r["over"]),
               "mean_moves": round(statistics.fmean(r["moves"] for r in results), 1) if results else 0}
    if rules.meta.cooperative:
        summary["chapters_won"] = sum(1 for r in results if r["winners"])
    return summary


def _ms(times: list[float], q: float) -> float:
    if not times:
        return 0.0
    return round(1000 * times[min(len(times) - 1, int(q * len(times)))], 1)


def table(summary: dict) -> str:
    """The summary as a few plain lines."""
    lines = [f"{summary['game']}, {summary['players']} players, {summary['games']} games"
             + (f": chapters won {summary['chapters_won']}" if "chapters_won" in summary else "")]
    for name, row in summary["bots"].items():
        d = row["decision_ms"]
        lines.append(f"  {name:>7}: wins {row['wins']}/{row['games']} ({100 * row['win_rate']:.0f}%), "
                     f"mean score {row['mean_score']}, decision p50 {d['p50']} ms, p90 {d['p90']} ms, max {d['max']} ms "
                     f"(CPU p50 {row['decision_cpu_ms']['p50']} ms)")
    return "\n".join(lines)
