"""What a viewer may see (HER-HIDDEN-01, HER-HIDDEN-02, HER-HIDDEN-03, HER-HIDDEN-04, HER-HIDDEN-05, HER-HIDDEN-06,
HER-HIDDEN-07, HER-HIDDEN-08, HER-HIDDEN-09, HER-HIDDEN-10, HER-HIDDEN-11, HER-HIDDEN-12). The game is cooperative:
every seat sees the
same table; what is hidden (deck contents, unrevealed faces, the Karma order) is hidden
from everyone until the rules reveal it."""

from __future__ import annotations

from .state import (
    C, card_actions, card_zone, defence, face, face_side, is_ally, is_dying, is_hostile, item_disabled, items_of,
    link_area, npc_section,
)


def card_public(s: dict, number: int, side: str | None = None) -> dict:
    """The visible face of a card in play (never its other face, HER-HIDDEN-02, HER-HIDDEN-03); `side` names a face
    already revealed (the archive of burned cards, HER-CARDS-10)."""
    content = C(s)
    rec = content.card(number)
    side = side or face_side(s, number)
    f = content.face(number, side)
    out = {"number": number, "face": side, "label": f"{number}{'b' if side == 'back' else ''}", "kind": rec["kind"],
           "zone": card_zone(s, number), "tokens": s["cards"].get(str(number), {}).get("tokens", {})}
    if rec["kind"] == "narrative":
        out.update({"narrative": f["narrative"], "reader": f["reader"], "instructions": f["instructions"],
                    "event": f["event"], "actions": f["actions"], "persistent": f["persistent"]})
        if f["npc"]:
            out["npc"] = {k: f["npc"][k] for k in ("name", "life", "defence", "ai", "death", "standees")}
            out["npc"]["hostile"] = is_hostile(s, number)
            out["npc"]["ally"] = is_ally(s, number)
    elif rec["kind"] == "item":
        out.update({"name": f["name"], "value": f["value"], "anchor": f["anchor"], "colour": rec["colour"],
                    "slots": [{k: v for k, v in sl.items()} for sl in f["slots"]], "permanent": f["permanent"],
                    "upgrades": [{"cost": u["cost"]} for u in f["upgrades"]], "disabled": item_disabled(s, number)})
    elif rec["kind"] == "family":
        out.update({"event": f["event"], "defeat": f["defeat"], "narrative": f["narrative"]})
    elif rec["kind"] == "karma":
        out.update({"name": rec["name"], "type": rec["type"], "value": rec["value"], "fails": rec["fails"]})
    return out


def terrain_public(s: dict, number: int) -> dict:
    """The visible face of a laid-out Terrain: areas, lines, edges and icons (an Explore
    icon shows only the number of the Terrain it leads to, HER-HIDDEN-04, HER-HIDDEN-05)."""
    f = face(s, number)
    icons = [{k: v for k, v in icon.items() if k != "ops"} for icon in f["icons"]]
    return {"face": face_side(s, number), "areas": f["areas"], "lines": f["lines"], "edges": f["edges"],
            "icons": icons, "regroup": f["regroup"]}


def references(s: dict) -> list[dict]:
    """Reference token pairs (HER-INV-06, HER-INV-10, HER-INSTR-09, HER-AMB-44): one pair per Item lying in an area and
    one per Terrain action of a card in play; each pair has its own id (one token on the card, one in the area).
    They are derived from the table, so a pick-up, a burn or a flip removes them at once."""
    out = []
    for key, card in sorted(s["cards"].items(), key=lambda kv: int(kv[0])):
        if card.get("zone") == "area":
            out.append({"id": f"R{key}", "kind": "item", "card": int(key), "area": card["area"]})
    seen = set()
    for number, idx, action in sorted(card_actions(s), key=lambda x: (x[0], x[1])):
        link = action["link"]
        if link["kind"] == "terrain":
            area = link_area(s, link)                       # follows Terrain swaps (HER-TERRAIN-09)
            if (number, area) not in seen:
                seen.add((number, area))
                out.append({"id": f"R{number}@{area}", "kind": "terrain_action", "card": number, "area": area})
    return out


def view(s: dict, viewer) -> dict:
    content = C(s)
    karma = s["karma"]
    in_play = [int(k) for k, c in s["cards"].items() if c["zone"] not in ("burned", "deck")]
    # HER-CARDS-10 / HER-HIDDEN-06: a burned card can be consulted, on the faces revealed during the chapter only
    burned = {k: {"faces": list(v), **{side: card_public(s, int(k), side) for side in v}}
              for k, v in s["revealed"].items() if card_zone(s, int(k)) == "burned"}
    pcs = {}
    for pc, p in s["pcs"].items():
        pcs[pc] = {"name": content.pc(pc)["name"], "colour": content.pc(pc)["colour"], "area": p["area"],
                   "tokens": p["tokens"], "materials": p["materials"], "items": items_of(s, pc),
                   "defence": defence(s, pc), "dying": is_dying(s, pc), "controllers": s["control"][pc],
                   "cards": [card_public(s, n) for n in
                             (content.pc(pc)["cards"][x] for x in ("head", "torso", "feet"))]}
    out = {
        "game": "heredity", "chapter": s["chapter"], "title": content.title, "viewer": viewer,
        "outcome": s["over"], "reason": s["reason"],
        "timeline": s["timeline"], "hourglass": s["hourglass"],
        "cards": {str(n): card_public(s, n) for n in sorted(in_play)},
        "archive": burned,                                                     # HER-HIDDEN-06
        "terrains": s["terrains"],
        "terrain_faces": {k: terrain_public(s, int(k)) for k in s["terrains"]},
        "markers": s["markers"], "area_materials": s["area_materials"], "references": references(s),
        "pcs": pcs, "slots": s["slots"], "npcs": s["npcs"],
        "karma": {"deck_count": len(karma["deck"]), "composition": sorted(karma["deck"] + karma["discard"]),
                  "discard": karma["discard"], "burned": karma["burned"]},      # HER-HIDDEN-08
        "window_open": s["window"] is not None and s["pending"] is None and len(s["stack"]) == s["window"],
        "pending": s["pending"], "actions": s["actions"],
        "campaign": campaign(s),
    }
    return out


def item_damage(s: dict, item: int) -> list[str]:
    """The slots of an Item holding a Damage token: the Item card keeps them into the next chapter."""
    return [sl["id"] for sl in face(s, item)["slots"] if s["slots"].get(f"{item}.{sl['id']}", {}).get("d")]


def campaign(s: dict) -> dict:
    """What carries over to the next chapter (HER-CAMPAIGN-02, HER-CAMPAIGN-03): pass it back as options.campaign."""
    inv = {}
    for pc in s["pcs"]:
        inv[pc] = {"materials": s["pcs"][pc]["materials"],
                   "items": [{"card": i, "face": face_side(s, i), "anchor": s["cards"][str(i)]["anchor"],
                              "damage": item_damage(s, i)} for i in items_of(s, pc)]}
    return {"chapter": s["chapter_number"] + 1, "karma": sorted(s["karma"]["deck"] + s["karma"]["discard"]),
            "karma_burned": s["karma"]["burned"], "inventories": inv}
