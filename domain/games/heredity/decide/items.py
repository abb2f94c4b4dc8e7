"""Items and Materials: pick up, drop, trade, repair, upgrade, use.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .common import check_interact_slot, check_pc, check_slot, check_window, own_item, place_token, token_index
from .shape import trade_key
from ..resolver import push, wait
from ..effects.cards import remove_area_materials
from ..effects.items import equip
from ..state.queries import card_slots, face, items_in_area, items_of, same_area, slot_state


def check_pickup(s: dict, seat: int, move: dict) -> tuple:
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    check_interact_slot(s, pc, move.get("slot"))
    area = s["pcs"][pc]["area"]
    here = sum(n for a, n in s["area_materials"].items() if same_area(s, a, area))
    k = move.get("materials", 0)
    items = move.get("items", [])
    if not isinstance(k, int) or k < 0 or k > here:
        raise IllegalMove("HER-INV-09", f"only {here} Materials lie in {pc}'s area")
    lying = items_in_area(s, area)
    if any(i not in lying for i in items) or items != sorted(set(items)):
        raise IllegalMove("HER-INV-09", "name distinct Items lying in the PC's area, in increasing order")
    if k == 0 and not items:
        raise IllegalMove("HER-INV-09", "pick up at least one thing")
    return pc, k, items


def do_pickup(t, seat: int, move: dict) -> None:
    pc, k, items = check_pickup(t.s, seat, move)
    place_token(t, pc, move["slot"])
    if k:
        remove_area_materials(t, t.s["pcs"][pc]["area"], k)
        t.emit("PcMaterials", pc=pc, delta=k)
    for item in items:
        equip(t, pc, item)                       # HER-INV-10; several matching anchors: item_anchor decision


def check_drop(s: dict, seat: int, move: dict) -> str:
    """HER-INV-05, HER-INV-06, HER-AMB-26: free, during the action window (or an item overflow)."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    joining = s["pending"] is not None and s["pending"]["kind"] == "ally_join"      # HER-AMB-26
    if s["window"] is None and not joining:
        raise IllegalMove("HER-INV-05", "dropping is possible only during the PCs' action time")
    if s["pcs"][pc]["area"] is None:
        raise IllegalMove("HER-INV-05", f"{pc} is not on the Terrain")
    if "item" in move:
        if move["item"] not in items_of(s, pc):
            raise IllegalMove("HER-INV-06", f"{pc} does not hold Item {move['item']}")
    else:
        k = move.get("materials", 0)
        if not isinstance(k, int) or k <= 0 or k > s["pcs"][pc]["materials"]:
            raise IllegalMove("HER-INV-05", f"{pc} cannot drop {k!r} Materials")
    return pc


def do_drop(t, seat: int, move: dict) -> None:
    pc = check_drop(t.s, seat, move)
    area = t.s["pcs"][pc]["area"]
    if "item" in move:
        t.emit("ItemDropped", item=move["item"], area=area, ref=True, pc=pc)     # HER-INV-07
    else:
        t.emit("PcMaterials", pc=pc, delta=-move["materials"])
        t.emit("AreaMaterials", area=area, delta=move["materials"])


def check_trade(s: dict, seat: int, move: dict) -> tuple:
    """HER-INV-11, HER-INV-12, HER-AMB-27."""
    pc, other = move.get("pc"), move.get("with")
    check_pc(s, seat, pc)
    check_window(s)
    if other not in s["pcs"] or other == pc:
        raise IllegalMove("HER-INV-11", "trade with another PC")
    if not same_area(s, s["pcs"][pc]["area"], s["pcs"][other]["area"]):
        raise IllegalMove("HER-INV-12", "the 2 PCs must be in the same area")
    if trade_key(move) in s["declined"]:
        raise IllegalMove("HER-INV-12", "that trade was already refused during this action window")
    check_interact_slot(s, pc, move.get("slot"))
    give, take = move.get("give") or {}, move.get("take") or {}
    for who, part in ((pc, give), (other, take)):
        if "materials" in part and part["materials"] <= 0 or "items" in part and (
                not part["items"] or part["items"] != sorted(set(part["items"]))):
            raise IllegalMove("HER-INV-11",
                              "name a positive number of Materials and distinct Items in increasing order")
        if part.get("materials", 0) > s["pcs"][who]["materials"]:
            raise IllegalMove("HER-INV-11", f"{who} does not hold that many Materials")
        if any(i not in items_of(s, who) for i in part.get("items", [])):
            raise IllegalMove("HER-INV-11", f"{who} does not hold those Items")
    if not (give.get("materials") or give.get("items") or take.get("materials") or take.get("items")):
        raise IllegalMove("HER-INV-11", "a trade exchanges at least something")
    return pc, other, give, take


def do_trade(t, seat: int, move: dict) -> None:
    pc, other, give, take = check_trade(t.s, seat, move)
    if seat in t.s["control"][other]:
        apply_trade(t, move)                                            # one seat controls both
    else:
        wait(t, "trade_consent", ["accept", "decline"], other, trade=move)     # HER-DECIDE-14


def apply_trade(t, move: dict) -> None:
    pc, other = move["pc"], move["with"]
    give, take = move.get("give") or {}, move.get("take") or {}
    place_token(t, pc, move["slot"])
    for frm, to, part in ((pc, other, give), (other, pc, take)):
        if part.get("materials"):
            t.emit("PcMaterials", pc=frm, delta=-part["materials"])
            t.emit("PcMaterials", pc=to, delta=part["materials"])
        for item in part.get("items", []):
            t.emit("ItemDropped", item=item, area=t.s["pcs"][frm]["area"], ref=False, pc=frm, traded=True)
            equip(t, to, item)                                          # HER-INV-13


def check_repair(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-14, HER-ITEM-15."""
    pc, item = own_item(s, seat, move, "HER-ITEM-15")
    damaged = [r for r, rec in card_slots(s, item) if slot_state(s, r)["d"]]
    if not damaged:
        raise IllegalMove("HER-ITEM-15", f"Item {item} carries no Damage token")
    if s["pcs"][pc]["materials"] < 1:
        raise IllegalMove("HER-ITEM-15", f"{pc} holds no Materials")
    check_interact_slot(s, pc, move.get("slot"))
    ref = move.get("damage")
    if ref not in damaged:
        raise IllegalMove("HER-ITEM-14", f"no Damage token on {ref}")
    return pc, ref


def do_repair(t, seat: int, move: dict) -> None:
    pc, ref = check_repair(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("PcMaterials", pc=pc, delta=-1)
    t.emit("DamageRemoved", slot=ref, pc=pc)


def check_upgrade(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-16, HER-ITEM-17, HER-AMB-25."""
    pc, item = own_item(s, seat, move, "HER-ITEM-16")
    if any(slot_state(s, r)["t"] is not None or slot_state(s, r)["d"] for r, _ in card_slots(s, item)):
        raise IllegalMove("HER-ITEM-16", "an Item carrying an Action or Damage token cannot be upgraded")
    ups = face(s, item)["upgrades"]
    k = move.get("upgrade", 0)
    if not isinstance(k, int) or not 0 <= k < len(ups):
        raise IllegalMove("HER-ITEM-17", f"Item {item} has no upgrade {k!r}")
    if s["pcs"][pc]["materials"] < ups[k]["cost"]:
        raise IllegalMove("HER-ITEM-17", f"the upgrade costs {ups[k]['cost']} Materials")
    check_interact_slot(s, pc, move.get("slot"))
    return pc, item, ups[k]


def do_upgrade(t, seat: int, move: dict) -> None:
    pc, item, up = check_upgrade(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("PcMaterials", pc=pc, delta=-up["cost"])
    # The upgrade effect runs first, then the (new face's) Initialise effect (HER-ITEM-07).
    push(t, [{"op": "initialiseAfterUpgrade", "item": item}], item, pc, "action", {"upgrade": True})
    push(t, list(up["effect"]), item, pc, "block", {"upgrade": True})


def check_use_item(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-10: a slot whose effect is given on the Item."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    token_index(s, pc)
    rec = check_slot(s, pc, move.get("slot"), None)
    if not rec["effect"] or move["slot"].split(".")[0] not in [str(i) for i in items_of(s, pc)]:
        raise IllegalMove("HER-ITEM-10", "that slot has no Item effect to apply")
    return pc, rec


def do_use_item(t, seat: int, move: dict) -> None:
    pc, rec = check_use_item(t.s, seat, move)
    place_token(t, pc, move["slot"])
    push(t, list(rec["effect"]), int(move["slot"].split(".")[0]), pc, "action")
