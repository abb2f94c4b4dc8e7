"""The names of things: PCs, body cards, slots, Items, NPCs, areas and Terrains, in content words.

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

from ..content import ContentError
from ..state import C, face_side

LAYOUT = load_toml("domain.games.heredity", "layout.toml")
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
