"""The board picture: what a player at the table sees, drawn from a viewer's `view` only (issue 12).

The Workshop (six spaces with their dice and bonus), the face-up displays by name with the size of
each face-down stack, the Universities, Meeting rooms, Lectures and Objectives with the discs on them,
then one panel per seat: resources, tracks, Store and Mill dice, gear spaces, hand (names for the
viewer's own cards, a count for everyone else's), deck size, discard pile and Programs.
Coordinates and section names are data in content/layout.toml.
"""

from __future__ import annotations

import textwrap

from domain.engine import load_toml
from domain.engine.svg import Svg, seat_colour

from . import content as C
from .words import AREA_NAMES, CHOICE_PROMPTS, cost_words, criteria_words, plural

LAYOUT = load_toml(__package__, "layout.toml")
DIE_FILL = {"yellow": "#e1b80f", "blue": "#2f6db5", "green": "#3f8f3f", "purple": "#7a4a9e", "grey": "#7d7d7d"}
INK, CARD, EDGE = "#2b2620", "#fffdf7", "#8a7a66"
GEAR_SIGN = {"add": "+", "sub": "−"}
PENDING = {"ws6": "play a Partner card with the active die, or none", "adv": "the Advanced action",
           "endopt": "publish, build a gear, or end the turn"}
BONUS = {"research": "1 Research", "coal": "2 Coal", "money": "£3", "innovation": "1 Innovation", "brass": "1 Brass",
         "draw": "draw 2 cards"}


def _name(names, seat) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat}"


def _die(pic: Svg, x, y, d, size=18) -> None:
    pic.rect(x, y, size, size, rx=3, fill=DIE_FILL.get(d["c"], "#999"), stroke=INK)
    pic.text(x + size / 2 - 4, y + size - 5, str(d["v"]), size=12, fill="#fff", font_weight="bold")


def _disc(pic: Svg, x, y, seat, r=6) -> None:
    pic.circle(x, y, r, fill=seat_colour(seat), stroke=INK)


def _card(pic: Svg, x, y, w, h, text, *, back=False) -> None:
    """A card face (its name, on two lines when long) or a back."""
    pic.rect(x, y, w, h, rx=4, fill="#6b5a49" if back else CARD, stroke=EDGE)
    fits = int(w / 5.6)
    lines = textwrap.wrap(text, fits)[:2] if h >= 28 else [text[:fits]]
    for k, line in enumerate(lines):
        pic.text(x + 5, y + 13 + k * 13 if len(lines) > 1 else y + h / 2 + 4, line, size=10,
                 fill="#f3eadb" if back else INK)


def program_short(tile: str) -> str:
    """'5 P: dice of 3 or 4': a Program tile's Prestige and what its three dice must show."""
    info = C.PROGRAMS[tile]
    return f"{info['prestige']} P: {criteria_words(info['criteria'])}"


def _header(pic: Svg, view, names) -> None:
    turn, pending = view["turn"], view["pending"]
    if view["over"]:
        final = view.get("final") or []
        status = "The game is over" + (": " + ", ".join(f"{_name(names, k)} {s['total']}"
                                                        for k, s in enumerate(final)) if final else "")
    elif view.get("draft"):
        draft = view["draft"]
        status = f"{_name(names, draft['order'][len(draft['picks'])])} drafts a tier-1 Partner card"
    else:
        what = f": {PENDING.get(pending['kind']) or CHOICE_PROMPTS.get(pending['kind'], 'a choice')}" \
            if pending else ": a Workshop or an Actions turn"
        status = f"{_name(names, turn['seat'])} to act{what}"
    end = " · the end is triggered" if view["end_triggered"] and not view["over"] else ""
    pic.text(LAYOUT["margin"], LAYOUT["header"]["y"], f"Ada's Dream · round {view['round']} · {status}{end}",
             size=18, font_weight="bold", fill=INK)


def _workshop(pic: Svg, view) -> None:
    box = LAYOUT["workshop"]
    pic.group(box["label"])
    for s, dice in enumerate(view["workshop"]):
        x = box["x"] + s * (box["space_w"] + box["gap"])
        pic.rect(x, box["y"], box["space_w"], box["space_h"], rx=6, fill="#efe6d2", stroke=EDGE)
        pic.text(x + 6, box["y"] + 16, f"Workshop space {s + 1}", size=11, fill=INK)
        for k, d in enumerate(dice):
            _die(pic, x + 8 + k * 24, box["y"] + 26, d)
        pic.text(x + 6, box["y"] + box["space_h"] - 10, f"bonus: {BONUS[C.WORKSHOP_BONUS[s]]}", size=10, fill=INK)
    if view.get("bonus_die"):
        x = box["x"] + 6 * (box["space_w"] + box["gap"])
        pic.text(x, box["y"] + 16, "Bonus space", size=11, fill=INK)
        _die(pic, x, box["y"] + 26, view["bonus_die"])
    pic.end()


def _displays(pic: Svg, view) -> None:
    box = LAYOUT["displays"]
    sizes = view["stack_sizes"]
    for row, name in enumerate(("prog", "assign", "meet", "mult")):
        y = box["y"] + row * (box["row_h"] + 6)
        pic.group(box["names"][name])
        pic.text(box["x"], y + 20, box["names"][name], size=11, font_weight="bold", fill=INK)
        w = box["card_w"]
        for k, item in enumerate(view["displays"][name]):
            x = box["x"] + box["label_w"] + k * (w + box["gap"])
            if item is None:
                pic.rect(x, y, w, box["row_h"], rx=4, fill="none", stroke=EDGE, stroke_dasharray="4 3")
                continue
            text = {"prog": lambda: program_short(item),
                    "assign": lambda: C.ASSIGNMENTS[item]["name"],
                    "meet": lambda: C.partner(item)["name"],
                    "mult": lambda: "× gear: " + cost_words({k2: C.MULTIPLIERS[item][k2] for k2 in
                                                             ("money", "coal", "brass", "innovation")})}[name]()
            _card(pic, x, y, w, box["row_h"], text)
        left = box["x"] + box["label_w"] + len(view["displays"][name]) * (w + box["gap"])
        _card(pic, left, y, 84, box["row_h"], f"{plural(sizes[name], 'card')} left", back=True)
        pic.end()


def _universities(pic: Svg, view) -> None:
    box = LAYOUT["universities"]
    pic.group(box["label"])
    pic.text(box["x"], box["y"] + 10, box["label"], size=12, font_weight="bold", fill=INK)
    for k, city in enumerate(C.UNIVERSITY_CITIES):
        x = box["x"] + (k // box["per_col"]) * box["col_w"]
        y = box["y"] + 26 + (k % box["per_col"]) * box["row_h"]
        tile = C.UNI_TILES[view["univ_tiles"][city]] if city in view["univ_tiles"] else None
        worth = f" · {tile['prestige']} P" if tile else ""
        pic.text(x, y, f"{C.CITIES[city]['name']}{worth}", size=10, fill=INK)
        for j, seat in enumerate(view["univ"].get(city, [])):
            _disc(pic, x + 104 + j * 12, y - 4, seat, r=5)
    pic.end()


def _rooms(pic: Svg, view) -> None:
    box = LAYOUT["rooms"]
    pic.group(box["label"])
    pic.text(box["x"], box["y"] - 6, box["label"], size=12, font_weight="bold", fill=INK)
    for r, room in enumerate(view["rooms"]):
        x = box["x"] + r * box["room_w"]
        science = view["room_science"][r] if r < len(view["room_science"]) else ""
        pic.rect(x, box["y"], box["room_w"] - 8, 16 + len(room) * box["space_h"], rx=4, fill="#f4eedf", stroke=EDGE)
        pic.text(x + 5, box["y"] + 13, f"Room {r + 1} · {science}", size=11, fill=INK)
        for sp, discs in enumerate(room):
            y = box["y"] + 16 + sp * box["space_h"]
            cost = C.ROOM_SPACES[r][sp]
            pic.text(x + 5, y + 14, f"£{cost['money']} or {cost['innovation']} Innov.", size=10, fill=INK)
            for j, seat in enumerate(discs):
                _disc(pic, x + 100 + j * 13, y + 10, seat, r=5)
    pic.end()


def _lectures(pic: Svg, view) -> None:
    box = LAYOUT["lectures"]
    pic.group(box["label"])
    pic.text(box["x"], box["y"] - 6, box["label"], size=12, font_weight="bold", fill=INK)
    for i, inst in enumerate(C.INSTITUTIONS):
        x = box["x"] + i * box["col_w"]
        pic.text(x, box["y"] + 12, C.INST_NAMES[inst][:22], size=10, font_weight="bold", fill=INK)
        for k, discs in enumerate(view["lect"][inst]):
            y = box["y"] + 18 + k * box["row_h"]
            pic.rect(x, y, box["col_w"] - 8, box["row_h"] - 3, rx=3, fill="#f4eedf", stroke=EDGE)
            pic.text(x + 4, y + 13, f"level {k + 2}", size=10, fill=INK)
            for j, seat in enumerate(discs):
                _disc(pic, x + 60 + j * 13, y + 8, seat, r=5)
    pic.end()


def _objectives(pic: Svg, view) -> None:
    box = LAYOUT["objectives"]
    pic.group(box["label"])
    pic.text(box["x"], box["y"], box["label"], size=12, font_weight="bold", fill=INK)
    for k, area in enumerate(C.AREAS):
        tile = C.OBJECTIVES[view["objectives"][area]] if area in view["objectives"] else None
        y = box["y"] + 18 + k * 20
        worth = f" ({tile['prestige_high']} / {tile['prestige_low']} P)" if tile else ""
        pic.text(box["x"], y, f"{AREA_NAMES[area]}{worth}", size=11, fill=INK)
        for j, claim in enumerate(view["obj"][area]):
            _disc(pic, box["x"] + 200 + j * 14, y - 4, claim["seat"], r=5)
    pic.end()


def _seat(pic: Svg, view, viewer, names, seat, x, w) -> None:
    p = view["players"][seat]
    y0 = LAYOUT["seats"]["y"]
    active = not view["over"] and view["turn"]["seat"] == seat
    pic.group(f"{_name(names, seat)}'s board")
    pic.rect(x, y0, w, LAYOUT["seats"]["panel_h"], rx=8, fill="#fffaf0",
             stroke=seat_colour(seat), stroke_width=3 if active else 1.5)
    you = " (you)" if viewer == seat else ""
    pic.text(x + 10, y0 + 20, f"{_name(names, seat)}{you}" + (" · to act" if active else ""), size=14,
             font_weight="bold", fill=seat_colour(seat))
    lines = [
        f"£{p['money']} · {p['coal']} Coal · {p['brass']} Brass · {plural(p['book'], 'Book')}",
        f"Innovation {p['innov']} · Steam {p['steam']} · at {C.CITIES[p['city']]['name']}",
        "Research: " + ", ".join(f"{c} {v}" for c, v in p["research"].items()),
    ]
    for k, line in enumerate(lines):
        pic.text(x + 10, y0 + 40 + k * 16, line[:int(w / 6)], size=11, fill=INK)
    y = y0 + 94
    pic.text(x + 10, y + 13, "Store", size=11, fill=INK)
    for k, d in enumerate(p["store"]):
        if d:
            _die(pic, x + 50 + k * 22, y, d)
        else:
            pic.rect(x + 50 + k * 22, y, 18, 18, rx=3, fill="none", stroke=EDGE, stroke_dasharray="3 2")
    pic.text(x + 10, y + 38, "Mill", size=11, fill=INK)
    for k, d in enumerate(p["mill"]):
        mx, my = x + 50 + (k % 3) * 22, y + 24 + (k // 3) * 22
        if d:
            _die(pic, mx, my, d)
        else:
            pic.rect(mx, my, 18, 18, rx=3, fill="none", stroke=EDGE)
    gx0 = x + 160
    pic.text(gx0, y + 13, "Gear spaces", size=11, fill=INK)
    for g in range(12):
        gx, gy = gx0 + (g % 6) * 18, y + 20 + (g // 6) * 18
        if p["covered"][g]:
            _disc(pic, gx + 7, gy + 7, seat, r=6)
        elif p["gears"][g]:
            pic.text(gx + 2, gy + 12, GEAR_SIGN.get(p["gears"][g], "×"), size=13, font_weight="bold", fill=INK)
        else:
            pic.rect(gx, gy, 14, 14, fill="none", stroke=EDGE)
    supply = [GEAR_SIGN.get(g, "×") for g in p["gear_supply"]]
    pic.text(gx0, y + 68, "unbuilt gears: " + (" ".join(supply) or "none"), size=10, fill=INK)
    y = y0 + 206
    if isinstance(p.get("hand"), list):
        hand = ", ".join(C.partner(c)["name"] for c in p["hand"]) or "no cards"
        pic.text(x + 10, y, f"Hand: {hand}"[:int(w / 6.4)], size=11, fill=INK)
    else:
        pic.rect(x + 10, y - 12, 110, 16, rx=3, fill="#6b5a49")
        pic.text(x + 14, y, f"{plural(p['hand_size'], 'card')} in hand", size=11, fill="#f3eadb")
    discard = ", ".join(C.partner(c)["name"] for c in p["discard"][-3:])
    pic.text(x + 10, y + 18, (f"Deck {p['deck_size']} · discard {len(p['discard'])}"
                              + (f": {discard}" if discard else ""))[:int(w / 6.4)], size=11, fill=INK)
    progs = ", ".join(f"{line[:3]} {line[-1]}" for line in sorted(p["programs"]))
    pic.text(x + 10, y + 36, f"Programs: {progs or 'none'} · {plural(p['boxed'], 'disc')} boxed"[:int(w / 6.4)],
             size=11, fill=INK)
    pic.end()


def picture(view: dict, viewer, names: list[str]) -> str:
    """The table as `viewer` sees it, as an SVG document, drawn from `view` alone."""
    n = len(view["players"])
    seats = LAYOUT["seats"]
    width = LAYOUT["width"]
    height = seats["y"] + seats["panel_h"] + LAYOUT["margin"]
    pic = Svg(width, height, title="Ada's Dream: the table")
    _header(pic, view, names)
    _workshop(pic, view)
    _displays(pic, view)
    _universities(pic, view)
    _rooms(pic, view)
    _lectures(pic, view)
    _objectives(pic, view)
    panel_w = (width - 2 * LAYOUT["margin"] - (n - 1) * seats["gap"]) / n
    for seat in range(n):
        _seat(pic, view, viewer, names, seat, LAYOUT["margin"] + seat * (panel_w + seats["gap"]), panel_w)
    return pic.render()
