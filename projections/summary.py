"""Per-game summaries and per-game-type analytics counters (pure).

A finished game is summarised once, from its timeline; leaderboards and analytics are
folds of those summaries. The analytics counters are integers that are added when a game
finishes and subtracted if an undo reopens it, so live and rebuilt counters are equal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from domain.engine import Rules

from .timeline import Timeline, fold_moves, initial_state

#: Score progression is sampled at 0%, 10%, ..., 100% of a game's length.
PROGRESSION_POINTS = 11


def score_history(rules: Rules, timeline: Timeline) -> list[dict[str, Any]]:
    """Scores after setup (move 0) and after every effective move."""
    start = {str(seat): points for seat, points in rules.scores(initial_state(rules, timeline.meta)).items()}
    history = [{"move_no": 0, "scores": start}]
    history += [{"move_no": entry["move_no"], "scores": entry["scores"]} for entry in timeline.effective]
    return history


def action_counts(timeline: Timeline) -> dict[str, int]:
    return dict(Counter(entry["move"].get("type", "?") for entry in timeline.effective))


def seat_action_counts(timeline: Timeline) -> dict[str, dict[str, int]]:
    per_seat: dict[str, Counter] = {}
    for entry in timeline.effective:
        per_seat.setdefault(str(entry["seat"]), Counter())[entry["move"].get("type", "?")] += 1
    return {seat: dict(counts) for seat, counts in sorted(per_seat.items())}


def summarize_game(rules: Rules, timeline: Timeline) -> dict[str, Any]:
    """The facts of a finished (or current) game that scoreboards and analytics need."""
    meta = timeline.meta
    state = fold_moves(rules, initial_state(rules, meta), timeline.effective)
    history = score_history(rules, timeline)
    return {
        "game_id": meta["game_id"],
        "game_type": meta["game_type"],
        "names": meta["names"],
        "players": meta["players"],
        "cooperative": bool(rules.meta.cooperative),
        "moves": timeline.steps,
        "finished": rules.is_over(state),
        "winners": sorted(rules.winners(state)) if rules.is_over(state) else [],
        "scores": {str(seat): points for seat, points in rules.scores(state).items()},
        "score_history": history,
        "action_counts": action_counts(timeline),
    }


def progression(history: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Score per seat at 0%, 10%, ..., 100% of the game (history index rounded down)."""
    length = len(history) - 1
    seats = sorted(history[-1]["scores"], key=int)
    points = [history[(length * tenth) // (PROGRESSION_POINTS - 1)]["scores"] for tenth in range(PROGRESSION_POINTS)]
    return {seat: [int(scores.get(seat, 0)) for scores in points] for seat in seats}


def analytics_counters(summary: Mapping[str, Any]) -> dict[str, int]:
    """The integer counters one finished game adds to its game type's analytics."""
    counters: Counter = Counter()
    counters["games"] += 1
    counters["moves"] += summary["moves"]
    winners = set(summary["winners"])
    for seat in range(summary["players"]):
        counters[f"seat_games:{seat}"] += 1
        counters[f"seat_wins:{seat}"] += 1 if seat in winners else 0
        counters[f"seat_score:{seat}"] += int(summary["scores"].get(str(seat), 0))
    counters[f"players:{summary['players']}"] += 1
    for action, count in summary["action_counts"].items():
        counters[f"action:{action}"] += count
    for seat, values in progression(summary["score_history"]).items():
        for index, value in enumerate(values):
            counters[f"progress:{seat}:{index}"] += value
    return dict(counters)


def analytics_report(game_type: str, counters: Mapping[str, int]) -> dict[str, Any]:
    """The public analytics of a game type from its counters (see README for each field)."""
    games = int(counters.get("games", 0))
    seat_games: dict[str, int] = {}
    seat_wins: dict[str, int] = {}
    seat_score: dict[str, int] = {}
    actions: dict[str, int] = {}
    player_counts: dict[str, int] = {}
    progress: dict[str, dict[int, int]] = {}
    for key, value in counters.items():
        kind, _, rest = key.partition(":")
        value = int(value)
        if kind == "seat_games":
            seat_games[rest] = value
        elif kind == "seat_wins":
            seat_wins[rest] = value
        elif kind == "seat_score":
            seat_score[rest] = value
        elif kind == "action" and value:
            actions[rest] = value
        elif kind == "players" and value:
            player_counts[rest] = value
        elif kind == "progress":
            seat, _, index = rest.partition(":")
            progress.setdefault(seat, {})[int(index)] = value
    seats = sorted(seat_games, key=int)
    total_actions = sum(actions.values())
    return {
        "game": game_type,
        "games": games,
        "games_started": int(counters.get("started", 0)),
        "avg_moves": round(int(counters.get("moves", 0)) / games, 2) if games else 0.0,
        "players": dict(sorted(player_counts.items(), key=lambda item: int(item[0]))),
        "seat_win_rate": {s: round(seat_wins.get(s, 0) / seat_games[s], 4) for s in seats if seat_games[s]},
        "seat_avg_score": {s: round(seat_score.get(s, 0) / seat_games[s], 2) for s in seats if seat_games[s]},
        "action_frequency": dict(sorted(actions.items(), key=lambda item: (-item[1], item[0]))),
        "action_share": {a: round(c / total_actions, 4) for a, c in sorted(actions.items())} if total_actions else {},
        "score_progression": {
            "points_percent": [10 * i for i in range(PROGRESSION_POINTS)],
            "avg_score": {
                seat: [round(progress[seat].get(i, 0) / seat_games[seat], 2) for i in range(PROGRESSION_POINTS)]
                for seat in sorted(progress, key=int) if seat_games.get(seat)
            },
        },
    }


def game_analytics(rules: Rules, timeline: Timeline) -> dict[str, Any]:
    """Per-game analytics: score over time and action counts (overall and per seat)."""
    return {
        "game_id": timeline.meta["game_id"],
        "game": timeline.meta["game_type"],
        "moves": timeline.steps,
        "finished": timeline.finished,
        "score_over_time": score_history(rules, timeline),
        "action_counts": action_counts(timeline),
        "seat_action_counts": seat_action_counts(timeline),
    }
