"""Issue 12: pictures, labels, prompts and sentences over seeded playouts, for every registered game
and every player count.

Every step is drawn for every viewer (spectator, each seat, everyone; every third step, else the
spectator and the decider) and parsed as XML, within 150 kB; a spectator's picture holds no name of a
card it cannot see; every listed move has a label and every decision a prompt, none with an internal
id; no sentence has an internal id or a grammar slip; the last sentence of a competitive game names
the final scores and the winners. What an internal id, a hidden name and a slip look like is said
per game in WORDS (a game not listed there gets the generic checks).
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

import orjson
import pytest

from domain.engine import EVERYONE, SPECTATOR, game_types, new_game, play
from domain.games import load_all

load_all()
NAMES = ["Annette", "Bruno", "Clara", "Dmitri", "Edda", "Fritz"]
MAX_STEPS = 600


def _abomination_hidden(state, shown_view) -> set[str]:
    from domain.games.abomination.content import C
    blob, everything = orjson.dumps(shown_view).decode(), orjson.dumps(state).decode()
    return {C.cards[c]["name"] for c in C.cards if "name" in C.cards[c] and c not in blob and c in everything}


def _my_fathers_work_hidden(state, shown_view) -> set[str]:
    """Titles of Experiments (and texts of Compulsions) the state holds but the view does not show."""
    from domain.games.my_fathers_work import content as C
    blob, everything = orjson.dumps(shown_view).decode(), orjson.dumps(state).decode()
    titles = {C.EXPERIMENTS[c]["title"] for c in C.EXPERIMENTS if f'"{c}"' not in blob and f'"{c}"' in everything}
    shown = {C.EXPERIMENTS[c]["title"] for c in C.EXPERIMENTS if f'"{c}"' in blob}
    comps = {C.COMPULSIONS[c]["text"] for c in C.COMPULSIONS if f'"{c}"' not in blob and f'"{c}"' in everything}
    return (titles - shown) | comps


@dataclass(frozen=True)
class Words:
    internal: re.Pattern  # what an internal id looks like in words
    slip: re.Pattern | None = None  # a grammar slip in a sentence
    hidden: Callable[[dict, dict], set[str]] | None = None  # names the spectator must not be shown
    options: Callable[[int], dict] = lambda players: {}


GENERIC = Words(re.compile(r"\w_\w|[{}\[\]]"))
WORDS = {
    # a card id (hu-03), a space id (market.stall), camelCase, snake_case, a dict
    "abomination": Words(re.compile(r"\b[a-z]{2}-\d{2}\b|\b[a-z]+\.[a-z]+\b|\b[a-z]+[A-Z][a-zA-Z]*\b|\w_\w|[{}\[\]]"),
                         re.compile(r"\b1 (francs|jars|dice|cards)\b|\ba [aeiou]"), _abomination_hidden),
    # exp-a-01, loc-commons, upg-g12-01a, snake_case, a dict or list
    "my_fathers_work": Words(re.compile(r"\b(exp|loc|upg|tok|ev|fx|scn|comp|mal)-[a-z0-9-]+\b|\w_\w|[{}\[\]]"),
                             re.compile(r"\b1 (cards|Servants|VP points)\b|\ba [AEIOUaeiou]|\(s\)"),
                             _my_fathers_work_hidden, lambda players: {"choose_masterwork": players == 3}),
}
GAMES = sorted(rules.meta.name for rules in game_types() if type(rules).__module__.startswith("domain.games."))
CASES = [pytest.param(name, players, id=f"{name}-{players}", marks=[pytest.mark.slow] if players >= 4 else [])
         for name in GAMES for rules in [next(r for r in game_types() if r.meta.name == name)]
         for players in range(rules.meta.min_players, rules.meta.max_players + 1)]  # 4 players: ~5 s and more


def _texts(svg: str) -> str:
    return " ".join(t for t in ET.fromstring(svg).itertext())


@pytest.mark.parametrize("name,players", CASES)
def test_every_step_drawn_for_every_viewer_and_words_for_every_move(name, players):
    rules = next(r for r in game_types() if r.meta.name == name)
    words = WORDS.get(name, GENERIC)
    rnd = random.Random(players)
    state, _ = new_game(rules, players, words.options(players), players)
    names = NAMES[:players]
    viewers = [SPECTATOR, EVERYONE] + list(range(players))
    k, sentence = 0, ""
    while not rules.is_over(state) and k < MAX_STEPS:
        decision = rules.decision(state)
        ask = rules.prompt(state)
        assert ask and not words.internal.search(ask), ask
        for viewer in viewers if k % 3 == 0 else [SPECTATOR, decision.seats[0]]:
            view = rules.view(state, viewer)
            svg = rules.picture(view, viewer, names)
            assert len(svg.encode()) <= 150_000
            text = _texts(svg)
            if viewer == SPECTATOR and words.hidden is not None:
                leaked = [n for n in words.hidden(state, view) if n in text]
                assert not leaked, f"spectator picture shows hidden cards {leaked} at step {k}"
        seat = rnd.choice(list(decision.seats))
        moves = rules.legal_moves(state, seat)
        for move in moves:
            label = rules.label(state, seat, move)
            assert label and not words.internal.search(label), (move, label)
        move = rnd.choice(moves)
        k += 1
        after, facts = play(rules, state, seat, move, players, k)
        sentence = rules.describe(state, seat, move, facts)
        assert not words.internal.search(sentence.replace("Seat ", "")), sentence
        assert words.slip is None or not words.slip.search(sentence), sentence
        state = after
    assert rules.is_over(state), f"{name}: no end within {MAX_STEPS} steps"
    if not rules.meta.cooperative:
        winners = rules.winners(state)
        assert "Final scores:" in sentence and all(f"Seat {w}" in sentence.split("Final scores:")[1] for w in winners)
        assert ("wins" if len(winners) == 1 else "share the win") in sentence
