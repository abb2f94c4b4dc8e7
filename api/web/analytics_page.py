"""What the analytics page shows for one game type, and its CSV/JSON exports.

Everything here comes from finished games only (the analytics and scoreboard
projections), which hide nothing any more, so the page can be drawn on the server.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Any

from fastapi import Request

from api.projections_deps import get_read_side, synced

from .charts import bar_chart, line_chart

#: At most this many finished games are read one by one for the game-length chart.
LENGTH_SAMPLE = 500


def _seat_names(players: int) -> list[str]:
    return [f"Seat {seat}" for seat in range(players)]


def game_lengths(request: Request, game_type: str) -> list[int]:
    """Effective moves of each finished game of the type (the newest LENGTH_SAMPLE)."""
    read_side = get_read_side(request)
    finished = read_side.list_games(game_type, "finished")[-LENGTH_SAMPLE:]
    lengths = []
    for entry in finished:
        status = read_side.replay_view.status(entry["id"])
        if status is not None:
            lengths.append(int(status["steps"]))
    return lengths


def length_buckets(lengths: list[int], buckets: int = 8) -> list[tuple[str, float]]:
    """A histogram of game lengths as (range label, games) bars."""
    if not lengths:
        return []
    low, high = min(lengths), max(lengths)
    width = max(1, -(-(high - low + 1) // buckets))
    counts = Counter((n - low) // width for n in lengths)
    bars = []
    for index in range(max(counts) + 1):
        start = low + index * width
        label = f"{start} moves" if width == 1 else f"{start}–{start + width - 1} moves"
        bars.append((label, float(counts.get(index, 0))))
    return bars


def analytics_export(request: Request, rules: Any) -> dict:
    """The analytics report, the leaderboard and the game lengths, as one document."""
    game_type = rules.meta.name
    read_side = synced(get_read_side(request), ["analytics", "scoreboard", "replay"])
    return {"game": game_type, "title": rules.meta.title, "analytics": read_side.analytics(game_type),
            "leaders": read_side.leaders(game_type), "team_record": read_side.team_record(game_type),
            "game_lengths": game_lengths(request, game_type)}


def analytics_context(request: Request, rules: Any) -> dict:
    data = analytics_export(request, rules)
    report = data["analytics"]
    max_players = rules.meta.max_players
    seats = _seat_names(max_players)
    win_rates = [(seats[int(seat)] if int(seat) < len(seats) else f"Seat {seat}", float(rate))
                 for seat, rate in sorted(report.get("seat_win_rate", {}).items(), key=lambda item: int(item[0]))]
    progression = report.get("score_progression", {})
    series = [(f"Seat {seat}", [float(v) for v in values])
              for seat, values in sorted(progression.get("avg_score", {}).items(), key=lambda item: int(item[0]))]
    actions = list(report.get("action_frequency", {}).items())[:15]
    return {
        "rules": rules.meta, "report": report, "leaders": data["leaders"], "team_record": data["team_record"],
        "win_chart": bar_chart(win_rates, title="Win rate by seat", percent=True, testid="win-rates"),
        "score_chart": line_chart(series, title="Average score over a game's course",
                                  x_label="% of the game played", x_values=progression.get("points_percent"),
                                  testid="score-chart"),
        "action_chart": bar_chart([(name.replace("_", " "), float(count)) for name, count in actions],
                                  title="Most played actions", testid="action-frequency"),
        "length_chart": bar_chart(length_buckets(data["game_lengths"]), title="Game lengths (games)",
                                  testid="game-lengths"),
        "lengths": data["game_lengths"],
    }


def analytics_csv(request: Request, rules: Any) -> str:
    """One table: section, key, value — the leaderboard, win rates, actions, progression, lengths."""
    data = analytics_export(request, rules)
    report = data["analytics"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["section", "key", "value"])
    for field in ("games", "games_started", "avg_moves"):
        writer.writerow(["summary", field, report.get(field, 0)])
    for leader in data["leaders"]:
        for field in ("games", "wins", "rating"):
            writer.writerow([f"leaderboard:{leader.get('player')}", field, leader.get(field)])
    for seat, rate in report.get("seat_win_rate", {}).items():
        writer.writerow(["seat_win_rate", seat, rate])
    for seat, score in report.get("seat_avg_score", {}).items():
        writer.writerow(["seat_avg_score", seat, score])
    for action, count in report.get("action_frequency", {}).items():
        writer.writerow(["action_frequency", action, count])
    progression = report.get("score_progression", {})
    for seat, values in progression.get("avg_score", {}).items():
        for percent, value in zip(progression.get("points_percent", []), values):
            writer.writerow([f"score_progression:seat {seat}", f"{percent}%", value])
    for index, length in enumerate(data["game_lengths"]):
        writer.writerow(["game_length", index, length])
    return out.getvalue()
