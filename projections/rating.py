"""Multi-player Elo ratings for leaderboards (pure; documented in README.md).

Every player name starts at `INITIAL` (1500). When a game finishes, each seat gets a
place: the winners share first place, the other seats follow by final score (equal
scores share a place). The game counts as a round robin of two-player results:

    E(i, j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))        expected result of i against j
    S(i, j) = 1 if place_i < place_j, 0.5 if equal, 0 otherwise
    R_i    += K / (N - 1) * sum over j != i of (S(i, j) - E(i, j))

with K = 32 and N seats, so a two-player game is plain Elo and a game with more seats
moves a rating by at most K in total. All deltas of a game are computed from the ratings before
it, and games are applied in the order they finished, so the result is a pure function
of that ordered list (a rebuild gives the same numbers).

Cooperative games (everybody wins or loses together, Heredity) get no rating: there is no
opponent to be measured against. Each player has a **team record** instead (`team_record`):
chapters played, chapters won and the share won (issue 27.4).

Only games between people are given here (projections/scoreboard.py): a game with a bot seat,
a simulation's, a fork and an imported game count for no rating.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

INITIAL = 1500.0
K_FACTOR = 32.0


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def places(scores: Mapping[int, int], winners: Iterable[int], seats: Sequence[int]) -> dict[int, int]:
    """Place per seat (0 = first): winners first, then by score, ties share a place."""
    winner_set = set(winners)
    keys = {seat: (0 if seat in winner_set else 1, -int(scores.get(seat, 0))) for seat in seats}
    ordered = sorted(set(keys.values()))
    return {seat: ordered.index(key) for seat, key in keys.items()}


def rating_deltas(ratings: Sequence[float], seat_places: Sequence[int], *, cooperative: bool = False,
                  winners: Iterable[int] = ()) -> list[float]:
    """The change of each seat's rating for one game (ratings before the game)."""
    count = len(ratings)
    if cooperative:   # a team record, not a rating (module docstring)
        return [0.0] * count
    if count < 2:
        return [0.0] * count
    deltas = []
    for i in range(count):
        total = 0.0
        for j in range(count):
            if i == j:
                continue
            actual = 1.0 if seat_places[i] < seat_places[j] else 0.5 if seat_places[i] == seat_places[j] else 0.0
            total += actual - expected(ratings[i], ratings[j])
        deltas.append(K_FACTOR / (count - 1) * total)
    return deltas


def new_entry(player: str) -> dict:
    return {"player": player, "games": 0, "wins": 0, "rating": INITIAL, "score_total": 0}


def apply_result(entries: dict[str, dict], result: Mapping) -> None:
    """Fold one finished game into the leaderboard entries (by player name), in place.

    `result`: {"names": [...], "scores": {"0": 7, ...}, "winners": [0], "cooperative": bool}.
    """
    names = list(result["names"])
    seats = list(range(len(names)))
    scores = {int(seat): int(points) for seat, points in result["scores"].items()}
    winners = [int(seat) for seat in result["winners"]]
    for name in names:
        entries.setdefault(name, new_entry(name))
        if result.get("cooperative"):
            entries[name]["cooperative"] = True
    before = [entries[name]["rating"] for name in names]
    seat_places = places(scores, winners, seats)
    deltas = rating_deltas(before, [seat_places[s] for s in seats],
                           cooperative=bool(result.get("cooperative")), winners=winners)
    for seat, name in enumerate(names):
        entry = entries[name]
        entry["games"] += 1
        entry["wins"] += 1 if seat in winners else 0
        entry["score_total"] += scores.get(seat, 0)
        entry["rating"] += deltas[seat]


def team_record(entries: Mapping[str, dict]) -> list[dict]:
    """The team record of a cooperative game type: per player the chapters played and won,
    best share first (then most won, then name)."""
    rows = [{"player": entry["player"], "chapters": entry["games"], "won": entry["wins"],
             "win_rate": round(entry["wins"] / entry["games"], 4) if entry["games"] else 0.0}
            for entry in entries.values() if entry.get("cooperative")]
    rows.sort(key=lambda row: (-row["win_rate"], -row["won"], row["player"]))
    return rows


def leaderboard(entries: Mapping[str, dict]) -> list[dict]:
    """Public rows of the rated (competitive) games, best first: rating, then wins, then name."""
    rows = [
        {
            "player": entry["player"],
            "games": entry["games"],
            "wins": entry["wins"],
            "rating": round(entry["rating"], 1),
            "avg_score": round(entry["score_total"] / entry["games"], 2) if entry["games"] else 0.0,
        }
        for entry in entries.values() if not entry.get("cooperative")
    ]
    rows.sort(key=lambda row: (-row["rating"], -row["wins"], row["player"]))
    return rows


def replay_results(results: Iterable[Mapping]) -> dict[str, dict]:
    """Leaderboard entries from finished games in the order they finished."""
    entries: dict[str, dict] = {}
    for result in results:
        apply_result(entries, result)
    return entries
