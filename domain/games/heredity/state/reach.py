"""What a PC can reach from where it stands: attack targets and slots, explorations, the Immediate
Events of an area, where a card action can be performed (read-only, shared by the referee and the list).
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .board import board
from .queries import (
    C, card_zone, face, face_side, is_dying, is_free, is_full, link_area, npcs_on_terrain, override, pc_slots,
    same_area, standees,
)


def attack_targets(s: dict, pc, rng) -> list[dict]:
    """NPC standees a PC can attack: same area (Melee, incl. HER-COMBAT-17) or within Range."""
    if pc is None or s["pcs"][pc]["area"] is None:
        return []
    area = s["pcs"][pc]["area"]
    b = board(C(s), s)
    out = []
    for n, i, a in npcs_on_terrain(s):
        if rng is None:
            ok = same_area(s, a, area) or (is_full(s, a) and b.step_colour(area, a) in ("white", "green", "red"))
        else:
            ok = b.in_range(area, a, rng)
        if ok:
            out.append({"npc": n, "s": i})
    return out


# HER-ITEM-19: an Item attack slot gives its Power and Range
def attack_slots(s: dict, pc: str) -> list[tuple[str, int, int | None]]:
    """(slot, power, range) usable for an attack now: Item attack slots, Head/Feet slots unarmed."""
    out = []
    cards = C(s).pc(pc)["cards"]
    unarmed = override(s, "unarmed_power", 1)
    dying = is_dying(s, pc)
    for ref, rec, n in pc_slots(s, pc):
        if not is_free(s, ref) or (dying and rec["heart"]):
            continue
        if rec.get("attack"):
            out.append((ref, rec["attack"]["power"], rec["attack"]["range"]))
        elif n in (cards["head"], cards["feet"]) and rec["accepts"]:
            out.append((ref, unarmed, None))                           # HER-COMBAT-03, HER-AMB-34
    return out


def slot_record(s: dict, pc: str, ref) -> dict:
    for r, rec, n in pc_slots(s, pc):
        if r == ref:
            return rec
    raise IllegalMove("HER-ACTION-05", f"slot {ref!r} is not on {pc}'s cards or Items")


def slot_power(s: dict, pc: str, ref: str) -> int:
    for r, power, rng in attack_slots(s, pc):
        if r == ref:
            return power
    rec = slot_record(s, pc, ref)
    return rec["attack"]["power"] if rec.get("attack") else override(s, "unarmed_power", 1)


def max_targets(s: dict, pc: str, ref) -> int:
    for r, rec, n in pc_slots(s, pc):
        if r == ref and rec.get("attack"):
            return rec["attack"].get("targets", 1)
    return 1


def marker_icon(s: dict, marker):
    try:
        terrain, side, idx = str(marker).split("/")
        icon = C(s).face(int(terrain), side)["icons"][int(idx)]
    except (ValueError, KeyError, IndexError):
        return None, None
    return int(terrain), icon


def explore_options(s: dict, pc: str, area: str | None = None) -> list[dict]:
    """Explore / Level Change icons the PC may use from where it stands, or from `area` on its way
    (HER-EXPLORE-02, HER-EXPLORE-04, HER-LEVEL-04)."""
    area = area or s["pcs"][pc]["area"]
    if area is None:
        return []
    b = board(C(s), s)
    rep = b.c(area)
    out = []
    for terrain, idx, icon in b.icons:
        marker = f"{terrain}/{face_side(s, terrain)}/{idx}"
        if icon["kind"] == "explore":
            if card_zone(s, icon["terrain"]) != "deck":
                continue
            segs = face(s, terrain)["edges"].get(icon["edge"], [])
            ok = [seg for seg in segs if b.c(f"{terrain}:{seg['area']}") == rep and seg["colour"] not in ("black", "blue")]
            if ok:
                out.append({"marker": marker, "icon": icon, "terrain": terrain, "seg": ok[0]})
        elif icon["kind"] == "levelChange" and icon.get("terrain") and card_zone(s, icon["terrain"]) == "deck":
            if b.c(f"{terrain}:{icon['area']}") == rep:
                out.append({"marker": marker, "icon": icon, "terrain": terrain, "seg": None})
    return out


def immediate_events(s: dict, area: str) -> list:
    b = board(C(s), s)
    out = []
    for terrain, idx, icon in b.icons:
        if icon["kind"] == "immediateEvent" and b.c(f"{terrain}:{icon['area']}") == b.c(area):
            out.append((terrain, list(icon["ops"])))
    return out


def action_place_ok(s: dict, pc: str, card: int, action: dict) -> bool:
    link = action["link"]
    if link["kind"] == "terrain":
        return same_area(s, s["pcs"][pc]["area"], link_area(s, link))   # HER-INSTR-10, HER-TERRAIN-09
    if link["kind"] == "npc":
        npc = link.get("npc", card)
        return any(same_area(s, s["pcs"][pc]["area"], a) for _, a in standees(s, npc))   # HER-INSTR-12
    return True                                                                       # HER-INSTR-11


def first_blocker(t_state: dict, pc, body: list, target=None):
    """HER-AMB-08: an action whose body starts with an unpayable cost or a targetless attack is refused."""
    if not body:
        return None
    op = body[0]
    if op["op"] == "payMaterials" and s_mat(t_state, pc) < op["count"]:
        return IllegalMove("HER-MATERIAL-03", f"{pc} holds fewer than {op['count']} Materials")
    if op["op"] == "attack":
        targets = attack_targets(t_state, pc, op.get("range"))
        if target not in targets:
            return IllegalMove("HER-RANGED-02", f"no legal target {target!r} for this attack")
    return None


def s_mat(s, pc):
    return s["pcs"][pc]["materials"]
