"""One plain sentence per move, built from the move and the facts it produced."""

from __future__ import annotations

from .state import C


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


def _card(s: dict, n) -> str:
    try:
        rec = C(s).card(n)
    except KeyError:
        return f"card {n}"
    if rec["kind"] == "item":
        return f"the {rec['front']['name']} ({n})"
    if rec["kind"] == "terrain":
        return f"Terrain {n}"
    if rec["kind"] == "karma":
        return f"Karma card {rec['name']} ({n})"
    if rec["kind"] == "family":
        return "the Family card"
    npc = rec["front"].get("npc") if rec["kind"] == "narrative" else None
    return f"{npc['name']} ({n})" if npc else f"card {n}"


def _option(s: dict, opt) -> str:
    """A pending decision's option in plain words."""
    if isinstance(opt, dict):
        if opt.get("none"):
            return "no target"
        if opt.get("done"):
            return "no more PCs join"
        if "slot" in opt:
            return f"{_name(s, opt['pc'])} joins with slot {opt['slot']}"
        if "drop" in opt:
            return f"drop {_card(s, opt['drop'])} to make room"
        if "leave" in opt:
            return f"leave {_card(s, opt['leave'])} in the area"
        return _who(s, opt)
    if isinstance(opt, list):
        return "path " + " -> ".join(opt)
    if isinstance(opt, int):
        return _card(s, opt)
    if isinstance(opt, str) and opt in s["pcs"]:
        return _name(s, opt)
    return f"slot {opt}" if isinstance(opt, str) and "." in opt else str(opt)


def describe(s: dict, seat: int, move: dict, facts: list) -> str:
    kind = move.get("type")
    pc = _name(s, move.get("pc"))
    head = {
        "watch": f"{pc} watches", "speak": f"{pc} speaks", "interact": f"{pc} interacts",
        "card_action": f"{pc} performs the action of {_card(s, move.get('card'))}",
        "combined_action": "the PCs perform a combined action of card " + str(move.get("card")),
        "move": (f"{pc} moves through {', '.join(move['path'][:-1]) or 'its area'} and explores"
                 if str(move.get("path", ["?"])[-1]).startswith("explore:") else
                 f"{pc} moves to {move.get('path', ['?'])[-1]} crossing {len(move.get('path', []))} line(s)"),
        "explore": f"{pc} explores",
        "attack": f"{pc} attacks {_who(s, move.get('target', {'npc': 0}))}" if move.get("target") else f"{pc} attacks",
        "combined_attack": "a combined attack by " + " and ".join(_name(s, p["pc"]) for p in move.get("participants", [])),
        "heal": f"{pc} heals {_who(s, move['target']) if move.get('target') else ''}",
        "pickup": f"{pc} picks up " + " and ".join(
            ([f"{move['materials']} Materials"] if move.get("materials") else []) +
            [_card(s, i) for i in move.get("items", [])]),
        "drop": f"{pc} drops " + (_card(s, move["item"]) if "item" in move else f"{move.get('materials')} Materials"),
        "trade": f"{pc} trades with {_name(s, move.get('with'))}", "repair": f"{pc} repairs {_card(s, move.get('item'))}",
        "upgrade": f"{pc} upgrades {_card(s, move.get('item'))}", "use_item": f"{pc} uses an Item slot",
        "injure": f"{pc} takes a voluntary severe injury on card {move.get('card')}",
        "end_window": f"Seat {seat} ends the action window",
    }.get(kind)
    if kind == "choose":
        p = s.get("pending") or {}
        opts = p.get("options", [])
        k = move.get("option", 0)
        if p.get("kind") == "npc_order" and k < len(opts):
            said = f"{_card(s, p.get('npc'))} standee {opts[k]} activates first"
        else:
            said = _option(s, opts[k]) if k < len(opts) else k
        head = f"Seat {seat} decides {p.get('kind', '?').replace('_', ' ')}: {said}"
    parts = [head or f"Seat {seat} plays {kind}"]
    for f in facts:
        t = f["type"]
        if t == "CardTaken" and f.get("zone") != "pc":
            parts.append(f"{_card(s, f['card'])} is taken")
        elif t == "CardFlipped":
            parts.append(f"{_card(s, f['card'])} is flipped")
        elif t == "CardBurned":
            parts.append(f"{_card(s, f['card'])} is burned")
        elif t == "CardAnchored":
            parts.append(f"{_card(s, f['card'])} is anchored at Timeline position {f['pos']}")
        elif t == "HourglassMoved":
            parts.append(f"the Hourglass moves onto {_card(s, f['card'])}")
        elif t == "ItemDropped" and f.get("ref"):
            parts.append(f"{_card(s, f['item'])} lies in {f['area']}")
        elif t == "ItemEquipped":
            parts.append(f"{_name(s, f['pc'])} equips {_card(s, f['item'])}")
        elif t == "PcMaterials":
            parts.append(f"{_name(s, f['pc'])} {'gains' if f['delta'] > 0 else 'pays'} {abs(f['delta'])} Materials")
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
        elif t in ("PendingPushed", "Pending"):
            parts.append(f"waiting for a decision: {f['pending']['kind'].replace('_', ' ')}")
    if len(parts) > 10:
        parts = parts[:9] + [f"and {len(parts) - 9} more events"]
    return "; ".join(parts) + "."
