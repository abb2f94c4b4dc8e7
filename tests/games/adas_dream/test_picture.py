"""Issue 12: the board picture. Over seeded playouts for every player count, every step is drawn for every
viewer (spectator, each seat, everyone) from that viewer's view alone and parsed as XML; a spectator's (or
an opponent's) picture names no card of a hand nor any deck; the size stays small (drawing time: ops/bench is the place, see the report)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from domain.engine import EVERYONE, SPECTATOR, new_game, play
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C

NAMES = ["Ada", "Charles", "Mary", "Michael"]


def texts(svg: str) -> str:
    return " ".join(ET.fromstring(svg).itertext())


def unseen_card_names(state, viewer) -> set[str]:
    """Names of Partner cards the viewer cannot see where they are (others' hands, every deck, the stacks),
    unless the same card name is also visible somewhere public (a display, a discard pile)."""
    hidden, public = set(), set()
    for seat, p in enumerate(state["players"]):
        hidden |= {C.partner(c)["name"] for c in p["deck"]}
        if viewer != seat:
            hidden |= {C.partner(c)["name"] for c in p["hand"]}
        else:
            public |= {C.partner(c)["name"] for c in p["hand"]}
        public |= {C.partner(c)["name"] for c in p["discard"]}
    hidden |= {C.partner(c)["name"] for c in state["stacks"]["meet"]}
    public |= {C.partner(c)["name"] for c in state["displays"]["meet"] if c}
    return hidden - public


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_every_step_drawn_for_every_viewer(players, seed):
    rnd = random.Random(seed)
    state, _ = new_game(RULES, players, {"tier1_draft": players == 3}, seed)
    viewers = [SPECTATOR, EVERYONE] + list(range(players))
    k = 0
    while True:
        for viewer in viewers if k % 8 == 0 or state["over"] else [SPECTATOR]:
            svg = RULES.picture(RULES.view(state, viewer), viewer, NAMES[:players])
            assert len(svg.encode()) <= 150_000
            words = texts(svg)
            if viewer != EVERYONE and not state["over"]:
                leaked = [n for n in unseen_card_names(state, viewer) if n in words]
                assert not leaked, (k, viewer, leaked)
        if state["over"]:
            break
        seat = rnd.choice(list(RULES.decision(state).seats))
        k += 1
        state, _ = play(RULES, state, seat, rnd.choice(RULES.legal_moves(state, seat)), seed, k)
    assert "The game is over" in texts(RULES.picture(RULES.view(state, SPECTATOR), SPECTATOR, NAMES[:players]))


def test_own_hand_shown_by_name_others_as_a_count():
    state, _ = new_game(RULES, 3, {}, 4)
    mine = texts(RULES.picture(RULES.view(state, 0), 0, NAMES[:3]))
    assert all(C.partner(c)["name"] in mine for c in state["players"][0]["hand"])
    assert "Ada (you)" in mine and "4 cards in hand" in mine          # seats 1 and 2 shown as backs
    spectator = texts(RULES.picture(RULES.view(state, SPECTATOR), SPECTATOR, NAMES[:3]))
    assert "(you)" not in spectator and spectator.count("4 cards in hand") == 3
