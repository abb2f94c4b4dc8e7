"""Words and pictures for any game: the one place the service asks a game for them.

Games implement `label`, `prompt` and `picture` (see `Rules`); a game that does not yet
gets a readable fallback here, so every endpoint and page works for every registered game.
All words use the "Seat N" convention; `name_seats` writes in the players' names.
"""

from __future__ import annotations

import inspect

from typing import Any, Sequence

from .facts import EVERYONE, Move, Viewer
from .svg import Svg, seat_colour
from .text import name_seats

_IDENTIFIER_KEYS = ("type",)


def _fallback_label(move: Move) -> str:
    kind = str(move.get("type", "move")).replace("_", " ")
    details = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in move.items() if k not in _IDENTIFIER_KEYS)
    return f"{kind[:1].upper()}{kind[1:]}" + (f" ({details})" if details else "")


def labels(rules: Any, state: dict, seat: int, moves: Sequence[Move], names: Sequence[str] = ()) -> list[str]:
    """One plain sentence per listed move, same order and length as `moves`."""
    label = getattr(rules, "label", None)
    words = [label(state, seat, m) if label else _fallback_label(m) for m in moves]
    return [name_seats(str(w), names) for w in words]


def prompt(rules: Any, state: dict, names: Sequence[str] = (), viewer: Viewer = EVERYONE) -> str:
    """What is being decided now, in plain words, for whom, as `viewer` may know it: a game's
    prompt is drawn from `view(state, viewer)` alone, like its picture, so it never names what
    that viewer cannot see (issue 30.3)."""
    ask = getattr(rules, "prompt", None)
    if ask is not None:
        text = ask(rules.view(state, viewer))
    else:
        decision = rules.decision(state)
        who = ", ".join(f"Seat {s}" for s in decision.seats)
        text = f"{who}: {decision.prompt}" if who else decision.prompt
    return name_seats(str(text), names)


def picture(rules: Any, view: dict, viewer: Viewer, names: Sequence[str], scores: dict | None = None) -> str:
    """The board picture for `viewer`, drawn from `view` only (never from hidden state)."""
    draw = getattr(rules, "picture", None)
    if draw is not None:
        return draw(view, viewer, list(names))
    return _fallback_picture(rules, view, list(names), scores or {})


def score_breakdown(rules: Any, state: dict) -> list[dict]:
    """The end of game's score by category (`[{"category", "points": {"<seat>": n}}]`, the last row
    "Total"), from the game's `scoring.score_breakdown`; a running game or a game without one: [] ."""
    breakdown = getattr(rules, "score_breakdown", None)
    if breakdown is None or not rules.is_over(state):
        return []
    return [{"category": str(row["category"]), "points": {str(seat): int(n) for seat, n in row["points"].items()}}
            for row in breakdown(state)]


def _fallback_picture(rules: Any, view: dict, names: list[str], scores: dict) -> str:
    """A legible summary card: title, each seat's name and score."""
    pic = Svg(480, 60 + 28 * max(1, len(names)), title=f"{rules.meta.title}: the table")
    pic.text(16, 30, rules.meta.title, size=18, font_weight="bold")
    for seat, name in enumerate(names):
        y = 60 + 28 * seat
        pic.circle(24, y - 5, 8, fill=seat_colour(seat))
        pic.text(40, y, f"{name}: {scores.get(seat, scores.get(str(seat), 0))} points", size=14)
    return pic.render()


# ----------------------------------------------------------------------------- the move tree

#: API.md "Move tree": at most this many distinct first steps, this many children of any step.
FIRST_LEVEL_MAX = 12
LEVEL_MAX = 40
PATH_MAX = 5

_glossaries: dict[str, list[dict]] = {}


def glossary(rules: Any) -> list[dict]:
    """Every card, tile, space, location, character and token of the game's content, in plain
    words: ``[{"key", "kind", "name", "text"}]`` (API.md "Glossary"). Content is fixed per
    game type, so the list is built once; a game without one answers an empty list."""
    name = rules.meta.name
    if name not in _glossaries:
        make = getattr(rules, "glossary", None)
        _glossaries[name] = [dict(entry) for entry in make()] if make is not None else []
    return [dict(entry) for entry in _glossaries[name]]


def glossary_of_view(rules: Any, view: dict) -> list[dict]:
    """The glossary as one viewer of one game reads it: a game whose content is hidden until the
    game reveals it (Heredity's book, HER-HIDDEN) writes the words of what `view` shows in place
    of its "not yet revealed" entries (its `glossary(view=...)`); any other game's is the game
    type's glossary. Same keys either way, so every data-detail of the picture has its entry."""
    make = getattr(rules, "glossary", None)
    if make is None or "view" not in inspect.signature(make).parameters:
        return glossary(rules)
    return [dict(entry) for entry in make(view=view)]


def paths(rules: Any, state: dict, seat: int, moves: Sequence[Move], names: Sequence[str] = (),
          labels: Sequence[str] | None = None) -> list[list[str]]:
    """Each listed move's steps from the general to the particular (API.md "Move tree"), same
    order and length as `moves`. A game without `paths` gets the fallback tree: the kind of
    move, then its label. Either way, moves whose paths still coincide are told apart by a
    number, so a page can always build a tree from the answer, and a step with a single step
    under it is one step ("Go to the Town" > "Cattle Fair: Your Self"): no click without a choice."""
    tell = getattr(rules, "paths", None)
    if tell is not None:
        found = [[str(step) for step in path] for path in tell(state, seat, moves)]
    else:
        if labels is None:
            labels = [_fallback_label(m) for m in moves] if getattr(rules, "label", None) is None else \
                [rules.label(state, seat, m) for m in moves]
        found = fallback_paths(moves, labels)
    return [[name_seats(step, names) for step in path] for path in compact_paths(distinct_paths(found))]


def targets(rules: Any, state: dict, seat: int, moves: Sequence[Move]) -> list[list[str]]:
    """Each listed move's board elements (glossary keys or ``seat:N``), same order as `moves`.
    A game without `targets`: the glossary keys whose id appears among the move's values."""
    tell = getattr(rules, "targets", None)
    if tell is not None:
        return [[str(key) for key in keys] for keys in tell(state, seat, moves)]
    known = {entry["key"].partition(":")[2]: entry["key"] for entry in glossary(rules)}
    out = []
    for move in moves:
        keys = []
        for value in _scalars(move):
            key = known.get(str(value))
            if key is not None and key not in keys:
                keys.append(key)
        out.append(keys)
    return out


def _scalars(value: Any):
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "type":
                yield from _scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from _scalars(item)
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        yield value


def move_kind(move: Move) -> str:
    """'Place', 'End turn': a move's type in words (the fallback's first step)."""
    kind = str(move.get("type", "move")).replace("_", " ").strip() or "move"
    return kind[:1].upper() + kind[1:]


def fallback_paths(moves: Sequence[Move], labels: Sequence[str]) -> list[list[str]]:
    """The generic tree: kind of move, then the label; a kind with one move is one step.
    Kinds beyond the first-level limit share "Other moves"; a kind with more moves than a
    level holds is cut into numbered groups."""
    kinds: dict[str, list[int]] = {}
    for i, move in enumerate(moves):
        kinds.setdefault(move_kind(move), []).append(i)
    order = list(kinds)
    if len(order) > FIRST_LEVEL_MAX:
        keep, rest = order[:FIRST_LEVEL_MAX - 1], order[FIRST_LEVEL_MAX - 1:]
        merged = {k: kinds[k] for k in keep}
        merged["Other moves"] = sorted(i for k in rest for i in kinds[k])
        kinds = merged
    out: list[list[str]] = [[] for _ in moves]
    for kind, members in kinds.items():
        if len(members) == 1 and kind != "Other moves":
            out[members[0]] = [str(labels[members[0]]) if str(labels[members[0]]) else kind]
            continue
        for start in range(0, len(members), LEVEL_MAX):
            chunk = members[start:start + LEVEL_MAX]
            group = [] if len(members) <= LEVEL_MAX else [f"Choices {start + 1} to {start + len(chunk)}"]
            for i in chunk:
                out[i] = [kind, *group, str(labels[i])]
    return out


def distinct_paths(found: list[list[str]]) -> list[list[str]]:
    """`found` with every path non-empty, at most `PATH_MAX` steps, and no path equal to or a
    beginning of another (a step is either a move or a group, never both): the later of two
    such paths gets its last step numbered. Games' own paths are tested never to need this."""
    out = [[s.strip() or "Move" for s in path][:PATH_MAX] or ["Move"] for path in found]
    taken: set[tuple[str, ...]] = set()
    prefixes: set[tuple[str, ...]] = set()
    for path in out:
        prefixes.update(tuple(path[:k]) for k in range(1, len(path)))
    for path in out:
        base, n = path[-1], 1
        while tuple(path) in taken or tuple(path) in prefixes:
            n += 1
            path[-1] = f"{base} ({n})"
        taken.add(tuple(path))
    return out


def compact_paths(found: list[list[str]]) -> list[list[str]]:
    """`found` with every step that has exactly one step under it joined with that step
    ("Cattle Fair" > "Your Self" becomes "Cattle Fair: Your Self"), so choosing it is never a
    click without a choice. Moves stay apart and in order; no level grows."""
    out = [list(path) for path in found]
    _compact(out, 0)
    return out


def _compact(group: list[list[str]], depth: int) -> None:
    by_step: dict[str, list[list[str]]] = {}
    for path in group:
        by_step.setdefault(path[depth], []).append(path)
    for members in by_step.values():
        while all(len(p) > depth + 1 for p in members) and len({p[depth + 1] for p in members}) == 1:
            for path in members:
                path[depth] = f"{path[depth]}: {path.pop(depth + 1)}"
        deeper = [p for p in members if len(p) > depth + 1]
        if deeper:
            _compact(deeper, depth + 1)
