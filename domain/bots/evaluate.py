"""How the search values a position: per seat, a win estimate and an expected final score.

A finished game is valued by its winners (a tie shares the win; a cooperative team wins or
loses together). A position the search stops in before the end is valued from the running
scores: the seat's lead over its best rival, squashed into a probability, unless the game's
bot hooks supply their own `evaluate`.
"""

from __future__ import annotations

import math
from typing import Any


def outcome(rules: Any, state: dict, hooks: Any) -> tuple[list[float], list[float]]:
    """(wins, scores), one entry per seat; wins in [0, 1]."""
    scores_map = rules.scores(state)
    seats = sorted(scores_map)
    scores = [float(scores_map[s]) for s in seats]
    if rules.is_over(state):
        winners = set(rules.winners(state))
        if rules.meta.cooperative:
            return [1.0 if winners else 0.0] * len(seats), scores
        share = 1.0 / len(winners) if winners else 0.0
        return [share if s in winners else 0.0 for s in seats], scores
    if hooks.evaluate is not None:
        wins, estimated = hooks.evaluate(state)
        return [float(w) for w in wins], [float(x) for x in estimated]
    if rules.meta.cooperative:
        return [0.0] * len(seats), scores
    return lead_probabilities(scores, hooks.score_scale), scores


def lead_probabilities(scores: list[float], scale: float) -> list[float]:
    """A soft-max over scores: equal scores give equal chances, a lead of `scale` about 3:1."""
    top = max(scores)
    weights = [math.exp((s - top) / scale) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def utility(rules: Any, wins: list[float], scores: list[float], seat: int, scale: float) -> float:
    """What a seat maximises: winning first, then points (a margin in competitive games; for a
    cooperative team, progress, so the search still prefers a nearer victory when none is seen)."""
    if rules.meta.cooperative:
        return wins[seat] + 0.3 * math.tanh(scores[seat] / (4 * scale))
    others = [s for k, s in enumerate(scores) if k != seat]
    margin = scores[seat] - (max(others) if others else 0.0)
    return wins[seat] + 0.15 * math.tanh(margin / (2 * scale))
