"""What a viewer may see of a played move: the one rule, used by every listing.

Facts are redacted by `facts.visible_facts`; a move itself may name a secret its facts
hide (a bid, the card kept), so it is redacted here. A game may define
``view_move(move, facts, mover, viewer)`` to say exactly what each viewer sees.
"""

from __future__ import annotations

from typing import Any

from .facts import EVERYONE, PRIVATE_KEY, Viewer


def redact_move(rules: Any, move: dict, facts: list[dict], mover: int | None, viewer: Viewer) -> dict:
    """A move as `viewer` may see it.

    A game's ``view_move`` decides when it has one. Otherwise, a move whose facts hide
    something from `viewer` shows only its type to anybody but its author.
    """
    if viewer == EVERYONE or viewer == mover:
        return move
    custom = getattr(rules, "view_move", None)
    if custom is not None:
        return custom(move, facts, mover, viewer)
    for record in facts:
        private_to = record.get(PRIVATE_KEY)
        if private_to is not None and viewer not in private_to:
            return {"type": move.get("type"), "hidden": True}
    return move
