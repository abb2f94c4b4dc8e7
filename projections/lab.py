"""The lab's figures (issue 27.3): one row per finished game, and the report folded from the rows.

A row is written once per game, when it finishes, by the analytics projection (so it is rebuilt
with the read side, counted once per game, per partition in cluster mode) and removed if an undo
reopens the game. It holds what a designer's questions need and nothing hidden that the finished
game does not already show everyone: players, which seats were bots, the simulation that played it,
whether it is a fork or an import, its length, scores, winners, and per seat the **features** it
used — each board element its moves involved (the move tree's `targets`: cards, tiles, spaces,
locations, characters, as glossary keys) and each kind of action (the move tree's first step).

The report (`report`) reads those rows, never the games: seat advantage with 95% Wilson intervals,
game length percentiles and a histogram, score distributions, and per feature the win rate of the
seats that used it against those that did not, with the difference's 95% interval (Newcombe's
hybrid score interval, built from the two Wilson intervals). Forks start mid-game and imports copy
a game already counted, so the report leaves both out.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

from domain.engine import Rules, presentation

from .timeline import Timeline, initial_state

Z95 = 1.959963984540054
#: A feature is reported when at least this many seat-games used it and this many did not.
MIN_SEAT_GAMES = 5
HISTOGRAM_BINS = 12


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(s1: int, n1: int, s2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval of p1 - p2 (method 10 of Newcombe 1998)."""
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation between closest ranks."""
    if not sorted_values:
        return 0.0
    position = (len(sorted_values) - 1) * q
    low, high = math.floor(position), math.ceil(position)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def action_kind(rules: Rules, state: dict, seat: int, move: dict) -> str:
    """The kind of action of a move: the first step of the game's own move tree over the moves listed
    with it, uncompacted (the page's tree joins a step with a single step under it, which for one
    move alone would be the whole path), else the move's type."""
    tell = getattr(rules, "paths", None)
    if tell is not None:
        listed = rules.legal_moves(state, seat)     # a game's first step depends on what else is listed
        where = listed.index(move) if move in listed else None
        found = tell(state, seat, listed if where is not None else [move])
        path = found[where if where is not None else 0] if found else None
        if path:
            return str(path[0])
    return str(move.get("type", "?"))


def game_features(rules: Rules, timeline: Timeline) -> dict[str, list[str]]:
    """Per seat, the sorted feature keys its effective moves used (see the module doc)."""
    state = initial_state(rules, timeline.meta)
    used: dict[str, set[str]] = {}
    for entry in timeline.effective:
        seat, move = entry["seat"], entry["move"]
        if seat is not None and move:
            keys = used.setdefault(str(seat), set())
            try:
                keys.update(k for k in presentation.targets(rules, state, seat, [move])[0] if not k.startswith("seat:"))
                keys.add(f"action:{action_kind(rules, state, seat, move)}")
            except Exception:  # noqa: BLE001 - words for a move of an older release: count what we can
                keys.add(f"action:{move.get('type', '?')}")
        for fact in entry["facts"]:
            state = rules.evolve(state, dict(fact))
    return {seat: sorted(keys) for seat, keys in sorted(used.items())}


def lab_row(rules: Rules, timeline: Timeline, summary: Mapping[str, Any], tags: Mapping[str, Any]) -> dict:
    """The row of one finished game. `tags`: bots (seat -> level), simulation, forked, imported."""
    bots = {str(seat): level for seat, level in (tags.get("bots") or {}).items()}
    return {
        "id": summary["game_id"], "players": summary["players"], "coop": summary["cooperative"],
        "bots": bots, "simulation": tags.get("simulation"), "forked": bool(tags.get("forked")),
        "imported": bool(tags.get("imported")), "moves": summary["moves"],
        "scores": [summary["scores"].get(str(s), 0) for s in range(summary["players"])],
        "winners": list(summary["winners"]), "features": game_features(rules, timeline),
    }


def select(rows: Iterable[dict], *, players: int | None = None, bots: str = "include",
           simulation: str | None = None) -> list[dict]:
    """The rows a report counts: no forks or imports; then the filters of `GET .../report`."""
    chosen = []
    for row in rows:
        if row["forked"] or row["imported"]:
            continue
        if players is not None and row["players"] != players:
            continue
        if simulation is not None and row.get("simulation") != simulation:
            continue
        has_bots = bool(row["bots"])
        if (bots == "exclude" and has_bots) or (bots == "only" and not has_bots):
            continue
        chosen.append(row)
    return chosen


def _histogram(values: list[int]) -> list[dict]:
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    bins = [{"from": low + i * width, "to": low + (i + 1) * width - 1, "games": 0}
            for i in range(math.ceil((high - low + 1) / width))]
    for value in values:
        bins[(value - low) // width]["games"] += 1
    return bins


def _rate(wins: int, n: int) -> dict:
    low, high = wilson(wins, n)
    return {"win_rate": round(wins / n, 4) if n else None, "ci95": [round(low, 4), round(high, 4)], "n": n}


def report(rows: list[dict], names: Mapping[str, str], game: str, filters: Mapping[str, Any]) -> dict:
    """The lab report of these rows (see the module doc); `names`: glossary key -> name."""
    seats = max((row["players"] for row in rows), default=0)
    advantage = []
    for seat in range(seats):
        played = [row for row in rows if row["players"] > seat]
        wins = sum(1 for row in played if seat in row["winners"])
        advantage.append({"seat": seat, **_rate(wins, len(played))})
    lengths = sorted(row["moves"] for row in rows)
    scores: dict[str, Any] = {}
    for seat in range(seats):
        values = sorted(float(row["scores"][seat]) for row in rows if row["players"] > seat)
        if values:
            scores[str(seat)] = {"mean": round(sum(values) / len(values), 2), "p10": percentile(values, 0.1),
                                 "p50": percentile(values, 0.5), "p90": percentile(values, 0.9)}
    winning = sorted(float(max(row["scores"])) for row in rows if row["scores"])
    if winning:
        scores["best"] = {"mean": round(sum(winning) / len(winning), 2), "p10": percentile(winning, 0.1),
                          "p50": percentile(winning, 0.5), "p90": percentile(winning, 0.9)}
    return {"game": game, "filters": dict(filters), "games": len(rows),
            "cooperative": any(row["coop"] for row in rows),
            "seat_advantage": advantage,
            "length": {"p10": percentile(lengths, 0.1), "p50": percentile(lengths, 0.5),
                       "p90": percentile(lengths, 0.9), "histogram": _histogram(lengths)},
            "scores": scores, "features": features(rows, names)}


def features(rows: list[dict], names: Mapping[str, str]) -> list[dict]:
    """Per feature: seat-games with and without it, their win rates, the difference and its interval."""
    seat_games = [(set(row["features"].get(str(seat), ())), seat in row["winners"])
                  for row in rows for seat in range(row["players"])]
    total, total_wins = len(seat_games), sum(1 for _, won in seat_games if won)
    counts: dict[str, list[int]] = {}
    for keys, won in seat_games:
        for key in keys:
            tally = counts.setdefault(key, [0, 0])
            tally[0] += 1
            tally[1] += 1 if won else 0
    listed = []
    for key, (n_with, wins_with) in counts.items():
        n_without, wins_without = total - n_with, total_wins - wins_with
        if n_with < MIN_SEAT_GAMES or n_without < MIN_SEAT_GAMES:
            continue
        low, high = newcombe(wins_with, n_with, wins_without, n_without)
        kind, _, rest = key.partition(":")
        listed.append({"key": key, "name": rest if kind == "action" else names.get(key, rest),
                       "kind": "action" if kind == "action" else kind,
                       "games_with": n_with, "games_without": n_without,
                       "win_rate_with": round(wins_with / n_with, 4),
                       "win_rate_without": round(wins_without / n_without, 4),
                       "delta": round(wins_with / n_with - wins_without / n_without, 4),
                       "ci95": [round(low, 4), round(high, 4)]})
    # Largest effect first, judged conservatively: how far the interval's nearer end is from 0
    # (a difference measured on 9 seat-games is large and uncertain; one on 900, smaller and sure).
    listed.sort(key=lambda f: (-max(f["ci95"][0], -f["ci95"][1], 0.0), -abs(f["delta"]), f["key"]))
    return listed
