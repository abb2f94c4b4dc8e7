"""Legal moves: every move a seat may submit now (each is accepted by decide as-is).

Candidates are generated per move kind and filtered through the same `check_*`
functions that decide uses, so the list and the referee can never disagree.
"""

from __future__ import annotations

from itertools import combinations, product

from domain.engine import IllegalMove

from . import actions as A
from .board import board
from .query import (
    C, available_tokens, card_actions, face_side, injurable_cards, items_in_area, items_of, is_free, npc_section, pc_cards, pc_slots,
    same_area, slot_state,
)


def _ok(check, s, seat, move) -> bool:
    try:
        check(s, seat, move)
        return True
    except IllegalMove:
        return False


def free_slots(s: dict, pc: str, icon: str) -> list[str]:
    return [r for r, rec, n in pc_slots(s, pc) if icon in rec["icons"] and rec["accepts"] and is_free(s, r)]


def voluntary_injuries(s: dict, seat: int) -> list[dict]:
    """HER-INJURY-05, HER-DECIDE-09: at any time, by any controller of the PC."""
    return [{"type": "injure", "pc": pc, "card": card} for pc in sorted(s["pcs"]) if seat in s["control"][pc]
            for card in injurable_cards(s, pc)]


def legal_moves(s: dict, seat: int) -> list[dict]:
    if s["over"] is not None:
        return []
    if s["pending"] is not None:
        p = s["pending"]
        if p["pc"] is not None and seat not in s["control"][p["pc"]]:
            return voluntary_injuries(s, seat)            # "at any time" (HER-INJURY-05)
        options = [k for k, o in enumerate(p["options"])
                   if not (isinstance(o, dict) and "slot" in o and seat not in s["control"][o["pc"]])]
        drops = []
        if p["kind"] == "ally_join":                       # PCs act (join the ally): free drops (HER-AMB-26)
            for pc in sorted(s["pcs"]):
                if seat in s["control"][pc] and s["pcs"][pc]["area"] is not None:
                    drops += [{"type": "drop", "pc": pc, "item": i} for i in items_of(s, pc)]
                    if s["pcs"][pc]["materials"]:
                        drops.append({"type": "drop", "pc": pc, "materials": 1})
        return [{"type": "choose", "option": k} for k in options] + voluntary_injuries(s, seat) + drops
    if s["window"] is None or len(s["stack"]) != s["window"]:
        return []
    moves: list[dict] = []
    mine = [pc for pc in sorted(s["pcs"]) if seat in s["control"][pc]]
    for pc in mine:
        moves += pc_moves(s, seat, pc)
    moves += combined_moves(s, seat)
    moves += voluntary_injuries(s, seat)
    moves.append({"type": "end_window"})
    return moves


def pc_moves(s: dict, seat: int, pc: str) -> list[dict]:
    out: list[dict] = []
    me = s["pcs"][pc]
    if me["area"] is None:
        return out
    # free drops (HER-INV-05/06)
    if me["materials"]:
        out.append({"type": "drop", "pc": pc, "materials": 1})
    for item in items_of(s, pc):
        out.append({"type": "drop", "pc": pc, "item": item})
    if not available_tokens(s, pc):
        return out
    b = board(C(s), s)
    # Watch / Speak / Interact icons
    for marker in s["markers"]:
        terrain, icon = A.marker_icon(s, marker)
        if icon is None or not same_area(s, me["area"], f"{terrain}:{icon['area']}"):
            continue
        for ref in free_slots(s, pc, icon["kind"]):
            move = {"type": icon["kind"], "pc": pc, "slot": ref, "marker": marker}
            if _ok(A.check_icon_action, s, seat, move):
                out.append(move)
    # card actions
    for card, idx, action in card_actions(s):
        if action.get("combined"):
            continue
        if action["icon"] == "attack":
            slots = [r for r, p, g in A.attack_slots(s, pc)]
            body = action["body"]
            rng = body[0].get("range") if body and body[0]["op"] == "attack" else None
            from .interp import attack_targets
            targets = attack_targets(s, pc, rng) or [None]
        else:
            slots = free_slots(s, pc, action["icon"])
            targets = [None]
        for ref in slots:
            for target in targets:
                move = {"type": "card_action", "pc": pc, "slot": ref, "card": card, "action": idx}
                if target is not None:
                    move["target"] = target
                if _ok(A.check_card_action, s, seat, move):
                    out.append(move)
    # Move (HER-MOVE-01/02): every path up to the tokens and Move slots at hand (HER-DECIDE-05)
    move_slots = free_slots(s, pc, "move")
    k = min(len(move_slots), len(available_tokens(s, pc)))
    paths = move_paths(s, b, me["area"], k)
    for path in paths:
        for slots in combinations(move_slots, len(path)):                    # HER-DECIDE-03
            move = {"type": "move", "pc": pc, "path": path, "slots": list(slots)}
            if _ok(A.check_move, s, seat, move):
                out.append(move)
    for path in [[]] + paths:                              # walk, then explore (HER-AMB-20), from any slots
        if len(path) < k:
            for opt in A.explore_options(s, pc, path[-1] if path else None):
                for slots in combinations(move_slots, len(path) + 1):
                    if path:
                        move = {"type": "move", "pc": pc, "path": path + ["explore:" + opt["marker"]],
                                "slots": list(slots)}
                        ok = _ok(A.check_move, s, seat, move)
                    else:
                        move = {"type": "explore", "pc": pc, "slot": slots[0], "marker": opt["marker"]}
                        ok = _ok(A.check_explore, s, seat, move)
                    if ok:
                        out.append(move)
    # attacks (HER-DECIDE-06)
    from .interp import attack_targets
    for ref, power, rng in A.attack_slots(s, pc):
        targets = attack_targets(s, pc, rng)
        for target in targets:
            move = {"type": "attack", "pc": pc, "slot": ref, "target": target}
            if _ok(A.check_attack, s, seat, move):
                out.append(move)
        k = A.max_targets(s, pc, ref)
        if k > 1 and len(targets) > 1:
            for size in range(2, min(k, len(targets)) + 1):
                for group in combinations(targets, size):
                    move = {"type": "attack", "pc": pc, "slot": ref, "targets": list(group)}
                    if _ok(A.check_attack, s, seat, move):
                        out.append(move)
    # heal (HER-DECIDE-10)
    for ref in free_slots(s, pc, "heal"):
        for other in sorted(s["pcs"]):
            if same_area(s, s["pcs"][other]["area"], me["area"]):
                for dref, rec, n in pc_slots(s, other):
                    if slot_state(s, dref)["d"]:                   # which token (HER-DECIDE-10)
                        out.append({"type": "heal", "pc": pc, "slot": ref, "target": {"pc": other}, "damage": dref})
        from .query import npcs_on_terrain
        for n, i, a in npcs_on_terrain(s):
            if same_area(s, a, me["area"]) and s["npcs"][str(n)][i]["damage"] > 0:
                out.append({"type": "heal", "pc": pc, "slot": ref, "target": {"npc": n, "s": i}})
    interact = free_slots(s, pc, "interact")
    here = sum(v for a, v in s["area_materials"].items() if same_area(s, a, me["area"]))
    lying = items_in_area(s, me["area"])
    for ref in interact:                                   # every free Interact slot (HER-DECIDE-03)
        for k_mat in range(here + 1):                     # any number of the Materials (HER-INV-09, HER-DECIDE-12)
            sizes = sorted(set(range(0, min(len(lying), 4) + 1)) | {len(lying)})     # every subset, or all
            for size in sizes:
                for items in combinations(lying, size):
                    move = {"type": "pickup", "pc": pc, "slot": ref, "materials": k_mat, "items": list(items)}
                    if _ok(A.check_pickup, s, seat, move):
                        out.append(move)
        for item in items_of(s, pc):
            from .query import card_slots
            for dref, _ in card_slots(s, item):
                move = {"type": "repair", "pc": pc, "slot": ref, "item": item, "damage": dref}
                if slot_state(s, dref)["d"] and _ok(A.check_repair, s, seat, move):
                    out.append(move)
            from .query import face
            for u in range(len(face(s, item)["upgrades"])):
                move = {"type": "upgrade", "pc": pc, "slot": ref, "item": item, "upgrade": u}
                if _ok(A.check_upgrade, s, seat, move):
                    out.append(move)
    for ref in interact[:1]:
        for other in sorted(s["pcs"]):
            if other == pc:
                continue
            # HER-DECIDE-14: any number of Materials either way, one Item either way, and swaps of an Item
            # against an Item or against all the other's Materials (one Interact token for the whole exchange)
            mine_n, theirs_n = me["materials"], s["pcs"][other]["materials"]
            my_items, their_items = items_of(s, pc), items_of(s, other)
            offers = [({"materials": n}, {}) for n in range(1, mine_n + 1)]
            offers += [({}, {"materials": n}) for n in range(1, theirs_n + 1)]
            offers += [({"items": [i]}, {}) for i in my_items] + [({}, {"items": [j]}) for j in their_items]
            offers += [({"items": [i]}, {"items": [j]}) for i in my_items for j in their_items]
            if theirs_n:
                offers += [({"items": [i]}, {"materials": theirs_n}) for i in my_items]
            if mine_n:
                offers += [({"materials": mine_n}, {"items": [j]}) for j in their_items]
            for give, take in offers:
                move = {"type": "trade", "pc": pc, "with": other, "slot": ref, "give": give, "take": take}
                if _ok(A.check_trade, s, seat, move):
                    out.append(move)
    for item in items_of(s, pc):
        from .query import card_slots
        for ref, rec in card_slots(s, item):
            if rec["effect"]:
                move = {"type": "use_item", "pc": pc, "slot": ref}
                if _ok(A.check_use_item, s, seat, move):
                    out.append(move)
    return out


def move_paths(s: dict, b, start_area: str, k: int) -> list[list[str]]:
    """Every simple path of 1..k crossings, plus every walk that revisits an area when it changes something a
    simple path cannot (it ends in its start area, or enters an Immediate Event area or crosses a red line more
    often than any kept path with the same end does): nothing rule-relevant is left out (HER-AMB-17/18)."""
    start = b.c(start_area)
    events = {b.c(f"{t}:{icon['area']}") for t, i, icon in b.icons if icon["kind"] == "immediateEvent"}
    simple: list[list[str]] = []
    walks: list[list[str]] = []

    def walk(a, acc, revisits):
        if acc:
            (walks if revisits else simple).append(acc)
        if len(acc) >= k or len(simple) + len(walks) > 400:
            return
        for nb, colour in sorted(b.neighbours(a)):
            walk(nb, acc + [nb], revisits or nb == start or nb in acc)
    walk(start, [], False)

    def signature(path):
        prev, reds, entered = start, 0, []
        for a in path:
            reds += b.step_colour(prev, a) == "red"
            if a in events:
                entered.append(a)
            prev = a
        return path[-1], tuple(sorted(entered)), reds

    seen = {signature(p) for p in simple}
    out = list(simple)
    for path in walks:
        sig = signature(path)
        if sig not in seen and (sig[1] or sig[2]):
            seen.add(sig)
            out.append(path)
    return out


def combined_moves(s: dict, seat: int) -> list[dict]:
    out = []
    mine = [pc for pc in sorted(s["pcs"]) if available_tokens(s, pc)]      # others co-sign (consent)
    from .interp import attack_targets
    from .query import npcs_on_terrain
    for n, i, a in npcs_on_terrain(s):
        target = {"npc": n, "s": i}
        able = {}                                                  # pc -> one slot per distinct attack
        for pc in mine:
            for ref, power, rng in A.attack_slots(s, pc):
                kinds = {(p2, r2) for r, p2, r2 in able.get(pc, [])}
                if (power, rng) not in kinds and target in attack_targets(s, pc, rng):
                    able.setdefault(pc, []).append((ref, power, rng))
        pcs = sorted(able)
        for size in range(2, len(pcs) + 1):                       # HER-DECIDE-17: who joins, with which attack
            for group in combinations(pcs, size):
                if not any(seat in s["control"][pc] for pc in group):
                    continue
                for picks in product(*(able[pc] for pc in group)):
                    move = {"type": "combined_attack", "target": target,
                            "participants": [{"pc": pc, "slot": pick[0]} for pc, pick in zip(group, picks)]}
                    if _ok(A.check_combined_attack, s, seat, move):
                        out.append(move)
    for card, idx, action in card_actions(s):
        comb = action.get("combined")
        if not comb:
            continue
        need = comb.get("participants", 2)
        parts = []
        for pc in mine:
            slots = free_slots(s, pc, action["icon"])
            if slots:
                parts.append({"pc": pc, "slot": slots[0]})
        for group in combinations(parts, need):
            move = {"type": "combined_action", "card": card, "action": idx, "participants": list(group)}
            if any(seat in s["control"][p["pc"]] for p in group) and _ok(A.check_combined_action, s, seat, move):
                out.append(move)
    return out
