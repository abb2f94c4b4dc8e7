"""The table's own rules, chosen at creation and stored in `Created.table` (API.md "Table options").

They are not the game's rules (those are the rule catalogs'): they say how people play together
at this table. Each refusal they cause names a rule ID of api/README.md ("Table rules"):

- `undo_policy` (TABLE-UNDO-01..04): who may take moves back. ``consent`` (the default, and what
  every game stored before the option existed keeps): a seat's own last move that revealed nothing
  at once, anything else when every other seat approves; ``own_turn``: a seat takes back the moves
  of its current turn (nobody else moved since) that revealed nothing hidden or random, nothing
  else; ``referee``: only the referee undoes; ``none``: nobody does, the referee included.
- `analysis_during_play` (TABLE-ANALYSIS-01): the engine analysis of a running game is locked for
  everybody unless this is true.
"""

from __future__ import annotations

from typing import Any

from .clocks import clock_option
from .errors import InvalidGameSetup

UNDO_POLICIES = ("consent", "own_turn", "referee", "none")
#: What a table is when nothing was chosen (and what games stored without `Created.table` are).
DEFAULT_TABLE = {"undo_policy": "consent", "analysis_during_play": False}


def table_options(undo_policy: Any = None, analysis_during_play: Any = None, clock: Any = None,
                  on_timeout: Any = None) -> dict:
    """The table options of a new game, checked (InvalidGameSetup names what is wrong, in words).
    `clock` and `on_timeout`: domain/app/clocks.py (a table without a clock stores neither)."""
    table = dict(DEFAULT_TABLE)
    checked_clock, policy = clock_option(clock, on_timeout)
    if checked_clock is not None:
        table["clock"], table["on_timeout"] = checked_clock, policy
    if undo_policy is not None:
        if undo_policy not in UNDO_POLICIES:
            raise InvalidGameSetup(f"The take-back rule (undo_policy) is one of {', '.join(UNDO_POLICIES)}; "
                                   f"{undo_policy!r} is not one of them.")
        table["undo_policy"] = undo_policy
    if analysis_during_play is not None:
        if not isinstance(analysis_during_play, bool):
            raise InvalidGameSetup("analysis_during_play is true or false.")
        table["analysis_during_play"] = analysis_during_play
    return table


def stored_table(recorded: dict | None) -> dict:
    """The table of a stored game: what `Created` recorded, the defaults for what it lacks."""
    return {**DEFAULT_TABLE, **(recorded or {})}
