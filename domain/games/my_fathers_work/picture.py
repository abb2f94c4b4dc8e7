"""The board picture: what a player at the table sees, drawn from a viewer's `view` only.

Zones (domain/engine/board.py), each read at its real size: the generation, round and who acts, the
Angry Mob and Suspicion tracks and the Storybook messages the viewer may read; the Town (each Location
of the current page with what it gives and costs and the pieces on it); the market (Estate Upgrades for
sale with their price and ability, Vanity tiles left, the decks as backs with their size); then one zone
per seat, the viewer's first: score, money, Resources, Knowledge against the Journal, Creepy and
Insanity, pieces by place, the Estate's plots, the hand (the viewer's own Experiments with what they cost
and give, backs with their level for everyone else's), the Masterwork and completed Experiments. Every
card, tile and location carries its glossary key (`data-detail`) and what a move names, `data-target`.
"""

from __future__ import annotations

from domain.engine import load_toml
from domain.engine.board import Board, Item, Zone, seats_named
from domain.engine.svg import seat_colour

from . import content as C
from .scoring import winners
from .words import RES, effects, prompt

LAYOUT = load_toml(__package__, "layout.toml")
BACK = "#4f5b66"
#: The Resources' colours (ingredient cubes) and the Knowledge colours of the Journal.
CUBE = {"chemical": "#2e7d32", "animal": "#8d5524", "gear": "#546e7a", "body": "#b23a48",
        "chemistry": "#1b7f6b", "biology": "#6a8e23", "engineering": "#5c6bc0", "occult": "#6a1b9a"}
LEVEL_FILL = {"A": "#eef4e6", "B": "#e8eef7", "C": "#f4e9f3", "D": "#f7eccf"}


def exp_key(card) -> str:
    return f"card:{card}"


def _costs(table: dict) -> str:
    return ", ".join(f"{n} {RES.get(k, k)}" for k, n in table.items() if n)


def experiment_item(card, *, note: str | None = None, strong=False) -> Item:
    """A face-up Experiment: its title and level, what it needs and what it gives."""
    data = C.EXPERIMENTS.get(card)
    if not data:
        return Item("an Experiment", fill=BACK, ink="#eef")
    needs = ", ".join(x for x in (_costs(data.get("cost_ingredients", {})), _costs(data.get("cost_knowledge", {}))) if x)
    pre = data.get("prerequisites") or {}
    done_first = ", ".join(f"{n} {level}" for level, n in pre.items())
    lines = [f"Needs {needs or 'nothing'}" + (f"; first complete {done_first}" if pre else ""),
             f"Gives {effects(data.get('rewards', [])) or 'nothing'}"]
    if note:
        lines.append(note)
    return Item(data["title"], key=exp_key(card), badge=data["level"], lines=lines, strong=strong,
                fill=LEVEL_FILL.get(data["level"], "#fffdf7"), stripe=CUBE.get(data.get("type")), max_lines=6)


def _ability(ab) -> str:
    kind = ab.get("kind", "").replace("_", " ")
    if ab.get("effects"):
        return f"{kind}: {effects(ab['effects'])}"
    if ab.get("score"):
        score = ab["score"]
        per = {"flat": "", "journal_level": " per Journal level", "stored": " per stored Experiment",
               "upgrade": " per Estate Upgrade", "maxed_journal": " per full Journal"}.get(score.get("per"), "")
        return f"at the end: {score.get('vp', 0)} VP{per}"
    return kind


def tile_item(tile, *, open_plot=True) -> Item:
    rec = C.tile(tile) if isinstance(tile, str) and (tile in C.UPGRADES or tile in C.VANITY) else None
    if not rec:
        return Item("empty" if open_plot else "closed", fill="#fffdf7" if open_plot else "#dcdcd2",
                    say="an empty plot" if open_plot else "a closed plot")
    lines = [_ability(ab) for ab in rec.get("abilities", [])]
    if rec.get("score"):
        lines.append(_ability({"score": rec["score"]}))
    if rec.get("penalties"):
        lines.append("penalty: " + effects(rec["penalties"]))
    return Item(rec["name"], key=f"tile:{tile}", badge=f"${rec['price']}" if rec.get("price") else None,
                lines=lines or ["no ability"], fill="#f6f0e0", max_lines=3)


def _status(board: Board, view, names) -> None:
    z = board.zone("status", "Now", colour="#2f3b2a")
    if view["over"]:
        won = [seats_named(names, w) for w in winners(view)]
        z.heading("The game is over", sub=(" and ".join(won) + (" win" if len(won) > 1 else " wins")) if won
                  else "no winner")
    else:
        z.heading(f"Generation {view['gen']}, round {view['round']}",
                  sub=f"Start player {seats_named(names, view['start_player'])}")
        ask = prompt(view)
        for seat in range(view["n"]):
            ask = ask.replace(f"Seat {seat}", seats_named(names, seat))
        z.line(ask, max_lines=4)
    _track(z, "Angry Mob", view["mob"], "#a3141e")
    _track(z, "Suspicion", view["suspicion"], "#6a1b9a")
    shown = view["messages"][-3:]
    if shown:
        z.line("Storybook", bold=True)
        for m in shown:
            who = "" if m["to"] is None else f"(secret, to {seats_named(names, m['to'])}) "
            z.line(who + m["text"], size=12, max_lines=4, indent=6)


def _track(z: Zone, name: str, value: int, colour: str, top: int = 20) -> None:
    """A track of `top` steps with its marker, as the board's Angry Mob and Suspicion tracks."""
    z._open_item(None, None, f"{name} at {value}")
    z.text(10, z.y + 14, f"{name}: {value}", size=13, font_weight="bold")
    top = max(top, value)
    step = (z.width - 130) / (top + 1)
    for i in range(top + 1):
        x = 120 + i * step
        z.rect(x, z.y + 3, step - 1, 14, fill=colour if i == value else "#efe9dd", stroke="#c9bba6")
    z._close_item(None, None)
    z.y += 24


def _town(board: Board, view) -> None:
    here: dict[str, list[tuple[int, str]]] = {}
    for seat, pl in enumerate(view["players"]):
        for piece, zone in pl["pieces"].items():
            if zone.startswith("town:"):
                here.setdefault(zone[5:], []).append((seat, LAYOUT["letters"].get(piece, "?")))
    z = board.zone("town", "The Town", colour="#55633f")
    z.heading("The Town", sub=f"Village Chronicle page {str(view['page']).lstrip('p')}")
    items = []
    for loc in view["town"]:
        rec = C.LOCATIONS.get(loc, {})
        lines = []
        if rec.get("cost_per_use"):
            lines.append("pay " + effects(rec["cost_per_use"]).removeprefix("pay "))
        lines.append("gain " + (effects(rec.get("reward_per_use", [])) or "nothing"))
        if rec.get("penalties"):
            lines.append(effects(rec["penalties"]))
        items.append(Item(rec.get("name", "a Location"), key=f"location:{loc}", lines=lines,
                          pieces=here.get(loc, []), fill="#f3e3e0" if rec.get("suspicious") else "#eef0e6",
                          stroke="#8c9478", max_lines=3))
    z.items(items, per_row=2)


def _market(board: Board, view) -> None:
    z = board.zone("market", "Upgrades and decks", colour="#7a5a1d")
    z.heading(LAYOUT["row"]["title"])
    z.items([tile_item(t) if t else Item("empty", say="an empty place") for t in view["row"]], per_row=2)
    z.line("Vanity tiles left", bold=True)
    z.line(", ".join(f"{name} {left}" for name, left in view["vanity"].items()), size=12)
    sizes = view["decks"]
    decks = []
    for deck, label in LAYOUT["decks"]["names"].items():
        n = sizes[deck] if isinstance(sizes[deck], int) else len(sizes[deck])
        decks.append(Item(label, badge=str(n), fill=BACK, ink="#f2f4f6", stroke="#222", say=f"{label}: {n} cards"))
    z.line("Decks, face down", bold=True)
    z.items(decks, per_row=2, title_size=12)


def _where(zone: str) -> str:
    if zone == "quarters":
        return "Quarters"
    if zone == "lost":
        return "Lost"
    if zone.startswith("ins:"):
        return "under the Insanity Track"
    if zone.startswith("town:"):
        return C.LOCATIONS.get(zone[5:], {}).get("name", "the Town")
    if zone.startswith("estate:"):
        return C.ESTATE_LOCATIONS.get(zone[7:], {}).get("name", "the Estate")
    return "the Estate"


def _cubes(z: Zone, label: str, values: dict, order: list[str]) -> None:
    """A row of coloured cubes with counts, like the player board's storage."""
    z._open_item(None, None, f"{label}: " + ", ".join(f"{values[k]} {RES[k]}" for k in order))
    z.text(10, z.y + 14, label, size=13, font_weight="bold")
    w = (z.width - 96) / len(order)
    for i, k in enumerate(order):
        x = 92 + i * w
        z.rect(x, z.y + 1, w - 4, 18, rx=3, fill=CUBE[k])
        z.text(x + 5, z.y + 14, f"{RES[k][:4]} {values[k]}", size=12, fill="#fff", font_weight="bold")
    z._close_item(None, None)
    z.y += 24


def _estate_spaces(z: Zone, view, seat, viewer) -> None:
    """The Estate's own places (Estate Affairs, Record Knowledge, Perform Experiment) with the pieces on
    them; a move names them `space:<id>`, so only the viewer's own Estate is a target."""
    here: dict[str, list[tuple[int, str]]] = {}
    for piece, zone in view["players"][seat]["pieces"].items():
        if zone.startswith("estate:"):
            here.setdefault(zone[7:], []).append((seat, LAYOUT["letters"].get(piece, "?")))
    items = []
    for loc_id, rec in C.ESTATE_LOCATIONS.items():
        need = rec.get("servants_required", 1)
        items.append(Item(rec["name"], key=f"space:{loc_id}", target=None if viewer == seat else "",
                          lines=[f"{need} piece{'s' if need > 1 else ''}"], pieces=here.get(loc_id, []),
                          fill="#f1ece0", max_lines=2))
    z.items(items, per_row=3, title_size=12)


def _seat(board: Board, view, viewer, names, seat) -> None:
    pl = view["players"][seat]
    you = " (you)" if viewer == seat else ""
    z = board.zone(f"seat-{seat}", f"{seats_named(names, seat)}{you}", colour=seat_colour(seat))
    passed = ", passed" if view["passed"][seat] and not view["over"] else ""
    turn = seat == view.get("active") and not view["over"] and view["pending"] is None
    z.heading(f"{seats_named(names, seat)}{you}" + (" to play" if turn else ""),
              sub=f"{pl['score']} VP, ${pl['money']}{passed}", target=f"seat:{seat}")
    _cubes(z, "Resources", pl["res"], LAYOUT["resources"]["order"])
    _cubes(z, "Knowledge", pl["res"], LAYOUT["resources"]["knowledge"])
    _cubes(z, "Journal", pl["journal"], LAYOUT["resources"]["knowledge"])
    z.line(f"Creepy {pl['creepy']}, Insanity {pl['insanity']}", size=13, bold=True)
    places: dict[str, list[str]] = {}
    for piece, zone in pl["pieces"].items():
        places.setdefault(_where(zone), []).append(LAYOUT["pieces"][piece])
    z.line("Pieces: " + "; ".join(f"{where}: {', '.join(p)}" for where, p in places.items()), size=12, max_lines=4)
    _estate_spaces(z, view, seat, viewer)
    z.line(f"Estate ({pl['open']} plots open)", bold=True)
    z.items([tile_item(t, open_plot=i < pl["open"]) for i, t in enumerate(pl["plots"]) if t or i < pl["open"]],
            per_row=2, title_size=12)
    hand = pl["hand"]
    own = viewer == seat or viewer == "all"
    if own:
        z.line(f"Hand ({len(hand)})", bold=True)
        z.items([experiment_item(c) for c in hand], per_row=2)
    else:
        levels = ", ".join(f"{hand.count(lv)} {lv}" for lv in "ABCD" if hand.count(lv))
        z.line(f"Hand: {len(hand)} Experiments face down" + (f" ({levels})" if levels else ""), size=12)
    mw = pl["masterwork"]
    if mw:
        z.line("Masterwork" + (" (completed)" if pl["mw_done"] else ""), bold=True)
        z.items([experiment_item(mw, strong=pl["mw_done"])], per_row=1)
    done = pl["completed"]
    z.line(f"Completed Experiments ({len(done)})", bold=True)
    if done:
        z.items([Item(C.EXPERIMENTS[c]["title"], key=exp_key(c), badge=C.EXPERIMENTS[c]["level"],
                      fill=LEVEL_FILL.get(C.EXPERIMENTS[c]["level"], "#fffdf7")) for c in done if c in C.EXPERIMENTS],
                per_row=2, title_size=12)
    if pl["stored"]:
        z.line(f"Stored: {len(pl['stored'])}", size=12)


def picture(view, viewer, names) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    board = Board("My Father's Work")
    _status(board, view, names)
    order = list(range(view["n"]))
    if isinstance(viewer, int) and 0 <= viewer < view["n"]:
        order = [viewer] + [s for s in order if s != viewer]
    _seat(board, view, viewer, names, order[0])
    _town(board, view)
    _market(board, view)
    for seat in order[1:]:
        _seat(board, view, viewer, names, seat)
    return board.render()
