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
