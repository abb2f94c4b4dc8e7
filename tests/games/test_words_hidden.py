"""Words never name what their reader cannot see (issue 30.3), for all four games.

Over seeded random playouts, in every position: the prompt each viewer gets (each seat, a
spectator), the decision's own prompt (shown to every caller), the labels and paths of the moves of
each seat to act, and the sentence of every move played (stored once, shown to everyone) are
searched for the names of cards that reader cannot see in its view. A name is visible when the
view holds the card's id or the name itself; a sentence may name what was visible to everyone
just before or just after its move.
"""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from domain.engine import EVERYONE, SPECTATOR, get_rules, new_game, play, presentation, visible_facts
from domain.games import load_all

load_all()

#: The hidden-able records of each game: (TOML file, array of records). Every "name", "title"
#: (and My Father's Work's Compulsion "text") inside a record is one of its names, and so are the
#: first words of a Heredity narrative (a card without a name is called by them).
HIDEABLE = {
    "abomination": [("cards.toml", a) for a in ("cadavers", "encounters", "humanity", "research", "scoundrels",
                                                 "events")],
    "my_fathers_work": [("experiments.toml", "experiment"), ("cards.toml", "compulsion"),
                        ("cards.toml", "maladjustment")],
    "adas_dream": [("partners.toml", "partner"), ("programs.toml", "program"), ("assignments.toml", "assignment"),
                   ("objectives.toml", "objective"), ("gears.toml", "breakthrough"), ("gears.toml", "multiplier")],
    "heredity": [("chapter1.toml", "item"), ("chapter1.toml", "narrative")],
}
NAME_FIELDS = {"name", "title", "text"}
SNIPPET = 4  # words of a narrative that name its card


def _names(node) -> set[str]:
    out = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in NAME_FIELDS and isinstance(value, str) and len(value) > 3:
                out.add(value)
            elif key == "narrative" and isinstance(value, str):   # Heredity names a card by its first words
                out.add(" ".join(value.split()[:SNIPPET]))
            elif isinstance(value, (dict, list)):
                out |= _names(value)
    elif isinstance(node, list):
        for item in node:
            out |= _names(item)
    return out


def hideable(game: str) -> list[tuple[str | None, set[str]]]:
    """(id or None, names) of every record that can be hidden."""
    folder = Path(__file__).resolve().parents[2] / "domain" / "games" / game / "content"
    out = []
    for file, array in HIDEABLE[game]:
        for record in tomllib.loads((folder / file).read_text()).get(array, []):
            ident = record.get("id")
            out.append((ident if isinstance(ident, str) else None, _names(record)))
    return out


def _strings(node, out: set) -> None:
    if isinstance(node, str):
        out.add(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            out.add(key)
            _strings(value, out)
    elif isinstance(node, list):
        for item in node:
            _strings(item, out)


class Oracle:
    """Which names a view hides."""

    def __init__(self, game: str) -> None:
        self.records = hideable(game)
        self.all_names = set().union(*(names for _, names in self.records))
        longest_first = sorted(self.all_names, key=len, reverse=True)
        self.pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")

    def visible(self, view) -> set[str]:
        """Names the view shows: by a record's id (a copy "start4#1" is the record "start4") or as a
        string of its own."""
        strings: set[str] = set()
        _strings(view, strings)
        strings |= {s.partition("#")[0] for s in strings if "#" in s}
        shown = self.all_names & strings
        texts = [t for t in strings if len(t) > 20]
        shown |= {n for n in self.all_names - shown if any(t.startswith(n) for t in texts)}
        for ident, names in self.records:
            if ident is not None and ident in strings:
                shown |= names
        return shown

    def leaks(self, text: str, visible: set[str]) -> list[str]:
        """The hidden names `text` holds (the longest name wins: "Swan Key" is not "Swan")."""
        return sorted({m for m in self.pattern.findall(text) if m not in visible})


#: (players, seed, moves) of the playouts of each game.
PLAYOUTS = [(2, 11, 150), (3, 12, 150), (4, 13, 100)]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["my_fathers_work", "abomination", "adas_dream", "heredity"])
def test_no_words_name_a_card_their_reader_cannot_see(game):
    rules = get_rules(game)
    oracle = Oracle(game)
    problems = []
    for players, seed, length in PLAYOUTS:
        players = max(rules.meta.min_players, min(players, rules.meta.max_players))
        chooser = random.Random(seed)
        state, _ = new_game(rules, players, {}, seed)
        viewers = [SPECTATOR, *range(players)]
        for k in range(1, length + 1):
            if rules.is_over(state):
                break
            seen = {v: oracle.visible(rules.view(state, v)) for v in viewers}
            where = f"{game} {players}p seed {seed} move {k}"
            decision = rules.decision(state)
            for name in oracle.leaks(decision.prompt, seen[SPECTATOR]):
                problems.append(f"{where}: the decision's prompt names {name!r}: {decision.prompt}")
            for viewer in viewers:
                text = presentation.prompt(rules, state, (), viewer)
                for name in oracle.leaks(text, seen[viewer]):
                    problems.append(f"{where}: {viewer}'s prompt names {name!r}: {text}")
            for seat in decision.seats:
                moves = rules.legal_moves(state, seat)
                labels = presentation.labels(rules, state, seat, moves)
                paths = presentation.paths(rules, state, seat, moves, labels=labels)
                for text in labels + [" / ".join(p) for p in paths]:
                    for name in oracle.leaks(text, seen[seat]):
                        problems.append(f"{where}: a move of seat {seat} names {name!r}: {text}")
            seat = chooser.choice(list(decision.seats))
            move = chooser.choice(rules.legal_moves(state, seat))
            after, facts = play(rules, state, seat, move, seed, k)
            sentence = rules.describe(state, seat, move, facts)
            public = seen[SPECTATOR] | oracle.visible([rules.view(after, SPECTATOR), visible_facts(facts, SPECTATOR)])
            for name in oracle.leaks(sentence, public):
                problems.append(f"{where}: the sentence names {name!r}: {sentence}")
            state = after
    assert not problems, f"{len(problems)} texts name hidden cards, e.g.:\n" + "\n".join(problems[:12])


def test_the_oracle_sees_a_hidden_name():
    """The check can fail: a view without the card hides its name, a view with its id shows it."""
    oracle = Oracle("abomination")
    ident, names = next((i, n) for i, n in oracle.records if i)
    name = sorted(names)[0]
    assert oracle.leaks(f"choose a cadaver ({name})", oracle.visible({"x": []})) == [name]
    assert oracle.leaks(f"choose a cadaver ({name})", oracle.visible({"x": [ident]})) == []
    assert EVERYONE
