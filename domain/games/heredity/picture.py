"""The board picture: what the family's table shows, drawn from a viewer's `view` only (issues 12, 24).

Zones (domain/engine/board.py), each read at its real size: the chapter and who decides what now; the
Terrain (a small plan of the tiles as laid out, then each tile with its named areas where the book
prints them, the coloured lines between them, its crossable edges and Explore icons, and in each area
the PCs, NPC standees, Materials and Items there); the Timeline (each position's colour, its card with
what it says and does, tokens on it, the Hourglass); the decks, the Karma discard and a legend; then one
sheet per PC (body cards with their slots, Damage and Action tokens; Items; Materials, Defence, Dying).

Every card, area, PC and NPC carries its glossary key (`data-detail`, words/glossary.py); the page reads
their words from GET /games/{id}/glossary, which tells what this viewer's view shows.
"""

from __future__ import annotations

from domain.engine.board import Board, Item, Zone, seats_named

from .state import C
from .words import LAYOUT, area_name, card_name, join, npc_name, plural, possessive, prompt, terrain_name

LINES = LAYOUT["lines"]
PC_COLOURS = LAYOUT["pc_colours"]
ICON_ABBR = {"watch": "Watch", "speak": "Speak", "interact": "Interact", "heal": "Heal", "move": "Move",
             "attack": "Attack"}
ICON_SHORT = {"watch": "W", "speak": "S", "interact": "I", "heal": "H", "move": "M", "attack": "A"}
TIMELINE = {"green": "#2e8b57", "red": "#c62828", "blue": "#1f5fbf", "yellow": "#d4a017", "purple": "#7b3fa0"}
BACK, INK, PAPER = "#5b4a3a", "#2b2118", "#fffdf7"
LINE_MEANING = (("white", "open"), ("green", "open"), ("blue", "stops walking, not shots"),
                ("black", "blocks everything"), ("red", "burns who crosses"))


def _names(text: str, names: list) -> str:
    for seat in range(len(names) - 1, -1, -1):
        text = text.replace(f"Seat {seat}", names[seat])
    return text


def _area_key(ref: str) -> str:
    """'101:o1' -> 'location:101.o1' (the glossary's key of an area)."""
    return "location:" + ref.replace(":", ".")


def _status(board: Board, view: dict, names: list) -> None:
    z = board.zone("status", "Now", colour="#3b2f23")
    if view.get("outcome"):
        from .describe import _reason
        won = view["outcome"] == "victory"
        how = _reason(view, view.get("reason", ""))
        z.heading(f"Heredity: {view.get('title', '')}", colour="#1b5e20" if won else "#b71c1c")
        z.line(f"The chapter is {'won' if won else 'lost'}{': ' + how if how else ''}. The whole family "
               f"{'wins' if won else 'loses'} together.", size=14, bold=True, max_lines=5)
        return
    z.heading(f"Heredity: {view.get('title', '')}", sub="a chapter played together by the family")
    z.line(_names(prompt(view), names), size=13, max_lines=6)


# ----------------------------------------------------------------------------- the Terrain

def _people(view: dict) -> dict[str, list[tuple]]:
    """Who and what is in each area: (kind, text, colour, letter, key)."""
    out: dict[str, list[tuple]] = {}
    for pc, p in view["pcs"].items():
        if p["area"]:
            out.setdefault(p["area"], []).append(("pc", p["name"] + (" (Dying)" if p["dying"] else ""),
                                                  PC_COLOURS.get(p["colour"], "#555"), p["name"][0], f"pc:{pc}"))
    for npc, standees in (view.get("npcs") or {}).items():
        sec = (view["cards"].get(npc, {}) or {}).get("npc") or {}
        name = npc_name(view, npc)
        for i, st in enumerate(standees):
            if st.get("area"):
                tag = "ally" if sec.get("ally") else ("hostile" if sec.get("hostile") else "neutral")
                life = f", {st.get('damage', 0)}/{sec['life']} Damage" if sec.get("life") else ""
                colour = "#7b1f1f" if tag == "hostile" else "#3b6e3b" if tag == "ally" else "#666"
                label = f"{name}{' ' + str(i + 1) if len(standees) > 1 else ''} ({tag}{life})"
                out.setdefault(st["area"], []).append(("npc", label, colour, name[0], f"npc:{npc}"))
    for ref in view.get("references", []):
        if ref["kind"] == "item" and ref.get("area"):
            out.setdefault(ref["area"], []).append(
                ("item", "Item: " + card_name(view, ref["card"]).removeprefix("the "), "#8a5a00", "I",
                 f"card:{ref['card']}"))
    return out


def _plan(z: Zone, view: dict) -> None:
    """A small plan of the tiles as laid out (level 0; upper levels listed under it)."""
    placed = view["terrains"]
    ground = {k: p for k, p in placed.items() if p.get("level", 0) == 0}
    if not ground:
        return
    xs, ys = [p["x"] for p in ground.values()], [p["y"] for p in ground.values()]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    cell = min(110, (z.width - 20) / cols)
    h = min(64, cell * 0.6)
    y0 = z.y
    for key, p in ground.items():
        x, y = 10 + (p["x"] - min(xs)) * cell, y0 + (p["y"] - min(ys)) * (h + 4)
        z._open_item(f"card:{key}", "", f"{terrain_name(key)}: column {p['x'] - min(xs) + 1}, row {p['y'] - min(ys) + 1}")
        z.rect(x, y, cell - 4, h, rx=4, fill="#ece3cf", stroke="#8c7b5e")
        words = terrain_name(key).removeprefix("the ")
        z.text(x + (cell - 4) / 2, y + h / 2 + 4, words if len(words) * 6.6 < cell else words[:int(cell / 6.6)] + "…",
               size=11, text_anchor="middle", fill=INK)
        z._close_item(None, None)
    z.y = y0 + rows * (h + 4) + 4
    upper = [k for k, p in placed.items() if p.get("level", 0)]
    if upper:
        z.line("Upper level (by a Level Change): " + join([terrain_name(k) for k in upper]), size=12)


def _tile(z: Zone, view: dict, key: str, people: dict) -> None:
    """One Terrain tile: its areas where the book prints them, the lines between, edges and occupants."""
    face = view["terrain_faces"].get(key, {})
    back = face.get("face") == "back"
    z.line(f"Terrain: {terrain_name(key)}" + (" (flipped)" if back else ""), size=14, bold=True,
           key=f"card:{key}", target="")
    areas = list(face.get("areas", {}))
    heights = {a: 40 + 16 * len(people.get(f"{key}:{a}", [])) for a in areas}
    tw = z.width - 20
    th = max(230, 60 + sum(sorted(heights.values())[-2:]) + 40)
    x0, y0 = 10, z.y
    z.rect(x0, y0, tw, th, rx=8, fill="#e2d6bd" if back else "#ece3cf", stroke="#8c7b5e", stroke_width=2)
    spots = LAYOUT.get("terrain", {}).get(key, {}).get("areas", {})
    box_w = 150
    centres = {}
    for k, a in enumerate(areas):
        spot = spots.get(a)
        fx, fy = (spot["x"], spot["y"]) if spot else (0.25 + 0.5 * (k % 2), 0.25 + 0.5 * (k // 2))
        cx = x0 + min(max(fx * tw, box_w / 2 + 6), tw - box_w / 2 - 6)
        cy = y0 + min(max(fy * th, heights[a] / 2 + 8), th - heights[a] / 2 - 8)
        centres[a] = (cx, cy)
    for line in face.get("lines", []):
        a, b = centres.get(line["a"]), centres.get(line["b"])
        if a and b:
            colour = LINES.get(line["colour"], "#888")
            if line["colour"] == "white":
                z.line_between(*a, *b, "#6d6253", None, 9)
            z.line_between(*a, *b, colour, "10 4" if line["colour"] == "red" else None, 6)
    _edges(z, face.get("edges", {}), x0, y0, tw, th)
    taken = {(p["x"], p["y"], p.get("level", 0)) for p in view["terrains"].values()}
    pos = view["terrains"][key]
    step = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
    for icon in face.get("icons", []):
        edge = icon.get("edge")
        if icon.get("kind") != "explore" or edge not in step:
            continue
        dx, dy = step[edge]
        if (pos["x"] + dx, pos["y"] + dy, pos.get("level", 0)) in taken:
            continue
        word = dict(N="north", S="south", E="east", W="west")[edge]
        ex, ey = {"N": (tw / 2, 12), "S": (tw / 2, th - 12), "E": (tw - 50, th * 0.5), "W": (50, th * 0.5)}[edge]
        z._open_item(None, None, f"Explore {word} from {terrain_name(key)}")
        z.rect(x0 + ex - 46, y0 + ey - 10, 92, 20, rx=9, fill="#fff3c4", stroke="#b08d2c")
        z.text(x0 + ex, y0 + ey + 5, f"Explore {word}", size=12, text_anchor="middle", fill=INK)
        z._close_item(None, None)
    for a in areas:
        ref = f"{key}:{a}"
        cx, cy = centres[a]
        here = people.get(ref, [])
        cap = face.get("areas", {}).get(a, {}).get("capacity")
        mats = view["area_materials"].get(ref)
        h = heights[a]
        sub = ", ".join(x for x in ((f"room for {cap}" if cap else ""), (plural(mats, "Material") if mats else "")) if x)
        words = area_name(ref).removeprefix("the ") + (f" ({sub})" if sub else "") + \
            ("".join(f". {label}" for _, label, *_ in here))
        z._open_item(_area_key(ref), None, words)
        bx, by = cx - box_w / 2, cy - h / 2
        z.rect(bx, by, box_w, h, rx=8, fill=PAPER, stroke="#6d6253")
        z.text(bx + 6, by + 16, area_name(ref).removeprefix("the ")[:21], size=12, font_weight="bold", fill=INK)
        z.text(bx + 6, by + 31, sub or "—", size=11, fill="#5b5045")
        for i, (kind, label, colour, letter, _key) in enumerate(here):
            y = by + 40 + 16 * i
            if kind == "item":
                z.rect(bx + 6, y + 2, 10, 10, fill=colour)
            else:
                z.circle(bx + 11, y + 7, 6, fill=colour, stroke="#222")
            z.text(bx + 21, y + 12, label[:22], size=11, fill=INK)
        z._close_item(None, None)
    z.y = y0 + th + 8


def _edges(z: Zone, edges: dict, x0: float, y0: float, tw: float, th: float) -> None:
    for side, segments in edges.items():
        total = max((seg["span"][1] for seg in segments if seg.get("span")), default=1) or 1
        for seg in segments:
            a, b = (seg.get("span") or [0, total])
            length = tw if side in "NS" else th
            f0, f1 = 8 + (length - 16) * a / total, 8 + (length - 16) * b / total - 4
            pts = {"N": (x0 + f0, y0 + 3, x0 + f1, y0 + 3), "S": (x0 + f0, y0 + th - 3, x0 + f1, y0 + th - 3),
                   "W": (x0 + 3, y0 + f0, x0 + 3, y0 + f1), "E": (x0 + tw - 3, y0 + f0, x0 + tw - 3, y0 + f1)}.get(side)
            if pts is None:
                continue
            colour = seg.get("colour", "open")
            if colour in ("white", "open"):
                z.line_between(*pts, "#6d6253", "3 3" if colour == "open" else None, 7)
            if colour != "open":
                z.line_between(*pts, LINES.get(colour, "#888"), "6 3" if colour == "red" else None, 5)


def _terrain(board: Board, view: dict) -> None:
    z = board.zone("terrain", "The Terrain", colour="#6b5a3a")
    z.heading("The Terrain", sub="areas, the lines between them, who is where")
    _plan(z, view)
    people = _people(view)
    ground = sorted(view["terrains"].items(), key=lambda kv: (kv[1].get("level", 0), kv[1]["y"], kv[1]["x"]))
    for key, _ in ground:
        _tile(z, view, key, people)
    lost = [label for ref, rows in people.items() if not any(ref.startswith(k + ":") for k in view["terrains"])
            for _, label, *_ in rows]
    if lost:
        z.line("Elsewhere: " + join(lost), size=12)
    npcs = []
    for npc, standees in (view.get("npcs") or {}).items():
        placed = [st for st in standees if st.get("area")]
        where = join([area_name(st["area"]).removeprefix("the ") for st in placed]) or "off the board"
        damage = sum(st.get("damage", 0) for st in standees)
        npcs.append(Item(npc_name(view, npc), key=f"npc:{npc}",
                         lines=[f"Damage taken: {damage}", f"{plural(len(standees), 'standee')}: {where}"]))
    if npcs:
        z.line("Characters of the cards", bold=True)
        z.items(npcs, per_row=2)


# ----------------------------------------------------------------------------- the Timeline, decks

def _timeline(board: Board, view: dict) -> None:
    z = board.zone("timeline", "The Timeline", colour="#8a5a00")
    z.heading("The Timeline", sub="the Hourglass moves from top to bottom")
    for i, pos in enumerate(view["timeline"]):
        here = view["hourglass"] == i
        colour = pos.get("colour")
        lines: list[str] = []
        if pos.get("card") is not None:
            number = pos["card"]
            card = view["cards"].get(str(number), {})
            title = card_name(view, number).removeprefix("the ")
            toks = card.get("tokens", {})
            if any(toks.values()):
                lines.append("On it: " + join([plural(v, "token" if k == "generic" else f"{k} token")
                                               for k, v in toks.items() if v]))
            for text in (card.get("narrative"),):
                if text:
                    lines.append(text)
            key = f"card:{number}"
        else:
            title, key = f"empty {colour or ''} position".replace("  ", " "), None
        below = [card_name(view, b["card"]).removeprefix("the ") for b in pos.get("below", [])
                 if b.get("card") is not None]
        if below:
            lines.append("Below: " + join(below))
        item = Item(title[:1].upper() + title[1:], key=key, lines=lines,
                    fill="#fff6d6" if here else PAPER, strong=here, stripe=TIMELINE.get(colour, "#bbb"),
                    badge="Hourglass" if here else None, max_lines=4)
        z.items([item], per_row=1)


def _decks(board: Board, view: dict) -> None:
    z = board.zone("decks", "Decks, Karma and the legend", colour="#5b4a3a")
    karma = view["karma"]
    z.heading("Decks", sub="face down")
    z.items([Item("Adventure deck", fill=BACK, ink="#f3eadb", say="the Adventure deck, face down"),
             Item("Karma deck", badge=str(karma["deck_count"]), fill=BACK, ink="#f3eadb",
                  say=f"the Karma deck: {plural(karma['deck_count'], 'card')}"),
             Item("Secrets deck", fill=BACK, ink="#f3eadb", say="the Secrets deck, face down")], per_row=3,
            title_size=12)
    z.line("Karma discard", bold=True)
    discard = karma.get("discard", [])
    if discard:
        z.items([Item(card_name(view, n).removeprefix("the Karma card "), key=f"card:{n}", fill="#efe7f7")
                 for n in discard], per_row=3, title_size=12)
    else:
        z.line("none", fill="#5e554f")
    z.line(f"Burned cards kept for reference: {len(view.get('archive', {}))}", size=12)
    z.line("Lines between areas", bold=True)
    for colour, meaning in LINE_MEANING:
        y = z.y
        z._open_item(None, None, f"{colour} line: {meaning}")
        if colour == "white":
            z.line_between(12, y + 8, 44, y + 8, "#6d6253", None, 8)
        z.line_between(12, y + 8, 44, y + 8, LINES[colour], "6 3" if colour == "red" else None, 5)
        z.text(52, y + 13, f"{colour}: {meaning}", size=12, fill=INK)
        z._close_item(None, None)
        z.y += 20
    z.line("Slots: W Watch, S Speak, I Interact, H Heal, M Move, A3 an attack of Power 3, ♥ a heart slot "
           "(takes Damage). A red square is Damage, a disc an Action token.", size=12, max_lines=4)


# ----------------------------------------------------------------------------- the PCs

def _slots(z: Zone, view: dict, number, fill=PAPER, title: str = "") -> None:
    card = view["cards"].get(str(number), {})
    try:
        slots = C(view).face(int(number), card.get("face", "front")).get("slots", [])
    except (KeyError, TypeError, ValueError):
        slots = card.get("slots", [])
    said = []
    for sl in slots:
        rec = view["slots"].get(f"{number}.{sl['id']}", {})
        icons = "/".join(ICON_ABBR.get(i, i) for i in sl.get("icons", []))
        bits = [icons or "slot"] + ([f"attack Power {sl['attack']['power']}"] if sl.get("attack") else []) + \
            (["heart"] if sl.get("heart") else []) + (["Damage"] if rec.get("d") else []) + \
            ([f"{possessive(view['pcs'].get(rec['t'], {}).get('name', 'a PC'))} Action token"] if rec.get("t") else [])
        said.append(" ".join(bits))
    z._open_item(f"card:{number}", None, f"{title}. Slots: " + "; ".join(said) if said else title)
    per_row = 4
    rows = (len(slots) + per_row - 1) // per_row or 1
    h = 24 + rows * 26
    y0 = z.y
    z.rect(10, y0, z.width - 20, h, rx=5, fill=fill, stroke="#8a7a66")
    z.text(16, y0 + 16, title[:40], size=12, font_weight="bold", fill=INK)
    sw = (z.width - 32) / per_row
    for i, sl in enumerate(slots):
        sx, sy = 16 + (i % per_row) * sw, y0 + 22 + (i // per_row) * 26
        rec = view["slots"].get(f"{number}.{sl['id']}", {})
        z.rect(sx, sy, sw - 6, 22, rx=3, fill="#fbe3e3" if sl.get("heart") else "#ffffff", stroke="#999")
        text = " ".join(ICON_SHORT.get(k, "?") for k in sl.get("icons", []))
        if sl.get("attack"):
            text += f" A{sl['attack']['power']}"
        text += " ♥" if sl.get("heart") else ""
        z.text(sx + 4, sy + 16, text.strip()[:8], size=12, fill=INK)
        if rec.get("d"):
            z.rect(sx + sw - 22, sy + 4, 13, 14, fill="#b71c1c")
        elif rec.get("t"):
            colour = PC_COLOURS.get(view["pcs"].get(rec["t"], {}).get("colour"), "#555")
            z.circle(sx + sw - 15, sy + 11, 7, fill=colour, stroke="#222")
    z._close_item(None, None)
    z.y = y0 + h + 6


def _sheet(board: Board, view: dict, names: list, pc: str) -> None:
    p = view["pcs"][pc]
    colour = PC_COLOURS.get(p["colour"], "#555")
    seats = join([seats_named(names, k) for k in p.get("controllers", [])])
    z = board.zone(f"pc-{pc}", f"{p['name']} ({seats})", colour=colour)
    waiting = (view.get("pending") or {}).get("pc") == pc
    z.heading(f"{p['name']} ({seats})" + (", DYING" if p["dying"] else ""),
              sub="a decision waits on this PC" if waiting else None, key=f"pc:{pc}")
    where = area_name(p["area"]).removeprefix("the ") if p["area"] else "off the Terrain"
    spare = sum(1 for tok in p["tokens"] if tok == "avail")
    z.line(f"In {where}; {plural(p['materials'], 'Material')}; Defence {p['defence']}", size=13,
           key=_area_key(p["area"]) if p["area"] else None, target="")
    z.line(f"Action tokens: {spare} ready, {len(p['tokens']) - spare} placed", size=13)
    for card in p["cards"]:
        part = card_name(view, card["number"]).split(" ")[-1].title()
        _slots(z, view, card["number"], title=part + (" (wounded side)" if card["face"] == "back" else ""))
    for item in p["items"]:
        card = view["cards"].get(str(item), {})
        label = card_name(view, item).removeprefix("the ") + (" (disabled)" if card.get("disabled") else "")
        _slots(z, view, item, fill="#efe7ff" if card.get("colour") == "grey" else "#f3e2cc",
               title=label[:1].upper() + label[1:])


def picture(view: dict, viewer, names: list) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    board = Board(f"Heredity: {view.get('title', '')}")
    _status(board, view, names)
    _terrain(board, view)
    _timeline(board, view)
    for pc in view["pcs"]:
        _sheet(board, view, names, pc)
    _decks(board, view)
    return board.render()
