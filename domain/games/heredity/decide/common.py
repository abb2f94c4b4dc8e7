"""Checks every PC action shares: control, the action window, tokens and slots.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from ..state.queries import available_tokens, is_dying, is_free, items_of, slot_state
from ..state.reach import slot_record


def check_pc(s: dict, seat: int, pc) -> None:
    if pc not in s["pcs"]:
        raise IllegalMove("HER-CONTROL-05", f"unknown PC {pc!r}")
    if seat not in s["control"][pc]:
        raise IllegalMove("HER-CONTROL-05", f"seat {seat} does not control {pc}")


def check_window(s: dict) -> None:
    if s["pending"] is not None or (s["window"] is not None and len(s["stack"]) != s["window"]):
        raise IllegalMove("HER-ACTION-07", "another action or decision is still being resolved")
    if s["window"] is None:
        raise IllegalMove("HER-ACTION-08", "Action tokens are spent only during the Family card's action window")


def token_index(s: dict, pc: str) -> int:
    avail = available_tokens(s, pc)
    if not avail:
        raise IllegalMove("HER-ACTION-10", f"{pc} has no available Action token")
    return avail[0]


def check_slot(s: dict, pc: str, ref, icon: str | None) -> dict:
    """HER-ACTION-01, HER-ACTION-02, HER-ACTION-03, HER-ACTION-04, HER-ACTION-05, HER-ITEM-13, HER-DYING-04."""
    rec = slot_record(s, pc, ref)
    if not rec["accepts"]:
        raise IllegalMove("HER-ITEM-13", f"slot {ref} grants no action: no Action token can be placed on it")
    if slot_state(s, ref)["t"] is not None:
        raise IllegalMove("HER-ACTION-03", f"slot {ref} already holds an Action token")
    if not is_free(s, ref):
        raise IllegalMove("HER-ACTION-02", f"slot {ref} is covered by a Damage token")
    if icon is not None and icon not in rec["icons"]:
        raise IllegalMove("HER-ACTION-04", f"slot {ref} has no {icon} icon")
    if rec["heart"] and is_dying(s, pc):
        raise IllegalMove("HER-DYING-04", f"{pc} is Dying: only slots without a heart may be used")
    return rec


def place_token(t, pc: str, ref: str) -> None:
    t.emit("TokenPlaced", pc=pc, token=token_index(t.s, pc), slot=ref)


def check_interact_slot(s: dict, pc: str, ref) -> None:
    token_index(s, pc)
    check_slot(s, pc, ref, "interact")                                 # HER-INTERACT-03, HER-AMB-15


def own_item(s: dict, seat: int, move: dict, rule: str) -> tuple:
    """The acting PC and an Item of its own inventory (Repair, Upgrade)."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    item = move.get("item")
    if item not in items_of(s, pc):
        raise IllegalMove(rule, f"Item {item} is not in {pc}'s inventory")
    return pc, item
