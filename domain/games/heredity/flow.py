"""The turn flow. There are no turns: the Hourglass drives everything (HER-GEN-05).

| phase            | state                                              | who may act                       | moves                                   |
|------------------|----------------------------------------------------|-----------------------------------|-----------------------------------------|
| action window    | `window` set, stack at that depth, no `pending`    | every seat, for the PCs it controls | PC actions, free drops, injuries, `end_window` |
| decision pending | `pending` = {kind, options, pc}                    | controllers of `pending.pc` (all seats if none), and any seat with a voluntary injury | `choose` an option, voluntary injury |
| resolving        | frames on `stack` (never visible between moves)    | nobody: the resolver continues    | —                                       |
| over             | `over` = "victory" / "defeat"                      | nobody                            | —                                       |
"""

from __future__ import annotations

from domain.engine import Decision

from .state import injury_seats


def decision(state: dict) -> Decision:
    if state["over"] is not None:
        return Decision.nobody(f"chapter over: {state['over']}")
    p = state["pending"]
    if p is not None:
        seats = state["control"][p["pc"]] if p["pc"] else list(range(state["players"]))
        seats = set(seats) | set(injury_seats(state))         # a voluntary injury at any time (HER-INJURY-05)
        return Decision.team(sorted(seats), p["kind"].replace("_", " "))
    return Decision.team(list(range(state["players"])), "action window: spend Action tokens or end the window")
