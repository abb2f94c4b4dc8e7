"""The board picture: what a player at the table sees, drawn from a viewer's `view` only.

Zones (domain/engine/board.py), each read at its real size: the round and who acts; Paris in two
halves (each location with its spaces: cost, who may go there, what it gives, the meeple on it); the
cards on offer (with what each does) and the decks as backs with their size; the bonus objectives and
the bump track; then one zone per seat: character, francs, VP, the three dials, meeples, jars and ice,
the decay track as the board's grid of materials by stage, the operating table and the hand (the
viewer's own cards by name and effect, backs for everyone else's). Every card, space, location,
character and objective carries its glossary key (`data-detail`), and what a move names, `data-target`.
"""

from __future__ import annotations

from domain.engine import load_toml
from domain.engine.board import Board, Item, Zone, seats_named, token
from domain.engine.svg import seat_colour

from .content import C
from .words import effects, materials, plural, prompt

LAYOUT = load_toml(__package__, "layout.toml")
BACK = "#6b5a49"
GRAVES = ("cemetery", "morgue", "hospital", "publicSquare", "docks")
CITY = ("academy", "saintRoch", "market", "foundry", "salon")
MATERIAL_COLOURS = {"blood": "#a3141e", "organ": "#7b3f8c", "muscle": "#c2185b", "animal": "#7a5230",
                    "bone": "#e8e1cf"}
CARD_FILL = {"cadaver": "#efe7e1", "scoundrel": "#e9eef3", "research": "#e8f0e4", "humanity": "#f5ecd9",
             "event": "#f0e6f2", "encounter": "#f3e3e3"}


def card_key(card) -> str:
    return f"card:{card}"


def space_key(space: str) -> str:
    return f"space:{space}"


def _kind_of(card) -> str:
    for kind, table in (("cadaver", C.cadavers), ("scoundrel", C.scoundrels), ("research", C.research),
                        ("humanity", C.humanity)):
        if card in table:
            return kind
    return "event" if card in getattr(C, "events", {}) else "encounter"


def card_item(card, *, strong=False) -> Item:
    """A face-up card: its name and what it does."""
    data = C.cards.get(card, {})
    kind = _kind_of(card)
    lines: list[str] = []
    if kind == "cadaver":
        cost = effects(data.get("cost", [])) if data.get("cost") else "free"
        lines = [f"{materials(data.get('materials', []))}, or +{data.get('expertiseValue', 0)} Expertise",
                 f"Cost: {cost}"]
    elif kind == "scoundrel":
        lines = [effects(data.get("effects", [])), f"Hire: {effects(data.get('hireCost', [])) if data.get('hireCost') else 'free'}"]
    elif data.get("effects") is not None:
        lines = [effects(data.get("effects", []) + data.get("icons", []))]
    return Item(data.get("name", "a card"), key=card_key(card), lines=lines, fill=CARD_FILL.get(kind, "#fffdf7"),
                strong=strong, max_lines=3)


def event_item(card, round_no) -> Item:
    """The event in play, by its face for this round (its title and what it does)."""
    faces = C.events.get(card, {}).get("faces", [])
    face = next((f for f in faces if f["rounds"][0] <= round_no <= f["rounds"][1]), faces[0] if faces else {})
    lines = []
    if face.get("immediate"):
        lines.append(effects(face["immediate"]))
    if face.get("lightningStorm"):
        lines.append("Lightning storm: every Leyden jar is charged")
    if face.get("execution"):
        lines.append("Execution: fresh cadavers go on display at the Place de la Lame")
    return Item(face.get("title", "an event"), key=card_key(card), lines=lines or ["no lasting effect"],
                fill=CARD_FILL["event"], max_lines=3)


def _status(board: Board, view, names) -> None:
    z = board.zone("status", "Now", colour="#3d2618")
    if view["phase"] == "over":
        won = [seats_named(names, w) for w in view.get("winners") or []]
        z.heading("The game is over", sub=(" and ".join(won) + (" win" if len(won) > 1 else " wins")) if won
                  else "no winner")
        return
    z.heading(f"Round {view['round']} of {C.rounds}: {view['phase']} phase",
              sub=f"First player {seats_named(names, view['first'])}, Captain {seats_named(names, view['captain'])}")
    ask = prompt(view)
    for seat in range(view["n"]):
        ask = ask.replace(f"Seat {seat}", seats_named(names, seat))
    z.line(ask, size=13, max_lines=4)
    if view.get("inPlay"):
        z.line("Event in play:", bold=True)
        z.items([event_item(c, view["round"]) if c in C.events else card_item(c) for c in view["inPlay"]],
                per_row=1)


def _paris(board: Board, view, half, title) -> None:
    z = board.zone(f"paris-{half[0]}", title, colour="#6d4c2f")
    z.heading(title)
    for loc in half:
        data = C.locations[loc]
        z.line(data["name"], size=14, bold=True, key=f"location:{loc}")
        cards = []
        for space in data["spaces"]:
            occ = view["spaces"].get(space["id"])
            spot = space["id"].partition(".")[2].title()
            who = "scientist only" if space["scientistOnly"] else "anyone"
            cost = f"${space['francCost']}" if space["francCost"] else "free"
            pieces = [(occ["seat"], "S" if occ["kind"] == "scientist" else "A")] if occ else []
            cards.append(Item(spot, key=space_key(space["id"]), badge=cost, lines=[effects(space["effects"]), who],
                              pieces=pieces, fill="#fffaf0" if not occ else "#f1e7d6", max_lines=3))
        z.items(cards, per_row=len(cards) if len(cards) <= 2 else 3, size=12, title_size=13)


def _offer(board: Board, view) -> None:
    z = board.zone("offer", "Cards on offer", colour="#4b5d6b")
    z.heading("Cards on offer")
    for display, label in LAYOUT["displays"]["names"].items():
        cards = view["displays"].get(display, [])
        extra = f" ({view.get('hospitalPile', len(cards))} in the pile)" if display == "hospital" else ""
        z.line(f"{label}{extra}", size=13, bold=True)
        if cards:
            z.items([card_item(c) for c in cards[:3]], per_row=2)
        else:
            z.line("empty", fill="#5e554f")
    sizes = view.get("deckSizes") or {}
    z.line("Decks, face down", size=13, bold=True)
    z.items([Item(f"{label}", badge=str(sizes.get(deck, 0)), fill=BACK, ink="#f6efe3", stroke="#3d3226",
                  lines=[plural(sizes.get(deck, 0), "card")], say=f"{label} deck: {plural(sizes.get(deck, 0), 'card')}")
             for deck, label in LAYOUT["decks"]["names"].items()], per_row=3, title_size=12)


def _objectives(board: Board, view, names) -> None:
    z = board.zone("objectives", "Objectives and bump track", colour="#7a5a1d")
    z.heading("Bonus objectives", sub="10 VP each at the end")
    items = []
    for oid in view["objectives"]:
        holder = view["claimed"].get(oid)
        items.append(Item(C.objectives[oid]["name"], key=card_key(oid),
                          lines=[f"claimed by {seats_named(names, holder)}" if holder is not None else "unclaimed"],
                          pieces=[(holder, "★")] if holder is not None else [], fill="#fbf3dc"))
    z.items(items, per_row=2)
    z.line("Bump track", size=13, bold=True)
    bumps = []
    for i, occ in enumerate(view["bump"]):
        cost = C.bump[view["n"]][i]
        bumps.append(Item(f"Slot {i + 1}", badge=f"${cost}", lines=["free" if not occ else f"{seats_named(names, occ['seat'])}'s {occ['kind']}"],
                          pieces=[(occ["seat"], "S" if occ["kind"] == "scientist" else "A")] if occ else []))
    z.items(bumps, per_row=max(1, min(3, len(bumps))))


def _dials(z: Zone, p) -> None:
    attr = p["attr"]
    z.line(f"Humanity {attr['humanity']}   Reputation {attr['reputation']}   Expertise {attr['expertise']}",
           size=13, bold=True)
    jars = ", ".join("charged" if j else "empty" for j in p["jars"]) or "none"
    ice = ", ".join("solid" if i == "solid" or i is True else "half-melted" for i in p["ice"]) or "none"
    z.line(f"On the card: {plural(p['card']['scientist'], 'scientist')}, {plural(p['card']['assistant'], 'assistant')}. "
           f"In reserve: {p['reserve']['scientist']} scientist, {p['reserve']['assistant']} assistant.", size=12)
    z.line(f"Leyden jars: {jars}. Ice: {ice}.", size=12)


def _lab(z: Zone, view, seat, viewer) -> None:
    """The lab board's own placement spaces, with the meeple on each (a move names them `lab.<space>`,
    so only the viewer's own lab is a target)."""
    items = []
    for space in C.lab_spaces.values():
        occ = view["spaces"].get(f"lab{seat}.{space['id']}")
        key = space_key(f"lab.{space['id']}")
        items.append(Item(space["id"].title(), key=key, target=key if viewer == seat else "",
                          lines=[effects(space["effects"])] + (["scientist only"] if space["scientistOnly"] else []),
                          pieces=[(occ["seat"], "S" if occ["kind"] == "scientist" else "A")] if occ else [],
                          fill="#f1e7d6" if occ else "#fffaf0", max_lines=2))
    z.items(items, per_row=3, title_size=12)


def _decay(z: Zone, p) -> None:
    """The decay track: materials down, stages I-IV across, as on the lab board."""
    mats, stages = LAYOUT["seat"]["materials"], LAYOUT["seat"]["stages"]
    z.line("Decay track (materials by stage)", size=13, bold=True)
    y0 = z.y
    col_w = (z.width - 2 * 10 - 80) / len(stages)
    z._open_item(None, None, "Decay track: " + "; ".join(
        f"{m} " + ", ".join(f"{p['decay'][s][m]} at {s}" for s in stages) for m in mats))
    for j, stage in enumerate(stages):
        z.text(90 + j * col_w + col_w / 2, y0 + 13, stage, size=13, font_weight="bold", text_anchor="middle")
    for i, mat in enumerate(mats):
        y = y0 + 20 + i * 22
        z.rect(10, y, 76, 19, rx=3, fill=MATERIAL_COLOURS[mat])
        z.text(16, y + 14, mat, size=12, fill="#fff", font_weight="bold")
        for j, stage in enumerate(stages):
            n = p["decay"][stage][mat]
            z.rect(90 + j * col_w + 2, y, col_w - 4, 19, rx=3, fill="#fff" if n else "#f4efe6", stroke="#c9bba6")
            z.text(90 + j * col_w + col_w / 2, y + 14, str(n), size=12, text_anchor="middle",
                   font_weight="bold" if n else None, fill="#1f1a17" if n else "#6e655d")
    z._close_item(None, None)
    z.y = y0 + 20 + len(mats) * 22 + 4
    pre = p["preserved"]
    z.line(f"Bone {p['bone']}. Preserved: {pre['organ']} organ, {pre['muscle']} muscle.", size=12)


def _seat(board: Board, view, viewer, names, seat) -> None:
    p = view["p"][seat]
    colour = seat_colour(seat)
    you = " (you)" if viewer == seat else ""
    z = board.zone(f"seat-{seat}", f"{seats_named(names, seat)}{you}", colour=colour)
    final = (view.get("final") or {}).get(str(seat))
    score = f"{final['total']} points (final)" if final else f"{p['vp']} VP"
    done = ", done with the lab" if view["phase"] == "lab" and p["done"] else ""
    z.heading(f"{seats_named(names, seat)}{you}", sub=f"{score}, {plural(p['francs'], 'franc')}{done}",
              target=f"seat:{seat}")
    ch = C.characters.get(p["character"])
    if ch:
        z.items([Item(ch["name"], key=f"pc:{p['character']}",
                      lines=[f"Ability ({ch.get('ability', {}).get('timing', 'lab')}): "
                             f"{effects(ch.get('ability', {}).get('effects', []))}"], fill="#f3ead9",
                      strong=seat == view.get("active") and view["phase"] == "city")], per_row=1)
    _dials(z, p)
    _lab(z, view, seat, viewer)
    _decay(z, p)
    z.line("Operating table", size=13, bold=True)
    parts = [Item(part["type"].title(), badge="alive" if part["alive"] else part["side"],
                  lines=[plural(part["damage"], "damage marker") if part["damage"] else "no damage"],
                  fill="#d7eed7" if part["alive"] else ("#f1d9c4" if part["side"] == "skin" else "#ecd3d3"))
             for part in p["parts"]]
    if parts:
        z.items(parts, per_row=3, title_size=12)
    else:
        z.line("empty", fill="#5e554f")
    hands = p["hands"]
    if isinstance(hands["research"], list):
        cards = hands["research"] + hands["humanity"]
        z.line(f"Hand ({len(cards)})", size=13, bold=True)
        if cards:
            z.items([card_item(c) for c in cards], per_row=2)
    else:
        n = hands["research"] + hands["humanity"]
        z.line(f"Hand: {plural(n, 'card')} face down ({hands['research']} research, {hands['humanity']} humanity)",
               size=12)
    held = [h for h in view["held"] if h["holder"] == seat]
    for h in held:
        if "card" in h:
            z.line(f"Holds the encounter {C.cards.get(h['card'], {}).get('name', 'a card')} at "
                   f"{C.locations[h['location']]['name']}", size=12, key=card_key(h["card"]))
        else:
            z.line("Holds a secret encounter card", size=12)


def picture(view, viewer, names) -> str:
    """The SVG for `viewer`, from `view` (what that viewer may see) only."""
    board = Board("Abomination: The Heir of Frankenstein")
    _status(board, view, names)
    order = list(range(view["n"]))
    if isinstance(viewer, int) and 0 <= viewer < view["n"]:
        order = [viewer] + [s for s in order if s != viewer]   # your own area first, as you sit at the table
    _seat(board, view, viewer, names, order[0])
    _paris(board, view, GRAVES, "Paris: bodies and docks")
    _paris(board, view, CITY, "Paris: the city")
    _offer(board, view)
    _objectives(board, view, names)
    for seat in order[1:]:
        _seat(board, view, viewer, names, seat)
    return board.render()
