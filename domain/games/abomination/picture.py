"""The board picture: what a player at the table sees, drawn from a viewer's `view` only.

Paris (each location and its spaces, with the meeples on them), the face-up displays by card
name and the face-down decks as backs with their size, the bonus objectives, the bump track,
then one panel per seat: character, francs, VP, the three dials, meeples, jars and ice, the
decay track, preserved materials, the operating table and the hand (names for the viewer's own
cards, backs for everyone else's). Coordinates and names are data in content/layout.toml.
"""

from __future__ import annotations

from domain.engine import load_toml
from domain.engine.svg import Svg, seat_colour

from .content import C
from .words import card_name, plural, prompt

LAYOUT = load_toml(__package__, "layout.toml")
CARD_W, CARD_H = 138, 34
BACK = "#6b5a49"


def _seat_name(names, seat) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat}"


def _card(pic: Svg, x, y, text, *, face_up=True, w=CARD_W, fill="#fffdf7") -> None:
    if face_up:
        pic.rect(x, y, w, CARD_H, rx=4, fill=fill, stroke="#8a7a66")
        pic.text(x + 6, y + 21, text[:22], size=11)
    else:
        pic.rect(x, y, w, CARD_H, rx=4, fill=BACK, stroke="#3d3226")
        pic.text(x + 6, y + 21, text, size=11, fill="#f3eadb")


def _meeple(pic: Svg, x, y, seat, kind) -> None:
    pic.circle(x, y, 9, fill=seat_colour(seat), stroke="#222")
    pic.text(x - 4, y + 4, "S" if kind == "scientist" else "A", size=10, fill="#fff", font_weight="bold")


def _status(pic: Svg, view, names) -> None:
    s = LAYOUT["status"]
    phase = view["phase"]
    if phase == "over":
        won = [_seat_name(names, w) for w in view.get("winners") or []]
        text = "The game is over: " + (" and ".join(won) + (" win" if len(won) > 1 else " wins") if won else "no winner")
    else:
        ask = prompt(view)
        for seat in range(view["n"]):
            ask = ask.replace(f"Seat {seat}", _seat_name(names, seat))
        text = f"Round {view['round']} of {C.rounds}, {phase} phase. {ask}"
    pic.text(s["x"], s["y"], text[:160], size=15, font_weight="bold")


def _board(pic: Svg, view) -> None:
    for loc, box in LAYOUT["locations"].items():
        data = C.locations[loc]
        pic.group(title=data["name"])
        pic.rect(box["x"], box["y"], box["w"], box["h"], rx=6, fill="#efe6d4", stroke="#9c8b70")
        pic.text(box["x"] + 8, box["y"] + 18, data["name"], size=12, font_weight="bold")
        spaces = [s for s in data["spaces"]]
        step = (box["w"] - 12) / max(1, len(spaces))
        for i, space in enumerate(spaces):
            sx, sy = box["x"] + 6 + i * step, box["y"] + 28
            pic.rect(sx, sy, step - 6, 56, rx=4, fill="#fffaf0", stroke="#c7b89b")
            spot = space["id"].partition(".")[2].title()
            cost = f" ${space['francCost']}" if space["francCost"] else ""
            pic.text(sx + 4, sy + 14, f"{spot}{cost}" + (" (S)" if space["scientistOnly"] else ""), size=10)
            occ = view["spaces"].get(space["id"])
            if occ:
                _meeple(pic, sx + 16, sy + 38, occ["seat"], occ["kind"])
        pic.end()


def _displays(pic: Svg, view) -> None:
    d = LAYOUT["displays"]
    x, y = d["x"], d["y"]
    pic.text(x, y, "Face-up displays", size=13, font_weight="bold")
    row = 0
    for display, label in d["names"].items():
        cards = view["displays"].get(display, [])
        yy = y + 10 + row * (CARD_H + 6)
        count = view.get("hospitalPile", len(cards)) if display == "hospital" else len(cards)
        pic.text(x, yy + 21, f"{label}" + (f" ({count})" if display == "hospital" else ""), size=11)
        for i, card in enumerate(cards[:3]):
            _card(pic, x + 110 + i * (CARD_W + 6), yy, card_name(card))
        if not cards:
            pic.text(x + 110, yy + 21, "empty", size=11, fill="#777")
        row += 1
    if view.get("inPlay"):
        pic.text(x + 560, y + 21, "In play: " + ", ".join(card_name(c) for c in view["inPlay"])[:60], size=11)


def _decks(pic: Svg, view) -> None:
    d = LAYOUT["decks"]
    sizes = view.get("deckSizes") or {k: len(v) for k, v in view.get("decks", {}).items()}
    pic.text(d["x"] + 560, d["y"] - 100, "Decks (face down)", size=13, font_weight="bold")
    for i, (deck, label) in enumerate(d["names"].items()):
        col, row = i % 4, i // 4
        _card(pic, d["x"] + 560 + col * 94, d["y"] - 90 + row * 40, f"{label} {sizes.get(deck, 0)}",
              face_up=False, w=88)


def _objectives(pic: Svg, view, names) -> None:
    o = LAYOUT["objectives"]
    pic.text(o["x"] + 180, o["y"], "Bonus objectives (10 VP)", size=13, font_weight="bold")
    for i, oid in enumerate(view["objectives"]):
        holder = view["claimed"].get(oid)
        text = C.objectives[oid]["name"] + (f": {_seat_name(names, holder)}" if holder is not None else "")
        y = o["y"] + 8 + i * 20
        if holder is not None:
            pic.circle(o["x"] + 186, y + 9, 6, fill=seat_colour(holder))
        pic.text(o["x"] + 196, y + 13, text[:40], size=11)
    b = LAYOUT["bump"]
    pic.text(b["x"] + 180, b["y"], "Bump track", size=12, font_weight="bold")
    for i, occ in enumerate(view["bump"]):
        cost = C.bump[view["n"]][i]
        x = b["x"] + 270 + i * 50
        pic.rect(x, b["y"] - 14, 44, 26, rx=4, fill="#fffaf0", stroke="#c7b89b")
        pic.text(x + 4, b["y"] + 4, f"${cost}", size=10)
        if occ:
            _meeple(pic, x + 30, b["y"] - 1, occ["seat"], occ["kind"])


def _seat(pic: Svg, view, viewer, names, seat, x, y, w) -> None:
    p = view["p"][seat]
    h = LAYOUT["canvas"]["seat_panel_height"] - 10
    turn = seat == view.get("active") and view["phase"] == "city"
    pic.group(title=f"{_seat_name(names, seat)}'s area")
    pic.rect(x, y, w, h, rx=8, fill="#f7f1e6", stroke=seat_colour(seat), stroke_width=4 if turn else 2)
    character = C.characters.get(p["character"], {}).get("name", "no character yet")
    you = " (you)" if viewer == seat else ""
    done = " - done with the lab" if view["phase"] == "lab" and p["done"] else ""
    pic.circle(x + 16, y + 18, 8, fill=seat_colour(seat))
    pic.text(x + 30, y + 22, f"{_seat_name(names, seat)}{you}: {character}{done}"[:70], size=13, font_weight="bold")
    final = (view.get("final") or {}).get(str(seat))
    score = f"{final['total']} points (final)" if final else f"{p['vp']} VP"
    attr = p["attr"]
    pic.text(x + 12, y + 44, f"{score}   {plural(p['francs'], 'franc')}   Humanity {attr['humanity']}   "
                             f"Reputation {attr['reputation']}   Expertise {attr['expertise']}", size=12)
    jars = "".join("●" if j else "○" for j in p["jars"]) or "none"
    ice = ", ".join("solid" if i == "solid" or i is True else "half-melted" for i in p["ice"]) or "none"
    pic.text(x + 12, y + 64, f"On the card: {plural(p['card']['scientist'], 'scientist')}, "
                             f"{plural(p['card']['assistant'], 'assistant')}"
                             f"   Leyden jars {jars}   Ice: {ice}", size=11)
    # decay track
    mats, stages = LAYOUT["seat"]["materials"], LAYOUT["seat"]["stages"]
    tx, ty = x + 12, y + 80
    pic.text(tx, ty + 12, "Decay", size=11, font_weight="bold")
    for j, stage in enumerate(stages):
        pic.text(tx + 60 + j * 52, ty + 12, stage, size=11, font_weight="bold")
    for i, mat in enumerate(mats):
        pic.text(tx, ty + 28 + i * 15, mat, size=10)
        for j, stage in enumerate(stages):
            pic.text(tx + 60 + j * 52, ty + 28 + i * 15, str(p["decay"][stage][mat]), size=10)
    pre = p["preserved"]
    pic.text(tx, ty + 100, f"Bone {p['bone']}   Preserved: {pre['organ']} organ, {pre['muscle']} muscle", size=11)
    # operating table
    ox = x + 290
    pic.text(ox, ty + 12, "Operating table", size=11, font_weight="bold")
    for i, part in enumerate(p["parts"]):
        state = "alive" if part["alive"] else part["side"]
        fill = "#cfe8cf" if part["alive"] else ("#f1d9c4" if part["side"] == "skin" else "#e6cfcf")
        px, py = ox + (i % 3) * 96, ty + 20 + (i // 3) * 36
        pic.rect(px, py, 90, 30, rx=4, fill=fill, stroke="#8a7a66")
        pic.text(px + 5, py + 13, f"{part['type']} ({state})", size=10)
        if part["damage"]:
            pic.text(px + 5, py + 26, f"{part['damage']} damage", size=10, fill="#a00")
    if not p["parts"]:
        pic.text(ox, ty + 34, "empty", size=11, fill="#777")
    # hand and held encounters
    hy = y + h - 44
    hands = p["hands"]
    if isinstance(hands["research"], list):
        cards = hands["research"] + hands["humanity"]
        pic.text(x + 12, hy - 4, "Hand", size=11, font_weight="bold")
        for i, card in enumerate(cards[:6]):
            _card(pic, x + 12 + i * 96, hy, card_name(card), w=92)
    else:
        pic.text(x + 12, hy - 4, "Hand (face down)", size=11, font_weight="bold")
        for i in range(min(6, hands["research"] + hands["humanity"])):
            _card(pic, x + 12 + i * 96, hy, "card", face_up=False, w=92)
    held = [h for h in view["held"] if h["holder"] == seat]
    if held:
        known = [h for h in held if "card" in h]
        text = ", ".join(f"{card_name(h['card'])} at {C.locations[h['location']]['name']}" for h in known) \
            if known else f"{len(held)} secret encounter card{'s' if len(held) > 1 else ''}"
        pic.text(x + 290, ty + 100, f"Holds: {text}"[:60], size=11)
    pic.end()


def picture(view, viewer, names) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    canvas = LAYOUT["canvas"]
    cols = canvas["seat_columns"]
    rows = (view["n"] + cols - 1) // cols
    width = canvas["width"]
    height = canvas["board_height"] + rows * canvas["seat_panel_height"] + 10
    pic = Svg(width, height, title="Abomination: The Heir of Frankenstein")
    _status(pic, view, names)
    _board(pic, view)
    _displays(pic, view)
    _decks(pic, view)
    _objectives(pic, view, names)
    w = (width - 16 * (cols + 1)) / cols
    for seat in range(view["n"]):
        col, row = seat % cols, seat // cols
        _seat(pic, view, viewer, names, seat, 16 + col * (w + 16), canvas["board_height"] + row *
              canvas["seat_panel_height"], w)
    return pic.render()
