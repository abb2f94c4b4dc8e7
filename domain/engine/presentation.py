"""Words and pictures for any game: the one place the service asks a game for them.

Games implement `label`, `prompt` and `picture` (see `Rules`); a game that does not yet
gets a readable fallback here, so every endpoint and page works for every registered game.
All words use the "Seat N" convention; `name_seats` writes in the players' names.
"""

from __future__ import annotations

from typing import Any, Sequence

from .facts import Move, Viewer
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


def prompt(rules: Any, state: dict, names: Sequence[str] = ()) -> str:
    """What is being decided now, in plain words, for whom."""
    ask = getattr(rules, "prompt", None)
    if ask is not None:
        text = ask(state)
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


def _fallback_picture(rules: Any, view: dict, names: list[str], scores: dict) -> str:
    """A legible summary card: title, each seat's name and score."""
    pic = Svg(480, 60 + 28 * max(1, len(names)), title=f"{rules.meta.title}: the table")
    pic.text(16, 30, rules.meta.title, size=18, font_weight="bold")
    for seat, name in enumerate(names):
        y = 60 + 28 * seat
        pic.circle(24, y - 5, 8, fill=seat_colour(seat))
        pic.text(40, y, f"{name}: {scores.get(seat, scores.get(str(seat), 0))} points", size=14)
    return pic.render()
