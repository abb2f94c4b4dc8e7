"""What a viewer may see of a replayed step or a listed move: one place on the read side.

The rule itself is the write side's (`domain.engine.redaction.redact_move`, `visible_facts`), so
the events listing, the moves-log and the replay redact identically: while a game runs,
a viewer sees the state through `rules.view`, facts through `visible_fact`, and a move
whose facts hide something from the viewer only as ``{"type": ..., "hidden": true}``.
Once the game is finished everyone sees everything at every step.
"""

from __future__ import annotations

from typing import Any, Sequence

from domain.engine import Rules, Viewer, visible_facts
from domain.engine.redaction import redact_move

from .actor_words import actor_note


def visible_move(rules: Rules, entry: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The move of a move entry as `viewer` may see it."""
    return redact_move(rules, entry.get("move") or {}, entry.get("facts") or [], entry.get("seat"), viewer)


def visible_entry(rules: Rules, entry: dict[str, Any], viewer: Viewer, undone: bool,
                  names: Sequence[str] | None = None, takeovers: dict | None = None) -> dict[str, Any]:
    """A move entry for listings (moves-log, history) as `viewer` may see it; `actor_note` says in
    words who played it when not the seat's player (a bot, or a bot because the clock ran out)."""
    return {
        "version": entry["version"],
        "move_no": entry["move_no"],
        "seat": entry["seat"],
        "actor": entry.get("actor"),
        "actor_note": actor_note(entry.get("actor"), names, entry["seat"], takeovers),
        "move": visible_move(rules, entry, viewer),
        "facts": visible_facts(entry.get("facts") or [], viewer),
        "description": entry.get("description") or "",
        "scores": entry.get("scores") or {},
        "recorded_at": entry.get("recorded_at"),
        "undone": undone,
    }
