"""Issue 16.4: the legal-move lists are binding. Varied copies of listed moves (numbers +-1, booleans or
floats for integers, keys added or dropped, list items dropped, swapped or replaced by sibling values)
that `decide` accepts must themselves be listed, exactly."""

from __future__ import annotations

import random

import orjson
import pytest

from domain.engine import IllegalMove, copy_state, new_game, play
from domain.engine.rng import Rng
from domain.games.adas_dream import RULES
from tests.games.adas_dream.helpers import G


def canonical(move):
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def variants(value, siblings):
    """Small variations of a JSON value; `siblings` are other values seen at the same place."""
    out = []
    if isinstance(value, bool):
        out += [not value, int(value)]
    elif isinstance(value, int):
        out += [value - 1, value + 1, float(value), value == 1]
    elif isinstance(value, list):
        if value:
            out.append(value[:-1])
            out.append(value[1:])
        if len(value) > 1:
            out.append([value[1], value[0]] + value[2:])
        for k, item in enumerate(value):
            out += [value[:k] + [v] + value[k + 1:] for v in variants(item, [])]
        out.append(value + value[-1:])
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append({k: v for k, v in value.items() if k != key})
            out += [{**value, key: v} for v in variants(item, [])]
        out.append({**value, "extra_key": 1})
    elif value is None:
        out += [0, False, []]
    out += [s for s in siblings if s != value]
    return out


def move_variants(move, legal):
    out = [{**move, "note": "hello"}, {**move, "extra": False}, {**move, "defer_build": False},
           {**move, "area": None}]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        siblings = [m[key] for m in legal if m["type"] == move["type"] and key in m][:6]
        out += [{**move, key: v} for v in variants(value, siblings)]
    return out


def accepted_but_unlisted(state, seat, rng_no):
    legal = RULES.legal_moves(state, seat)
    listed = {canonical(m) for m in legal}
    found = []
    for move in legal[:12]:
        for variant in move_variants(move, legal):
            if canonical(variant) in listed:
                continue
            try:                    # the same in effect as a listed move (identical dice): accepted by design
                if canonical(RULES.listed_form(state, seat, variant)) in listed:
                    continue
            except Exception:
                pass
            try:
                RULES.decide(copy_state(state), seat, variant, Rng(1, rng_no))
            except IllegalMove:
                continue
            found.append(variant)
    return found


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 12), (4, 13)])
def test_varied_listed_moves_are_refused_unless_listed(players, seed):
    chooser = random.Random(seed)
    state, _ = new_game(RULES, players, {"tier1_draft": seed % 2 == 1}, seed)
    moves = 0
    while not state["over"] and moves < 400:
        seat = chooser.choice(list(RULES.decision(state).seats))
        if moves % 3 == 0:
            assert accepted_but_unlisted(state, seat, moves + 1) == [], moves
        moves += 1
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, moves)


def test_a_declinable_choice_needs_its_explicit_null_pick():
    g = G()
    g.p(0)["innov"] = 5
    g.effect({"op": "innovation", "n": 1})                               # the optional top bonus waits
    assert {"type": "choose", "option": None} in g.legal()
    err = g.rej("ENGINE-MOVE-02", type="choose")
    assert "listed" in err.detail
    err = g.rej("ENGINE-MOVE-02", type="choose", option=None, note="x")
    assert "note" in err.detail


def test_extra_keys_on_turn_moves_are_refused():
    g = G()
    g.set_flow(0)
    g.s["flow"]["agenda"] = [{"k": "phase", "name": "endopt"}]
    g.s["flow"].update(ttype="actions", area="study")
    assert {"type": "end_turn"} in g.legal()
    g.rej("ENGINE-MOVE-02", type="end_turn", defer_build=False)
    move = next(m for m in RULES.legal_moves(G().s, 0) if m["type"] == "workshop")
    g2 = G()
    g2.rej("ENGINE-MOVE-02", **{k: v for k, v in move.items() if k != "extra"})
    g2.rej("ENGINE-MOVE-02", **move, why="because")
    g2.move(**move)


@pytest.mark.rule("ENGINE-MOVE-02")
def test_the_old_pick_field_is_refused_naming_it():
    """RULINGS R-16: a client still sending the pre-issue-18 shape gets a 4xx naming the field."""
    g = G()
    g.p(0)["innov"] = 5
    g.effect({"op": "innovation", "n": 1})
    option = next(m["option"] for m in g.legal() if m["type"] == "choose")
    err = g.rej("ENGINE-MOVE-02", type="choose", pick=option)
    assert "'pick'" in err.detail and "'option'" in err.detail


def test_a_stored_pick_move_upcasts():
    """RULINGS R-16: stored moves of the old shape read as today's; others are untouched."""
    from domain.engine.rules import stored_move
    assert stored_move(RULES, {"type": "choose", "pick": [0, "row1"]}) == {"type": "choose", "option": [0, "row1"]}
    assert stored_move(RULES, {"type": "choose", "pick": None}) == {"type": "choose", "option": None}
    assert stored_move(RULES, {"type": "build", "gear": "add", "space": 0}) == {"type": "build", "gear": "add", "space": 0}
    assert stored_move(RULES, {"type": "choose", "option": 1}) == {"type": "choose", "option": 1}
