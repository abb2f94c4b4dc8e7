"""Engine analysis of a game's history: per step each seat's win chance and expected final score,
and the moves that lost the most, graded as lichess grades them.

Pure: it is given the game's setup and moves (with their recorded facts) and folds them; every
position is searched by the bot (`search.py`) from what `viewer` knows there (`knowledge`): a
finished game is analysed with everything public (viewer "all"); a running one only for what the
caller may see, so its hidden cards are sampled, never read, and only the caller's own moves are
judged (another seat's legal moves would name its hand).

A move's **loss** is the mover's estimated win probability after the best move the search found
minus that after the move played (both measured in the same search, from the position before the
move). Grades (documented in README "Bots"): loss >= 0.10 inaccuracy, >= 0.20 mistake,
>= 0.30 blunder; smaller losses are not listed.
"""

from __future__ import annotations

from typing import Any, Iterator

from domain.engine import EVERYONE, fold, presentation

from .hooks import hooks_for
from .levels import Level
from .search import move_key, search

#: The version of the engine that made an analysis (stored with it; a new one re-analyses).
ENGINE_VERSION = "bots-1"

ANALYSIS = Level("analysis", iterations=64, rollout_depth=10, per_move=16)

GRADES = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))


def grade(loss: float) -> str | None:
    for threshold, name in GRADES:
        if loss >= threshold:
            return name
    return None


def analyse(rules: Any, players: int, options: dict, setup_facts: list, moves: list[dict], viewer: Any,
            seed: int, names: list[str] | None = None, budget: Level = ANALYSIS) -> Iterator[dict]:
    """Yield one record per step (0 = after setup), then a final {"mistakes": [...]}.

    `moves`: [{"seat", "move", "facts"}] in order (the effective moves)."""
    hooks = hooks_for(rules)
    names = list(names or [])
    state = fold(rules.evolve, rules.initial_state(players, options), [dict(f) for f in setup_facts])
    mistakes = []
    for step in range(len(moves) + 1):
        played = moves[step] if step < len(moves) else None
        record, mistake = _step(rules, hooks, state, step, played, viewer, seed, names, players, budget)
        if mistake is not None:
            mistakes.append(mistake)
        yield record
        if played is not None:
            state = fold(rules.evolve, state, [dict(f) for f in played["facts"]])
    yield {"mistakes": mistakes}


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
        from domain.engine import Rng
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
    values = {move_key(mover, m): (node.wins[mover] / node.visits, node, m)
              for m, node in result.candidates if node.visits}
    mine = values.get(move_key(mover, played["move"]))
    if mine is None or not values:
        return record, None
    best_value, _, best_move = max(values.values(), key=lambda v: (v[0], v[1].visits))
    loss = round(best_value - mine[0], 3)
    kind = grade(loss)
    if kind is None:
        return record, None
    labels = presentation.labels(rules, state, mover, [best_move, played["move"]], names)
    return record, {"move_no": step + 1, "seat": mover, "loss": loss, "grade": kind,
                    "better": best_move, "better_label": labels[0], "played": played["move"],
                    "played_label": labels[1], "win_before": round(best_value, 3), "win_after": round(mine[0], 3)}
