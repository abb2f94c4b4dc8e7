"""Review that teaches (issue 26.1): each mark shows the move played beside a better one that reads
and acts differently; a seat whose chances are decided is judged on expected score; accuracy per
seat by lichess's formula; the turning points of the eventual winner's chance."""

from __future__ import annotations

import math

import pytest

from domain.bots.analysis import (
    DECIDED, TURNING_POINTS, analyse, grade, move_accuracy, score_loss_as_win, seat_accuracy,
)
from domain.engine import EVERYONE, Rng

from .test_analysis import CHEAP, random_game

GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]


def test_lichess_accuracy_of_a_move_and_of_a_seat():
    assert move_accuracy(0.0) == pytest.approx(99.9999, abs=1e-3)          # 103.1668 - 3.1669
    assert move_accuracy(0.10) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert move_accuracy(1.0) == 0.0
    assert seat_accuracy([]) is None
    assert seat_accuracy([100.0, 100.0]) == 100.0
    # the mean of the arithmetic (55) and the harmonic (2 / (1/100 + 1/10) = 18.18...) means
    assert seat_accuracy([100.0, 10.0]) == round((55 + 2 / (1 / 100 + 1 / 10)) / 2, 1)


def test_points_lost_grade_like_the_win_chance_they_cost():
    scale = 10.0
    assert score_loss_as_win(0, scale) == 0.0
    assert grade(score_loss_as_win(0.3 * scale, scale)) is None
    assert grade(score_loss_as_win(0.5 * scale, scale)) == "inaccuracy"
    assert grade(score_loss_as_win(1.0 * scale, scale)) == "mistake"
    assert grade(score_loss_as_win(2.0 * scale, scale)) == "blunder"


def _analysed(game: str, seed: int, limit: int):
    rules, setup, moves, final = random_game(game, seed, limit=limit)
    records = list(analyse(rules, 2, {}, setup, moves, EVERYONE, 1, ["ann", "bob"], budget=CHEAP))
    return rules, setup, moves, records[:-1], records[-1]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_mark_shows_two_different_moves_that_act_differently(game):
    rules, setup, moves, steps, summary = _analysed(game, 4, limit=60)
    from domain.engine import fold
    for mark in summary["mistakes"]:
        assert mark["better_label"] != mark["played_label"], mark
        assert moves[mark["move_no"] - 1]["move"] == mark["played"]
        assert mark["kind"] in ("win", "score") and mark["grade"] == grade(mark["loss"])
        state = fold(rules.evolve, rules.initial_state(2, {}), [dict(f) for f in setup])
        for played in moves[:mark["move_no"] - 1]:
            state = fold(rules.evolve, state, [dict(f) for f in played["facts"]])
        seat = mark["seat"]
        assert mark["better"] in rules.legal_moves(state, seat)
        one = rules.decide(state, seat, mark["better"], Rng(7, "effect"))
        other = rules.decide(state, seat, mark["played"], Rng(7, "effect"))
        assert [dict(f) for f in one] != [dict(f) for f in other], "the better move must differ in effect"
    assert set(summary["accuracy"]) <= {"0", "1"}
    for value in summary["accuracy"].values():
        assert value is None or 0 <= value <= 100


@pytest.mark.slow
def test_a_seat_whose_chances_are_decided_is_judged_on_score():
    _, _, _, _, summary = _analysed("abomination", 4, limit=10_000)
    scored = [m for m in summary["mistakes"] if m["kind"] == "score"]
    assert scored, "the losing seat's wasted points are marked"
    for mark in scored:
        assert mark["points"] > 0 and mark["score_after"] < mark["score_before"]
        assert mark["win_before"] <= DECIDED or mark["win_after"] >= 1 - DECIDED
        assert mark["better_label"] != mark["played_label"]


@pytest.mark.slow
def test_turning_points_are_the_largest_swings_of_the_winners_chance():
    rules, _, moves, steps, summary = _analysed("my_fathers_work", 4, limit=10_000)
    points = summary["turning_points"]
    assert 1 <= len(points) <= TURNING_POINTS
    assert [p["move_no"] for p in points] == sorted(p["move_no"] for p in points)
    focus = str(points[0]["for"])
    final = steps[-1]["win_probability"]
    assert final[focus] == max(final.values())
    swing = {s: abs(steps[s]["win_probability"][focus] - steps[s - 1]["win_probability"][focus])
             for s in range(1, len(steps))}
    smallest = min(swing[p["move_no"]] for p in points)
    assert sum(1 for s in swing.values() if s > smallest) < TURNING_POINTS
    for p in points:
        assert p["text"].startswith(f"Move {p['move_no']}, ") and "%" in p["text"] and p["label"]
