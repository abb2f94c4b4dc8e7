"""Derived state (never stored): slots, Dying, Defence, fullness, hostility, active actions.

HER-GEN-03 / 3.9: Dying, full areas, disabled Items, Defence and Hostility are computed
from the event-sourced state every time they are needed.
"""

from __future__ import annotations

from .memo import frozen

from .board import board
from ..content import chapter


def C(state: dict):
    return chapter(state["chapter"])


def face_side(state: dict, number: int) -> str:
    return state["cards"].get(str(number), {}).get("face", "front")


def card_zone(state: dict, number: int) -> str:
    return state["cards"].get(str(number), {}).get("zone", "deck")


def in_play(state: dict, number: int) -> bool:
    return card_zone(state, number) not in ("deck", "burned")


def tokens(state: dict, number: int, kind: str = "generic") -> int:
    return state["cards"].get(str(number), {}).get("tokens", {}).get(kind, 0)


def face(state: dict, number: int) -> dict:
    return C(state).face(number, face_side(state, number))


def pc_cards(state: dict, pc: str) -> list[int]:
    cards = C(state).pc(pc)["cards"]
    return [cards["head"], cards["torso"], cards["feet"]]


@frozen
def items_of(state: dict, pc: str) -> list[int]:
    return sorted(int(k) for k, v in state["cards"].items() if v.get("zone") == "inventory" and v.get("pc") == pc)


def slot_state(state: dict, ref: str) -> dict:
    return state["slots"].get(ref, {"t": None, "d": 0})


def card_slots(state: dict, number: int) -> list[tuple[str, dict]]:
    return [(f"{number}.{s['id']}", s) for s in face(state, number)["slots"]]


# HER-ITEM-03, HER-ITEM-09, HER-INV-08: only held Items add slots, which work like PC-card slots; an Item lying in
# an area adds nothing
@frozen
def pc_slots(state: dict, pc: str, with_items: bool = True) -> list[tuple[str, dict, int]]:
    """(slot ref, slot record, card number) for the PC cards, then Items held."""
    out = [(ref, s, n) for n in pc_cards(state, pc) for ref, s in card_slots(state, n)]
    if with_items:
        out += [(ref, s, n) for n in items_of(state, pc) for ref, s in card_slots(state, n)]
    return out


def is_free(state: dict, ref: str) -> bool:
    s = slot_state(state, ref)
    return s["t"] is None and not s["d"]


# HER-ITEM-11: Damage goes only on heart slots (of PC cards and held Items)
@frozen
def free_heart_slots(state: dict, pc: str) -> list[str]:
    return [ref for ref, s, n in pc_slots(state, pc) if s["heart"] and not slot_state(state, ref)["d"]]


def heart_slots(state: dict, pc: str) -> list[str]:
    return [ref for ref, s, n in pc_slots(state, pc) if s["heart"]]


@frozen
def is_dying(state: dict, pc: str) -> bool:
    """HER-DYING-01: all 3 PC cards on their b side and every heart slot covered, Items' included; derived, so
    it ends as soon as a Damage token is removed (HER-DYING-05)."""
    if any(face_side(state, n) != "back" for n in pc_cards(state, pc)):
        return False
    return not free_heart_slots(state, pc)


def injurable_cards(state: dict, pc: str) -> list[int]:
    """HER-INJURY-05, HER-AMB-38: the PC's cards showing their front with a Damage token on every slot
    (a voluntary severe injury is possible on them)."""
    return [n for n in pc_cards(state, pc) if face_side(state, n) == "front"
            and all(slot_state(state, ref)["d"] for ref, _ in card_slots(state, n))]


def injury_seats(state: dict) -> list[int]:
    """Seats that may take a voluntary severe injury now (they control a PC with an injurable card)."""
    return sorted({seat for pc in state["pcs"] if injurable_cards(state, pc) for seat in state["control"][pc]})


def available_tokens(state: dict, pc: str) -> list[int]:
    return [i for i, t in enumerate(state["pcs"][pc]["tokens"]) if t == "avail"]


def item_disabled(state: dict, item: int) -> bool:
    """HER-ITEM-12: every heart slot of the Item covered -> permanent effects off."""
    hearts = [ref for ref, s in card_slots(state, item) if s["heart"]]
    return bool(hearts) and all(slot_state(state, r)["d"] for r in hearts)


@frozen
def modifiers(state: dict, pc: str | None = None) -> list[dict]:
    """Active modifiers for a PC: its enabled Items (HER-ITEM-04) and persistent information (HER-INSTR-08)."""
    mods = []
    if pc is not None:
        for item in items_of(state, pc):
            if not item_disabled(state, item):
                mods += face(state, item)["permanent"]
    for number_s, card in state["cards"].items():
        number = int(number_s)
        if card["zone"] in ("timeline", "table") and C(state).card(number)["kind"] == "narrative":
            for mod in face(state, number)["persistent"]:
                if mod.get("pc") in (None, pc):
                    mods.append(mod)
    for entry in state["mods"]:
        if face_side(state, entry["card"]) == entry["face"] and in_play(state, entry["card"]):
            mods.append(entry["modifier"])
    return mods


def defence(state: dict, pc: str) -> int:
    """HER-COMBAT-09 / HER-ITEM-20: sum of Defence bonuses, 0 by default."""
    return sum(m.get("value", 0) for m in modifiers(state, pc) if m["kind"] == "defence")


def immune(state: dict, pc: str, tag: str | None) -> bool:
    return tag is not None and any(m["kind"] == "immune" and m["tag"] == tag for m in modifiers(state, pc))


def override(state: dict, rule: str, default: int) -> int:
    """HER-GEN-01: a card's persistent override replaces a default rule value."""
    for m in modifiers(state):
        if m["kind"] == "override" and m["rule"] == rule:
            return m["value"]
    return default


def npc_section(state: dict, npc: int) -> dict | None:
    card = C(state).card(npc)
    if card["kind"] != "narrative":
        return None
    return face(state, npc)["npc"]


def standees(state: dict, npc: int) -> list[tuple[int, str]]:
    """(standee index, raw area) of the NPC's standees on the Terrain."""
    return [(i, s["area"]) for i, s in enumerate(state["npcs"].get(str(npc), [])) if s["area"] is not None]


@frozen
def npcs_on_terrain(state: dict) -> list[tuple[int, int, str]]:
    out = []
    for key in sorted(state["npcs"], key=int):
        for i, area in standees(state, int(key)):
            out.append((int(key), i, area))
    return out


def is_hostile(state: dict, npc: int) -> bool:
    """HER-NPC-04."""
    sec = npc_section(state, npc)
    return bool(sec and sec["hostile"]) or tokens(state, npc, "hostile") > 0


def is_ally(state: dict, npc: int) -> bool:
    """HER-ALLY-01; an ally attacked becomes Hostile and stops being an ally (HER-AMB-48)."""
    sec = npc_section(state, npc)
    return (bool(sec and sec["ally"]) or tokens(state, npc, "ally") > 0) and not is_hostile(state, npc)


def occupants(state: dict, area: str) -> int:
    b = board(C(state), state)
    rep = b.c(area)
    count = sum(1 for p in state["pcs"].values() if p["area"] is not None and b.c(p["area"]) == rep)
    count += sum(1 for _, _, a in npcs_on_terrain(state) if b.c(a) == rep)
    return count


def is_full(state: dict, area: str, extra: int = 0) -> bool:
    """HER-MOVE-07 / HER-AMB-16: full when the Characters in it reach its capacity."""
    b = board(C(state), state)
    return occupants(state, area) + extra >= b.capacity.get(b.c(area), 0)


def same_area(state: dict, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    bd = board(C(state), state)
    return bd.c(a) == bd.c(b)


def char_area(state: dict, who: dict) -> str | None:
    if "pc" in who:
        return state["pcs"][who["pc"]]["area"]
    sts = state["npcs"].get(str(who["npc"]), [])
    return sts[who["s"]]["area"] if 0 <= who["s"] < len(sts) else None


def area_materials(state: dict, area: str) -> dict[str, int]:
    """Raw area -> Materials count for every raw area merged with `area`."""
    b = board(C(state), state)
    rep = b.c(area)
    return {a: n for a, n in state["area_materials"].items() if b.c(a) == rep}


@frozen
def items_in_area(state: dict, area: str) -> list[int]:
    b = board(C(state), state)
    rep = b.c(area)
    return sorted(int(k) for k, v in state["cards"].items() if v.get("zone") == "area" and b.c(v.get("area")) == rep)


@frozen
def card_actions(state: dict) -> list[tuple[int, int, dict]]:
    """(card, index, action) for every action offered by a card in play (face actions,
    NPC actions, actions created by instructions)."""
    out = []
    for key, card in state["cards"].items():
        number = int(key)
        if card["zone"] not in ("timeline", "table"):
            continue
        record = C(state).card(number)
        if record["kind"] != "narrative":
            continue
        for i, action in enumerate(face(state, number)["actions"]):
            out.append((number, i, action))
    for j, entry in enumerate(state["actions"]):
        if in_play(state, entry["card"]):
            out.append((entry["card"], 100 + j, entry["action"]))
    return out


def find_action(state: dict, card: int, index: int) -> dict | None:
    for number, i, action in card_actions(state):
        if number == card and i == index:
            return action
    return None


def seats_for(state: dict, pc: str | None) -> list[int]:
    if pc is None:
        return list(range(state["players"]))
    return state["control"][pc]


def link_area(state: dict, link: dict) -> str:
    """HER-TERRAIN-09, HER-TERRAIN-10, HER-INSTR-09, HER-INSTR-10: the area of a Terrain action. Its Reference token
    lies in an area;
    a Terrain swap puts tokens back in the same (mapped, or regrouped) areas of the new Terrain, so an action
    whose Terrain was swapped (possibly more than once) is performed on the replacing Terrain."""
    number, area = link["terrain"], link["area"]
    seen = set()
    while str(number) not in state["terrains"] and number not in seen:
        seen.add(number)
        new = next((int(k) for k in sorted(state["terrains"]) if C(state).card(int(k)).get("replaces") == number), None)
        if new is None:
            break
        f = C(state).card(new)["front"]
        number, area = new, f["regroup"] or f["area_map"].get(area, area)
    return f"{number}:{area}"
