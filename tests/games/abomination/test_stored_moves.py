"""Moves of earlier releases read in today's shape (`upcast_move`, domain/engine/rules.py `stored_move`):
record import re-decides them (RULINGS "Choice moves take the template's shape", ABOM-BUILD-05)."""

from __future__ import annotations

import pytest

from domain.engine.rules import stored_move
from domain.games.abomination import RULES
from domain.games.abomination.moves import canonical_pay


@pytest.mark.parametrize("old, today", [
    ({"type": "entry_choice", "choice": 1}, {"type": "choose", "option": 1}),
    ({"type": "choose_target", "target": 2}, {"type": "choose", "option": 2}),
    ({"type": "choose_reader", "reader": 0}, {"type": "choose", "option": 0}),
    ({"type": "meeple", "zone": "space:cemetery.gate"}, {"type": "choose", "option": "space:cemetery.gate"}),
    ({"type": "discard", "material": "blood"}, {"type": "choose", "option": "blood"}),
    ({"type": "announce"}, {"type": "choose", "option": "announce"}),
    ({"type": "not_announce"}, {"type": "choose", "option": "keep quiet"}),
])
def test_an_old_choice_answer_reads_as_a_choose_move(old, today):
    assert stored_move(RULES, old) == today


def test_other_moves_and_odd_shapes_are_left_as_they_are():
    for move in ({"type": "choose", "option": 1}, {"type": "meeple", "zone": "x", "extra": 1},
                 {"type": "draw", "card": "c", "discard": "d"}, {"type": "done"}, "not a move"):
        assert stored_move(RULES, move) == move


@pytest.mark.rule("ABOM-BUILD-05")
def test_a_stored_payment_reads_in_the_listed_order():
    pay = [{"as": "muscle", "use": "animal", "stage": "II"}, {"as": "muscle", "use": "muscle", "stage": "III"}]
    move = {"type": "build", "part": "torso", "side": "skin", "pay": pay, "target": 1}
    upcast = stored_move(RULES, move)
    assert upcast["pay"] == canonical_pay(pay) == list(reversed(pay))
    assert {k: v for k, v in upcast.items() if k != "pay"} == {k: v for k, v in move.items() if k != "pay"}
