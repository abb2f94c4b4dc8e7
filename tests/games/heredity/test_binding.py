"""Legal-move lists are binding (issue 16.4): a varied copy of a listed move that `decide` accepts is listed.

Varied copies: numbers +-1, list items dropped, swapped or replaced by a sibling value (another value of the same
key seen in the list), keys dropped or added. Over seeded random playouts of every player count.
"""

from __future__ import annotations

import copy
import os
import random

import pytest

from domain.engine import IllegalMove, copy_state, new_game, play
from domain.engine.rng import Rng
from domain.games.heredity import RULES
from domain.games.heredity.decide import referee as referee_of


def _siblings(legal: list) -> dict:
    """key -> every value that key takes in the listed moves (scalars and small structures)."""
    out: dict = {}

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                out.setdefault(k, [])
                if v not in out[k]:
                    out[k].append(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for m in legal:
        walk(m)
    return out


def variants(move: dict, sib: dict, chooser: random.Random, n: int = 12) -> list:
    out = []

    def mutate(x, key=None):
        """One random change somewhere inside x (returns a new value)."""
        if isinstance(x, dict) and x:
            x = dict(x)
            k = chooser.choice(sorted(x))
            r = chooser.random()
            if r < 0.1 and k != "type":
                del x[k]
            elif r < 0.2:
                x[chooser.choice(["extra", "note", "slot", "materials", "items", "target", "anchor"])] = \
                    chooser.choice([1, "x", [], {"pc": "maeve"}])
            else:
                x[k] = mutate(x[k], k)
            return x
        if isinstance(x, list):
            x = list(x)
            r = chooser.random()
            if x and r < 0.3:
                del x[chooser.randrange(len(x))]
            elif len(x) > 1 and r < 0.5:
                i, j = chooser.sample(range(len(x)), 2)
                x[i], x[j] = x[j], x[i]
            elif x and r < 0.8:
                i = chooser.randrange(len(x))
                x[i] = mutate(x[i], key)
            else:
                pool = [v for vals in (sib.get(key) or []) for v in (vals if isinstance(vals, list) else [vals])]
                if pool:
                    x.append(chooser.choice(pool))
            return x
        if isinstance(x, bool):
            return not x
        if isinstance(x, int):
            if key in sib and chooser.random() < 0.5:
                return chooser.choice(sib[key])
            return x + chooser.choice([-1, 1, 2])
        if key in sib and sib[key]:
            return chooser.choice(sib[key])
        return x
    for _ in range(n):
        v = mutate(copy.deepcopy(move))
        if v != move:
            out.append(v)
    return out


def accepted(state, seat, move, salt, referee=False) -> bool:
    try:
        (referee_of if referee else RULES.decide)(copy_state(state), seat, move, Rng(salt, 1))
        return True
    except IllegalMove:
        return False
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:   # a malformed move must be refused
        raise AssertionError(f"decide crashed on {move}: {err!r}") from err


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_accepted_variants_of_listed_moves_are_listed(players):
    for seed in range(int(os.environ.get("HER_BINDING_SEEDS", "2"))):     # more seeds: a deeper hunt
        chooser = random.Random(seed * 31 + players)
        state, _ = new_game(RULES, players, {}, seed)
        for step in range(150):
            if RULES.is_over(state):
                break
            seats = RULES.decision(state).seats
            seat = chooser.choice(list(seats))
            legal = RULES.legal_moves(state, seat)
            sib = _siblings(legal)
            for move in chooser.sample(legal, min(len(legal), 8)):
                for v in variants(move, sib, chooser):
                    # the rules' own checks accept only what the book allows, and the list holds all of it
                    if accepted(state, seat, v, seed, referee=True):
                        assert v in legal, f"allowed but not listed (seed {seed}, step {step}): {v}"
                    elif v not in legal:
                        assert not accepted(state, seat, v, seed)
            state, _ = play(RULES, state, seat, chooser.choice(legal), seed, step + 1)
