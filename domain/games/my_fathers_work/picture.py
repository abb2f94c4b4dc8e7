"""The board picture: what a player at the table sees, drawn from a viewer's `view` only.

The Town (each Location of the current page with the pieces on it), the Angry Mob and Suspicion
tracks, the Estate Upgrades for sale, the Vanity tiles left, the decks as backs with their size,
the Storybook messages the viewer may read, then one panel per seat: score, money, Resources and
Knowledge, Journal, Creepy and Insanity, pieces by place, the Estate's plots by tile name, the
hand (titles for the viewer's own cards, backs with their level for everyone else's), the
Masterwork and completed Experiments. Coordinates and names are data in content/layout.toml.
"""

from __future__ import annotations

from domain.engine import load_toml
from domain.engine.svg import Svg, seat_colour

from . import content as C
from .scoring import winners
from .words import RES, prompt

LAYOUT = load_toml(__package__, "layout.toml")
BACK = "#4f5b66"


def _name(names, seat) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat}"


def _title(card) -> str:
    data = C.EXPERIMENTS.get(card) if isinstance(card, str) else None
    return f"{data['title']} ({data['level']})" if data else "an Experiment"


def _tile(tile) -> str:
    return C.tile(tile)["name"] if isinstance(tile, str) and tile in C.UPGRADES else "a tile"


def _piece(pic, x, y, seat, piece) -> None:
    pic.circle(x, y, 8, fill=seat_colour(seat), stroke="#222")
    pic.text(x - 4, y + 4, LAYOUT["letters"].get(piece, "?"), size=10, fill="#fff", font_weight="bold")


def _status(pic, view, names) -> None:
    if view["over"]:
        won = [_name(names, w) for w in winners(view)]
        ask = "The game is over: " + (" and ".join(won) + (" win" if len(won) > 1 else " wins") if won else "no winner")
    else:
        ask = prompt(view)
        for seat in range(view["n"]):
            ask = ask.replace(f"Seat {seat}", _name(names, seat))
    pic.text(LAYOUT["status"]["x"], LAYOUT["status"]["y"], ask[:150], size=15, font_weight="bold")


def _town(pic, view) -> float:
    t = LAYOUT["town"]
    here: dict[str, list[tuple[int, str]]] = {}
    for seat, pl in enumerate(view["players"]):
        for piece, zone in pl["pieces"].items():
            if zone.startswith("town:"):
                here.setdefault(zone[5:], []).append((seat, piece))
    bottom = t["y"]
    for i, loc in enumerate(view["town"]):
        col, row = i % t["columns"], i // t["columns"]
        x, y = t["x"] + col * (t["box_w"] + t["gap"]), t["y"] + row * (t["box_h"] + t["gap"])
        rec = C.LOCATIONS.get(loc, {})
        pic.rect(x, y, t["box_w"], t["box_h"], rx=6, fill="#eef0e6" if not rec.get("suspicious") else "#f0e0e0",
                 stroke="#8c9478")
        pic.text(x + 6, y + 16, rec.get("name", "a Location")[:28], size=11, font_weight="bold")
        for j, (seat, piece) in enumerate(here.get(loc, [])):
            _piece(pic, x + 14 + j * 20, y + 42, seat, piece)
        bottom = y + t["box_h"]
    return bottom + 10


def _market(pic, view, y, names) -> float:
    r = LAYOUT["row"]
    pic.text(16, y + 14, r["title"], size=13, font_weight="bold")
    for i, tile in enumerate(view["row"]):
        x = 16 + i * (r["card_w"] + 6)
        pic.rect(x, y + 22, r["card_w"], 34, rx=4, fill="#fffdf7", stroke="#8a7a66")
        text = f"{_tile(tile)} ${C.tile(tile)['price']}" if tile else "empty"
        pic.text(x + 6, y + 43, text[:26], size=11)
    vx = 16 + 4 * (r["card_w"] + 6) + 10
    pic.text(vx, y + 14, "Vanity tiles left", size=13, font_weight="bold")
    for i, (name, left) in enumerate(view["vanity"].items()):
        pic.text(vx + (i % 2) * 150, y + 34 + (i // 2) * 16, f"{name}: {left}", size=11)
    ty = y + 76
    pic.text(16, ty, f"Angry Mob at {view['mob']}   Suspicion at {view['suspicion']}", size=12, font_weight="bold")
    sizes = view["decks"]
    for i, (deck, label) in enumerate(LAYOUT["decks"]["names"].items()):
        n = sizes[deck] if isinstance(sizes[deck], int) else len(sizes[deck])
        x = 16 + i * 130
        pic.rect(x, ty + 10, 124, 30, rx=4, fill=BACK, stroke="#222")
        pic.text(x + 6, ty + 30, f"{label} {n}", size=11, fill="#eef")
    my = ty + 62
    shown = [m for m in view["messages"]][-3:]
    if shown:
        pic.text(16, my, "Storybook", size=12, font_weight="bold")
        for i, m in enumerate(shown):
            who = "" if m["to"] is None else f"(secret, to {_name(names, m['to'])}) "
            pic.text(90, my + i * 16, (who + m["text"])[:150], size=11)
    return my + 16 * max(1, len(shown)) + 8


def _seat(pic, view, viewer, names, seat, x, y, w) -> None:
    pl = view["players"][seat]
    h = LAYOUT["canvas"]["seat_panel_height"] - 10
    turn = seat == view.get("active") and not view["over"] and view["pending"] is None
    pic.group(title=f"{_name(names, seat)}'s Estate")
    pic.rect(x, y, w, h, rx=8, fill="#f4f5ef", stroke=seat_colour(seat), stroke_width=4 if turn else 2)
    pic.circle(x + 16, y + 18, 8, fill=seat_colour(seat))
    you = " (you)" if viewer == seat else ""
    passed = " - passed" if view["passed"][seat] and not view["over"] else ""
    pic.text(x + 30, y + 22, f"{_name(names, seat)}{you}: {pl['score']} VP, ${pl['money']}{passed}", size=13,
             font_weight="bold")
    res = "  ".join(f"{RES[r]} {pl['res'][r]}" for r in LAYOUT["resources"]["order"])
    pic.text(x + 12, y + 42, f"Resources: {res}", size=11)
    know = "  ".join(f"{RES[k]} {pl['res'][k]}" for k in LAYOUT["resources"]["knowledge"])
    pic.text(x + 12, y + 58, f"Knowledge: {know}", size=11)
    journal = "  ".join(f"{RES[k]} {pl['journal'][k]}" for k in LAYOUT["resources"]["knowledge"])
    pic.text(x + 12, y + 74, f"Journal: {journal}   Creepy {pl['creepy']}   Insanity {pl['insanity']}", size=11)
    places: dict[str, list[str]] = {}
    for piece, zone in pl["pieces"].items():
        where = "Quarters" if zone == "quarters" else "Lost" if zone == "lost" else \
            "under the Insanity Track" if zone.startswith("ins:") else \
            C.LOCATIONS.get(zone[5:], {}).get("name", "Town") if zone.startswith("town:") else "the Estate"
        places.setdefault(where, []).append(LAYOUT["pieces"][piece])
    text = "; ".join(f"{where}: {', '.join(p)}" for where, p in places.items())
    pic.text(x + 12, y + 92, f"Pieces in {text}"[:92], size=11)
    pic.text(x + 12, y + 112, f"Estate ({pl['open']} plots open)", size=11, font_weight="bold")
    for i, tile in enumerate(pl["plots"]):
        px, py = x + 12 + (i % 4) * 140, y + 118 + (i // 4) * 30
        fill = "#fffdf7" if i < pl["open"] else "#d9d9d0"
        pic.rect(px, py, 134, 26, rx=3, fill=fill, stroke="#9a9a88")
        pic.text(px + 5, py + 17, (_tile(tile) if tile else ("empty" if i < pl["open"] else "closed"))[:22], size=10)
    hy = y + 190
    hand = pl["hand"]
    own = viewer == seat or viewer == "all"
    pic.text(x + 12, hy, "Hand" + ("" if own else " (face down)"), size=11, font_weight="bold")
    for i, card in enumerate(hand[:5]):
        cx = x + 12 + i * 112
        if own:
            pic.rect(cx, hy + 6, 108, 26, rx=3, fill="#fffdf7", stroke="#8a7a66")
            title = _title(card).removeprefix("The ")
            pic.text(cx + 4, hy + 23, (title if len(title) <= 21 else title[:17] + "…" + title[-3:]), size=9)
        else:
            pic.rect(cx, hy + 6, 108, 26, rx=3, fill=BACK, stroke="#222")
            pic.text(cx + 6, hy + 23, f"{card} Experiment", size=10, fill="#eef")
    mw = pl["masterwork"]
    done = [c for c in pl["completed"]]
    line = (f"Masterwork: {_title(mw)}{' (completed)' if pl['mw_done'] else ''}   " if mw else "") + \
        f"Completed: {len(done)}   Stored: {len(pl['stored'])}"
    pic.text(x + 12, hy + 52, line[:110], size=11)
    pic.end()


def picture(view, viewer, names) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    canvas = LAYOUT["canvas"]
    cols = canvas["seat_columns"]
    width = canvas["width"]
    rows_town = (len(view["town"]) + LAYOUT["town"]["columns"] - 1) // LAYOUT["town"]["columns"]
    top = LAYOUT["town"]["y"] + rows_town * (LAYOUT["town"]["box_h"] + LAYOUT["town"]["gap"]) + 10 + 200
    rows = (view["n"] + cols - 1) // cols
    pic = Svg(width, top + rows * canvas["seat_panel_height"] + 10, title="My Father's Work")
    _status(pic, view, names)
    y = _town(pic, view)
    y = max(_market(pic, view, y, names), top - 10)
    w = (width - 16 * (cols + 1)) / cols
    for seat in range(view["n"]):
        col, row = seat % cols, seat // cols
        _seat(pic, view, viewer, names, seat, 16 + col * (w + 16), y + row * canvas["seat_panel_height"], w)
    return pic.render()
