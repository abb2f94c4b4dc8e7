"""The glossary and the move tree of every game (issue 24 items 2 and 3, API.md "Move tree", "Glossary").

- The content validator: every content record (card, tile, space, location, character, token) has a
  glossary entry, and no entry's words hold an id or a field name of the content.
- Over a few short random playouts of each game: in every position, for the seat(s) to act, labels are
  unique, paths are unique and none is the beginning of another (a step is a move or a group, never
  both), the first level has at most 12 distinct steps and no level more than 40, every path has 1 to 5
  steps in plain words, and every target is a glossary key or a seat.

`DONE` says which games' words.py answer these themselves; the others are checked through the
generic fallback of domain/engine/presentation.py (which guarantees the shape, not good words).
"""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from domain.engine import game_types, get_rules, new_game, play, presentation
from domain.games import load_all

load_all()
GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]
#: Games whose words.py gives its own glossary, paths and targets (the others: the fallback).
DONE: set[str] = {"abomination", "adas_dream", "my_fathers_work", "heredity"}
#: Games whose words.py gives its own glossary (the move tree may still be the fallback's).
GLOSSARY_DONE: set[str] = DONE | {"adas_dream", "heredity"}
KINDS = {"card", "tile", "space", "location", "character", "token"}

#: Where each game's content records live: (TOML file, dotted array path, key prefix of their entries).
#: A record's key is "<prefix>:<id>" ("<prefix><id>" for a prefix ending in a dot); records nested in a record (a location's spaces) are listed
#: by the path of the nested array.
RECORDS: dict[str, list[tuple[str, str, str]]] = {
    "my_fathers_work": [
        ("experiments.toml", "experiment", "card"), ("cards.toml", "compulsion", "card"),
        ("cards.toml", "maladjustment", "card"), ("town.toml", "location", "location"),
        ("upgrades.toml", "upgrade", "tile"), ("upgrades.toml", "vanity", "tile"),
        ("scenario_lantern.toml", "scenario.token", "token"),
    ],
    "abomination": [
        ("board.toml", "locations", "location"), ("board.toml", "locations.spaces", "space"),
        ("board.toml", "lab.spaces", "space:lab."),
        ("board.toml", "objectives", "card"),
        ("cards.toml", "cadavers", "card"), ("cards.toml", "characters", "pc"), ("cards.toml", "encounters", "card"),
        ("cards.toml", "humanity", "card"), ("cards.toml", "research", "card"), ("cards.toml", "scoundrels", "card"),
        ("cards.toml", "events", "card"),
    ],
    "adas_dream": [
        ("partners.toml", "partner", "card"), ("assignments.toml", "assignment", "card"),
        ("programs.toml", "program", "card"), ("objectives.toml", "objective", "card"),
        ("universities.toml", "tile", "tile"), ("gears.toml", "multiplier", "tile"),
        ("gears.toml", "breakthrough", "token"), ("map.toml", "city", "location"),
        ("institutions.toml", "institution", "location"),
    ],
    "heredity": [            # numbered cards: the key is "card:<number>"
        ("chapter1.toml", "pc", "pc"), ("chapter1.toml", "pc_card", "card"), ("chapter1.toml", "aid", "card"),
        ("chapter1.toml", "terrain", "card"), ("chapter1.toml", "narrative", "card"),
        ("chapter1.toml", "item", "card"), ("chapter1.toml", "karma", "card"),
    ],
}


def content_dir(game: str) -> Path:
    return Path(__file__).resolve().parents[2] / "domain" / "games" / game / "content"


def _records(node, path: list[str]):
    if isinstance(node, list):
        for item in node:
            yield from _records(item, path)
    elif isinstance(node, dict):
        if not path:
            yield node
        elif path[0] in node:
            yield from _records(node[path[0]], path[1:])


def content_records(game: str) -> list[tuple[str, str]]:
    """(key, where) of every content record named in RECORDS."""
    out = []
    for file, dotted, prefix in RECORDS.get(game, []):
        data = tomllib.loads((content_dir(game) / file).read_text())
        for record in _records(data, dotted.split(".")):
            ident = record["id"] if "id" in record else record["number"]
            out.append((f"{prefix}{ident}" if prefix.endswith(".") else f"{prefix}:{ident}", f"{file} {dotted}"))
    return out


def _walk(node, ids: set, fields: set) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            fields.add(key)
            if key == "id" and isinstance(value, str):
                ids.add(value)
            _walk(value, ids, fields)
    elif isinstance(node, list):
        for item in node:
            _walk(item, ids, fields)


def content_words(game: str) -> tuple[set[str], set[str]]:
    """The game's content ids and field names that could not be plain words (a plain lowercase
    word, like an id "docks", cannot be told from the word)."""
    ids, fields = set(), set()
    for file in content_dir(game).glob("*.toml"):
        _walk(tomllib.loads(file.read_text()), ids, fields)
    plain = re.compile(r"[a-z]+|[IVX]+|[A-Z]")  # a lowercase word, a stage in Roman numerals, a level letter
    return {i for i in ids if not plain.fullmatch(i)}, {f for f in fields if not plain.fullmatch(f) and not f.isdigit()}


NOT_PLAIN = re.compile(r"[_{}\[\]<>]|\b[a-z]+[A-Z]\w*\b")


def plain_words(text: str, ids: set[str], fields: set[str]) -> list[str]:
    """What in `text` is not plain words: ids, field names, snake_case, camelCase, braces."""
    bad = [m.group(0) for m in NOT_PLAIN.finditer(text)]
    tokens = set(re.findall(r"[\w.-]+", text))
    bad += sorted(tokens & (ids | fields))
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_glossary_entries_are_well_formed_plain_words(game):
    entries = presentation.glossary(get_rules(game))
    if game not in GLOSSARY_DONE:
        assert isinstance(entries, list)
        return
    assert entries, f"{game}: empty glossary"
    keys = Counter(e["key"] for e in entries)
    assert not [k for k, n in keys.items() if n > 1], "glossary keys repeat"
    ids, fields = content_words(game)
    for entry in entries:
        assert set(entry) == {"key", "kind", "name", "text"}, entry
        assert entry["kind"] in KINDS, entry
        assert re.fullmatch(r"[a-z]+:[\w.-]+", entry["key"]), entry
        assert entry["name"].strip() and entry["text"].strip(), entry
        for field in ("name", "text"):
            bad = plain_words(entry[field], ids, fields)
            assert not bad, f"{entry['key']} {field}: {bad} in {entry[field]!r}"


@pytest.mark.parametrize("game", sorted(GLOSSARY_DONE & set(RECORDS)) or [pytest.param("none", marks=pytest.mark.skip(
    reason="no game's words are done yet"))])
def test_every_content_record_has_a_glossary_entry(game):
    keys = {e["key"] for e in presentation.glossary(get_rules(game))}
    missing = [(key, where) for key, where in content_records(game) if key not in keys]
    assert not missing, f"{game}: records without a glossary entry: {missing[:10]}"


# ----------------------------------------------------------------------------- the move tree over playouts

def tree_problems(paths: list[list[str]]) -> list[str]:
    """What in `paths` breaks API.md "Move tree" (empty when nothing does)."""
    problems = []
    whole = Counter(tuple(p) for p in paths)
    problems += [f"two moves share the path {list(p)}" for p, n in whole.items() if n > 1]
    prefixes = {tuple(p[:k]) for p in paths for k in range(1, len(p))}
    problems += [f"the path {list(p)} is also a group" for p in whole if p in prefixes]
    problems += [f"a path of {len(p)} steps: {p}" for p in paths if not 1 <= len(p) <= presentation.PATH_MAX]
    children: dict[tuple, set] = defaultdict(set)
    for p in paths:
        for k in range(len(p)):
            children[tuple(p[:k])].add(p[k])
    if len(children[()]) > presentation.FIRST_LEVEL_MAX:
        problems.append(f"{len(children[()])} first steps: {sorted(children[()])}")
    problems += [f"{len(c)} steps under {list(parent)}" for parent, c in children.items()
                 if len(c) > presentation.LEVEL_MAX]
    return problems


#: (players, seed, moves) of the playouts per game: short, so the whole file stays a few seconds.
PLAYOUTS = [(2, 1, 60), (3, 2, 60), (2, 3, 120)]


def positions(game: str, playouts=None):
    """(state, seat, moves) of every decision of a few seeded random playouts."""
    rules = get_rules(game)
    for players, seed, length in PLAYOUTS if playouts is None else playouts:
        players = max(rules.meta.min_players, min(players, rules.meta.max_players))
        chooser = random.Random(seed)
        state, _ = new_game(rules, players, {}, seed)
        for k in range(1, length + 1):
            if rules.is_over(state):
                break
            decision = rules.decision(state)
            for seat in decision.seats:
                yield state, seat, rules.legal_moves(state, seat)
            seat = chooser.choice(list(decision.seats))
            state, _ = play(rules, state, seat, chooser.choice(rules.legal_moves(state, seat)), seed, k)


@pytest.mark.parametrize("game", GAMES)
def test_the_move_tree_of_every_position(game):
    rules = get_rules(game)
    ids, fields = content_words(game)
    keys = {e["key"] for e in presentation.glossary(rules)}
    done = game in DONE
    for state, seat, moves in positions(game):
        labels = [rules.label(state, seat, m) for m in moves]
        paths = presentation.paths(rules, state, seat, moves, labels=labels)
        targets = presentation.targets(rules, state, seat, moves)
        assert len(paths) == len(targets) == len(moves)
        assert not tree_problems(paths), tree_problems(paths)
        if not done:
            continue
        own = rules.paths(state, seat, moves)
        assert presentation.distinct_paths(own) == own, "the game's paths needed numbering to tell moves apart"
        assert not tree_problems(own), tree_problems(own)
        repeated = [label for label, n in Counter(labels).items() if n > 1]
        assert not repeated, f"labels shared by several moves: {repeated}"
        for path in own:
            for step in path:
                assert step.strip() and not plain_words(step, ids, fields), (step, path)
        for move_keys in targets:
            assert all(k in keys or re.fullmatch(r"seat:\d+", k) for k in move_keys), move_keys


def test_a_step_with_one_step_under_it_is_joined_with_it():
    paths = [["Go to the Town", "Cattle Fair", "Your Self"], ["Go to the Town", "Fair", "Your Self"],
             ["Go to the Town", "Fair", "A Servant"], ["Pass"]]
    assert presentation.compact_paths(paths) == [
        ["Go to the Town", "Cattle Fair: Your Self"], ["Go to the Town", "Fair", "Your Self"],
        ["Go to the Town", "Fair", "A Servant"], ["Pass"]]
    assert presentation.compact_paths([["Build", "Head", "On your head", "Bone"], ["Build", "Head", "On your head", "Ox"]]) \
        == [["Build: Head: On your head", "Bone"], ["Build: Head: On your head", "Ox"]]


def test_the_fallback_tree_keeps_the_limits():
    moves = [{"type": "attack", "n": i} for i in range(618)] + [{"type": f"kind_{i}"} for i in range(20)]
    labels = [f"Attack {i}" for i in range(618)] + [f"Kind {i}" for i in range(20)]
    labels[5] = labels[6]
    paths = presentation.distinct_paths(presentation.fallback_paths(moves, labels))
    assert not tree_problems(paths), tree_problems(paths)


@pytest.mark.parametrize("game", GAMES)
def test_the_pictures_name_board_elements_by_glossary_keys(game):
    """API.md "Glossary": every `data-detail` of a board picture is a glossary key (its words exist),
    and every `data-target` a glossary key or a seat, so the page's detail popup and the composer's
    board clicks find what the move tree names. (A game whose picture carries no keys yet passes.)"""
    rules = get_rules(game)
    keys = {e["key"] for e in presentation.glossary(rules)}
    names = ["Ann", "Bo", "Cy", "Di"]
    for state, seat, _ in positions(game, PLAYOUTS[:1]):
        svg = rules.picture(rules.view(state, seat), seat, names)
        details = set(re.findall(r'data-detail="([^"]+)"', svg))
        drawn = set(re.findall(r'data-target="([^"]+)"', svg))
        assert details <= keys, f"data-detail without a glossary entry: {sorted(details - keys)[:5]}"
        assert all(k in keys or re.fullmatch(r"seat:\d+", k) for k in drawn), sorted(drawn - keys)[:5]
