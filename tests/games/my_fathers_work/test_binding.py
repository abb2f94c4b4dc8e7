"""Issue 16.4: My Father's Work's legal-move list is binding: an unlisted key names its rule.

That `decide` accepts only listed moves over random playouts is tested for every game in
tests/engine/test_binding.py."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, new_game, play
from domain.games.my_fathers_work import RULES


@pytest.mark.rule("MFW-ROUND-06")
def test_an_extra_key_is_refused():
    state, _ = new_game(RULES, 2, {}, 3)
    seat = RULES.decision(state).seats[0]
    move = RULES.legal_moves(state, seat)[0]
    with pytest.raises(IllegalMove) as err:
        play(RULES, state, seat, dict(move, note="kept forever"), 3, 1)
    assert err.value.rule_id == "MFW-ROUND-06" and "note" in err.value.detail


def _two_servants_in_one_place():
    """A position where a Servant must be lost and both Servants stand in the same place (random
    playouts; seed 7 reaches one at move 119)."""
    import random
    for seed in (7, 1, 2, 3, 4, 5, 6, 8):
        chooser, players = random.Random(seed), [2, 3, 4][seed % 3]
        state, _ = new_game(RULES, players, {}, seed)
        for k in range(1, 400):
            pend = state["pending"]
            if RULES.is_over(state):
                break
            if pend and pend.get("kind") == "lose_piece" and {"servant1", "servant2"} <= set(pend["options"]):
                where = state["players"][pend["seat"]]["pieces"]
                if where["servant1"] == where["servant2"]:
                    return state, pend["seat"], seed, k
            seat = chooser.choice(list(RULES.decision(state).seats))
            state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, k)
    raise AssertionError("no position with two Servants in one place to lose")


@pytest.mark.rule("MFW-INSANITY-06")
def test_two_servants_in_one_place_are_listed_once_and_both_accepted():
    """RULINGS "Two Servants in one place": losing either is the same loss, so one button; the other
    answer (played by stored games and records) is still accepted, with the same facts but the name."""
    state, seat, seed, k = _two_servants_in_one_place()
    listed = RULES.legal_moves(state, seat)
    options = [m["option"] for m in listed]
    assert "servant1" in options and "servant2" not in options
    labels = [RULES.label(state, seat, m) for m in listed]
    assert len(set(labels)) == len(labels), labels
    _, first = play(RULES, state, seat, {"type": "choose", "option": "servant1"}, seed, k)
    _, second = play(RULES, state, seat, {"type": "choose", "option": "servant2"}, seed, k)
    assert [f["type"] for f in first] == [f["type"] for f in second]
    assert str(first).replace("servant1", "servant2") == str(second)
    with pytest.raises(IllegalMove):
        play(RULES, state, seat, {"type": "choose", "option": "caretaker1"}, seed, k)
