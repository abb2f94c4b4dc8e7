"""Legal moves: the complete, binding list of what a seat may submit now (each generator names the choice points,
HER-DECIDE-nn, it lists).

Moves are built from valid parts (free usable slots, reachable areas, targets in reach), one generator
per move kind, so a list costs little more than its length (issue 13.5). `decide` accepts a move only when
it equals a listed one (issue 16.4) and recomputes just the list of that kind for that PC (`listed`).
The referee's `check_*` functions (actions.py) still judge every submitted move first, and the tests
check both directions: every listed move is accepted, every accepted variant is listed.
"""

from __future__ import annotations

from itertools import combinations, permutations, product

from domain.engine import IllegalMove

from .decide.shape import combo_key, trade_key
from .state.memo import frozen, listing
from .state import (
    action_place_ok, attack_slots as reach_attack_slots, attack_targets, board, explore_options, first_blocker,
    marker_icon, max_targets,
)
from .state import (
    C, available_tokens, card_actions, card_slots, face, injurable_cards, is_dying, is_free, is_full, items_in_area,
    items_of, npcs_on_terrain, pc_slots, same_area, slot_state,
)


def _ok(check, s, seat, move) -> bool:
    try:
        check(s, seat, move)
        return True
    except IllegalMove:
        return False


@frozen
def dying(s: dict, pc: str) -> bool:
    return is_dying(s, pc)


@frozen
def slots_of(s: dict, pc: str) -> list:
    return pc_slots(s, pc)


@frozen
def held(s: dict, pc: str) -> list[int]:
    return items_of(s, pc)


@frozen
def attack_slots(s: dict, pc: str) -> list:
    return reach_attack_slots(s, pc)


@frozen
def targets_in_reach(s: dict, pc: str, rng) -> list[dict]:
    return attack_targets(s, pc, rng)


@frozen
def free_slots(s: dict, pc: str, icon: str) -> list[str]:
    """Free slots of the PC bearing `icon` that take an Action token now (HER-ACTION-01, HER-ACTION-02, HER-ACTION-03,
    HER-ACTION-04, HER-ACTION-05, HER-DYING-04)."""
    down = dying(s, pc)
    return [r for r, rec, n in slots_of(s, pc)
            if icon in rec["icons"] and rec["accepts"] and is_free(s, r) and not (down and rec["heart"])]


def voluntary_injuries(s: dict, seat: int) -> list[dict]:
    """HER-INJURY-05, HER-DECIDE-09: at any time, by any controller of the PC."""
    return [{"type": "injure", "pc": pc, "card": card} for pc in sorted(s["pcs"]) if seat in s["control"][pc]
            for card in injurable_cards(s, pc)]


def in_window(s: dict) -> bool:
    return s["pending"] is None and s["window"] is not None and len(s["stack"]) == s["window"]


# HER-DECIDE-01, HER-ACTION-06: any PC of the seat, any action, in any order; HER-DECIDE-04: a multi-icon slot is
# listed once per icon kind
@listing
def legal_moves(s: dict, seat: int) -> list[dict]:
    if s["over"] is not None:
        return []
    if s["pending"] is not None:
        return pending_moves(s, seat)
    if not in_window(s):
        return []
    moves: list[dict] = []
    for pc in sorted(s["pcs"]):
        if seat in s["control"][pc]:
            for generate in GENERATORS:
                moves += generate(s, seat, pc)
    moves += combined_attacks(s, seat) + combined_actions(s, seat)
    moves += voluntary_injuries(s, seat)
    moves.append({"type": "end_window"})
    return [m for m in moves if same_effect(s, m) == m]       # one move per distinct effect (RULINGS: twin slots)


@listing
def listed(s: dict, seat: int, move: dict) -> list[dict]:
    """The listed moves of `move`'s kind (and PC): what `decide` compares a submitted move with."""
    kind, pc = move.get("type"), move.get("pc")
    if s["over"] is not None:
        return []
    if s["pending"] is not None or kind in ("choose", "injure") or not in_window(s):
        return legal_moves(s, seat)
    if kind in BY_KIND:
        if not isinstance(pc, str) or pc not in s["pcs"] or seat not in s["control"][pc]:
            return []
        return BY_KIND[kind](s, seat, pc)
    if kind == "combined_attack":
        return combined_attacks(s, seat, move)
    if kind == "combined_action":
        return combined_actions(s, seat)
    return legal_moves(s, seat)


def pending_moves(s: dict, seat: int) -> list[dict]:
    p = s["pending"]
    if p["pc"] is not None and seat not in s["control"][p["pc"]]:
        return voluntary_injuries(s, seat)            # "at any time" (HER-INJURY-05)
    options = [k for k, o in enumerate(p["options"])
               if not (isinstance(o, dict) and "slot" in o and seat not in s["control"][o["pc"]])]
    drops = []
    if p["kind"] == "ally_join":                       # PCs act (join the ally): free drops (HER-AMB-26)
        for pc in sorted(s["pcs"]):
            if seat in s["control"][pc]:
                drops += drop_moves(s, seat, pc)
    return [{"type": "choose", "option": k} for k in options] + voluntary_injuries(s, seat) + drops


# -- one generator per move kind (a PC of the seat, during the action window) -----------------------
def drop_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-INV-05, HER-INV-06, HER-DECIDE-13: any number of Materials, any Item, for free."""
    me = s["pcs"][pc]
    if me["area"] is None:
        return []
    out = [{"type": "drop", "pc": pc, "materials": k} for k in range(1, me["materials"] + 1)]
    return out + [{"type": "drop", "pc": pc, "item": item} for item in held(s, pc)]


def acting(s: dict, pc: str) -> bool:
    """The PC is on the Terrain with an available Action token."""
    return s["pcs"][pc]["area"] is not None and bool(available_tokens(s, pc))


def icon_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """Watch / Speak / Interact icons of the PC's area (HER-WATCH-01, HER-SPEAK-01, HER-INTERACT-01)."""
    if not acting(s, pc):
        return []
    out = []
    area = s["pcs"][pc]["area"]
    for marker in s["markers"]:
        terrain, icon = marker_icon(s, marker)
        if icon is None or icon["kind"] not in ("watch", "speak", "interact") \
                or not same_area(s, area, f"{terrain}:{icon['area']}"):
            continue
        out += [{"type": icon["kind"], "pc": pc, "slot": ref, "marker": marker}
                for ref in free_slots(s, pc, icon["kind"])]
    return out


def card_action_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """Actions of the cards in play (HER-INSTR-09, HER-INSTR-10, HER-INSTR-11, HER-INSTR-12), with every slot and, for
    an attack, every target."""
    if not acting(s, pc):
        return []
    out = []
    attack_refs = None
    for card, idx, action in card_actions(s):
        if action.get("combined") or not action_place_ok(s, pc, card, action):
            continue
        if action["icon"] == "attack":
            if attack_refs is None:
                attack_refs = [r for r, p, g in attack_slots(s, pc)]
            body = action["body"]
            rng = body[0].get("range") if body and body[0]["op"] == "attack" else None
            slots, targets = attack_refs, targets_in_reach(s, pc, rng) or [None]
        else:
            slots, targets = free_slots(s, pc, action["icon"]), [None]
        for target in targets:
            if first_blocker(s, pc, action["body"], target) is not None:        # HER-AMB-08
                continue
            for ref in slots:
                move = {"type": "card_action", "pc": pc, "slot": ref, "card": card, "action": idx}
                if target is not None:
                    move["target"] = target
                out.append(move)
    return out


def move_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-MOVE-01, HER-MOVE-02, HER-DECIDE-05: every path up to the tokens and Move slots at hand, from any set of Move
    slots; a path may end by exploring (HER-AMB-20)."""
    if not acting(s, pc):
        return []
    me = s["pcs"][pc]
    b = board(C(s), s)
    move_slots = free_slots(s, pc, "move")
    k = min(len(move_slots), len(available_tokens(s, pc)))
    out = []
    paths = move_paths(s, b, me["area"], k)
    start = b.c(me["area"])
    full = {}
    for path in paths:
        end = path[-1]
        if end not in full:
            full[end] = is_full(s, end) and end != start                       # HER-MOVE-05
        if full[end]:
            continue
        out += [{"type": "move", "pc": pc, "path": path, "slots": list(slots)}
                for slots in combinations(move_slots, len(path))]          # HER-DECIDE-03
    explores: dict = {}
    for path in [[]] + paths:
        if len(path) >= k:
            continue
        end = path[-1] if path else None
        if end not in explores:
            explores[end] = explore_options(s, pc, end)
        for opt in explores[end]:
            for slots in combinations(move_slots, len(path) + 1):
                if path:
                    out.append({"type": "move", "pc": pc, "path": path + ["explore:" + opt["marker"]],
                                "slots": list(slots)})
                else:
                    out.append({"type": "explore", "pc": pc, "slot": slots[0], "marker": opt["marker"]})
    return out


def move_paths(s: dict, b, start_area: str, k: int) -> list[list[str]]:
    """Every walk of 1..k crossings along passable lines and Level Change links, revisits included (a walk back
    through an Immediate Event area or across a red line differs from a simple path, and a Move may end where it
    started): exactly the paths `check_move` accepts, before the full-area end rule (HER-AMB-17, HER-AMB-18,
    HER-DECIDE-05)."""
    out: list[list[str]] = []
    frontier = [[b.c(start_area)]]
    for _ in range(k):
        frontier = [walk + [nb] for walk in frontier for nb, colour in sorted(b.neighbours(walk[-1]))]
        out += [walk[1:] for walk in frontier]
    return out


def attack_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-DECIDE-06, HER-COMBAT-02, HER-COMBAT-03, HER-COMBAT-04, HER-COMBAT-05, HER-COMBAT-06, HER-COMBAT-15: every
    attack slot, every target; groups of targets when the slot
    allows several."""
    if not acting(s, pc):
        return []
    out = []
    for ref, power, rng in attack_slots(s, pc):
        targets = targets_in_reach(s, pc, rng)
        out += [{"type": "attack", "pc": pc, "slot": ref, "target": target} for target in targets]
        most = max_targets(s, pc, ref)
        for size in range(2, min(most, len(targets)) + 1):
            out += [{"type": "attack", "pc": pc, "slot": ref, "targets": list(group)}
                    for group in combinations(targets, size)]
    return out


def heal_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-HEAL-01, HER-HEAL-02, HER-HEAL-03, HER-HEAL-04, HER-DECIDE-10: which Character of the area, which Damage
    token."""
    if not acting(s, pc):
        return []
    area = s["pcs"][pc]["area"]
    heals = free_slots(s, pc, "heal")
    if not heals:
        return []
    targets = []
    for other in sorted(s["pcs"]):
        if same_area(s, s["pcs"][other]["area"], area):
            targets += [({"pc": other}, dref) for dref, rec, n in pc_slots(s, other) if slot_state(s, dref)["d"]]
    for n, i, a in npcs_on_terrain(s):
        if same_area(s, a, area) and s["npcs"][str(n)][i]["damage"] > 0:
            targets.append(({"npc": n, "s": i}, None))
    out = []
    for ref in heals:
        for target, dref in targets:
            move = {"type": "heal", "pc": pc, "slot": ref, "target": target}
            if dref is not None:
                move["damage"] = dref
            out.append(move)
    return out


def pickup_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-INV-09, HER-DECIDE-12: any number of the Materials and any subset of the Items lying in the area."""
    if not acting(s, pc):
        return []
    area = s["pcs"][pc]["area"]
    here = sum(v for a, v in s["area_materials"].items() if same_area(s, a, area))
    lying = items_in_area(s, area)
    groups = [list(g) for size in range(len(lying) + 1) for g in combinations(lying, size)]
    return [{"type": "pickup", "pc": pc, "slot": ref, "materials": k, "items": items}
            for ref in free_slots(s, pc, "interact") for k in range(here + 1) for items in groups if k or items]


def repair_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-ITEM-14, HER-ITEM-15: 1 Materials removes one Damage token of an Item of the PC (which one:
    HER-DECIDE-11)."""
    if not acting(s, pc) or s["pcs"][pc]["materials"] < 1:
        return []
    damaged = [(item, ref) for item in held(s, pc) for ref, _ in card_slots(s, item) if slot_state(s, ref)["d"]]
    return [{"type": "repair", "pc": pc, "slot": slot, "item": item, "damage": ref}
            for slot in free_slots(s, pc, "interact") for item, ref in damaged]


def upgrade_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-ITEM-16, HER-ITEM-17, HER-AMB-25: an Item without Action or Damage tokens, an upgrade the PC can pay."""
    if not acting(s, pc):
        return []
    have = s["pcs"][pc]["materials"]
    ups = []
    for item in held(s, pc):
        if any(slot_state(s, r)["t"] is not None or slot_state(s, r)["d"] for r, _ in card_slots(s, item)):
            continue
        ups += [(item, u) for u, up in enumerate(face(s, item)["upgrades"]) if have >= up["cost"]]
    return [{"type": "upgrade", "pc": pc, "slot": slot, "item": item, "upgrade": u}
            for slot in free_slots(s, pc, "interact") for item, u in ups]


def trade_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-DECIDE-14, HER-INV-11, HER-INV-12: any Materials and any Items either way, by any free Interact slot."""
    if not acting(s, pc):
        return []
    me = s["pcs"][pc]
    out = []
    interact = None
    for other in sorted(s["pcs"]):
        if other == pc or not same_area(s, me["area"], s["pcs"][other]["area"]):
            continue
        if trade_key({"pc": pc, "with": other}) in s["declined"]:
            continue
        if interact is None:
            interact = free_slots(s, pc, "interact")
        gives = trade_parts(me["materials"], held(s, pc))
        takes = trade_parts(s["pcs"][other]["materials"], held(s, other))
        out += [{"type": "trade", "pc": pc, "with": other, "slot": ref, "give": give, "take": take}
                for ref in interact for give in gives for take in takes if give or take]
    return out


def trade_parts(materials: int, items: list[int]) -> list[dict]:
    """Every canonical side of a trade: a number of Materials (key only when > 0) and a subset of the Items
    (key only when not empty, in increasing order)."""
    out = []
    for size in range(len(items) + 1):
        for group in combinations(sorted(items), size):
            for k in range(materials + 1):
                part = {}
                if k:
                    part["materials"] = k
                if group:
                    part["items"] = list(group)
                out.append(part)
    return out


def use_item_moves(s: dict, seat: int, pc: str) -> list[dict]:
    """HER-ITEM-10: a free slot of a held Item whose effect is printed on the Item."""
    if not acting(s, pc):
        return []
    down = dying(s, pc)
    return [{"type": "use_item", "pc": pc, "slot": ref} for item in held(s, pc) for ref, rec in card_slots(s, item)
            if rec["effect"] and rec["accepts"] and is_free(s, ref) and not (down and rec["heart"])]


#: The generators of a PC's moves, in the order of the list.
GENERATORS = (drop_moves, icon_moves, card_action_moves, move_moves, attack_moves, heal_moves, pickup_moves,
              repair_moves, upgrade_moves, trade_moves, use_item_moves)
#: Move kind -> its generator (icon_moves and move_moves make two or three kinds).
BY_KIND = {"drop": drop_moves, "watch": icon_moves, "speak": icon_moves, "interact": icon_moves,
           "card_action": card_action_moves, "move": move_moves, "explore": move_moves, "attack": attack_moves,
           "heal": heal_moves, "pickup": pickup_moves, "repair": repair_moves, "upgrade": upgrade_moves,
           "trade": trade_moves, "use_item": use_item_moves}


def combined_attacks(s: dict, seat: int, only: dict | None = None) -> list[dict]:
    """HER-DECIDE-17, HER-COMBINED-01, HER-COMBINED-02, HER-COMBINED-03: every group of able PCs (one a PC of this
    seat), each with every
    usable attack slot, participants in PC order. Other controllers co-sign (`combined_consent`).
    `only` (a submitted move): just the list of its target and group of PCs."""
    out = []
    mine = [pc for pc in sorted(s["pcs"]) if acting(s, pc)]
    if only is not None:
        named = {p.get("pc"): p.get("slot") for p in only.get("participants") or [] if isinstance(p, dict)}
        mine = [pc for pc in mine if pc in named]
    weapons = {pc: attack_slots(s, pc) for pc in mine}
    reach = {(pc, rng): targets_in_reach(s, pc, rng) for pc in mine for rng in {g for r, p, g in weapons[pc]}}
    for n, i, a in npcs_on_terrain(s):
        target = {"npc": n, "s": i}
        if only is not None and target != only.get("target"):
            continue
        able = {}
        for pc in mine:
            for ref, power, rng in weapons[pc]:
                if target in reach[pc, rng] and (only is None or named[pc] == ref):
                    able.setdefault(pc, []).append(ref)
        pcs = sorted(able)
        for size in range(2, len(pcs) + 1):
            for group in combinations(pcs, size):
                if not any(seat in s["control"][pc] for pc in group):
                    continue
                refused = combo_key({"type": "combined_attack", "participants": [{"pc": pc} for pc in group]})
                if refused in s["declined"]:
                    continue
                for picks in product(*(able[pc] for pc in group)):
                    out.append({"type": "combined_attack", "target": target,
                                "participants": [{"pc": pc, "slot": ref} for pc, ref in zip(group, picks)]})
    return out


def combined_actions(s: dict, seat: int) -> list[dict]:
    """HER-DECIDE-18, HER-INSTR-13: the participating PCs (in PC order, or in the order of the designated areas)
    and each one's slot."""
    out = []
    mine = [pc for pc in sorted(s["pcs"]) if acting(s, pc)]
    for card, idx, action in card_actions(s):
        comb = action.get("combined")
        if not comb:
            continue
        need = comb.get("participants", 2)
        able = {pc: free_slots(s, pc, action["icon"]) for pc in mine}
        able = {pc: refs for pc, refs in able.items() if refs}
        groups = permutations(sorted(able), need) if comb.get("areas") else combinations(sorted(able), need)
        for group in groups:
            if not any(seat in s["control"][pc] for pc in group):
                continue
            for picks in product(*(able[pc] for pc in group)):
                move = {"type": "combined_action", "card": card, "action": idx,
                        "participants": [{"pc": pc, "slot": ref} for pc, ref in zip(group, picks)]}
                from .decide.icons import check_combined_action      # decide lists through this module
                if _ok(check_combined_action, s, seat, move):
                    out.append(move)
    return out


# -- one move per distinct effect: twin slots ------------------------------------------------------------------
@frozen
def twins(s: dict) -> dict:
    """Slot ref -> the refs of its twins, itself included, in slot order: the slots of the same card with the
    same record (icons, heart, attack, effect; only the slot's letter differs) holding the same tokens. Which
    of two twins takes an Action token is the same in effect: the table after one choice is the table after
    the other with the two slots' letters exchanged (RULINGS.md "Twin slots")."""
    out: dict = {}
    for pc in sorted(s["pcs"]):
        groups: dict = {}
        for ref, rec, number in slots_of(s, pc):
            key = (number, repr(sorted((k, v) for k, v in rec.items() if k != "id")), repr(slot_state(s, ref)))
            groups.setdefault(key, []).append(ref)
        for refs in groups.values():
            for ref in refs:
                out[ref] = refs
    return out


def same_effect(s: dict, move):
    """The listed move of the same effect as `move`: each slot it names replaced by the first of its twins not
    already named (`twins`); a move without slots is itself. `legal_moves` lists a move only when it is its own
    `same_effect`; the engine accepts a move whose `same_effect` is listed (domain/engine/rules.py `is_listed`),
    so moves stored or recorded with another twin are still decided as played."""
    if not isinstance(move, dict) or not any(k in move for k in ("slot", "slots", "participants", "damage")):
        return move
    pairs = twins(s)

    def first_free(ref, taken):
        for twin in pairs.get(ref, [ref]) if isinstance(ref, str) else [ref]:
            if twin not in taken:
                taken.add(twin)
                return twin
        return ref

    out = dict(move)
    if isinstance(move.get("slot"), str):
        out["slot"] = first_free(move["slot"], set())
    if isinstance(move.get("damage"), str):                 # the Damage token healed or repaired
        out["damage"] = first_free(move["damage"], set())
    if isinstance(move.get("slots"), list) and all(isinstance(r, str) for r in move["slots"]):
        taken: set = set()
        chosen = [first_free(r, taken) for r in move["slots"]]
        order = {r: k for k, r in enumerate(slot_order(s))}
        out["slots"] = sorted(chosen, key=lambda r: order.get(r, len(order)))
    if isinstance(move.get("participants"), list):
        out["participants"] = [dict(p, slot=first_free(p["slot"], set())) if isinstance(p, dict) and
                               isinstance(p.get("slot"), str) else p for p in move["participants"]]
    return out


@frozen
def slot_order(s: dict) -> list[str]:
    return [ref for pc in sorted(s["pcs"]) for ref, rec, n in slots_of(s, pc)]


def listed_form(s: dict, seat: int, move):
    """The rules' optional hook (domain/engine/rules.py `is_listed`): the listed move `move` is the same as."""
    return same_effect(s, move)
