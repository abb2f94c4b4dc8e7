"""Timeouts and takeovers in words (issue 28): the move log, the replay and the events listing say
who really played a move and why, so a reader of a game's record never takes a bot's move for the
player's own.

A move's `actor` is recorded with it (`seat:N`, `bot:<level>`, `clock:bot:<level>`, `clock:skip`);
`ClockExpired` and `SeatTakenOver` are events of their own. These functions only put them in words:
nothing here decides anything.
"""

from __future__ import annotations

from typing import Any, Sequence

#: What a table does when a seat's clock runs out (`ClockExpired.action`), in words.
TIMEOUT_ACTIONS = {
    "bot": "a bot plays that decision for {name}",
    "skip": "{name} passes where the game allows it (else a bot plays that decision)",
    "forfeit": "{name} forfeits: a bot plays the seat from here and the game no longer counts",
}


def seat_name(names: Sequence[str] | None, seat: Any) -> str:
    if isinstance(seat, int) and names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def actor_note(actor: str | None, names: Sequence[str] | None, seat: Any, takeovers: dict | None = None) -> str:
    """Who played a move when it was not the seat's player: '' for the player's own move and for a
    seat that was a bot's from the start (the table says so already). `takeovers`: seat (as a
    string) -> why a bot plays it for good (`left`, `forfeit`)."""
    if not actor or actor.startswith("seat:") or actor == "referee":
        return ""
    name = seat_name(names, seat)
    if actor.startswith("clock:bot:"):
        return f"played by a bot: {name}'s clock ran out"
    if actor == "clock:skip":
        return f"a pass for {name}: {name}'s clock ran out"
    if actor.startswith("bot:"):
        why = (takeovers or {}).get(str(seat))
        if why is None:
            return ""
        return f"played by a bot: {name} " + ("left the game" if why == "left" else "forfeited on time"
                                               if why == "forfeit" else f"is out of the game ({why})")
    return f"played by {actor}"


def event_words(kind: str, payload: dict, names: Sequence[str] | None) -> str:
    """`ClockExpired` and `SeatTakenOver` in one sentence ('' for other events)."""
    name = seat_name(names, payload.get("seat"))
    if kind == "ClockExpired":
        then = TIMEOUT_ACTIONS.get(payload.get("action"), "the table's timeout rule applies").format(name=name)
        return f"{name}'s clock ran out: {then}."
    if kind == "SeatTakenOver":
        level = payload.get("level") or "normal"
        why = "left the game" if payload.get("reason") == "left" else f"is out of the game ({payload.get('reason')})"
        return f"{name} {why}: a {level} bot plays the seat from here, and the game no longer counts for ratings."
    return ""
