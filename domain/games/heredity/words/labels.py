"""The label of each listed move, the options of a pending decision, and the prompt (names: names.py)."""

from __future__ import annotations

from domain.engine.text import join, upper_first

from .names import (_bundle, _slot_record, _tokens, anchor_name, area_name, card_name, marker_place, materials,
                    npc_name, pc_name, possessive, slot_name, slot_short, who)
from ..state import C, face_side




def sentence(s: dict, seat: int, move: dict) -> str:
    """A listed move in one full sentence, every detail said (describe.py starts its description with it)."""
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
