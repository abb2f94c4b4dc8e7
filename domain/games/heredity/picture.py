"""The board picture: what the family's table shows, drawn from a viewer's `view` only.

Top: the chapter, and who decides what now (the prompt, in the players' names). Left: the
Terrain tiles laid out on their grid, each with its name, its named areas, the coloured lines
between them (white, green, blue, black, red), Explore edges, and in each area the PCs, NPC
standees (name, Damage, hostile or ally), Materials and Items lying there. Right: the Timeline
(each position's colour, its card, tokens on it, the Hourglass), the decks as backs with their
size and the Karma discard by name. Bottom: one sheet per PC: body cards with their slots
(icons, hearts, Damage, Action tokens), Items by name, Materials, Defence, Dying. Names and
coordinates are data in content/layout.toml; words come from words.py.
"""

from __future__ import annotations

from domain.engine.svg import Svg

from .state import C
from .words import LAYOUT, area_name, card_name, join, npc_name, plural, possessive, prompt, terrain_name

CANVAS = LAYOUT["canvas"]
LINES = LAYOUT["lines"]
PC_COLOURS = LAYOUT["pc_colours"]
ICON_ABBR = {"watch": "W", "speak": "S", "interact": "I", "heal": "H", "move": "M", "attack": "A"}
BACK, INK, PAPER = "#5b4a3a", "#2b2118", "#fffdf7"


def _names(text: str, names: list) -> str:
    for seat in range(len(names) - 1, -1, -1):
        text = text.replace(f"Seat {seat}", names[seat])
    return text


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > width and line:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return out + ([line] if line else [])


def _status(pic: Svg, view: dict, names: list) -> None:
    pic.text(16, 26, f"Heredity: {view.get('title', '')}", size=18, font_weight="bold")
    if view.get("outcome"):
        from .describe import _reason
        won = view["outcome"] == "victory"
        how = _reason(view, view.get("reason", ""))
        text = f"The chapter is {'won' if won else 'lost'}{': ' + how if how else ''}. The whole family " \
               f"{'wins' if won else 'loses'} together."
        pic.text(16, 48, text[:150], size=14, font_weight="bold", fill="#1b5e20" if won else "#b71c1c")
        return
    lines = _wrap(_names(prompt(view), names), 150)
    for i, line in enumerate(lines[:2]):
        pic.text(16, 46 + i * 15, line + (" ..." if i == 1 and len(lines) > 2 else ""), size=12,
                 font_weight="bold" if i == 0 else None)


def _tiles(view: dict) -> dict[str, tuple[float, float]]:
    """Top-left corner of each laid-out Terrain: the grid of level 0, upper levels in a row below."""
    t = CANVAS["tile"]
    placed = view["terrains"]
    ground = [p for p in placed.values() if p.get("level", 0) == 0] or list(placed.values())
    x0 = min((p["x"] for p in ground), default=0)
    y0 = min((p["y"] for p in ground), default=0)
    rows = max((p["y"] for p in ground), default=0) - y0 + 1
    out, upper = {}, 0
    for key, p in sorted(placed.items()):
        if p.get("level", 0) == 0:
            out[key] = (CANVAS["map_x"] + (p["x"] - x0) * t, CANVAS["map_y"] + 24 + (p["y"] - y0) * t)
        else:
            out[key] = (CANVAS["map_x"] + upper * t, CANVAS["map_y"] + 24 + rows * t + 30)
            upper += 1
    return out


def _spot(key: str, area: str, tile: tuple[float, float], k: int, n: int) -> tuple[float, float]:
    t = CANVAS["tile"]
    spot = LAYOUT.get("terrain", {}).get(key, {}).get("areas", {}).get(area)
    fx, fy = (spot["x"], spot["y"]) if spot else (0.25 + 0.5 * (k % 2), 0.25 + 0.5 * (k // 2) / max(1, n // 2))
    return tile[0] + fx * t, tile[1] + fy * t


def _map(pic: Svg, view: dict) -> None:
    t = CANVAS["tile"]
    tiles = _tiles(view)
    pic.text(CANVAS["map_x"], CANVAS["map_y"] + 14, "The Terrain", size=14, font_weight="bold")
    if any(p.get("level", 0) for p in view["terrains"].values()):
        y = max(y for _, y in tiles.values())
        pic.text(CANVAS["map_x"], y - 8, "Upper level (reached by a Level Change)", size=11, font_style="italic")
    centres: dict[str, tuple[float, float]] = {}
    for key, tile in tiles.items():
        face = view["terrain_faces"].get(key, {})
        back = face.get("face") == "back"
        pic.group(title=terrain_name(key))
        pic.rect(tile[0] + 2, tile[1] + 2, t - 4, t - 4, rx=6, fill="#ece3cf" if not back else "#e2d6bd",
                 stroke="#8c7b5e", stroke_width=2)
        pic.text(tile[0] + 8, tile[1] + 16, terrain_name(key)[:30] + (" (flipped)" if back else ""), size=11,
                 font_weight="bold", fill="#5d4a2f")
        _edges(pic, face.get("edges", {}), tile)
        areas = list(face.get("areas", {}))
        for k, area in enumerate(areas):
            centres[f"{key}:{area}"] = _spot(key, area, tile, k, len(areas))
        for line in face.get("lines", []):
            a, b = centres.get(f"{key}:{line['a']}"), centres.get(f"{key}:{line['b']}")
            if a and b:
                colour = LINES.get(line["colour"], "#888")
                if line["colour"] == "white":
                    pic.line(*a, *b, stroke="#6d6253", stroke_width=8)
                pic.line(*a, *b, stroke=colour, stroke_width=5, stroke_dasharray="10 4" if line["colour"] == "red" else None)
        pic.end()
    _areas(pic, view, centres)
    taken = {(p["x"], p["y"], p.get("level", 0)) for p in view["terrains"].values()}
    step = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    for key, tile in tiles.items():
        pos = view["terrains"][key]
        for icon in view["terrain_faces"].get(key, {}).get("icons", []):
            edge = icon.get("edge")
            if icon.get("kind") != "explore" or edge not in step:
                continue
            dx, dy = step[edge]
            if (pos["x"] + dx, pos["y"] + dy, pos.get("level", 0)) in taken:
                continue                                    # already explored that way
            ex, ey = {"N": (t / 2, 4), "S": (t / 2, t - 4), "E": (t - 4, t * 0.55), "W": (4, t * 0.55)}[edge]
            pic.rect(tile[0] + ex - 40, tile[1] + ey - 9, 80, 17, rx=8, fill="#fff3c4", stroke="#b08d2c")
            pic.text(tile[0] + ex - 35, tile[1] + ey + 4, f"Explore {dict(N='north', S='south', E='east', W='west')[edge]}",
                     size=10)


def _edges(pic: Svg, edges: dict, tile: tuple[float, float]) -> None:
    """Where a Terrain's border may be crossed into its neighbour: each edge segment in its line colour
    ('open' dotted), along the side of the tile it is printed on."""
    t = CANVAS["tile"]
    for side, segments in edges.items():
        total = max((seg["span"][1] for seg in segments if seg.get("span")), default=1) or 1
        for seg in segments:
            a, b = (seg.get("span") or [0, total])
            f0, f1 = 6 + (t - 12) * a / total, 6 + (t - 12) * b / total - 4
            x0, y0 = tile
            pts = {"N": (x0 + f0, y0 + 3, x0 + f1, y0 + 3), "S": (x0 + f0, y0 + t - 3, x0 + f1, y0 + t - 3),
                   "W": (x0 + 3, y0 + f0, x0 + 3, y0 + f1), "E": (x0 + t - 3, y0 + f0, x0 + t - 3, y0 + f1)}.get(side)
            if pts is None:
                continue
            colour = seg.get("colour", "open")
            if colour in ("white", "open"):
                pic.line(*pts, stroke="#6d6253", stroke_width=6, stroke_dasharray="3 3" if colour == "open" else None)
            if colour != "open":
                pic.line(*pts, stroke=LINES.get(colour, "#888"), stroke_width=4,
                         stroke_dasharray="6 3" if colour == "red" else None)


def _legend(pic: Svg, x: float, y: float) -> None:
    pic.text(x, y, "Lines (dotted border: open crossing):", size=10, font_weight="bold")
    lx = x + 232
    for colour, meaning in (("white", "open"), ("green", "open"), ("blue", "stops walking, not shots"),
                            ("black", "blocks all"), ("red", "burns who crosses")):
        if colour == "white":
            pic.line(lx, y - 4, lx + 18, y - 4, stroke="#6d6253", stroke_width=7)
        pic.line(lx, y - 4, lx + 18, y - 4, stroke=LINES[colour], stroke_width=4,
                 stroke_dasharray="6 3" if colour == "red" else None)
        pic.text(lx + 22, y, f"{colour}: {meaning}", size=9)
        lx += 34 + 5.2 * len(f"{colour}: {meaning}")


def _areas(pic: Svg, view: dict, centres: dict) -> None:
    people: dict[str, list[tuple[str, str, str]]] = {ref: [] for ref in centres}
    for pc, p in view["pcs"].items():
        if p["area"] in people:
            fill = PC_COLOURS.get(p["colour"], "#555")
            people[p["area"]].append((p["name"] + (" (Dying)" if p["dying"] else ""), fill, p["name"][0]))
    for npc, standees in view.get("npcs", {}).items():
        card = view["cards"].get(npc, {})
        sec = card.get("npc") or {}
        name = npc_name(view, npc)
        for i, st in enumerate(standees):
            if st.get("area") in people:
                tag = "ally" if sec.get("ally") else ("hostile" if sec.get("hostile") else "neutral")
                life = f", {st.get('damage', 0)} of {sec['life']} Damage" if sec.get("life") else ""
                people[st["area"]].append((f"{name}{' ' + str(i + 1) if len(standees) > 1 else ''}",
                                           "#7b1f1f" if tag == "hostile" else "#3b6e3b" if tag == "ally" else "#666",
                                           name[0]))
                people[st["area"]].append((f"  {tag}{life}", "", ""))
    for ref in view.get("references", []):
        if ref["kind"] == "item" and ref["area"] in people:
            name = card_name(view, ref["card"]).removeprefix("the ")
            people[ref["area"]].append((f"Item: {name}", "#8a5a00", "I"))
    t = CANVAS["tile"]
    tiles = _tiles(view)
    for ref, (x, y) in centres.items():
        key, _, area = ref.partition(":")
        face = view["terrain_faces"].get(key, {})
        cap = face.get("areas", {}).get(area, {}).get("capacity")
        here = people.get(ref, [])
        h = 34 + 13 * len(here)
        floor = tiles[key][1] + t - 4 - h + 16            # a crowded area grows upward, staying on its tile
        y = min(y, floor)
        pic.group(title=area_name(ref))
        pic.rect(x - 48, y - 16, 104 if len(here) else 96, h, rx=8, fill=PAPER, stroke="#6d6253")
        pic.text(x - 44, y - 3, area_name(ref).removeprefix("the ")[:18], size=10, font_weight="bold")
        extra = []
        if view["area_materials"].get(ref):
            extra.append(plural(view["area_materials"][ref], "Material"))
        pic.text(x - 44, y + 9, (f"room for {cap}" if cap else "") + ("; " + join(extra) if extra else ""), size=9,
                 fill="#6d6253")
        for i, (label, fill, initial) in enumerate(here):
            if label.startswith("Item: "):
                pic.rect(x - 45, y + 12 + 13 * i, 9, 10, fill=fill)
            elif fill:
                pic.circle(x - 40, y + 17 + 13 * i, 5, fill=fill)
            pic.text(x - 32, y + 21 + 13 * i, label[:26], size=9)
        pic.end()


def _timeline(pic: Svg, view: dict, x: float) -> None:
    y = CANVAS["map_y"]
    pic.text(x, y + 14, "The Timeline (the Hourglass moves left to right)", size=14, font_weight="bold")
    colours = {"green": "#2e8b57", "red": "#c62828", "blue": "#1f5fbf", "yellow": "#d4a017", "purple": "#7b3fa0"}
    for i, pos in enumerate(view["timeline"]):
        yy = y + 26 + i * 44
        here = view["hourglass"] == i
        pic.rect(x, yy, 430, 38, rx=5, fill="#fff6d6" if here else PAPER, stroke="#b08d2c" if here else "#8a7a66",
                 stroke_width=3 if here else 1)
        pic.rect(x, yy, 10, 38, fill=colours.get(pos.get("colour"), "#bbb"))
        if pos.get("card") is not None:
            card = view["cards"].get(str(pos["card"]), {})
            toks = card.get("tokens", {})
            tok = (" - " + join([plural(v, "token" if k == "generic" else f"{k} token") for k, v in toks.items() if v])) \
                if any(toks.values()) else ""
            pic.text(x + 16, yy + 16, (card_name(view, pos["card"]) + tok)[:62], size=11)
        else:
            pic.text(x + 16, yy + 16, f"empty {pos.get('colour') or ''} position", size=11, fill="#888")
        below = [card_name(view, b["card"]) for b in pos.get("below", []) if b.get("card") is not None]
        if below:
            pic.text(x + 16, yy + 31, ("below: " + join(below))[:66], size=10, fill="#555")
        if here:
            pic.text(x + 372, yy + 24, "Hourglass", size=11, font_weight="bold", fill="#8a5a00")
    yy = y + 34 + len(view["timeline"]) * 44
    karma = view["karma"]
    decks = [("Adventure deck", None), (f"Karma deck: {plural(karma['deck_count'], 'card')}", None),
             ("Secrets deck", None)]
    pic.text(x, yy + 10, "Decks (face down)", size=13, font_weight="bold")
    for i, (text, _) in enumerate(decks):
        pic.rect(x + i * 144, yy + 18, 136, 34, rx=4, fill=BACK, stroke="#2b2118")
        pic.text(x + i * 144 + 8, yy + 40, text, size=11, fill="#f3eadb")
    discard = [card_name(view, n).removeprefix("the Karma card ") for n in karma.get("discard", [])]
    for i, line in enumerate(_wrap("Karma discard: " + (join(discard) or "none"), 70)[:3]):
        pic.text(x, yy + 70 + 14 * i, line, size=11)
    burned = len(view.get("archive", {}))
    pic.text(x, yy + 116, f"Burned cards kept for reference: {burned}", size=11, fill="#555")


def _sheet(pic: Svg, view: dict, names: list, pc: str, x: float, y: float) -> None:
    p = view["pcs"][pc]
    w, h = CANVAS["sheet_w"], CANVAS["sheet_h"]
    colour = PC_COLOURS.get(p["colour"], "#555")
    pic.group(title=f"{possessive(p['name'])} sheet")
    waiting = (view.get("pending") or {}).get("pc") == pc
    pic.rect(x, y, w, h, rx=8, fill="#fff6d6" if waiting else "#f7f1e6", stroke=colour, stroke_width=6 if waiting else 3)
    if waiting:
        pic.text(x + 10, y + h - 10, "A decision waits on this PC (see the top line)", size=10, font_weight="bold",
                 fill="#8a5a00")
    seats = join([names[k] if k < len(names) else f"Seat {k}" for k in p.get("controllers", [])])
    pic.circle(x + 14, y + 16, 7, fill=colour)
    pic.text(x + 26, y + 20, f"{p['name']} ({seats})"[:34], size=13, font_weight="bold")
    if p["dying"]:
        pic.text(x + w - 60, y + 20, "DYING", size=12, font_weight="bold", fill="#b71c1c")
    where = area_name(p["area"]).removeprefix("the ") if p["area"] else "off the Terrain"
    spare = sum(1 for tok in p["tokens"] if tok == "avail")
    pic.text(x + 10, y + 37, f"In {where}; {plural(p['materials'], 'Material')}; Defence {p['defence']}"[:46], size=10)
    pic.text(x + 10, y + 50, f"Action tokens: {spare} ready, {len(p['tokens']) - spare} placed", size=10)
    yy = y + 58
    for card in p["cards"]:
        _card_slots(pic, view, card["number"], card_name(view, card["number"]).split(" ")[-1].title() +
                    (" (wounded side)" if card["face"] == "back" else ""), x + 8, yy, w - 16)
        yy += 36
    for item in p["items"][:3]:
        card = view["cards"].get(str(item), {})
        label = card_name(view, item).removeprefix("the ") + (" (disabled)" if card.get("disabled") else "")
        _card_slots(pic, view, item, label, x + 8, yy, w - 16, fill="#efe7ff" if card.get("colour") == "grey" else "#f3e2cc")
        yy += 36
    if len(p["items"]) > 3:
        pic.text(x + 10, yy + 10, f"and {plural(len(p['items']) - 3, 'more Item')}", size=10)
    pic.end()


def _card_slots(pic: Svg, view: dict, number: int, label: str, x: float, y: float, w: float, fill=PAPER) -> None:
    card = view["cards"].get(str(number), {})
    pic.rect(x, y, w, 32, rx=4, fill=fill, stroke="#8a7a66")
    pic.text(x + 6, y + 13, label[:40], size=10, font_weight="bold")
    try:
        slots = C(view).face(number, card.get("face", "front")).get("slots", [])
    except KeyError:
        slots = card.get("slots", [])
    for i, sl in enumerate(slots[:6]):
        sx = x + 6 + i * 50
        ref = f"{number}.{sl['id']}"
        rec = view["slots"].get(ref, {})
        pic.rect(sx, y + 16, 46, 13, rx=3, fill="#fbe3e3" if sl.get("heart") else "#ffffff", stroke="#999")
        text = "".join(ICON_ABBR.get(i, "?") for i in sl.get("icons", [])) or ""
        if sl.get("attack"):
            text += f"A{sl['attack']['power']}"
        text += (" \u2665" if sl.get("heart") else "")
        pic.text(sx + 3, y + 26, text[:7], size=9)
        if rec.get("d"):
            pic.rect(sx + 34, y + 17, 10, 11, fill="#b71c1c")      # a Damage token
        elif rec.get("t"):
            colour = PC_COLOURS.get(view["pcs"].get(rec["t"], {}).get("colour"), "#555")
            pic.circle(sx + 39, y + 22, 5, fill=colour, stroke="#222")  # an Action token


def picture(view: dict, viewer, names: list) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    tiles = _tiles(view)
    t = CANVAS["tile"]
    map_bottom = max((yy for _, yy in tiles.values()), default=CANVAS["map_y"]) + t + 18
    side_bottom = CANVAS["map_y"] + 170 + len(view["timeline"]) * 44
    map_right = max((xx for xx, _ in tiles.values()), default=0) + t
    width = max(CANVAS["width"], int(map_right + 460))
    side_x = max(CANVAS["side_x"], int(map_right + 20))
    sheets_y = max(map_bottom, side_bottom)
    height = int(sheets_y + CANVAS["sheet_h"] + 30)
    pic = Svg(width, height, title=f"Heredity: {view.get('title', '')}")
    _status(pic, view, names)
    _map(pic, view)
    _timeline(pic, view, side_x)
    _legend(pic, 16, map_bottom - 4)
    pic.text(16, sheets_y + 14, "The family", size=14, font_weight="bold")
    pic.text(110, sheets_y + 14, "Slots: W Watch, S Speak, I Interact, H Heal, M Move, A3 Attack of power 3, "
                                 "\u2665 heart slot; red square = Damage, disc = Action token", size=10)
    for i, pc in enumerate(view["pcs"]):
        _sheet(pic, view, names, pc, 16 + i * (CANVAS["sheet_w"] + 12), sheets_y + 22)
    return pic.render()
