"""Effects on cards and the Terrain: take, flip, burn, anchor, tokens, Terrain placement and swaps.
"""

from __future__ import annotations

from .items import equip
from ..resolver import actor_pc, cond, Ctx, push, resolve_here, self_of, top
from ..state.queries import C, card_zone, face, face_side, npcs_on_terrain, same_area, standees
from ..state.timeline import anchor_fact


def op_if(t, op):
    branch = op["then"] if cond(t, op["cond"]) else op["else"]           # HER-INSTR-05, HER-AMB-09
    push(t, branch, top(t)["self"], actor_pc(t))


def op_seq(t, op):
    push(t, op["body"], top(t)["self"], actor_pc(t))


def op_take(t, op):
    take_card(t, op["card"], actor_pc(t), dict(top(t)["vars"]))


# HER-NARRATIVE-02, HER-NARRATIVE-03, HER-CONTROL-06: the Narrative section is read (by the named PC's player), the
# Instruction section resolved in order
def take_card(t: Ctx, number: int, actor, vars_=None) -> None:
    """HER-CARDS-02, HER-CARDS-03: take card N front up and apply its effects."""
    s = t.s
    rec = C(s).card(number)
    kind = rec["kind"]
    if kind == "terrain":
        place_terrain(t, number, None, 0)
        return
    if kind == "item":
        t.emit("CardTaken", card=number, zone="table")
        if actor is not None and not (vars_ or {}).get("allocate"):
            equip(t, actor, number)
        else:
            push(t, [{"op": "gainItem", "item": number, "recipient": "ALLOCATE"}], None, None)
        return
    reader = rec["front"].get("reader") if kind == "narrative" else None
    t.emit("CardTaken", card=number, zone="table", reader=reader,
           reader_seats=s["control"].get(reader, []) if reader else [])
    if kind != "narrative":
        return
    ops = list(rec["front"]["instructions"])
    if rec["front"]["npc"] is not None:
        ops.append({"op": "npcEnter", "npc": number})
    push(t, ops, number, actor, "card", vars_, track_face=True)


# HER-NPC-09: leaving the Timeline is not a death: no Death effect here
def leave_timeline(t: Ctx, number: int, zone: str = "table") -> None:
    """HER-CARDS-11, HER-NPC-10, HER-AMB-06: out of its slot; standees and stack leave too."""
    s = t.s
    if card_zone(s, number) == "timeline":
        for pos in s["timeline"]:
            if pos["card"] == number:
                for b in pos["below"]:
                    if b["card"] is not None:
                        t.emit("CardUnanchored", card=b["card"], zone="table")
        t.emit("CardUnanchored", card=number, zone=zone)
        remove_standees(t, number)


def remove_standees(t: Ctx, number: int) -> None:
    for i, _ in standees(t.s, number):
        t.emit("NpcStandeeRemoved", npc=number, standee=i)


def op_flip(t, op):
    flip_card(t, self_of(t, op["card"]), actor_pc(t))


def flip_card(t: Ctx, number: int, actor) -> None:
    """HER-CARDS-04, HER-CARDS-05, HER-CARDS-06, HER-TIMELINE-12, HER-TIMELINE-13."""
    s = t.s
    rec = C(s).card(number)
    new = "back" if face_side(s, number) == "front" else "front"
    if rec.get("back") is None:
        new = "front"
    if rec["kind"] == "terrain":
        flip_terrain(t, number, new)
        return
    leave_timeline(t, number)
    t.emit("CardFlipped", card=number, face=new)
    if rec["kind"] == "narrative":
        f = rec[new] if new == "front" else rec["back"]
        ops = list(f["instructions"])
        if f["npc"] is not None:
            ops.append({"op": "npcEnter", "npc": number})
        push(t, ops, number, actor, "card", track_face=True)


def op_burn(t, op):
    burn_card(t, self_of(t, op["card"]))


def burn_card(t: Ctx, number: int) -> None:
    """HER-CARDS-08, HER-CARDS-09."""
    s = t.s
    leave_timeline(t, number, "table")
    remove_standees(t, number)
    if C(s).card(number)["kind"] == "item":
        for pc, p in s["pcs"].items():
            for i, where in enumerate(p["tokens"]):
                if isinstance(where, str) and where.startswith(f"{number}."):
                    # HER-CARDS-07: tokens of a card leaving play return spent
                    t.emit("TokenToMiddle", pc=pc, token=i)
    t.emit("CardBurned", card=number)


# HER-ANCHOR-09: anchoring never resolves the Event section; HER-ANCHOR-10: a re-anchor searches from the Hourglass
def op_anchor(t, op):
    """HER-ANCHOR-01, HER-ANCHOR-02, HER-ANCHOR-03, HER-ANCHOR-04, HER-ANCHOR-05, HER-ANCHOR-06, HER-ANCHOR-07: the
    position is fully determined by the search."""
    number = top(t)["self"]
    found = anchor_fact(t.s, number, op["colour"], op["vertical"])
    if card_zone(t.s, number) == "timeline":
        leave_timeline(t, number)
        found = anchor_fact(t.s, number, op["colour"], op["vertical"])
    t.turn.add(found)


def op_tokens(t, op):
    tgt = op["target"]
    sign = 1 if op["op"] == "addTokens" else -1
    if "area" in tgt:
        if op["kind"] == "materials":
            if sign > 0:
                t.emit("AreaMaterials", area=tgt["area"], delta=op["count"])
            else:
                remove_area_materials(t, tgt["area"], op["count"])
        return
    t.emit("CardTokens", card=self_of(t, tgt["card"]), kind=op["kind"], delta=sign * op["count"])


def remove_area_materials(t: Ctx, area: str, count: int) -> None:
    for raw, n in sorted(t.s["area_materials"].items()):
        if count and same_area(t.s, raw, area):
            k = min(n, count)
            t.emit("AreaMaterials", area=raw, delta=-k)
            count -= k


def op_place_materials(t, op):
    t.emit("AreaMaterials", area=resolve_here(t, op["area"]), delta=op["count"])


def op_place_terrain(t, op):
    place_terrain(t, op["terrain"], op.get("at"), op.get("level", 0))


def place_terrain(t: Ctx, number: int, at, level: int, pc_from: str | None = None) -> None:
    """HER-TERRAIN-01, HER-TERRAIN-09, HER-EXPLORE-05."""
    s = t.s
    rec = C(s).card(number)
    old = rec.get("replaces")
    if old is not None and str(old) in s["terrains"]:
        pos = s["terrains"][str(old)]
        t.emit("CardTaken", card=number, zone="terrain")
        t.emit("TerrainPlaced", terrain=number, x=pos["x"], y=pos["y"], level=pos.get("level", 0), replaces=old)
        mapping = rec["front"]["area_map"]
        regroup = rec["front"]["regroup"]
        relocate(t, old, number, lambda a: regroup or mapping.get(a, a))
        t.emit("CardBurned", card=old)
    else:
        x, y = at if at else rec.get("at", [len(s["terrains"]) * 3 + 20, 20])
        t.emit("CardTaken", card=number, zone="terrain")
        t.emit("TerrainPlaced", terrain=number, x=x, y=y, level=level, replaces=None)
    reveal(t, number)


def relocate(t: Ctx, old: int, new: int, mapping) -> None:
    """HER-TERRAIN-05, HER-TERRAIN-09, HER-TERRAIN-10: Characters and tokens keep their (mapped) areas."""
    s = t.s
    prefix = f"{old}:"

    def m(a):
        return f"{new}:{mapping(a[len(prefix):])}"
    for pc, p in s["pcs"].items():
        if p["area"] and p["area"].startswith(prefix):
            t.emit("PcMoved", pc=pc, area=m(p["area"]), reason="terrain")
    for n, i, a in npcs_on_terrain(s):
        if a.startswith(prefix):
            t.emit("NpcMoved", npc=n, standee=i, area=m(a), reason="terrain")
    for a, k in sorted(s["area_materials"].items()):
        if a.startswith(prefix) and m(a) != a:
            t.emit("AreaMaterials", area=a, delta=-k)
            t.emit("AreaMaterials", area=m(a), delta=k)
    for key, card in sorted(s["cards"].items()):
        if card.get("zone") == "area" and card["area"].startswith(prefix):
            t.emit("ItemDropped", item=int(key), area=m(card["area"]), ref=True)


def flip_terrain(t: Ctx, number: int, new: str) -> None:
    rec = C(t.s).card(number)
    f = rec[new] if new == "front" else rec["back"]
    t.emit("CardFlipped", card=number, face=new)
    regroup = f["regroup"]
    relocate(t, number, number, lambda a: regroup or f["area_map"].get(a, a))
    reveal(t, number)


# HER-TERRAIN-11: start symbols place the PCs; HER-TERRAIN-12: other symbols wait for a card to give them a meaning
def reveal(t: Ctx, number: int) -> None:
    """HER-TERRAIN-02, HER-TERRAIN-04, HER-TERRAIN-06, HER-SETUP-11: markers, Materials, start symbols of the visible
    face."""
    s = t.s
    side = face_side(s, number)
    f = face(s, number)
    markers = [f"{number}/{side}/{i}" for i, icon in enumerate(f["icons"]) if icon["kind"] in ("watch", "speak", "interact")]
    t.emit("MarkersSet", terrain=number, markers=markers)
    for icon in f["icons"]:
        if icon["kind"] == "materials":
            t.emit("AreaMaterials", area=f"{number}:{icon['area']}", delta=icon["count"])
        if icon["kind"] == "start" and s["pcs"].get(icon["pc"], {}).get("area", "x") is None:
            t.emit("PcMoved", pc=icon["pc"], area=f"{number}:{icon['area']}", reason="start")


def op_make_action(t, op):
    t.emit("ActionMade", card=top(t)["self"], action=op["action"])


def op_persistent(t, op):
    n = top(t)["self"]
    t.emit("ModifierAdded", card=n, face=face_side(t.s, n), modifier=op["modifier"])


def op_narrate(t, op):
    t.emit("Narrated", text=op["text"])


def op_run_event(t, op):
    ev = face(t.s, op["card"]).get("event")
    push(t, list(ev["ops"]) if ev else [], op["card"], None, "event", track_face=True)
