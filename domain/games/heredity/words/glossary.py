"""Every thing a chapter defines, with what it does in plain words (API.md "Glossary").

Heredity is a book read card by card: the Adventure and Secrets decks, the other face of every card,
unexplored Terrain and the Characters on cards not yet taken are hidden from everyone until the rules
reveal them (HER-HIDDEN-01..07). A glossary of the game type is public, so it tells only what every
table knows before the chapter starts: the PCs and the first side of their cards, the Family card, the
Player Aids, the Karma cards of the deck (its composition is public, HER-HIDDEN-08) and the tokens.
Every other card, area and Character has its entry too (its number is public, HER-HIDDEN-05), saying
only that it is not yet revealed.

`glossary(content, view)` with a viewer's view adds the words of everything that view shows: the
visible face of each card in play, the faces of burned cards revealed during the chapter (HER-HIDDEN-06),
the areas of Terrains on the table, the NPCs of those cards. Nothing a view does not show is named
(a card that names a hidden card calls it "a card not yet revealed").

Keys (domain/games/README.md): `card:<number>`, `pc:<id>`, `npc:<card number>` (a Character of a
card), `location:<terrain>.<area>` (an area of a Terrain), `token:<kind>`.
"""

from __future__ import annotations

from domain.engine.text import join, plural

from ..content import chapter
from .cards import Reader, face_text, npc_text
from .names import ICON, LAYOUT, _area_ids, card_name, possessive, terrain_name

DEFAULT_CHAPTER = "swan-1"
HIDDEN_CARD = "What it does is shown once the chapter reveals it (its number is known, its words are not)."
TOKENS = {
    "action": ("Action token", "A PC's Action token (three per PC): put on a free slot of the PC's cards or Items to "
                               "act during the action window; taken back when the Hourglass reaches the Family card."),
    "purple": ("Purple Action token", "The one purple Action token: it belongs to no PC until a card makes it a PC's "
                                      "fourth token."),
    "damage": ("Damage token", "Put on a free slot with a heart (a PC's or an Item's); when every heart slot of a PC is "
                               "covered, one more Damage is a severe injury and a card flips to its wounded side."),
    "hostile": ("Hostile token", "On an NPC's card: the NPC attacks the family."),
    "ally": ("Ally token", "On an NPC's card: the NPC fights beside the family; the players choose its target, and "
                           "PCs with saved Action tokens may join its attack."),
    "material": ("Material", "Salvage the PCs carry, pick up, trade, spend on actions and on upgrading Items."),
    "generic": ("Token on a card", "A token a card counts with (a clock, charges, a countdown): the card says what "
                                   "its tokens do."),
    "hourglass": ("Hourglass", "Marks the card of the Timeline being resolved; it moves along the Timeline, and the "
                               "family acts when it reaches the Family card."),
}


def entry(key: str, kind: str, name: str, text: str) -> dict:
    return {"key": key, "kind": kind, "name": name[:1].upper() + name[1:], "text": text}


def _slots_text(face: dict) -> str:
    bits = []
    for sl in face.get("slots") or []:
        icons = "/".join(ICON.get(i, i.title()) for i in sl.get("icons") or [])
        what = (("an " if icons[:1] in "AEIOU" else "a ") + icons + " slot") if icons else "a slot"
        if sl.get("heart"):
            what += " with a heart (it can take Damage)"
        bits.append(what)
    anchors = [f"an Item on a {a} at its {side}" for side, kinds in (face.get("anchors") or {}).items() for a in kinds]
    out = f"Slots: {join(bits)}." if bits else "No slots."
    return out + (f" It can hang {join(anchors, 'or')}." if anchors else "")


def _pc_card(content, number: int, sides: list[str]) -> str:
    rec = content.card(number)
    out = [f"{possessive(content.pc(rec['pc'])['name'])} {rec['part']} card. " + _slots_text(rec["front"])]
    if rec["part"] in ("head", "feet"):
        out.append("A free slot of it can take the token of a punch or a kick (an attack with Power 1).")
    if "back" in sides and rec.get("back"):
        out.append("Wounded side: " + _slots_text(rec["back"]))
    else:
        out.append("A severe injury flips it to its wounded side, which is revealed then.")
    return " ".join(out)


def _pc(content, pc: dict) -> str:
    role = "a parent" if pc["role"] == "parent" else "a child"
    parts = join([f"{possessive(pc['name'])} {part}" for part in ("head", "torso", "feet")])
    return (f"A player character, {role} of the family, in {pc['colour']}: three Action tokens, and three body "
            f"cards ({parts}) whose slots say what the PC can do.")


def _card_text(content, number: int, sides: list[str], known: set | None) -> str:
    rec = content.card(number)
    kind = rec["kind"]
    if kind == "aid":
        return "A Player Aid: " + rec["front"]["text"]
    if kind == "pc":
        return _pc_card(content, number, sides)
    if kind == "terrain":
        names = LAYOUT.get("terrain", {}).get(str(number), {}).get("areas", {})
        areas = [names[a]["name"] for side in sides for a in _area_ids(rec.get(side) or {}) if a in names]
        return f"A Terrain of the board with the areas {join(sorted(set(areas)))}." if areas else "A Terrain."
    said = []
    for side in sides:
        f = content.face(number, side) or {}
        words = face_text(content, number, side, known)
        story = f.get("narrative")
        head = "" if len(sides) == 1 else ("First side: " if side == "front" else "Second side: ")
        if story:
            words = f"\u201c{story}\u201d " + words
        said.append(head + (words or "It does nothing by itself."))
    return " ".join(said)


def _card_name(content, number: int, side: str) -> str:
    s = {"chapter": content.id, "cards": {str(number): {"face": side}}}
    rec = content.card(number)
    if rec["kind"] == "aid":
        return "Player Aid"
    if rec["kind"] == "terrain":
        return terrain_name(number)
    return card_name(s, number, side)


def public_sides(content) -> dict[int, list[str]]:
    """The faces every table sees before the chapter starts: PC cards and the Family card on their first
    side, the Player Aids, the base Karma cards (the deck's composition, HER-HIDDEN-08)."""
    out: dict[int, list[str]] = {}
    for number, rec in content.cards.items():
        if rec["kind"] in ("pc", "family", "aid") or number in content.karma_base:
            out[number] = ["front"]
    return out


def view_sides(view: dict) -> dict[int, list[str]]:
    """The faces a view shows: cards in play (their visible face), burned cards' revealed faces, PC cards,
    the Karma cards of the deck and discard."""
    out: dict[int, list[str]] = {}
    for key, card in (view.get("cards") or {}).items():
        out.setdefault(int(key), []).append(card.get("face", "front"))
    for key, card in (view.get("archive") or {}).items():
        out.setdefault(int(key), [])
        out[int(key)] += [f for f in card.get("faces", []) if f not in out[int(key)]]
    for pc in (view.get("pcs") or {}).values():
        for card in pc.get("cards") or []:
            sides = out.setdefault(int(card["number"]), [])
            if card["face"] not in sides:
                sides.append(card["face"])
    karma = view.get("karma") or {}
    for number in list(karma.get("composition") or []) + list(karma.get("discard") or []):
        out.setdefault(int(number), ["front"])
    for key in view.get("terrains") or {}:
        face = (view.get("terrain_faces") or {}).get(str(key), {}).get("face", "front")
        out.setdefault(int(key), [])
        if face not in out[int(key)]:
            out[int(key)].append(face)
    return out


def glossary(content=None, view: dict | None = None) -> list[dict]:
    """Every card, area, PC, NPC and token of the chapter: see the module doc."""
    content = content or chapter(DEFAULT_CHAPTER)
    sides = public_sides(content)
    if view is not None:
        for number, faces in view_sides(view).items():
            have = sides.setdefault(number, [])
            have += [f for f in faces if f not in have]
    known = set(sides)
    out = [entry(f"pc:{pc['id']}", "character", pc["name"], _pc(content, pc)) for pc in content.pcs]
    npcs, areas = [], []
    for number in sorted(content.cards):
        rec = content.card(number)
        shown = [s for s in ("front", "back") if s in sides.get(number, [])]
        if not shown:
            out.append(entry(f"card:{number}", "card", "A card not yet revealed", HIDDEN_CARD))
        else:
            first = shown[0]
            out.append(entry(f"card:{number}", "card", _card_name(content, number, first),
                             _card_text(content, number, shown, None if view is None else known)))
        for side in ("front", "back"):
            f = rec.get(side) or {}
            if rec["kind"] == "narrative" and f.get("npc"):
                key = f"npc:{number}"
                if any(e["key"] == key for e in npcs):
                    continue
                if side in shown:
                    r = Reader(content, number, None if view is None else known)
                    npcs.append(entry(key, "character", f["npc"]["name"], npc_text(r, f["npc"])))
                else:
                    npcs.append(entry(key, "character", "A Character not yet revealed", HIDDEN_CARD))
        if rec["kind"] == "terrain":
            names = LAYOUT.get("terrain", {}).get(str(number), {}).get("areas", {})
            ids = sorted({a for side in ("front", "back") for a in _area_ids(rec.get(side) or {})})
            for a in ids:
                key = f"location:{number}.{a}"
                if shown and a in names:
                    cap = _capacity(rec, shown, a)
                    text = (f"An area of {terrain_name(number)}" + (f" holding at most {plural(cap, 'Character')}"
                                                                  if cap else "") + ".")
                    areas.append(entry(key, "location", names[a]["name"], text))
                else:
                    areas.append(entry(key, "location", "An area not yet revealed", HIDDEN_CARD))
    out += npcs + areas
    out += [entry(f"token:{k}", "token", name, text) for k, (name, text) in TOKENS.items()]
    for kind in sorted(content.special or {}):
        out.append(entry(f"token:{kind.replace('_', '-')}", "token", kind.replace("_", " ").capitalize() + " token",
                         "A token of this chapter that a card uses as a supply (the card that needs it says how)."))
    return out


def _capacity(rec: dict, shown: list[str], area: str) -> int | None:
    for side in shown:
        areas = (rec.get(side) or {}).get("areas") or {}
        spot = areas.get(area) if isinstance(areas, dict) else None
        if spot:
            return spot.get("capacity")
    return None
