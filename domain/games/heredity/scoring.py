"""Scores and the end. Cooperative: every seat gets the team's result, or its progress while the chapter runs."""

from __future__ import annotations


def scores(state: dict) -> dict:
    if state["over"] == "victory":
        points = 100
    elif state["over"] == "defeat":
        points = 0
    else:
        points = 5 * state["slain"] + len(state["terrains"]) + len(state["revealed"]) // 4
    return {seat: points for seat in range(state["players"])}


def is_over(state: dict) -> bool:
    return state["over"] is not None


def winners(state: dict) -> list:
    """HER-GEN-06: the team wins together, or nobody does."""
    return list(range(state["players"])) if state["over"] == "victory" else []


def score_breakdown(state: dict) -> list[dict]:
    """The team's result, for the end of game table (issue 24): ``[{"category", "points": {seat: n}}]``.
    Cooperative (HER-GEN-06): every seat has the same line, the chapter won (100) or lost (0). Empty while
    the chapter runs."""
    if state["over"] is None:
        return []
    total = scores(state)
    points = {str(seat): total[seat] for seat in range(state["players"])}
    return [{"category": "The chapter " + ("won" if state["over"] == "victory" else "lost"), "points": points},
            {"category": "Total", "points": dict(points)}]
