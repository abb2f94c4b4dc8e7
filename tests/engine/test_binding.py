"""Legal moves bind (ENGINE-MOVE-02): only a listed move is ever played.

Two properties over seeded random playouts of every registered game, with varied copies
of the listed moves (numbers +-1, list items dropped, swapped or replaced by a sibling's
value, a sibling's key added, an unknown key added):

- the kernel (`play`) refuses every variant that is not listed, whatever `decide` says,
  and keeps `decide`'s own rule ID when `decide` refuses first;
- a game's own `decide` accepts no variant that is not listed: otherwise its list is
  incomplete (a move a client could never find) or `decide` is too lax. A game failing it
  goes into DECIDE_TOO_LAX (xfail, strict) until its package is fixed.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from domain.engine import IllegalMove, copy_state, game_types, new_game, play
from domain.engine.rng import Rng
from domain.engine.rules import canonical_move
from domain.games import load_all

load_all()
GAMES = sorted(rules.meta.name for rules in game_types() if type(rules).__module__.startswith("domain.games."))
SEEDS = (11, 12)
MAX_MOVES = 120
SAMPLED_MOVES = 6

#: Games whose decide accepts moves their list does not hold (fixed by their game helper).
DECIDE_TOO_LAX: dict[str, str] = {}


def _siblings(listed: list[dict], key: str, value: Any) -> list[Any]:
    return [m[key] for m in listed if key in m and m[key] != value]


def _vary(value: Any, siblings: list[Any], chooser: random.Random) -> Iterator[Any]:
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
        yield value - 1
    elif isinstance(value, list):
        if value:
            yield value[:-1]
            yield value[1:]
        if len(value) > 1:
            yield [value[1], value[0], *value[2:]]
            i = chooser.randrange(len(value) - 1)  # any neighbours swapped (a payment's order)
            yield [*value[:i], value[i + 1], value[i], *value[i + 2:]]
        if len(value) > 2:
            yield list(reversed(value))
        for sibling in siblings:
            if isinstance(sibling, list) and sibling:
                yield [*value[:-1], sibling[-1]] if value else [sibling[0]]
    elif isinstance(value, dict):
        for key in sorted(value)[:3]:
            for varied in _vary(value[key], [], chooser):
                yield {**value, key: varied}
    for sibling in siblings[:2]:
        yield sibling


def variants(move: dict, listed: list[dict], chooser: random.Random) -> Iterator[dict]:
    """Copies of `move` differing in one place."""
    for key in sorted(move):
        if key == "type":
            continue
        for varied in _vary(move[key], _siblings(listed, key, move[key]), chooser):
            yield {**move, key: varied}
        yield {k: v for k, v in move.items() if k != key}
    for other in listed:
        if other.get("type") == move.get("type"):
            for key in other.keys() - move.keys():
                yield {**move, key: other[key]}
    yield {**move, "unlisted_field": 1}


def player_counts(rules, seed: int) -> list[int]:
    """Every player count the game allows, spread over the seeds."""
    counts = list(range(rules.meta.min_players, rules.meta.max_players + 1))
    return counts[SEEDS.index(seed)::len(SEEDS)]


def playout_positions(rules, players: int, seed: int) -> Iterator[tuple[dict, int, list[dict], int]]:
    """(state, seat, listed moves, move number) along a seeded random playout."""
    chooser = random.Random(seed)
    state, _ = new_game(rules, players, {}, seed)
    for move_no in range(1, MAX_MOVES + 1):
        if rules.is_over(state):
            return
        seat = chooser.choice(list(rules.decision(state).seats))
        listed = rules.legal_moves(state, seat)
        yield state, seat, listed, move_no
        state, _ = play(rules, state, seat, chooser.choice(listed), seed, move_no)


def unlisted_variants(rules, state, seat, listed, chooser) -> Iterator[dict]:
    """Variants of listed moves that are not listed, nor the same in effect as a listed move by the game's
    `listed_form` (Heredity's twin slots, issue 24: accepted and decided as played)."""
    keys = {canonical_move(m) for m in listed}
    same = getattr(rules, "listed_form", None)
    for move in chooser.sample(listed, min(SAMPLED_MOVES, len(listed))):
        for variant in variants(move, listed, chooser):
            if canonical_move(variant) in keys:
                continue
            try:
                if same is not None and canonical_move(same(state, seat, variant)) in keys:
                    continue
            except Exception:
                pass
            yield variant


def rules_of(name: str):
    return next(rules for rules in game_types() if rules.meta.name == name)


def decides(rules, state, seat, move, seed, move_no) -> str | None:
    """None when `decide` accepts the move, else the rule ID (or exception type) refusing it."""
    try:
        rules.decide(copy_state(state), seat, move, Rng(seed, move_no))
    except IllegalMove as error:
        return error.rule_id
    except Exception as error:  # a malformed variant may trip a game's decide
        return type(error).__name__
    return None


@pytest.mark.rule("ENGINE-MOVE-02")
@pytest.mark.parametrize("name", GAMES)
def test_play_refuses_every_unlisted_variant(name):
    rules = rules_of(name)
    checked = 0
    for seed in SEEDS:
        chooser = random.Random(seed * 31)
        for state, seat, listed, move_no in playout_positions(rules, rules.meta.min_players + (seed % 2), seed):
            if move_no % 3:
                continue
            for variant in unlisted_variants(rules, state, seat, listed, chooser):
                refused_by = decides(rules, state, seat, variant, seed, move_no)
                with pytest.raises(Exception) as refusal:
                    play(rules, state, seat, variant, seed, move_no)
                if isinstance(refused_by, str) and refusal.type is IllegalMove:
                    expected = "ENGINE-MOVE-02" if refused_by is None else refused_by
                    assert refusal.value.rule_id == expected, (variant, refusal.value)
                if refused_by is None:
                    assert refusal.type is IllegalMove and refusal.value.rule_id == "ENGINE-MOVE-02", variant
                checked += 1
    assert checked > 0


def _decide_params():
    for name in GAMES:
        marks = [pytest.mark.xfail(strict=True, reason=DECIDE_TOO_LAX[name])] if name in DECIDE_TOO_LAX else []
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.rule("ENGINE-MOVE-02")
@pytest.mark.parametrize("name", list(_decide_params()))
def test_decide_accepts_only_listed_moves(name):
    rules = rules_of(name)
    accepted = []
    for seed in SEEDS:
        for players in player_counts(rules, seed):
            chooser = random.Random(seed * 17 + players)
            for state, seat, listed, move_no in playout_positions(rules, players, seed):
                for variant in unlisted_variants(rules, state, seat, listed, chooser):
                    if decides(rules, state, seat, variant, seed, move_no) is None:
                        accepted.append({"seed": seed, "players": players, "move_no": move_no, "variant": variant})
                        if len(accepted) >= 5:
                            break
    assert not accepted, f"{name}: decide accepts moves its legal_moves does not list: {accepted}"


@pytest.mark.rule("ENGINE-MOVE-02")
def test_the_kernel_refuses_what_a_lax_decide_accepts_and_keeps_a_refusals_rule():
    from tests.support import api_count  # noqa: F401  (registers the test game)

    rules = rules_of("api_count")
    state, _ = new_game(rules, 2, {"target": 100}, 1)
    lax = {"type": "add", "amount": 1, "note": "not a field of add"}
    assert decides(rules, state, 0, lax, 1, 1) is None  # this test game's decide ignores the note
    with pytest.raises(IllegalMove) as refusal:
        play(rules, state, 0, lax, 1, 1)
    assert refusal.value.rule_id == "ENGINE-MOVE-02"
    with pytest.raises(IllegalMove) as refusal:
        play(rules, state, 0, {"type": "add", "amount": True}, 1, 1)  # True == 1 in Python, not in JSON
    assert refusal.value.rule_id in ("ENGINE-MOVE-02", "COUNT-ADD-01")
    with pytest.raises(IllegalMove) as refusal:
        play(rules, state, 0, {"type": "add", "amount": 3}, 1, 1)
    assert refusal.value.rule_id == "COUNT-ADD-01"
    after, facts = play(rules, state, 0, {"amount": 1, "type": "add"}, 1, 1)  # key order does not matter
    assert after["count"] == 1
