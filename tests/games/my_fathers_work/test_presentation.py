"""Issue 12: pictures, labels, prompts and sentences over seeded playouts, for every player count.

Every step is drawn for every viewer (spectator, each seat, everyone) and parsed as XML; a
spectator's picture holds no name of a card it cannot see; every listed move has a label and
every decision a prompt, none with an internal id; the last sentence names the winners.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import orjson
import pytest

from domain.engine import EVERYONE, SPECTATOR, new_game, play
from domain.games.my_fathers_work import RULES
from domain.games.my_fathers_work import content as C

NAMES = ["Annette", "Bruno", "Clara", "Dmitri"]
#: What an internal id looks like: exp-a-01, loc-commons, upg-g12-01a, snake_case, a dict or list.
INTERNAL = re.compile(r"\b(exp|loc|upg|tok|ev|fx|scn|comp|mal)-[a-z0-9-]+\b|\w_\w|[{}\[\]]")


def _texts(svg: str) -> str:
    return " ".join(t for t in ET.fromstring(svg).itertext())


def _hidden_names(state, shown_view) -> set[str]:
    """Titles of Experiments (and texts of Compulsions) the state holds but the view does not show."""
    blob = orjson.dumps(shown_view).decode()
    everything = orjson.dumps(state).decode()
    titles = {C.EXPERIMENTS[c]["title"] for c in C.EXPERIMENTS if f'"{c}"' not in blob and f'"{c}"' in everything}
    shown = {C.EXPERIMENTS[c]["title"] for c in C.EXPERIMENTS if f'"{c}"' in blob}
    comps = {C.COMPULSIONS[c]["text"] for c in C.COMPULSIONS if f'"{c}"' not in blob and f'"{c}"' in everything}
    return (titles - shown) | comps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_step_drawn_for_every_viewer_and_words_for_every_move(players):
    rnd = random.Random(players)
    state, _ = new_game(RULES, players, {"choose_masterwork": players == 3}, players)
    names = NAMES[:players]
    viewers = [SPECTATOR, EVERYONE] + list(range(players))
    k, sentence = 0, ""
    while not RULES.is_over(state):
        decision = RULES.decision(state)
        ask = RULES.prompt(state)
        assert ask and not INTERNAL.search(ask), ask
        for viewer in viewers if k % 3 == 0 else [SPECTATOR, decision.seats[0]]:
            view = RULES.view(state, viewer)
            svg = RULES.picture(view, viewer, names)
            assert len(svg.encode()) <= 150_000
            text = _texts(svg)
            if viewer == SPECTATOR:
                leaked = [n for n in _hidden_names(state, view) if n in text]
                assert not leaked, f"spectator picture shows hidden cards {leaked} at step {k}"
        seat = rnd.choice(list(decision.seats))
        moves = RULES.legal_moves(state, seat)
        for move in moves:
            words = RULES.label(state, seat, move)
            assert words and not INTERNAL.search(words), (move, words)
        move = rnd.choice(moves)
        k += 1
        after, facts = play(RULES, state, seat, move, players, k)
        sentence = RULES.describe(state, seat, move, facts)
        assert not INTERNAL.search(sentence.replace("Seat ", "")), sentence
        assert not re.search(r"\b1 (cards|Servants|VP points)\b|\ba [AEIOUaeiou]|\(s\)", sentence), sentence
        state = after
    winners = RULES.winners(state)
    assert "Final scores:" in sentence and all(f"Seat {w}" in sentence.split("Final scores:")[1] for w in winners)
    assert ("wins" if len(winners) == 1 else "share the win") in sentence
