"""The move tree (API.md "Move tree"): each listed move's steps from the general to the particular, and
the board elements it involves; the label of a move is its steps read as one sentence.

The first step is the kind of action (at most nine: Attack, Move, Watch, speak or interact, Heal, Items
and Materials, Card actions, Severe injury, End the action window, or the answer to a pending
decision), then who acts, then what or where, then which slots pay. A combined attack groups under its
target and its group of PCs, then each participant's slot, so that even the opening window (four PCs,
Swan beside them) keeps every level small. Moves the same in effect (twin slots) are listed once by
moves.py, so no two listed moves share their words.
"""

from __future__ import annotations

from domain.engine.text import join, plural

from ..state import C
from .labels import option
from .names import (ICON, _slot_record, anchor_name, area_name, card_name, marker_place, materials, pc_name,
                    possessive, who)

KIND_STEP = {"attack": "Attack", "combined_attack": "Attack", "move": "Move", "explore": "Move",
             "watch": "Watch, speak or interact", "speak": "Watch, speak or interact",
             "interact": "Watch, speak or interact", "heal": "Heal", "pickup": "Items and Materials",
             "drop": "Items and Materials", "trade": "Items and Materials", "repair": "Items and Materials",
             "upgrade": "Items and Materials", "use_item": "Items and Materials", "card_action": "Card actions",
             "combined_action": "Card actions", "injure": "Severe injury (voluntary)",
             "end_window": "End the action window"}
VERB = {"watch": "Watch", "speak": "Speak", "interact": "Interact", "explore": "Explore"}


def slot_word(s: dict, ref) -> str:
    """A slot in a few words, enough to tell it from every other slot of its PC: "head (Watch/Speak)",
    "feet (Move, heart)", "the Long Sling"."""
    card, slot = _slot_record(s, ref)
    if card is None or slot is None:
        return "a slot"
    icons = "/".join(ICON.get(i, i.title()) for i in slot.get("icons") or [])
    if slot.get("attack"):
        icons = (icons + "/" if icons else "") + f"Power {slot['attack']['power']}"
    f = C(s).face(card["number"], (s.get("cards", {}).get(str(card["number"]), {}) or {}).get("face", "front"))
    like = [o for o in f.get("slots", []) if o is not slot and o.get("icons") == slot.get("icons")
            and o.get("attack") == slot.get("attack")]
    heart = ", heart" if like and any(bool(o.get("heart")) != bool(slot.get("heart")) for o in like) and \
        slot.get("heart") else ""
    if card["kind"] == "pc":
        return f"{card['part']} ({icons}{heart})" if icons else card["part"]
    name = card_name(s, card["number"]).removeprefix("the ")
    many = len(f.get("slots", [])) > 1
    return f"{name} ({icons}{heart})" if many and icons else name


def slots_word(s: dict, refs) -> str:
    refs = list(refs or [])
    return join([slot_word(s, r) for r in refs]) if refs else "no slot"


def target_word(s: dict, t) -> str:
    if isinstance(t, dict) and "npc" in t:
        name = who(s, t)
        try:
            from ..state import is_ally, is_hostile
            n = int(t["npc"])
            att = " (an ally)" if is_ally(s, n) else (" (Hostile)" if is_hostile(s, n) else " (Neutral)")
        except (KeyError, TypeError, ValueError):
            att = ""
        return name + att
    return who(s, t)


def _group(s: dict, parts: list) -> str:
    return join([pc_name(s, p.get("pc")) for p in parts]) + " together"


def _participant(s: dict, p: dict) -> str:
    return f"{pc_name(s, p.get('pc'))}: {slot_word(s, p.get('slot'))}"


def _split(s: dict, parts: list) -> list[str]:
    """A group's slots in two steps: the first participant(s), then the others (a level stays small)."""
    said = [_participant(s, p) for p in parts]
    cut = 2 if len(said) >= 4 else 1
    return ["; ".join(said[:cut]), "; ".join(said[cut:]) or "nothing more"]


def _item_bundle(s: dict, part: dict) -> str:
    bits = ([materials(part["materials"])] if part.get("materials") else []) + \
        [card_name(s, i) for i in part.get("items", [])]
    return join(bits) or "nothing"


def steps(s: dict, seat: int, move: dict) -> list[str]:
    """The path of one listed move (1 to 5 steps)."""
    kind = move.get("type")
    first = KIND_STEP.get(kind)
    pc = pc_name(s, move.get("pc"))
    if kind == "choose":
        p = s.get("pending") or {}
        opts = p.get("options", [])
        k = move.get("option", 0)
        said = option(s, p, opts[k]) if isinstance(k, int) and 0 <= k < len(opts) else "an option"
        return ["Decide", said[:1].upper() + said[1:]]
    if kind == "end_window":
        return [first]
    if kind == "attack":
        targets = [move["target"]] if "target" in move else move.get("targets", [])
        return [first, join([target_word(s, t) for t in targets]), pc, f"with {slot_word(s, move.get('slot'))}"]
    if kind == "combined_attack":
        parts = move.get("participants", [])
        return [first, target_word(s, move.get("target")), _group(s, parts)] + _split(s, parts)
    if kind in ("move", "explore"):
        path = list(move.get("path", []))
        if kind == "explore":
            dest, via = f"explore {marker_place(s, move.get('marker'))}", "from here"
            slots = [move.get("slot")]
        else:
            slots = move.get("slots", [])
            if path and str(path[-1]).startswith("explore:"):
                dest = f"explore {marker_place(s, path.pop()[len('explore:'):])}"
                walk = path
            else:
                dest = f"to {area_name(path[-1])}" if path else "stay"
                walk = path[:-1]
            via = f"through {join([area_name(a) for a in walk])}" if walk else "directly"
        return [first, pc, dest, via, f"paying with {slots_word(s, slots)}"]
    if kind in ("watch", "speak", "interact"):
        return [first, pc, f"{VERB[kind]} at {marker_place(s, move.get('marker'))}",
                f"with {slot_word(s, move.get('slot'))}"]
    if kind == "heal":
        dmg = move.get("damage")
        where = f"the Damage on {slot_word(s, dmg)}" if dmg else "1 Damage"
        return [first, pc, f"heal {target_word(s, move.get('target'))}", where, f"with {slot_word(s, move.get('slot'))}"]
    if kind == "pickup":
        return [first, pc, "Pick up", _item_bundle(s, move), f"with {slot_word(s, move.get('slot'))}"]
    if kind == "drop":
        what = card_name(s, move["item"]) if "item" in move else materials(move.get("materials", 0))
        return [first, pc, "Drop (free)", what]
    if kind == "trade":
        other = pc_name(s, move.get("with"))
        return [first, pc, f"Trade with {other}, with {slot_word(s, move.get('slot'))}",
                f"give {_item_bundle(s, move.get('give', {}))}", f"take {_item_bundle(s, move.get('take', {}))}"]
    if kind == "repair":
        return [first, pc, "Repair", f"{card_name(s, move.get('item'))}: the Damage on {slot_word(s, move.get('damage'))}",
                f"with {slot_word(s, move.get('slot'))}"]
    if kind == "upgrade":
        try:
            item = int(move.get("item"))
            cost = C(s).face(item, (s["cards"].get(str(item)) or {}).get("face", "front"))["upgrades"][
                move.get("upgrade", 0)]["cost"]
            price = f" for {materials(cost)}"
        except (KeyError, IndexError, TypeError, ValueError):
            price = ""
        return [first, pc, "Upgrade", f"{card_name(s, move.get('item'))}{price}", f"with {slot_word(s, move.get('slot'))}"]
    if kind == "use_item":
        return [first, pc, "Use an Item", slot_word(s, move.get("slot"))]
    if kind == "card_action":
        head = _card_action(s, move)
        target = f"on {target_word(s, move['target'])}" if move.get("target") else "no target"
        return [first, head, pc, target, f"with {slot_word(s, move.get('slot'))}"]
    if kind == "combined_action":
        parts = move.get("participants", [])
        return [first, _card_action(s, move), _group(s, parts)] + _split(s, parts)
    if kind == "injure":
        return [first, pc, f"{card_name(s, move.get('card'))} flips to its wounded side"]
    return [str(kind or "move").replace("_", " ").capitalize()]


def _card_action(s: dict, move: dict) -> str:
    card = card_name(s, move.get("card"))
    try:
        number = int(move.get("card"))
        actions = [a for a in _actions_of(s, number)]
        icon = actions[int(move.get("action", 0))]["icon"]
        return f"{card[:1].upper()}{card[1:]}: {ICON.get(icon, icon.title())}" if len(actions) > 1 else \
            card[:1].upper() + card[1:]
    except (KeyError, IndexError, TypeError, ValueError):
        return card[:1].upper() + card[1:]


def _actions_of(s: dict, number: int) -> list:
    from ..state import card_actions
    return [a for n, idx, a in sorted(card_actions(s), key=lambda x: (x[0], x[1])) if n == number]


ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


def paths(s: dict, seat: int, moves: list) -> list[list[str]]:
    """Each move's steps; options of a decision that read alike (two Damage slots of one card, the same in
    all but their place) are told apart by their order on the card ("the first", "the second")."""
    out = [[step[:1].upper() + step[1:] for step in steps(s, seat, m)] for m in moves]
    seen: dict = {}
    for k, path in enumerate(out):
        seen.setdefault(tuple(path), []).append(k)
    for same in seen.values():
        if len(same) > 1:
            for n, k in enumerate(same):
                out[k] = out[k][:-1] + [f"{out[k][-1]} (the {ORDINAL[n] if n < len(ORDINAL) else n + 1} of them)"]
    return out


def _sentence(s: dict, seat: int, move: dict, said: list[str]) -> str | None:
    """The path of the commonest kinds read as a sentence (None: the generic "Kind: particulars")."""
    kind = move.get("type")
    if kind == "attack":
        return f"{said[2]} attacks {said[1]} {said[3]}"
    if kind == "combined_attack":
        parts = move.get("participants", [])
        using = join([f"{possessive(pc_name(s, p.get('pc')))} {slot_word(s, p.get('slot'))}" for p in parts])
        others = any(seat not in (s.get("control") or {}).get(p.get("pc"), [seat]) for p in parts)
        agree = " (their players must agree)" if others else ""
        return f"{said[2].removesuffix(' together')} attack {said[1]} together, with {using}{agree}"
    if kind in ("move", "explore"):
        via = "" if said[3] in ("directly", "from here") else f" {said[3]}"
        verb = "moves " + said[2] if said[2].startswith("to ") else said[2].replace("explore", "explores", 1)
        return f"{said[1]} {verb}{via}, {said[4]}"
    if kind in ("watch", "speak", "interact"):
        return f"{said[1]}: {said[2].lower()} {said[3]}"
    return None


def label(s: dict, seat: int, move: dict) -> str:
    """The move's steps as one sentence: who does what, then the particulars."""
    said = steps(s, seat, move)
    told = _sentence(s, seat, move, said) if len(said) > 2 else None
    if told:
        return told
    if move.get("type") == "choose":              # the decision's options may read alike: paths() tells them apart
        p = s.get("pending") or {}
        alike = [k for k in range(len(p.get("options", []))) if
                 steps(s, seat, {"type": "choose", "option": k}) == said]
        if len(alike) > 1:
            n = alike.index(move.get("option"))
            said = said[:-1] + [f"{said[-1]} (the {ORDINAL[n] if n < len(ORDINAL) else n + 1} of them)"]
    if len(said) == 1:
        return said[0]
    if said[0] == "Decide":
        return said[1]
    return f"{said[0]}: {', '.join(said[1:])}"


def _area_key(ref) -> str | None:
    if isinstance(ref, str) and ref.count(":") == 1 and ref.partition(":")[0].isdigit():
        terrain, _, area = ref.partition(":")
        return f"location:{terrain}.{area}"
    return None


def _card_key(ref) -> str | None:
    if isinstance(ref, str) and "." in ref:
        return f"card:{ref.partition('.')[0]}"
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
        return f"card:{int(ref)}"
    return None


def _who_key(t) -> str | None:
    if isinstance(t, dict) and "npc" in t:
        return f"npc:{t['npc']}"
    if isinstance(t, dict) and "pc" in t:
        return f"pc:{t['pc']}"
    return None


def targets(s: dict, seat: int, moves: list) -> list[list[str]]:
    """Per move: its PCs, the NPCs it aims at, the areas it goes to, the cards and Items it uses."""
    out = []
    for m in moves:
        keys: list = []

        def add(key):
            if key and key not in keys:
                keys.append(key)
        if isinstance(m.get("pc"), str):
            add(f"pc:{m['pc']}")
        for p in m.get("participants") or []:
            add(f"pc:{p.get('pc')}")
        if isinstance(m.get("with"), str):
            add(f"pc:{m['with']}")
        for t in ([m["target"]] if "target" in m else []) + list(m.get("targets") or []):
            add(_who_key(t))
        for a in m.get("path") or []:
            add(_area_key(a))
        for field in ("card", "item"):
            add(_card_key(m.get(field)))
        for ref in [m.get("slot")] + list(m.get("slots") or []) + [p.get("slot") for p in m.get("participants") or []]:
            add(_card_key(ref))
        for part in (m.get("give") or {}, m.get("take") or {}, m):
            for item in part.get("items") or []:
                add(_card_key(item))
        if m.get("type") == "choose":
            p = s.get("pending") or {}
            opts = p.get("options", [])
            k = m.get("option")
            opt = opts[k] if isinstance(k, int) and 0 <= k < len(opts) else None
            add(_who_key(opt) if isinstance(opt, dict) else None)
            add(_area_key(opt) if isinstance(opt, str) else None)
            if isinstance(opt, str) and opt in s.get("pcs", {}):
                add(f"pc:{opt}")
        out.append([k for k in keys if k])
    return out
