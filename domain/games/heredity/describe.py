"""One plain sentence per move, built from the move and the facts it produced."""

from __future__ import annotations

from .query import C


def _name(s: dict, pc) -> str:
    try:
        return C(s).pc(pc)["name"]
    except (ValueError, KeyError):
        return str(pc)


def _who(s: dict, w: dict) -> str:
    if "pc" in w:
        return _name(s, w["pc"])
    card = C(s).card(w["npc"])
    sec = card["front"].get("npc") or (card.get("back") or {}).get("npc") or {}
    return f"{sec.get('name', 'NPC')} ({w['npc']})"


def describe(s: dict, seat: int, move: dict, facts: list) -> str:
    kind = move.get("type")
    pc = _name(s, move.get("pc"))
    head = {
        "watch": f"{pc} watches", "speak": f"{pc} speaks", "interact": f"{pc} interacts",
        "card_action": f"{pc} performs the action of card {move.get('card')}",
        "combined_action": "the PCs perform a combined action of card " + str(move.get("card")),
        "move": f"{pc} moves to {move.get('path', ['?'])[-1]} crossing {len(move.get('path', []))} line(s)",
        "explore": f"{pc} explores",
        "attack": f"{pc} attacks {_who(s, move.get('target', {'npc': 0}))}" if move.get("target") else f"{pc} attacks",
        "combined_attack": "a combined attack by " + " and ".join(_name(s, p["pc"]) for p in move.get("participants", [])),
        "heal": f"{pc} heals", "pickup": f"{pc} picks up {move.get('materials', 0)} Materials and {len(move.get('items', []))} Item(s)",
        "drop": f"{pc} drops " + (f"Item {move['item']}" if "item" in move else f"{move.get('materials')} Materials"),
        "trade": f"{pc} trades with {_name(s, move.get('with'))}", "repair": f"{pc} repairs Item {move.get('item')}",
        "upgrade": f"{pc} upgrades Item {move.get('item')}", "use_item": f"{pc} uses an Item slot",
        "injure": f"{pc} takes a voluntary severe injury on card {move.get('card')}",
        "end_window": f"Seat {seat} ends the action window",
    }.get(kind)
    if kind == "choose":
        p = s.get("pending") or {}
        opts = p.get("options", [])
        k = move.get("option", 0)
        head = f"Seat {seat} decides {p.get('kind', '?').replace('_', ' ')}: {opts[k] if k < len(opts) else k}"
    parts = [head or f"Seat {seat} plays {kind}"]
    for f in facts:
        t = f["type"]
        if t == "CardTaken" and f.get("zone") != "pc":
            parts.append(f"card {f['card']} is taken")
        elif t == "CardFlipped":
            parts.append(f"card {f['card']} is flipped")
        elif t == "CardBurned":
            parts.append(f"card {f['card']} is burned")
        elif t == "CardAnchored":
            parts.append(f"card {f['card']} is anchored at position {f['pos']}")
        elif t == "HourglassMoved":
            parts.append(f"the Hourglass moves onto card {f['card']}")
        elif t == "Attack":
            parts.append(f"attack total {f['total']} ({'hit' if f['success'] else 'miss'}, Karma {f['karma']})")
        elif t == "DamagePlaced":
            parts.append(f"{_name(s, f.get('pc'))} takes 1 Damage")
        elif t == "SevereInjury":
            parts.append(f"{_name(s, f['pc'])} suffers a severe injury")
        elif t == "NpcSlain":
            parts.append(f"NPC {f['npc']} dies")
        elif t == "NpcMoved" and f.get("reason") != "terrain":
            parts.append(f"NPC {f['npc']} moves to {f['area']}")
        elif t == "GameEnded":
            parts.append(f"the chapter ends in {f['outcome']} ({f.get('reason', '')})")
        elif t == "Pending":
            parts.append(f"waiting for a decision: {f['pending']['kind'].replace('_', ' ')}")
    if len(parts) > 8:
        parts = parts[:7] + [f"and {len(parts) - 7} more events"]
    return "; ".join(parts) + "."
