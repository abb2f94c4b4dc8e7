"""The referee: one small check/apply pair per move kind (`icons`, `movement`, `combat`, `items`, `answers`),
the shape every move must have (`shape`) and the checks they share (`common`).

Every `check_*` raises IllegalMove(rule ID) or returns what the apply step needs; the apply step emits facts and
pushes instruction frames, then the resolver resumes play. Binding (issue 16.4): after the checks, a move must
equal one of the listed legal moves.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .. import effects  # noqa: F401  (fills the resolver's handlers)
from ..resolver import Ctx, new_turn, run, step
from .answers import do_choose, do_end_window, do_injure
from .combat import do_attack, do_combined_attack, do_heal
from .icons import do_card_action, do_combined_action, do_icon_action
from .items import do_drop, do_pickup, do_repair, do_trade, do_upgrade, do_use_item
from .movement import do_explore, do_move
from .shape import check_keys

DO = {
    "watch": do_icon_action, "speak": do_icon_action, "interact": do_icon_action, "card_action": do_card_action,
    "combined_action": do_combined_action, "move": do_move, "explore": do_explore, "attack": do_attack,
    "combined_attack": do_combined_attack, "heal": do_heal, "pickup": do_pickup, "drop": do_drop,
    "trade": do_trade, "repair": do_repair, "upgrade": do_upgrade, "use_item": do_use_item,
    "injure": do_injure, "end_window": do_end_window, "choose": do_choose,
}


def decide(state: dict, seat: int, move: dict, rng) -> list:
    """The referee's own checks first (their rule IDs name what is wrong), then the move must equal one of the
    listed legal moves (HER-GEN-05)."""
    from ..moves import listed                  # the list is built with this package's checks
    facts = referee(state, seat, move, rng)
    if move not in listed(state, seat, move):          # types already checked strictly (check_keys)
        raise IllegalMove("HER-GEN-05", "not one of the listed legal moves (see legal-moves)")
    return facts


def referee(state: dict, seat: int, move: dict, rng) -> list:
    """The move applied by the rules' checks alone (no comparison with the list)."""
    if state["over"] is not None:
        raise IllegalMove("HER-GEN-06", "the chapter is over")
    handler = DO.get(move.get("type")) if isinstance(move, dict) else None
    if handler is None:
        raise IllegalMove("HER-GEN-05", f"unknown move type {move.get('type') if isinstance(move, dict) else move!r}")
    check_keys(move)
    if state["pending"] is not None and move["type"] not in ("choose", "injure") and not (
            move["type"] == "drop" and state["pending"]["kind"] == "ally_join"):           # HER-AMB-26
        raise IllegalMove("HER-ACTION-07", "a decision is pending: answer it first")
    turn = new_turn(state)
    t = Ctx(turn, rng)
    handler(t, seat, move)
    run(t)
    auto_close(t)
    return turn.facts


def auto_close(t) -> None:
    """HER-TIMELINE-08: the window ends by itself once every PC token is spent."""
    s = t.s
    while (s["over"] is None and s["pending"] is None and s["window"] is not None
           and len(s["stack"]) == s["window"] and not any("avail" in p["tokens"] for p in s["pcs"].values())):
        t.emit("WindowClosed", automatic=True)
        step(t)
        run(t)
        s = t.s
