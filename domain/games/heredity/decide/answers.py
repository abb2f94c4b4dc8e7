"""Voluntary severe injury, the end of the window, and the answers to pending decisions.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .combat import apply_combined_attack, ask_consent
from .common import check_pc, check_window, place_token
from .icons import apply_combined_action
from .items import apply_trade
from .shape import combo_key, trade_key
from ..resolver import set_var, step, top
from ..effects.characters import injure
from ..effects.items import equip, initialise
from ..state.queries import card_slots, face_side, pc_cards, slot_state


def check_injure(s: dict, seat: int, move: dict) -> tuple:
    """HER-INJURY-05, HER-AMB-38."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    card = move.get("card")
    if card not in pc_cards(s, pc) or face_side(s, card) != "front":
        raise IllegalMove("HER-INJURY-05", "choose one of the PC's cards showing its front")
    if not all(slot_state(s, r)["d"] for r, _ in card_slots(s, card)):
        raise IllegalMove("HER-INJURY-05", "every slot of that card's front must hold a Damage token")
    return pc, card


RECOMPUTED = ("damage_slot", "injury_card", "ally_join")


def do_injure(t, seat: int, move: dict) -> None:
    """HER-INJURY-05, HER-INJURY-06, HER-DECIDE-09: "at any time", also while a decision is pending. The revealed
    slot is available at once, so a pending Damage placement (or forced injury, or joining an ally's
    attack) is asked again with the options recomputed: the book's Maeve example places the remaining
    Damage token on the revealed slot."""
    pc, card = check_injure(t.s, seat, move)
    injure(t, pc, card, voluntary=True)
    p = t.s["pending"]
    if p is not None and p["kind"] in RECOMPUTED and p["pc"] in (pc, None):
        t.emit("PendingResolved", kind=p["kind"], choice=None, recomputed=True)


def check_end_window(s: dict, seat: int, move: dict) -> None:
    check_window(s)


# HER-DECIDE-02: the players end the window
def do_end_window(t, seat: int, move: dict) -> None:
    check_end_window(t.s, seat, move)
    t.emit("WindowClosed")
    step(t)                                                              # past ACTION_WINDOW


def check_choose(s: dict, seat: int, move: dict) -> tuple:
    p = s["pending"]
    if p is None:
        raise IllegalMove("HER-GEN-02", "no decision is pending")
    if p["pc"] is not None and seat not in s["control"][p["pc"]]:
        raise IllegalMove("HER-CONTROL-05", f"the decision belongs to {p['pc']}'s controller")
    k = move.get("option")
    if not isinstance(k, int) or not 0 <= k < len(p["options"]):
        raise IllegalMove("HER-GEN-02", f"option must be 0..{len(p['options']) - 1}")
    opt = p["options"][k]
    if isinstance(opt, dict) and "slot" in opt and seat not in s["control"][opt["pc"]]:
        raise IllegalMove("HER-CONTROL-05", f"only {opt['pc']}'s controller may spend its token")
    return p, opt


def frame_depth(s: dict, kind: str) -> int:
    for d in range(len(s["stack"]) - 1, -1, -1):
        if s["stack"][d]["kind"] == kind:
            return d
    return len(s["stack"]) - 1


def do_choose(t, seat: int, move: dict) -> None:
    p, opt = check_choose(t.s, seat, move)
    kind = p["kind"]
    t.emit("PendingResolved", kind=kind, choice=opt)
    if kind == "damage_slot":
        step(t)
        t.emit("DamagePlaced", pc=p["pc"], slot=opt)
    elif kind == "injury_card":
        injure(t, p["pc"], opt)
    elif kind == "allocate_item":
        step(t)
        equip(t, opt, p["item"])
    elif kind == "allocate_materials":
        t.emit("PcMaterials", pc=opt, delta=1)
        set_var(t, "allocated", top(t)["vars"].get("allocated", 0) + 1)
    elif kind == "choose_pc":
        set_var(t, "chosen_pc", opt)
    elif kind == "npc_area":
        set_var(t, "npc_area", opt)
    elif kind == "npc_order":
        set_var(t, "first", opt)
    elif kind in ("npc_target", "ally_target"):
        set_var(t, "target", None if opt.get("none") else opt)
        step(t)
    elif kind == "npc_path":
        set_var(t, "path", opt)
    elif kind == "item_overflow":                                         # HER-AMB-22
        area = t.s["pcs"][p["pc"]]["area"]
        if "drop" in opt:
            anchor = t.s["cards"][str(opt["drop"])]["anchor"]
            t.emit("ItemDropped", item=opt["drop"], area=area, ref=True, pc=p["pc"])
            t.emit("ItemEquipped", item=p["item"], pc=p["pc"], anchor=anchor)
            initialise(t, p["pc"], p["item"])
        else:
            t.emit("ItemDropped", item=p["item"], area=area, ref=True)
    elif kind == "item_anchor":
        t.emit("ItemEquipped", item=p["item"], pc=p["pc"], anchor=opt)
        initialise(t, p["pc"], p["item"])
    elif kind == "ally_join":
        if opt.get("done"):
            set_var(t, "join_done", True)
        else:
            place_token(t, opt["pc"], opt["slot"])
            set_var(t, "joined", top(t)["vars"].get("joined", []) + [opt])
    elif kind == "combined_consent":
        if opt == "decline":
            t.emit("TradeDeclined", key=combo_key(p["move"]))
        elif not ask_consent(t, p["by"], p["move"], p["agreed"] + [p["pc"]]):
            (apply_combined_attack if p["move"]["type"] == "combined_attack" else apply_combined_action)(t, p["move"])
    elif kind == "trade_consent":
        if opt == "accept":
            apply_trade(t, p["trade"])
        else:
            t.emit("TradeDeclined", key=trade_key(p["trade"]))
