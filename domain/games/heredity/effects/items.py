"""Effects on Items and Materials: gains, allocation, anchors, Initialise.
"""

from __future__ import annotations

from ..resolver import actor_pc, available, Ctx, push, resolve_here, set_var, step, top, wait, warn
from ..state.queries import C, card_zone, face, items_of, pc_cards


def op_gain_item(t, op):
    """HER-INV-01, HER-INV-03, HER-DECIDE-15."""
    s = t.s
    item = op["item"]
    rec = op["recipient"]
    if card_zone(s, item) == "deck":
        if not available(t, item):
            step(t)
            warn(t, f"item {item} is not available")
            return
        t.emit("CardTaken", card=item, zone="table")
    elif card_zone(s, item) != "table":
        step(t)
        return
    if rec.startswith("AREA:"):
        step(t)
        t.emit("ItemDropped", item=item, area=resolve_here(t, rec[5:]), ref=True)
        return
    pc = actor_pc(t) if rec == "ACTING_PC" and not top(t)["vars"].get("allocate") else (
        rec if rec in s["pcs"] else None)
    if pc is None:
        wait(t, "allocate_item", sorted(s["pcs"]), None, item=item)
        return
    step(t)
    equip(t, pc, item)


# HER-INV-02: Materials gained by an action go to the acting PC
def op_gain_materials(t, op):
    s = t.s
    rec = op["recipient"]
    if rec.startswith("AREA:"):
        step(t)
        t.emit("AreaMaterials", area=resolve_here(t, rec[5:]), delta=op["count"])
        return
    pc = actor_pc(t) if rec == "ACTING_PC" and not top(t)["vars"].get("allocate") else (
        rec if rec in s["pcs"] else None)
    if pc is not None:
        step(t)
        t.emit("PcMaterials", pc=pc, delta=op["count"])
        return
    done = top(t)["vars"].get("allocated", 0)
    if done >= op["count"]:
        set_var(t, "allocated", 0)
        step(t)
        return
    wait(t, "allocate_materials", sorted(s["pcs"]), None, left=op["count"] - done)


def free_anchors(s: dict, pc: str, item: int) -> list[str]:
    """HER-ITEM-01 / HER-AMB-22: brown Items on right anchors, grey on left, matching symbol, one per anchor."""
    rec = C(s).card(item)
    side = "right" if rec["colour"] == "brown" else "left"
    symbol = face(s, item)["anchor"]
    used = {s["cards"][str(i)].get("anchor") for i in items_of(s, pc)}
    out = []
    for n in pc_cards(s, pc):
        for k, sym in enumerate(face(s, n)["anchors"][side]):
            key = f"{n}:{side}:{k}"
            if sym == symbol and key not in used:
                out.append(key)
    return out


def blocking_items(s: dict, pc: str, item: int) -> list[int]:
    """Items of the PC sitting on an anchor the new Item could use (HER-AMB-22)."""
    rec = C(s).card(item)
    side = "right" if rec["colour"] == "brown" else "left"
    symbol = face(s, item)["anchor"]
    out = []
    for held in items_of(s, pc):
        n, held_side, k = s["cards"][str(held)]["anchor"].split(":")
        if held_side == side and face(s, int(n))["anchors"][side][int(k)] == symbol:
            out.append(held)
    return out


def equip(t: Ctx, pc: str, item: int, anchor: str | None = None) -> None:
    s = t.s
    anchors = free_anchors(s, pc, item)
    if anchor is None:
        if not anchors:
            if blocking_items(s, pc, item) and s["pcs"][pc]["area"] is not None:
                # HER-AMB-22: the players may first drop a held Item (free) to make room
                push(t, [{"op": "overflowChoice", "item": item, "pc": pc}], None, pc)
                return
            t.emit("ItemDropped", item=item, area=s["pcs"][pc]["area"], ref=True)      # HER-AMB-22
            return
        if len(anchors) > 1:
            push(t, [{"op": "equipChoice", "item": item, "pc": pc}], None, pc)
            return
        anchor = anchors[0]
    t.emit("ItemEquipped", item=item, pc=pc, anchor=anchor)
    initialise(t, pc, item)


def initialise(t: Ctx, pc: str, item: int) -> None:
    """HER-ITEM-05, HER-AMB-24: first collection in the chapter."""
    if item in t.s["initialised"]:
        return
    t.emit("Initialised", item=item)
    push(t, list(face(t.s, item)["initialise"]), item, pc, "card")


def op_overflow_choice(t, op):
    options = [{"drop": i} for i in blocking_items(t.s, op["pc"], op["item"])] + [{"leave": op["item"]}]
    wait(t, "item_overflow", options, op["pc"], item=op["item"])


def op_equip_choice(t, op):
    anchors = free_anchors(t.s, op["pc"], op["item"])
    if len(anchors) < 2:                  # another Item took an anchor meanwhile (several Items picked up at once)
        equip(t, op["pc"], op["item"], anchors[0] if anchors else None)
        return
    # HER-DECIDE-16: which matching free anchor
    wait(t, "item_anchor", anchors, op["pc"], item=op["item"])


def op_pay(t, op):
    t.emit("PcMaterials", pc=actor_pc(t), delta=-op["count"])


def op_init_after_upgrade(t, op):
    item = op["item"]
    push(t, list(face(t.s, item)["initialise"]), item, top(t)["actor"], "card")
