"""Words for players: the label of each listed move and the prompt of the decision now.

Everything is said in content names: PCs, their body cards ("Brick's head"), Items, NPCs, Karma
cards, and the areas and Terrains named in content/layout.toml. Never an internal id ("101:o1",
slot "4.a", marker "101/front/4", anchor "12:right:0"). A narrative card has no title, so it is
called by the first words of its visible text. Players are "Seat N" (the service writes in names).
The functions read only keys a `view` also has (chapter, cards, pcs, pending), so picture.py uses
them on the viewer's view; describe.py shares them.
"""

from __future__ import annotations

from domain.engine import load_toml
from domain.engine.text import join, plural, upper_first  # noqa: F401  (describe and picture use them too)

from .content import ContentError
from .state import C, face_side

LAYOUT = load_toml(__package__, "layout.toml")
ICON = {"watch": "Watch", "speak": "Speak", "interact": "Interact", "heal": "Heal", "move": "Move",
        "attack": "Attack", "explore": "Explore"}
SIDE = {"left": "left", "right": "right"}


def check_layout(content) -> None:
    """The names in layout.toml must fit the chapter: every named Terrain is a Terrain card, every named
    area one of its areas, and every Terrain of the chapter and each of its areas has a name."""
    named = LAYOUT.get("terrain", {})
    for key, rec in named.items():
        card = content.cards.get(int(key))
        if card is None or card["kind"] != "terrain":
            raise ContentError(f"layout.toml: terrain.{key} is not a Terrain card of {content.id}")
        ids = {a["id"] if isinstance(a, dict) else a for side in ("front", "back") if card.get(side)
               for a in _area_ids(card[side])}
        extra = set(rec.get("areas", {})) - ids
        if extra:
            raise ContentError(f"layout.toml: terrain.{key} names areas {sorted(extra)} it does not have")
        for a, spot in rec.get("areas", {}).items():
            if not isinstance(spot.get("name"), str) or not 0 <= spot.get("x", -1) <= 1 or not 0 <= spot.get("y", -1) <= 1:
                raise ContentError(f"layout.toml: terrain.{key}.areas.{a} needs a name and x, y between 0 and 1")
    for number, card in content.cards.items():
        if card["kind"] == "terrain":
            rec = named.get(str(number))
            missing = set() if rec is None else {a for side in ("front", "back") if card.get(side)
                                                 for a in _area_ids(card[side])} - set(rec.get("areas", {}))
            if rec is None or missing:
                raise ContentError(f"layout.toml: Terrain {number} of {content.id} needs a name and names for "
                                   f"its areas {sorted(missing)}")


def _area_ids(face: dict) -> list[str]:
    areas = face.get("areas", [])
    return list(areas) if isinstance(areas, dict) else [a["id"] for a in areas]


# -- small grammar -------------------------------------------------------------------------
def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def materials(n: int) -> str:
    return f"{n} Material{'s' if n != 1 else ''}"


# -- names -----------------------------------------------------------------------------------
def terrain_name(number) -> str:
    rec = LAYOUT.get("terrain", {}).get(str(number))
    return rec["name"] if rec else "an unnamed Terrain"


def area_name(ref) -> str:
    """'101:o1' -> 'the Wagon Camp' (the area names of layout.toml)."""
    if not isinstance(ref, str) or ":" not in ref:
        return "an unknown area"
    number, _, area = ref.partition(":")
    spot = LAYOUT.get("terrain", {}).get(number, {}).get("areas", {}).get(area)
    return f"the {spot['name']}" if spot else f"an area of {terrain_name(number)}"


def pc_name(s: dict, pc) -> str:
    try:
        return C(s).pc(pc)["name"]
    except (ValueError, KeyError, TypeError):
        return "a PC"


def _snippet(text: str, words: int = 6) -> str:
    bits = text.replace("'", "").replace('"', "").split()
    return " ".join(bits[:words]).rstrip(".,;:!?") + ("..." if len(bits) > words else "")


def card_name(s: dict, n, side: str | None = None) -> str:
    """A card by what is printed on its visible face, never by its number."""
    try:
        rec = C(s).card(int(n))
    except (KeyError, TypeError, ValueError):
        return "a card"
    side = side or face_side(s, int(n))
    f = C(s).face(int(n), side)
    kind = rec["kind"]
    if kind == "item":
        return f"the {f['name']}"
    if kind == "karma":
        return f"the Karma card {rec['name']}"
    if kind == "family":
        return "the Family card"
    if kind == "pc":
        return f"{possessive(pc_name(s, rec['pc']))} {rec['part']}"
    if kind == "terrain":
        return f"the Terrain {terrain_name(n)}"
    if kind == "narrative":
        if f.get("npc"):
            return f"{possessive(f['npc']['name'])} card"
        return f"the card \u201c{_snippet(f.get('narrative') or 'untitled')}\u201d"
    return "a card"


def npc_name(s: dict, npc) -> str:
    try:
        number = int(npc)
        f = C(s).face(number, face_side(s, number))
        sec = f.get("npc") or (C(s).card(number).get("back") or {}).get("npc") or {}
        return sec.get("name", "an NPC")
    except (KeyError, TypeError, ValueError):
        return "an NPC"


def who(s: dict, w) -> str:
    """A PC or an NPC standee ({'pc': ..} / {'npc': n, 's': k})."""
    if not isinstance(w, dict):
        return "someone"
    if "pc" in w:
        return pc_name(s, w["pc"])
    name = npc_name(s, w.get("npc"))
    count = len(s.get("npcs", {}).get(str(w.get("npc")), []))
    return f"{name} (standee {w.get('s', 0) + 1})" if count > 1 else name


def _slot_record(s: dict, ref) -> tuple[dict | None, dict | None]:
    if not isinstance(ref, str) or "." not in ref:
        return None, None
    number, _, sid = ref.partition(".")
    try:
        card = C(s).card(int(number))
        f = C(s).face(int(number), face_side(s, int(number)))
    except (KeyError, ValueError):
        return None, None
    return card, next((sl for sl in f.get("slots", []) if sl["id"] == sid), None)


def slot_name(s: dict, ref) -> str:
    """'4.a' -> "Brick's head (Watch/Speak slot)"; an Item slot -> 'the Storm Lantern'."""
    card, slot = _slot_record(s, ref)
    if card is None:
        return "a slot"
    icons = "/".join(ICON.get(i, i.title()) for i in (slot or {}).get("icons", []))
    if slot and slot.get("attack"):
        icons = (icons + "/" if icons else "") + f"Attack {slot['attack']['power']}"
    what = f" ({icons} slot)" if icons else ""
    if card["kind"] == "pc":
        return f"{possessive(pc_name(s, card['pc']))} {card['part']}{what}"
    return card_name(s, card["number"]) + what


def slot_short(s: dict, ref) -> str:
    """A participant's slot in a combined move: 'head', 'feet', or the Item's name."""
    card, slot = _slot_record(s, ref)
    if card is None:
        return "a slot"
    icons = "/".join(ICON.get(i, i.title()) for i in (slot or {}).get("icons", []))
    where = card["part"] if card["kind"] == "pc" else card_name(s, card["number"])
    return f"{where}, {icons}" if icons else where


def marker_place(s: dict, marker) -> str:
    """'101/front/4' (icon 4 of Terrain 101's front) -> the area the icon is printed in."""
    try:
        number, side, idx = str(marker).split("/")
        icon = C(s).face(int(number), side)["icons"][int(idx)]
    except (KeyError, ValueError, IndexError):
        return "here"
    if icon.get("area"):
        return area_name(f"{number}:{icon['area']}")
    if icon.get("edge"):
        return f"the {dict(N='north', S='south', E='east', W='west').get(icon['edge'], '')} edge of {terrain_name(number)}"
    return terrain_name(number)


def anchor_name(s: dict, anchor) -> str:
    """'12:right:0' -> "the right side of Nell's feet"."""
    try:
        number, side, _ = str(anchor).split(":")
        return f"the {SIDE.get(side, side)} side of {card_name(s, int(number))}"
    except ValueError:
        return "an anchor"


def _tokens(slots) -> str:
    return plural(len(slots), "Action token")


def _bundle(s: dict, part: dict) -> str:
    bits = ([materials(part["materials"])] if part.get("materials") else []) + \
        [card_name(s, i) for i in part.get("items", [])]
    return join(bits) or "nothing"


# -- labels ------------------------------------------------------------------------------------
def label(s: dict, seat: int, move: dict) -> str:
    kind = move.get("type")
    pc = pc_name(s, move.get("pc"))
    using = f" with {slot_name(s, move['slot'])}" if "slot" in move else ""
    if kind in ("watch", "speak", "interact", "explore"):
        verb = {"watch": "watches", "speak": "speaks", "interact": "interacts", "explore": "explores"}[kind]
        return f"{pc} {verb} at {marker_place(s, move.get('marker'))}{using}"
    if kind == "move":
        path = list(move.get("path", []))
        explore = path and str(path[-1]).startswith("explore:")
        if explore:
            edge = marker_place(s, path.pop()[len("explore:"):])
        steps = [area_name(a) for a in path]
        cost = f" ({_tokens(move.get('slots', []))} on the feet)"
        if explore:
            via = f" through {join(steps)}" if steps else ""
            return f"{pc} moves{via} and explores {edge}{cost}"
        via = f" through {join(steps[:-1])}" if len(steps) > 1 else ""
        return f"{pc} moves to {steps[-1] if steps else 'the same area'}{via}{cost}"
    if kind == "attack":
        targets = [move["target"]] if "target" in move else move.get("targets", [])
        return f"{pc} attacks {join([who(s, t) for t in targets])}{using}"
    if kind == "combined_attack":
        names = [f"{pc_name(s, p['pc'])} ({slot_short(s, p['slot'])})" for p in move.get("participants", [])]
        return f"Combined attack on {who(s, move.get('target'))} by {join(names)} (each must agree)"
    if kind == "heal":
        dmg = move.get("damage")
        where = f" on {slot_name(s, dmg).split(' (')[0]}" if dmg else ""
        return f"{pc} heals {who(s, move.get('target'))}, removing 1 Damage{where}{using}"
    if kind == "pickup":
        return f"{pc} picks up {_bundle(s, move)}{using}"
    if kind == "drop":
        what = card_name(s, move["item"]) if "item" in move else materials(move.get("materials", 0))
        return f"{pc} drops {what} in {area_name(s['pcs'][move['pc']]['area']) if move.get('pc') in s['pcs'] else 'the area'} (free)"
    if kind == "trade":
        give, take = move.get("give", {}), move.get("take", {})
        return (f"{pc} offers {pc_name(s, move.get('with'))} a trade: gives {_bundle(s, give)}, takes "
                f"{_bundle(s, take)}{using} ({pc_name(s, move.get('with'))} must agree)")
    if kind == "repair":
        return f"{pc} repairs {card_name(s, move.get('item'))}, removing 1 Damage{using}"
    if kind == "upgrade":
        item = move.get("item")
        try:
            cost = C(s).face(int(item), face_side(s, int(item)))["upgrades"][move.get("upgrade", 0)]["cost"]
        except (KeyError, IndexError, TypeError, ValueError):
            cost = None
        price = f", paying {materials(cost)}" if cost is not None else ""
        return f"{pc} upgrades {card_name(s, item)}{price}{using}"
    if kind == "use_item":
        return f"{pc} uses {slot_name(s, move.get('slot'))}"
    if kind == "injure":
        return f"{pc} takes a voluntary severe injury: {card_name(s, move.get('card'))} flips to its wounded side"
    if kind == "card_action":
        card = card_name(s, move.get("card"))
        target = f" on {who(s, move['target'])}" if move.get("target") else ""
        return f"{pc} performs the action of {card}{target}{using}"
    if kind == "combined_action":
        names = [f"{pc_name(s, p['pc'])} ({slot_short(s, p['slot'])})" for p in move.get("participants", [])]
        return f"{join(names)} perform together the action of {card_name(s, move.get('card'))} (each must agree)"
    if kind == "end_window":
        return "End the action window: the team stops spending Action tokens and the Hourglass moves on"
    if kind == "choose":
        p = s.get("pending") or {}
        opts = p.get("options", [])
        k = move.get("option", 0)
        return upper_first(option(s, p, opts[k])) if isinstance(k, int) and 0 <= k < len(opts) else "Choose"
    return upper_first(str(kind or "move").replace("_", " "))


def option(s: dict, p: dict, opt) -> str:
    """One option of a pending decision, as the thing that happens if it is chosen."""
    kind = p.get("kind")
    pc = pc_name(s, p.get("pc"))
    npc = npc_name(s, p.get("npc"))
    item = card_name(s, p["item"]) if p.get("item") is not None else "the Item"
    if kind == "damage_slot":
        _, slot = _slot_record(s, opt)
        heart = " (a heart slot)" if slot and slot.get("heart") else ""
        return f"put the Damage on {slot_name(s, opt)}{heart}"
    if kind == "allocate_materials":
        return f"give 1 Material to {pc_name(s, opt)}"
    if kind == "allocate_item":
        return f"give {item} to {pc_name(s, opt)}"
    if kind == "item_anchor":
        return f"hang {item} on {anchor_name(s, opt)}"
    if kind == "item_overflow":
        if isinstance(opt, dict) and "drop" in opt:
            return f"drop {card_name(s, opt['drop'])} to make room"
        if isinstance(opt, dict) and "leave" in opt:
            return f"leave {card_name(s, opt['leave'])} in the area"
    if kind == "npc_order":
        standee = (s.get("npcs", {}).get(str(p.get("npc")), []) or [{}])
        area = standee[opt].get("area") if isinstance(opt, int) and opt < len(standee) else None
        return f"{possessive(npc)} standee {opt + 1 if isinstance(opt, int) else ''}" \
               f"{' in ' + area_name(area) if area else ''} acts first"
    if kind in ("npc_target", "ally_target"):
        if isinstance(opt, dict) and opt.get("none"):
            return f"{npc} attacks no one"
        return f"{npc} attacks {who(s, opt)}"
    if kind == "npc_area":
        return f"place {npc} in {area_name(opt)}"
    if kind == "npc_path":
        return f"{npc} walks to {area_name(opt[-1])}" + (f" through {join([area_name(a) for a in opt[:-1]])}"
                                                           if isinstance(opt, list) and len(opt) > 1 else "") \
            if isinstance(opt, list) and opt else f"{npc} stays"
    if kind == "ally_join":
        if isinstance(opt, dict) and opt.get("done"):
            return f"no more PCs join {possessive(npc)} attack"
        return f"{pc_name(s, opt.get('pc'))} joins {possessive(npc)} attack with {slot_name(s, opt.get('slot'))}"
    if kind == "choose_pc":
        return f"{pc_name(s, opt)} takes the Damage"
    if kind == "injury_card":
        return f"{card_name(s, opt)} takes the severe injury and flips"
    if kind == "combined_consent":
        what = (p.get("move") or {}).get("type", "").replace("combined_", "combined ")
        return f"{pc} {'agrees to' if opt == 'accept' else 'refuses'} the {what}"
    if kind == "trade_consent":
        t = p.get("trade") or {}
        deal = f"{possessive(pc_name(s, t.get('pc')))} trade ({_bundle(s, t.get('give', {}))} for {_bundle(s, t.get('take', {}))})"
        return f"{pc} {'accepts' if opt == 'accept' else 'declines'} {deal}"
    # any other decision: name the option as best we can
    if isinstance(opt, dict):
        return who(s, opt)
    if isinstance(opt, str) and opt in s.get("pcs", {}):
        return pc_name(s, opt)
    if isinstance(opt, str) and ":" in opt:
        return area_name(opt)
    if isinstance(opt, int):
        return card_name(s, opt)
    return str(opt)


QUESTION = {
    "damage_slot": "choose where {pc_s} Damage goes", "allocate_materials": "choose who takes a Material ({left} left)",
    "allocate_item": "choose who takes {item}", "item_anchor": "choose where {pc} hangs {item}",
    "item_overflow": "{pc} has no room for {item}: choose what to leave",
    "npc_order": "choose which of {npc_s} standees acts first", "npc_target": "choose whom {npc} attacks",
    "ally_target": "choose whom {npc} (an ally) attacks", "npc_area": "choose where {npc} is placed",
    "npc_path": "choose which way {npc} walks", "ally_join": "choose who joins {npc_s} attack",
    "choose_pc": "choose which PC takes the Damage", "injury_card": "choose which of {pc_s} cards takes the severe injury",
    "combined_consent": "{pc} must agree to the combined action or refuse it",
    "trade_consent": "{pc} must accept or decline the trade",
}


def seats_for(s: dict, pc) -> list[int]:
    if "control" in s:
        return list(s["control"].get(pc, [])) if pc else list(range(s.get("players", 1)))
    if pc and pc in s.get("pcs", {}):
        return list(s["pcs"][pc].get("controllers", []))
    return sorted({c for p in s.get("pcs", {}).values() for c in p.get("controllers", [])})


def ask(s: dict, p: dict) -> str:
    """What a pending decision is about, without its options."""
    pc, npc = pc_name(s, p.get("pc")), npc_name(s, p.get("npc"))
    fill = {"pc": pc, "npc": npc, "pc_s": possessive(pc), "npc_s": possessive(npc), "left": p.get("left", ""),
            "item": card_name(s, p["item"]) if p.get("item") is not None else "the Item"}
    return QUESTION.get(p.get("kind"), "choose one option").format(**fill)


def question(s: dict, p: dict) -> str:
    """The pending decision in words, naming its options."""
    ask_ = ask(s, p)
    opts = [option(s, p, o) for o in p.get("options", [])]
    return f"{ask_}: " + "; or ".join(opts) if opts else ask_


def prompt(s: dict) -> str:
    over = s.get("over", s.get("outcome"))
    if over is not None:
        return f"The chapter is over: {'victory' if over == 'victory' else 'defeat'}"
    p = s.get("pending")
    if p:
        seats = seats_for(s, p.get("pc"))
        who_ = join([f"Seat {k}" for k in seats]) or "The team"
        return f"{who_}: {question(s, p)}"
    seats = range(s["players"]) if "players" in s else seats_for(s, None)
    return (f"{join([f'Seat {k}' for k in seats]) or 'The team'}: spend Action tokens on your PCs (watch, speak, "
            "interact, move, attack, heal, pick up, trade...) or end the action window")
