"""Engine analysis of a game's history: per step each seat's win chance and expected final score,
the moves that lost the most (graded as lichess grades them), each seat's accuracy and the game's
turning points.

Pure: it is given the game's setup and moves (with their recorded facts) and folds them; every
position is searched by the bot (`search.py`) from what `viewer` knows there (`knowledge`): a
finished game is analysed with everything public (viewer "all"); a running one only for what the
caller may see, so its hidden cards are sampled, never read, and only the caller's own moves are
judged (another seat's legal moves would name its hand).

A move's **loss** is the mover's estimated win probability after the best move the search found
minus that after the move played (both measured in the same search, from the position before the
move): `kind: "win"`. A seat whose chances are already decided (the best move leaves it under
`DECIDED` or the move played over 1 - `DECIDED`) loses no win chance whatever it plays, so it would
never learn where its points went: such a move is judged on expected final score instead
(`kind: "score"`), the points lost turned into a win-chance equivalent by the same soft-max the
search uses for an unfinished position (a loss of `d` points between equal players moves a
two-seat chance by 0.5 * tanh(d / (2 * scale)), `scale` the game's SCORE_SCALE), so one set of
thresholds grades both kinds. Grades (documented in README "Bots"): loss >= 0.10 inaccuracy,
>= 0.20 mistake, >= 0.30 blunder; smaller losses are not listed.

The move played and the better one are compared **by effect**: both are decided on the same
position with the same randomness, and equal facts mean the same move (two listings of one choice):
no mark then, so "better" never reads like the move played.

**Accuracy** (per seat, 0-100, lichess's formula): each judged move scores
103.1668 * exp(-0.04354 * L) - 3.1669 (clamped to 0..100), L its loss in percentage points of win
chance (the win-chance equivalent for a `score` move); a seat's accuracy is the mean of the
arithmetic and the harmonic mean of its moves' scores. Forced moves (one listed move) are not judged.

**Turning points**: the three moves after which the eventual winner's chance (the team's, in a
cooperative game; the chance of the seat with the best final chance when nobody won) rose or fell
most, with the move's words.
"""

from __future__ import annotations

import math
from typing import Any, Iterator

from domain.engine import EVERYONE, IllegalMove, Rng, fold, presentation

from .hooks import hooks_for
from .levels import Level
from .search import move_key, search

#: The version of the engine that made an analysis (stored with it; a new one re-analyses).
ENGINE_VERSION = "bots-2"

ANALYSIS = Level("analysis", iterations=64, rollout_depth=10, per_move=16)

GRADES = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))

#: A seat whose win chance is within this of 0 or 1 is judged on expected score (`kind: "score"`).
DECIDED = 0.08

#: How many turning points an analysis names.
TURNING_POINTS = 3


def grade(loss: float) -> str | None:
    for threshold, name in GRADES:
        if loss >= threshold:
            return name
    return None


def score_loss_as_win(points: float, scale: float) -> float:
    """Points lost, as the win chance they cost between two equal players (see the module doc)."""
    return 0.5 * math.tanh(max(points, 0.0) / (2 * max(scale, 1e-9)))


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move from its loss of win chance (a fraction, 0..1)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100 * max(loss, 0.0)) - 3.1669))


def seat_accuracy(scores: list[float]) -> float | None:
    """The mean of the arithmetic and the harmonic mean of a seat's move accuracies."""
    if not scores:
        return None
    arithmetic = sum(scores) / len(scores)
    harmonic = len(scores) / sum(1.0 / max(s, 1.0) for s in scores)
    return round((arithmetic + harmonic) / 2, 1)


def analyse(rules: Any, players: int, options: dict, setup_facts: list, moves: list[dict], viewer: Any,
            seed: int, names: list[str] | None = None, budget: Level = ANALYSIS) -> Iterator[dict]:
    """Yield one record per step (0 = after setup), then a final
    {"mistakes": [...], "accuracy": {seat: 0-100}, "turning_points": [...]}.

    `moves`: [{"seat", "move", "facts"}] in order (the effective moves)."""
    steps: list[dict] = []
    verdicts: list[dict | None] = []
    descriptions: list[str | None] = []
    for record, verdict, description in analyse_steps(rules, players, options, setup_facts, moves, viewer, seed,
                                                      names, budget):
        steps.append(record)
        verdicts.append(verdict)
        descriptions.append(description)
        yield record
    yield summarise(rules, steps, verdicts, descriptions, moves, names)


def analyse_steps(rules: Any, players: int, options: dict, setup_facts: list, moves: list[dict], viewer: Any,
                  seed: int, names: list[str] | None = None, budget: Level = ANALYSIS,
                  start: int = 0) -> Iterator[tuple[dict, dict | None, str | None]]:
    """Yield (record, verdict or None, words of the move played or None) per step from step
    `start` on (earlier steps are only folded, not searched): an analysis may be done in slices
    (the workers', projections/analysis.py), each taking up where the last stopped, with the same
    result as in one go (each step's search has its own seed); `summarise` ends it."""
    hooks = hooks_for(rules)
    names = list(names or [])
    state = fold(rules.evolve, rules.initial_state(players, options), [dict(f) for f in setup_facts])
    for step in range(len(moves) + 1):
        played = moves[step] if step < len(moves) else None
        if step >= start:
            record, verdict = _step(rules, hooks, state, step, played, viewer, seed, names, players, budget)
            description = None
            if played is not None:      # another seat's move in a running game may name its hand: no words for it
                seen = viewer == EVERYONE or viewer == played["seat"]
                description = presentation.labels(rules, state, played["seat"], [played["move"]], names)[0] \
                    if seen else ""
            yield record, verdict, description
        if played is not None:
            state = fold(rules.evolve, state, [dict(f) for f in played["facts"]])


def summarise(rules: Any, steps: list[dict], verdicts: list[dict | None], descriptions: list[str | None],
              moves: list[dict], names: list[str] | None) -> dict:
    """The mistakes, each seat's accuracy and the turning points, from every step's record and verdict."""
    mistakes: list[dict] = []
    judged: dict[int, list[float]] = {}
    for verdict in verdicts:
        if verdict is not None:
            judged.setdefault(verdict["seat"], []).append(move_accuracy(verdict["loss"]))
            if verdict.get("grade"):
                mistakes.append(verdict["mark"])
    words = [d for d in descriptions if d is not None]
    return {"mistakes": mistakes,
            "accuracy": {str(s): seat_accuracy(judged[s]) for s in sorted(judged)},
            "turning_points": turning_points(steps, moves, words, list(names or []), rules.meta.cooperative)}


def turning_points(steps: list[dict], moves: list[dict], descriptions: list[str], names: list[str],
                   cooperative: bool) -> list[dict]:
    """The moves that moved the eventual winner's chance most (see the module doc)."""
    final = steps[-1].get("win_probability") if steps else None
    if not final or len(steps) < 2:
        return []
    focus = "0" if cooperative else max(final, key=lambda s: (final[s], -int(s)))
    swings = []
    for step in range(1, len(steps)):
        before = steps[step - 1].get("win_probability", {}).get(focus)
        after = steps[step].get("win_probability", {}).get(focus)
        if before is None or after is None:
            continue
        swings.append((abs(after - before), step, before, after))
    swings.sort(key=lambda s: (-s[0], s[1]))
    who = "the team" if cooperative else presentation.name_seats(f"Seat {focus}", names)
    points = []
    for size, step, before, after in sorted(swings[:TURNING_POINTS], key=lambda s: s[1]):
        if size < 0.05:
            continue
        move = moves[step - 1]
        mover = presentation.name_seats(f"Seat {move['seat']}", names)
        verb = "rose" if after > before else "fell"
        words = f"{mover}: {descriptions[step - 1]}" if descriptions[step - 1] else mover
        points.append({"move_no": step, "seat": move["seat"], "for": int(focus), "before": before, "after": after,
                       "label": descriptions[step - 1],
                       "text": f"Move {step}, {words} — {who}'s chance to win {verb} "
                               f"from {round(before * 100)}% to {round(after * 100)}%."})
    return points


def _step(rules, hooks, state, step, played, viewer, seed, names, players, budget):
    scores = rules.scores(state)
    record = {"step": step, "seat": played["seat"] if played else None}
    if rules.is_over(state):
        winners = set(rules.winners(state))
        share = (1.0 if rules.meta.cooperative else 1.0 / len(winners)) if winners else 0.0
        record["win_probability"] = {str(s): (share if s in winners else 0.0) for s in range(players)}
        record["expected_score"] = {str(s): float(scores[s]) for s in range(players)}
        return record, None
    mover = played["seat"] if played else rules.decision(state).seats[0]
    judged = viewer == EVERYONE or viewer == mover
    knowledge = hooks.knowledge(state, viewer)
    if judged:
        moves = rules.legal_moves(state, mover)
    else:   # another seat's options would name its hand: take them from a sample of what the viewer knows
        moves = rules.legal_moves(hooks.sample(knowledge, viewer, Rng(seed, f"analysis/{step}")), mover)
    if not moves:
        moves = [played["move"]] if played else []
    few = len(moves) <= 12
    result = search(rules, hooks, knowledge, mover, moves, budget, seed + step, players,
                    min_visits=(4 if few else 1) if judged and len(moves) > 1 else 0)
    wins, expected = result.win_probability(), result.expected_score()
    record["win_probability"] = {str(s): round(wins[s], 3) for s in range(players)} if wins else {}
    record["expected_score"] = {str(s): round(expected[s], 1) for s in range(players)} if expected else {}
    if not judged or played is None or len(moves) < 2:
        return record, None
    return record, _verdict(rules, hooks, state, step, mover, played, result, seed, names)


def _verdict(rules, hooks, state, step, mover, played, result, seed, names) -> dict | None:
    """How much the move played lost against the best one found, and its mark when graded."""
    valued = [(node.wins[mover] / node.visits, node.scores[mover] / node.visits, node.visits, m)
              for m, node in result.candidates if node.visits]
    mine = next((v for v in valued if move_key(mover, v[3]) == move_key(mover, played["move"])), None)
    if mine is None or not valued:
        return None
    best = max(valued, key=lambda v: (v[0], v[1], v[2]))
    if _same_effect(rules, state, mover, best[3], played["move"], seed, step):
        return {"seat": mover, "loss": 0.0}
    win_loss = max(0.0, best[0] - mine[0])
    kind, loss = "win", win_loss
    if grade(win_loss) is None and (best[0] <= DECIDED or mine[0] >= 1 - DECIDED):
        best_scored = max(valued, key=lambda v: (v[1], v[0], v[2]))
        if not _same_effect(rules, state, mover, best_scored[3], played["move"], seed, step):
            points = max(0.0, best_scored[1] - mine[1])
            kind, loss, best = "score", score_loss_as_win(points, hooks.score_scale), best_scored
    loss = round(loss, 3)
    verdict = {"seat": mover, "loss": loss, "grade": grade(loss)}
    if verdict["grade"] is None:
        return verdict
    better_label, played_label = presentation.labels(rules, state, mover, [best[3], played["move"]], names)
    if better_label == played_label:      # two different moves that read alike: a person could not tell them apart
        return {"seat": mover, "loss": loss}
    mark = {"move_no": step + 1, "seat": mover, "loss": loss, "grade": verdict["grade"], "kind": kind,
            "better": best[3], "better_label": better_label, "played": played["move"],
            "played_label": played_label, "win_before": round(best[0], 3), "win_after": round(mine[0], 3)}
    if kind == "score":
        mark.update(score_before=round(best[1], 1), score_after=round(mine[1], 1),
                    points=round(best[1] - mine[1], 1))
    verdict["mark"] = mark
    return verdict


def _same_effect(rules, state, seat, one, other, seed, step) -> bool:
    """Whether two moves do the same thing here: equal facts when decided with the same randomness."""
    if move_key(seat, one) == move_key(seat, other):
        return True
    try:
        first = rules.decide(state, seat, one, Rng(seed, f"effect/{step}"))
        second = rules.decide(state, seat, other, Rng(seed, f"effect/{step}"))
    except IllegalMove:
        return False
    return [dict(f) for f in first] == [dict(f) for f in second]
