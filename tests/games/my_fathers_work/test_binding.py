"""Issue 16.4: My Father's Work's legal-move list is binding (decide accepts only listed moves)."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalMove, copy_state, new_game, play
from domain.engine.rng import Rng
from domain.games.my_fathers_work import RULES


def _variants(move, rnd):
    """Copies of a listed move: numbers +-1, list items dropped or swapped, keys added or removed."""
    out = [dict(move, extra=1)]
    for key, value in move.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out += [dict(move, **{key: value + 1}), dict(move, **{key: value - 1})]
        if isinstance(value, list) and value:
            out.append(dict(move, **{key: value[1:]}))
            if len(value) > 1:
                out.append(dict(move, **{key: list(reversed(value))}))
        if key != "type":
            out.append({k: v for k, v in move.items() if k != key})
    return out


@pytest.mark.rule("MFW-ROUND-06")
def test_an_extra_key_is_refused():
    state, _ = new_game(RULES, 2, {}, 3)
    seat = RULES.decision(state).seats[0]
    move = RULES.legal_moves(state, seat)[0]
    with pytest.raises(IllegalMove) as err:
        play(RULES, state, seat, dict(move, note="kept forever"), 3, 1)
    assert err.value.rule_id == "MFW-ROUND-06" and "note" in err.value.detail


@pytest.mark.parametrize("players", [2, 3, 4])
def test_accepted_variants_of_listed_moves_are_listed(players):
    rnd = random.Random(players)
    for seed in range(2):
        state, _ = new_game(RULES, players, {}, seed)
        for k in range(250):
            if RULES.is_over(state):
                break
            seat = rnd.choice(list(RULES.decision(state).seats))
            listed = RULES.legal_moves(state, seat)
            for move in rnd.sample(listed, min(3, len(listed))):
                for variant in _variants(move, rnd):
                    try:
                        RULES.decide(copy_state(state), seat, variant, Rng(seed, k + 1))
                    except IllegalMove:
                        continue
                    assert variant in listed, f"accepted but not listed: {variant}"
            state, _ = play(RULES, state, seat, rnd.choice(listed), seed, k + 1)
