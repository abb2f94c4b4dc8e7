"""The board picture: what a player at the table sees, drawn from a viewer's `view` only (issues 12, 24).

Zones (domain/engine/board.py), each read at its real size: the round and who acts; the travel map
(every city at its place, the routes by kind, University cities with the discs on them and every
player's traveller); the Workshop (six spaces with their dice and bonus); the face-up displays with what
each card or tile does and the size of each face-down stack; the Institutions (Lectures, Meeting rooms,
Objectives); then one zone per seat, the viewer's first: resources, Innovation and Steam, the Research
tracks, the Store and the Mill (dice, gears, Programs), the hand (the viewer's own Partner cards by name
and effect, a count for everyone else's), deck and discard. Every card, tile, city and space carries its
glossary key (`data-detail`, words/glossary.py) and what a move names, `data-target`.
"""

from __future__ import annotations

from bisect import bisect_left

from domain.engine import load_toml
from domain.engine.board import Board, Item, Zone, seats_named, text_width, token
from domain.engine.svg import seat_colour

from . import content as C
from .words import AREA_NAMES, CHOICE_PROMPTS, cost_words, criteria_words, effect_words, plural

LAYOUT = load_toml(__package__, "layout.toml")
MAP = LAYOUT["map"]
ROUTES = load_toml(__package__, "map.toml")["route"]
DIE_FILL = {"yellow": "#c99a06", "blue": "#2f6db5", "green": "#3f8f3f", "purple": "#7a4a9e", "grey": "#6d6d6d"}
INK, CARD, EDGE = "#2b2620", "#fffdf7", "#8a7a66"
GEAR_SIGN = {"add": "+", "sub": "−"}
PENDING = {"ws6": "play a Partner card with the active die, or none", "adv": "the Advanced action",
           "endopt": "publish, build a gear, or end the turn"}
BONUS = {"research": "1 Research", "coal": "2 Coal", "money": "£3", "innovation": "1 Innovation", "brass": "1 Brass",
         "draw": "draw 2 cards"}
ROUTE_STYLE = {"road": ("#8a6a44", None, 2.5), "rail": ("#2b2620", "7 3", 2.5), "ferry": ("#2f6db5", "3 4", 2)}
SCIENCE_FILL = {"mathematics": "#e8eef7", "physics": "#f6ecd6", "astronomy": "#ece6f4", "engineering": "#e6f0e4",
                "none": "#fffdf7"}


def partner_key(card: str) -> str:
    """A Partner card's glossary key: its content id (a copy's "#n" suffix is not part of it)."""
    return "card:" + card.split("#")[0]


def partner_item(card: str, *, face_up: bool = True) -> Item:
    data = C.partner(card)
    cost = {"money": "costs £ to play", "coal": "costs Coal to play", "brass": "costs Brass to play"}.get(
        data.get("cost"), "")
    lines = [effect_words(data["effect"]) if data.get("effect") else "no effect",
             f"{data['science'].title() if data['science'] != 'none' else 'No Science'}, {data['prestige']} Prestige"
             + (f", {cost}" if cost else "")]
    return Item(data["name"], key=partner_key(card), lines=lines, fill=SCIENCE_FILL.get(data["science"], CARD),
                max_lines=4)


def _header(board: Board, view, names) -> None:
    z = board.zone("status", "Now", colour="#2b2620")
    turn, pending = view["turn"], view["pending"]
    if view["over"]:
        final = view.get("final") or []
        z.heading("The game is over", sub=", ".join(f"{seats_named(names, k)} {s['total']}"
                                                     for k, s in enumerate(final)) or None)
        return
    end = "; the end is triggered" if view["end_triggered"] else ""
    z.heading(f"Ada's Dream, round {view['round']}", sub=f"First player {seats_named(names, view['first'])}{end}")
    if view.get("draft"):
        draft = view["draft"]
        status = f"{seats_named(names, draft['order'][len(draft['picks'])])} drafts a tier-1 Partner card"
    else:
        what = f": {PENDING.get(pending['kind']) or CHOICE_PROMPTS.get(pending['kind'], 'a choice')}" \
            if pending else ": a Workshop turn or an Actions turn"
        status = f"{seats_named(names, turn['seat'])} to act{what}"
    z.line(status, size=13, max_lines=3)


# ----------------------------------------------------------------------------- the travel map

def _project(knots, value) -> float:
    xs = [k[0] for k in knots]
    i = min(max(bisect_left(xs, value), 1), len(knots) - 1)
    (a, pa), (b, pb) = knots[i - 1], knots[i]
    return pa + (pb - pa) * (value - a) / (b - a)


def _place_labels(points: dict[str, tuple[float, float]], sizes: dict[str, int], width: float, height: float):
    """Each city's label beside its dot, the first of eight spots that overlaps no label nor dot placed."""
    boxes: list[tuple[float, float, float, float]] = [(x - 7, y - 7, x + 7, y + 7) for x, y in points.values()]
    placed = {}

    def free(box) -> bool:
        x0, y0, x1, y1 = box
        if x0 < 2 or x1 > width - 2 or y0 < 2 or y1 > height - 2:
            return False
        return all(x1 <= a0 or x0 >= a1 or y1 <= b0 or y0 >= b1 for a0, b0, a1, b1 in boxes)

    def overlap(box) -> float:
        """How much a label box covers others (and leaves the map: far worse)."""
        x0, y0, x1, y1 = box
        out = 1000.0 * (max(0, 2 - x0) + max(0, x1 - width + 2) + max(0, 2 - y0) + max(0, y1 - height + 2))
        return out + sum(max(0, min(x1, a1) - max(x0, a0)) * max(0, min(y1, b1) - max(y0, b0))
                         for a0, b0, a1, b1 in boxes)

    for city, (x, y) in sorted(points.items(), key=lambda item: item[1][1]):
        size = sizes[city]
        w, h = text_width(C.CITIES[city]["name"], size) * 1.05, size + 1
        spots = [(x + 9, y + h / 2 - 2, "start"), (x - 9, y + h / 2 - 2, "end"), (x, y - 9, "middle"),
                 (x, y + h + 7, "middle"), (x + 8, y - 7, "start"), (x - 8, y - 7, "end"),
                 (x + 8, y + h + 4, "start"), (x - 8, y + h + 4, "end")]
        choice, least = spots[0], None
        for tx, ty, anchor in spots:
            x0 = tx if anchor == "start" else tx - w if anchor == "end" else tx - w / 2
            box = (x0, ty - h + 2, x0 + w, ty + 3)
            if free(box):
                choice = (tx, ty, anchor)
                break
            cost = overlap(box)
            if least is None or cost < least:
                choice, least = (tx, ty, anchor), cost
        tx, ty, anchor = choice
        x0 = tx if anchor == "start" else tx - w if anchor == "end" else tx - w / 2
        boxes.append((x0, ty - h + 2, x0 + w, ty + 3))
        placed[city] = choice
    return placed


_POINTS = {city: (round(_project(MAP["lon_knots"], lon), 1), round(_project(MAP["lat_knots"], lat), 1))
           for city, (lon, lat) in MAP["places"].items()}
_SIZES = {city: 12 if C.CITIES[city]["kind"] == "university" else 11 for city in _POINTS}
_LABELS = _place_labels(_POINTS, _SIZES, MAP["width"], MAP["height"])


def _map(board: Board, view, names) -> None:
    z = board.zone("map", "The travel map", colour="#2f5d7c", background="#eef3f6")
    z.heading("The travel map", sub="■ University   ● town   the letters: travellers")
    z.line("Routes: road (brown line), rail (black dashes), ferry (blue dots)", size=12)
    top = z.y
    for route in ROUTES:
        (x1, y1), (x2, y2) = _POINTS[route["a"]], _POINTS[route["b"]]
        colour, dash, width = ROUTE_STYLE.get(route["type"], ROUTE_STYLE["road"])
        z.line_between(x1, top + y1, x2, top + y2, colour, dash, width)
    here: dict[str, list[int]] = {}
    for seat, p in enumerate(view["players"]):
        here.setdefault(p["city"], []).append(seat)
    for city, (x, y) in _POINTS.items():
        data = C.CITIES[city]
        uni = data["kind"] == "university"
        discs = view["univ"].get(city, [])
        tile = C.UNI_TILES.get(view["univ_tiles"].get(city, ""), None) if uni else None
        words = data["name"] + (f", University, {tile['prestige']} Prestige" if tile else ", a town")
        if discs:
            words += ", discs of " + ", ".join(seats_named(names, s) for s in discs)
        if here.get(city):
            words += ", travellers: " + ", ".join(seats_named(names, s) for s in here[city])
        z._open_item(f"location:{city}", None, words)
        y += top
        if uni:
            z.rect(x - 6, y - 6, 12, 12, fill="#7a3e1d", stroke="#1f1a17")
        else:
            z.circle(x, y, 4.5, fill="#fffdf7", stroke="#1f1a17", stroke_width=1.5)
        tx, ty, anchor = _LABELS[city]
        z.text(tx, top + ty, data["name"], size=_SIZES[city], fill=INK, font_weight="bold" if uni else None,
               text_anchor=anchor if anchor != "start" else None)
        for j, seat in enumerate(discs):
            z.circle(x + 8 + j * 7, y + 8, 4, fill=seat_colour(seat), stroke="#111")
        z._close_item(None, None)
    for city, seats in here.items():
        x, y = _POINTS[city]
        for j, seat in enumerate(seats):
            token(z, x - 10 - j * 14, top + y - 12, seat, seats_named(names, seat)[:1].upper(), r=8)
    z.y = top + MAP["height"]


# ----------------------------------------------------------------------------- the shared boards

def _die_row(z: Zone, x: float, y: float, dice, size: float = 22) -> None:
    for k, d in enumerate(dice):
        dx = x + k * (size + 4)
        z.rect(dx, y, size, size, rx=4, fill=DIE_FILL.get(d["c"], "#999"), stroke=INK)
        z.text(dx + size / 2, y + size / 2 + 5, str(d["v"]), size=14, fill="#fff", font_weight="bold",
               text_anchor="middle")


def _dice_words(dice) -> str:
    return ", ".join(f"{d['c']} {d['v']}" for d in dice) or "no dice"


def _workshop(board: Board, view) -> None:
    z = board.zone("workshop", "The Workshop", colour="#6b4f2a")
    z.heading("The Workshop", sub="take the dice of one space")
    w = (z.width - 20 - 12) / 3
    for row in range(2):
        y = z.y
        for col in range(3):
            s = row * 3 + col
            if s >= len(view["workshop"]):
                continue
            dice = view["workshop"][s]
            x = 10 + col * (w + 6)
            z._open_item(f"space:workshop.{s + 1}", None,
                         f"Workshop space {s + 1}: {_dice_words(dice)}; bonus {BONUS[C.WORKSHOP_BONUS[s]]}")
            z.rect(x, y, w, 86, rx=5, fill="#efe6d2", stroke=EDGE)
            z.text(x + 6, y + 16, f"Space {s + 1}", size=13, font_weight="bold", fill=INK)
            _die_row(z, x + 6, y + 24, dice[:3])
            z.text(x + 6, y + 76, f"+ {BONUS[C.WORKSHOP_BONUS[s]]}", size=12, fill=INK)
            z._close_item(None, None)
        z.y = y + 92
    if view.get("bonus_die"):
        z._open_item(None, None, f"Bonus die: {_dice_words([view['bonus_die']])}")
        z.text(10, z.y + 18, "Bonus die", size=13, font_weight="bold", fill=INK)
        _die_row(z, 90, z.y + 2, [view["bonus_die"]])
        z._close_item(None, None)
        z.y += 30
    bag = view.get("bag") or {}
    if bag:
        z.line("In the bag: " + ", ".join(f"{n} {c}" for c, n in bag.items()), size=12)


def _displays(board: Board, view) -> None:
    z = board.zone("displays", "The displays", colour="#4b5d6b")
    z.heading("The displays", sub="face up, with the stacks left")
    sizes = view["stack_sizes"]
    names = {"prog": "Programs", "assign": "Assignments", "meet": "Meeting display", "mult": "Multiplier Gears"}
    for name in ("meet", "prog", "assign", "mult"):
        z.line(f"{names[name]} ({plural(sizes[name], 'left in the stack', 'left in the stack')})", bold=True)
        items = []
        for item in view["displays"][name]:
            if item is None:
                items.append(Item("empty", say="an empty slot", fill="#f4f1ea"))
            elif name == "meet":
                items.append(partner_item(item))
            elif name == "prog":
                info = C.PROGRAMS[item]
                items.append(Item(f"Program, {info['prestige']} Prestige", key=f"card:{item}",
                                  lines=[f"three dice: {criteria_words(info['criteria'])}"], fill="#f0ebf7"))
            elif name == "assign":
                info = C.ASSIGNMENTS[item]
                items.append(Item(info["name"], key=f"card:{item}", lines=[
                    effect_words(info["effect"]), ("for " + " or ".join(info["colours"]) + " dice")
                    if info["colours"] else "for a die of any colour"],
                    stripe=DIE_FILL.get((info["colours"] or [""])[0]), fill="#fbf6e6"))
            else:
                cost = {k: C.MULTIPLIERS[item][k] for k in ("money", "coal", "brass", "innovation")}
                items.append(Item("Multiplier Gear", key=f"tile:{item}", lines=[f"costs {cost_words(cost)}"],
                                  fill="#eceae4"))
        z.items(items, per_row=2)


def _institutions(board: Board, view, names) -> None:
    z = board.zone("institutions", "Institutions, rooms and objectives", colour="#3f6b4a")
    z.heading("Lectures", sub="each Institution's levels 2 to 6")
    for inst in C.INSTITUTIONS:
        z.line(C.INST_NAMES[inst], bold=True, key=f"location:{inst}")
        items = []
        for k, discs in enumerate(view["lect"][inst]):
            level = k + 2
            reward = C.LECTURE_REWARD.get((inst, level))
            items.append(Item(f"Level {level}", key=f"space:lecture.{inst}.{level}",
                              lines=[effect_words(reward) if reward else ""],
                              pieces=[(s, seats_named(names, s)[:1].upper()) for s in discs], max_lines=3))
        z.items(items, per_row=3, title_size=12, size=11)
    z.line("Meeting rooms", bold=True, size=14)
    rooms = []
    for r, room in enumerate(view["rooms"]):
        science = view["room_science"][r] if r < len(view["room_science"]) else ""
        cost = C.ROOM_SPACES[r][0]
        discs = [s for space in room for s in space]
        rooms.append(Item(f"Room {r + 1}", key=f"space:room.{r + 1}", badge=science.title()[:11],
                          lines=[f"£{cost['money']} or {cost['innovation']} Innovation"],
                          pieces=[(s, seats_named(names, s)[:1].upper()) for s in discs]))
    z.items(rooms, per_row=2)
    z.line("Objectives", bold=True, size=14)
    objs = []
    for area in C.AREAS:
        if area not in view["objectives"]:
            continue
        oid = view["objectives"][area]
        tile = C.OBJECTIVES[oid]
        claims = view["obj"][area]
        objs.append(Item(AREA_NAMES[area], key=f"card:{oid}", badge=f"{tile['prestige_high']}/{tile['prestige_low']} P",
                         lines=["claimed by " + ", ".join(seats_named(names, c["seat"]) for c in claims)
                                if claims else "unclaimed"],
                         pieces=[(c["seat"], seats_named(names, c["seat"])[:1].upper()) for c in claims],
                         stripe=DIE_FILL.get(C.AREA_COLOUR.get(area))))
    z.items(objs, per_row=2)


# ----------------------------------------------------------------------------- a seat

def _tracks(z: Zone, p, view) -> None:
    z.line("Research tracks", bold=True)
    for colour, value in p["research"].items():
        info = C.RESEARCH[colour]
        top = info["top"]
        y = z.y
        z._open_item(f"space:track.{colour}", None, f"{colour.title()} Research track at {value} of {top}")
        z.text(10, y + 14, colour.title(), size=12, fill=INK, font_weight="bold")
        step = (z.width - 90) / (top + 1)
        for i in range(top + 1):
            x = 80 + i * step
            fill = DIE_FILL[colour] if i <= value and value else ("#fff" if i not in info["breakthrough_spaces"]
                                                                 else "#f4e3b5")
            z.rect(x, y + 2, step - 2, 16, rx=2, fill=fill, stroke="#b3a48f")
        z.text(80 + (top + 1) * step - 4, y + 14, str(value), size=12, fill=INK, font_weight="bold",
               text_anchor="end")
        z._close_item(None, None)
        z.y += 22


def _mill(z: Zone, p, seat) -> None:
    """The Store and the Mill as on the player board: dice in a 3x3 grid, the gears between them."""
    z.line("Store", bold=True)
    y = z.y
    z._open_item(None, None, "Store: " + _dice_words([d for d in p["store"] if d]))
    for k, d in enumerate(p["store"]):
        if d:
            _die_row(z, 10 + k * 30, y, [d])
        else:
            z.rect(10 + k * 30, y, 22, 22, rx=4, fill="none", stroke=EDGE, stroke_dasharray="3 2")
    z._close_item(None, None)
    z.y = y + 30
    built = sum(1 for g in p["gears"] if g)
    z.line(f"Mill ({built} of 12 gears built; unbuilt: "
           f"{' '.join(GEAR_SIGN.get(g, 'x') for g in p['gear_supply']) or 'none'})", bold=True)
    y0 = z.y
    cell, gap = 30, 26
    words = "Mill: " + _dice_words([d for d in p["mill"] if d])
    z._open_item(None, None, words)
    for k in range(9):
        r, c = divmod(k, 3)
        x, y = 16 + c * (cell + gap), y0 + r * (cell + gap)
        d = p["mill"][k] if k < len(p["mill"]) else None
        if d:
            z.rect(x, y, cell, cell, rx=5, fill=DIE_FILL.get(d["c"], "#999"), stroke=INK)
            z.text(x + cell / 2, y + cell / 2 + 6, str(d["v"]), size=16, fill="#fff", font_weight="bold",
                   text_anchor="middle")
        else:
            z.rect(x, y, cell, cell, rx=5, fill="#fff", stroke=EDGE)
    for line, (g1, g2) in C.LINE_GEARS.items():
        idx = int(line[-1]) - 1
        for j, g in enumerate((g1, g2)):
            if line.startswith("row"):
                x, y = 16 + cell + j * (cell + gap) + gap / 2, y0 + idx * (cell + gap) + cell / 2
            else:
                x, y = 16 + idx * (cell + gap) + cell / 2, y0 + cell + j * (cell + gap) + gap / 2
            gear = p["gears"][g]
            covered = p["covered"][g]
            z.circle(x, y, 9, fill=seat_colour(seat) if covered else ("#f7e7b4" if gear else "#eee8dc"),
                     stroke="#7d6e5a")
            if gear and not covered:
                z.text(x, y + 5, GEAR_SIGN.get(gear, "×"), size=14, font_weight="bold", fill=INK, text_anchor="middle")
    z._close_item(None, None)
    # Programs beside the grid: rows on the right, columns under it
    px = 16 + 3 * cell + 2 * gap + 12
    for r in range(3):
        line = f"row{r + 1}"
        tile = p["programs"].get(line)
        text = f"{C.PROGRAMS[tile]['prestige']} P: {criteria_words(C.PROGRAMS[tile]['criteria'])}" if tile else "no Program"
        z._open_item(f"space:program.{line}", None, f"Row {r + 1}: {text}")
        z.text(px, y0 + r * (cell + gap) + 20, ("Row: " + text)[:28], size=11, fill=INK)
        z._close_item(None, None)
    z.y = y0 + 3 * cell + 2 * gap + 6
    for c in ("col1", "col2", "col3"):
        t = p["programs"].get(c)
        text = f"{C.PROGRAMS[t]['prestige']} P, {criteria_words(C.PROGRAMS[t]['criteria'])}" if t else "no Program"
        z.line(f"Column {c[-1]}: {text}", size=12, key=f"space:program.{c}")


def _seat(board: Board, view, viewer, names, seat) -> None:
    p = view["players"][seat]
    active = not view["over"] and view["turn"]["seat"] == seat
    you = " (you)" if viewer == seat else ""
    z = board.zone(f"seat-{seat}", f"{seats_named(names, seat)}{you}", colour=seat_colour(seat))
    z.heading(f"{seats_named(names, seat)}{you}" + (", to act" if active else ""),
              sub=f"at {C.CITIES[p['city']]['name']}", target=f"seat:{seat}")
    z.line(f"£{p['money']}, {p['coal']} Coal, {p['brass']} Brass, {plural(p['book'], 'Book')}", size=13, bold=True)
    z.line(f"Innovation {p['innov']}, Steam {p['steam']}, {plural(p['boxed'], 'disc')} boxed", size=13)
    _tracks(z, p, view)
    _mill(z, p, seat)
    columns = {c: cards for c, cards in p["columns"].items() if cards}
    if columns:
        z.line("Assignments done", bold=True)
        z.items([Item(C.ASSIGNMENTS[a]["name"], key=f"card:{a}", stripe=DIE_FILL.get(c), lines=[f"{c} column"])
                 for c, cards in columns.items() for a in cards], per_row=2, title_size=12)
    if isinstance(p.get("hand"), list):
        z.line(f"Hand ({len(p['hand'])})", bold=True)
        z.items([partner_item(c) for c in p["hand"]], per_row=2)
    else:
        z.line(f"{plural(p['hand_size'], 'card')} in hand", size=13)
    discard = [C.partner(c)["name"] for c in p["discard"][-3:]]
    z.line(f"Deck {p['deck_size']}, discard {len(p['discard'])}" + (f" (last: {', '.join(discard)})" if discard else ""),
           size=12, max_lines=3)


def picture(view: dict, viewer, names: list[str]) -> str:
    """The table as `viewer` sees it, as an SVG document, drawn from `view` alone."""
    board = Board("Ada's Dream: the table")
    n = len(view["players"])
    order = list(range(n))
    if isinstance(viewer, int) and 0 <= viewer < n:
        order = [viewer] + [s for s in order if s != viewer]
    _header(board, view, names)
    _seat(board, view, viewer, names, order[0])
    _map(board, view, names)
    _workshop(board, view)
    _displays(board, view)
    _institutions(board, view, names)
    for seat in order[1:]:
        _seat(board, view, viewer, names, seat)
    return board.render()
