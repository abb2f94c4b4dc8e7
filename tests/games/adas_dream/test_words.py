"""Issue 12: a label for every listed move, a prompt for every decision and a sentence for every played move,
in content names (no internal id), over seeded playouts for every player count; the last move names the
final scores and the winner; a public prompt never names a card of a hand."""

from __future__ import annotations

import random
import re

import pytest

from domain.engine import play
from domain.engine import new_game
from domain.games.adas_dream import RULES

#: What an internal id looks like: t1_02, start3#0, prog14, asg02, mult01, inst_lamps, camelCase, a list or a dict.
INTERNAL = re.compile(r"\w_\w|#\d|\b(prog|asg|mult|start)\d+|\b[a-z]+[A-Z]\w*|[{}\[\]]|\b(row|col)\d|"
                      r"\b(None|True|False)\b")
BAD_GRAMMAR = re.compile(r"\b1 (cards|Books|discs|Partner cards)\b|\ba [aeioAEIO]|"
                         r"\ban [b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]|\(s\)|\s[,.]|\.\.")


def hand_names(state):
    from domain.games.adas_dream import content as C
    return {C.partner(c)["name"] for p in state["players"] for c in p["hand"]}


@pytest.mark.parametrize("players, seed, options", [(2, 1, {}), (3, 2, {"tier1_draft": True}),
                                                    (4, 3, {"mode": "randomised"}), (2, 16, {}), (2, 0, {}),
                                                    (3, 7, {}), (4, 8, {}), (2, 9, {"tier1_draft": True})])
def test_labels_prompts_and_sentences_name_content(players, seed, options):
    rnd = random.Random(seed)
    state, _ = new_game(RULES, players, options, seed)
    k, sentence = 0, ""
    while not RULES.is_over(state):
        ask = RULES.prompt(state)
        assert ask and not INTERNAL.search(ask) and not BAD_GRAMMAR.search(ask), ask
        top = state["flow"]["agenda"][-1] if state["flow"]["agenda"] else None
        if top is not None and "from" in top:           # a choice among a hand's cards: the prompt names none
            from domain.games.adas_dream import content as C
            mine = {C.partner(c)["name"] for c in state["players"][top["s"]]["hand"]}
            assert not [n for n in mine if n in ask], ask
        seat = rnd.choice(list(RULES.decision(state).seats))
        assert f"Seat {seat}" in ask or state.get("draft") is None and f"Seat {state['flow']['seat']}" in ask
        moves = RULES.legal_moves(state, seat)
        for move in moves:
            words = RULES.label(state, seat, move)
            assert words and not INTERNAL.search(words) and not BAD_GRAMMAR.search(words), (move, words)
        move = rnd.choice(moves)
        k += 1
        after, facts = play(RULES, state, seat, move, seed, k)
        sentence = RULES.describe(state, seat, move, facts)
        assert sentence.startswith(f"Seat {seat} ")
        assert not INTERNAL.search(sentence) and not BAD_GRAMMAR.search(sentence), sentence
        state = after
    winners = RULES.winners(state)
    assert "Final scores:" in sentence and f"Seat {winners[0]} wins." in sentence
    for seat, total in RULES.scores(state).items():
        assert f"Seat {seat} {total}" in sentence.split("Final scores:")[1]
    assert RULES.prompt(state) == "The game is over."
