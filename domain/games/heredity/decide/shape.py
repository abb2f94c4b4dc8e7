"""The shape of a move: its keys and their types (issue 16.4: nothing unlisted reaches the log), and the
keys that identify a proposal refused during a window.
"""

from __future__ import annotations

from domain.engine import IllegalMove


def combo_key(move: dict) -> str:
    return f"{move['type']}:" + ",".join(sorted(p.get("pc", "?") for p in move.get("participants") or []))


def trade_key(move: dict) -> str:
    return f"{move.get('pc')}>{move.get('with')}"


KEYS = {
    "watch": ({"pc", "slot", "marker"}, set()), "speak": ({"pc", "slot", "marker"}, set()),
    "interact": ({"pc", "slot", "marker"}, set()),
    "card_action": ({"pc", "slot", "card", "action"}, {"target"}),
    "combined_action": ({"card", "action", "participants"}, set()),
    "move": ({"pc", "path", "slots"}, set()), "explore": ({"pc", "slot", "marker"}, set()),
    "attack": ({"pc", "slot"}, {"target", "targets"}), "combined_attack": ({"target", "participants"}, set()),
    "heal": ({"pc", "slot", "target"}, {"damage"}), "pickup": ({"pc", "slot", "materials", "items"}, set()),
    "drop": ({"pc"}, {"item", "materials"}), "trade": ({"pc", "with", "slot", "give", "take"}, set()),
    "repair": ({"pc", "slot", "item", "damage"}, set()), "upgrade": ({"pc", "slot", "item", "upgrade"}, set()),
    "use_item": ({"pc", "slot"}, set()), "injure": ({"pc", "card"}, set()), "end_window": (set(), set()),
    "choose": ({"option"}, set()),
}


def _int(x) -> bool:
    return type(x) is int


def _str(x) -> bool:
    return type(x) is str


def _target(x) -> bool:
    return isinstance(x, dict) and (set(x) == {"pc"} and _str(x["pc"]) or set(x) == {"npc", "s"} and _int(x["npc"])
                                    and _int(x["s"]) and x["s"] >= 0)


def _part(x) -> bool:
    return isinstance(x, dict) and set(x) <= {"materials", "items"} and _int(x.get("materials", 0)) and \
        isinstance(x.get("items", []), list) and all(_int(i) for i in x.get("items", []))


TYPES = {
    "pc": _str, "slot": _str, "marker": _str, "card": _int, "action": _int, "target": _target, "damage": _str,
    "targets": lambda x: isinstance(x, list) and all(_target(t) for t in x),
    "participants": lambda x: isinstance(x, list) and all(isinstance(p, dict) and set(p) == {"pc", "slot"}
                                                          and _str(p["pc"]) and _str(p["slot"]) for p in x),
    "path": lambda x: isinstance(x, list) and all(_str(a) for a in x),
    "slots": lambda x: isinstance(x, list) and all(_str(a) for a in x),
    "materials": _int, "items": lambda x: isinstance(x, list) and all(_int(i) for i in x), "item": _int,
    "with": _str, "give": _part, "take": _part, "upgrade": _int, "option": _int,
}


TYPE_WORDS = {
    "pc": "a PC id", "slot": "a slot reference", "marker": "an icon marker", "card": "a card number",
    "action": "an action index", "target": "{pc} or {npc, s}", "damage": "a slot reference",
    "targets": "a list of {npc, s}", "participants": "a list of {pc, slot}", "path": "a list of areas",
    "slots": "a list of slot references", "materials": "a whole number", "items": "a list of Item numbers",
    "item": "an Item number", "with": "a PC id", "give": "{materials, items}", "take": "{materials, items}",
    "upgrade": "an upgrade index", "option": "an option index",
}


def check_keys(move: dict) -> None:
    """HER-GEN-05: a move carries exactly the keys of its kind."""
    need, may = KEYS[move["type"]]
    keys = set(move) - {"type"}
    if not need <= keys or not keys <= need | may:
        raise IllegalMove("HER-GEN-05", f"a {move['type']} move has the keys {sorted(need)}"
                          + (f" and optionally {sorted(may)}" if may else "") + f", not {sorted(keys)}")
    for key in keys:
        if not TYPES[key](move[key]):
            raise IllegalMove("HER-GEN-05", f"{key}: {move[key]!r} is not {TYPE_WORDS[key]}")
    if move["type"] == "attack" and ("target" in move) == ("targets" in move):
        raise IllegalMove("HER-GEN-05", "an attack names either one target or a list of targets")
    if move["type"] == "drop" and ("item" in move) == ("materials" in move):
        raise IllegalMove("HER-GEN-05", "a drop names either an Item or a number of Materials")
