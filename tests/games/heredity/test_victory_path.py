"""A deliberate path through the sample chapter to victory, using only listed legal moves."""

import pytest

from domain.engine import copy_state, fold, new_game
from domain.games.heredity import RULES

from .helpers import play

PATH = [
    {"type": "watch", "pc": "maeve", "slot": "1.a", "marker": "101/front/4"},
    {"type": "pickup", "pc": "djamal", "slot": "8.c", "materials": 2, "items": []},
    {"type": "move", "pc": "djamal", "path": ["101:o3"], "slots": ["9.e"]},
    {"type": "explore", "pc": "djamal", "slot": "9.f", "marker": "101/front/7"},
    {"type": "end_window"},
    {"type": "move", "pc": "djamal", "path": ["102:b2"], "slots": ["9.e"]},
    {"type": "speak", "pc": "djamal", "slot": "7.a", "marker": "102/front/0"},
    {"type": "card_action", "pc": "djamal", "slot": "8.c", "card": 130, "action": 0},
    {"type": "end_window"},
    {"type": "move", "pc": "djamal", "path": ["102:b3"], "slots": ["9.e"]},
    {"type": "explore", "pc": "djamal", "slot": "9.f", "marker": "102/front/1"},
    {"type": "end_window"},
    {"type": "move", "pc": "djamal", "path": ["103:h2"], "slots": ["9.e"]},
    {"type": "interact", "pc": "djamal", "slot": "8.c", "marker": "103/front/1"},
]


def answer(state):
    p = state["pending"]
    last = len(p["options"]) - 1
    return {"type": "choose", "option": last if p["kind"] in ("ally_target", "ally_join") else 0}


@pytest.mark.rule("HER-GEN-06")
def test_the_chapter_can_be_won():
    state, log = new_game(RULES, 1, {}, 1)
    initial = RULES.initial_state(1, {})
    sentences = []
    for move in PATH:
        while state["pending"] is not None:
            m = answer(state)
            before = state
            state, facts = play(state, m)
            log += facts
            sentences.append(RULES.describe(before, 0, m, facts))
        assert move in RULES.legal_moves(state, 0)
        before = state
        state, facts = play(state, move)
        log += facts
        sentences.append(RULES.describe(before, 0, move, facts))
    assert state["over"] == "victory" and RULES.winners(state) == [0] and RULES.scores(state) == {0: 100}
    assert RULES.is_over(state) and RULES.legal_moves(state, 0) == []
    assert fold(RULES.evolve, copy_state(initial), log) == state
    assert all(isinstance(s, str) and s.endswith(".") for s in sentences)
    assert "Djamal speaks" in " ".join(sentences) and "the chapter is won" in sentences[-1]
    assert sentences[-1].endswith("Final scores: Seat 0 100.")
    assert RULES.view(state, "all")["campaign"]["inventories"]["djamal"]["items"][0]["card"] == 142
