"""NPC artificial intelligence (HER-AI-01, HER-AI-02, HER-AI-03, HER-AI-04, HER-AI-05, HER-AI-06, HER-AI-07, HER-AI-08,
HER-AI-09, HER-AI-10, HER-ALLY-01, HER-ALLY-02, HER-ALLY-03, HER-ALLY-04, HER-ALLY-05, HER-AMB-29, HER-AMB-30,
HER-AMB-31, 51).
"""

from __future__ import annotations

from .characters import damage_npc, resolve_attack
from ..resolver import push, set_var, step, top, wait
from ..state.board import board
from ..state.queries import (
    C, char_area, is_ally, is_dying, is_full, is_hostile, npc_section, npcs_on_terrain, override, same_area,
    standees,
)
from ..state.reach import attack_slots, slot_power


def valid_target(s: dict, target) -> bool:
    if target is None:
        return False
    if "pc" in target:
        # HER-DYING-02, HER-COMBAT-18: a Dying PC is never a target
        return s["pcs"][target["pc"]]["area"] is not None and not is_dying(s, target["pc"])
    return char_area(s, target) is not None


def able(s: dict, rng, frm: str, target) -> bool:
    """HER-AMB-31: melee = same area or adjacent full area (HER-COMBAT-17); ranged = in Range."""
    if not valid_target(s, target):
        return False
    to = char_area(s, target)
    b = board(C(s), s)
    if rng is not None:
        return b.c(frm) in b.capacity and b.in_range(frm, to, rng)
    if same_area(s, frm, to):
        return True
    return is_full(s, to) and b.step_colour(frm, to) in ("white", "green", "red")


def ai_range(ops: list):
    for op in ops:
        if op["op"] == "aiRanged":
            return op["range"]
    return None


def op_activate(t, op):
    """HER-AI-02, HER-AI-03: standees of one card activate one after the other, closest first."""
    s = t.s
    npc = op["npc"]
    sts = standees(s, npc)
    sec = npc_section(s, npc)
    if not sts or sec is None:
        step(t)
        return
    b = board(C(s), s)
    # "closest to the PCs": any non-Dying PC or ally (HER-AMB-29, HER-ALLY-05)
    goals = [p["area"] for name, p in s["pcs"].items() if p["area"] and not is_dying(s, name)]
    goals += [a for n, _, a in npcs_on_terrain(s) if n != npc and is_ally(s, n)]

    def dist(area):
        d = b.distances(area)
        return min((d[b.c(g)] for g in goals if b.c(g) in d), default=999)
    ranked = sorted(sts, key=lambda x: (dist(x[1]), x[0]))
    first = top(t)["vars"].get("first")
    if first is None and len(ranked) > 1 and dist(ranked[0][1]) == dist(ranked[1][1]):
        tied = [i for i, a in ranked if dist(a) == dist(ranked[0][1])]
        wait(t, "npc_order", tied, None, npc=npc)                 # HER-DECIDE-22
        return
    order = [i for i, _ in ranked]
    if first is not None:
        order = [first] + [i for i in order if i != first]
    set_var(t, "first", None)
    step(t)
    ops = [{"op": "aiTarget"}] + list(sec["ai"])
    for i in reversed(order):
        push(t, ops, npc, None, "ai", {"npc": npc, "s": i, "range": ai_range(sec["ai"])})


def op_ai_target(t, op):
    """HER-AI-04, HER-AI-05, HER-ALLY-03, HER-ALLY-05, HER-AMB-29, HER-AMB-30, HER-AMB-51."""
    s = t.s
    v = top(t)["vars"]
    npc, si = v["npc"], v["s"]
    area = char_area(s, {"npc": npc, "s": si})
    if area is None:
        set_var(t, "target", None)
        step(t)
        return
    b = board(C(s), s)
    if is_hostile(s, npc):
        cands = [{"pc": p} for p, rec in sorted(s["pcs"].items()) if rec["area"] and not is_dying(s, p)]
        cands += [{"npc": n, "s": i} for n, i, _ in npcs_on_terrain(s) if is_ally(s, n)]
        d = b.distances(area)
        reach = [(d[b.c(char_area(s, c))], c) for c in cands if b.c(char_area(s, c)) in d]
        if reach:
            best = min(r for r, _ in reach)
            options = [c for r, c in reach if r == best]
        else:
            options = [c for c in cands if able(s, v.get("range"), area, c)]
        if len(options) > 1:
            # HER-DECIDE-21: equidistant targets, the players choose
            wait(t, "npc_target", options, None, npc=npc)
            return
        set_var(t, "target", options[0] if options else None)
        step(t)
        return
    if is_ally(s, npc):
        # HER-ALLY-03: the players choose the target, any other NPC (attacking a Neutral one turns it Hostile,
        # HER-NPC-05 "If you (or an ally) attack a Neutral NPC")
        options = [{"npc": n, "s": i} for n, i, _ in npcs_on_terrain(s) if n != npc]
        if options:
            # HER-DECIDE-20: the players choose the ally's target
            wait(t, "ally_target", options + [{"none": True}], None, npc=npc)
            return
    set_var(t, "target", None)
    step(t)


# HER-EXPLORE-08, HER-TERRAIN-08: an NPC's movement never explores nor triggers an Immediate Event
def op_ai_move(t, op):
    """HER-AI-07, HER-AI-08, HER-AI-09: shortest path, least red-line Damage, stop when able to attack."""
    s = t.s
    v = top(t)["vars"]
    npc, si, target = v["npc"], v["s"], v.get("target")
    area = char_area(s, {"npc": npc, "s": si})
    if area is None or not valid_target(s, target) or able(s, v.get("range"), area, target):
        step(t)
        return
    b = board(C(s), s)
    path = v.get("path")
    if path is None:
        paths = b.shortest_paths(area, char_area(s, target))
        if not paths:
            step(t)
            return
        least = min(b.red_count(area, p) for p in paths)
        prefixes = []
        for p in paths:
            if b.red_count(area, p) == least and p[:op["x"]] not in prefixes:
                prefixes.append(p[:op["x"]])
        if len(prefixes) > 1:
            wait(t, "npc_path", prefixes, None, npc=npc)          # HER-DECIDE-23
            return
        path = prefixes[0]
    path = path[:op["x"]]
    last_ok = 0
    for k, a in enumerate(path):
        if not is_full(s, a):
            last_ok = k + 1
            if able(s, v.get("range"), a, target):
                break
    set_var(t, "path", None)
    step(t)
    prev = area
    red = override(s, "red_line_damage", 1)
    for a in path[:last_ok]:
        if b.step_colour(prev, a) == "red":
            damage_npc(t, npc, si, red)                           # HER-AREA-06, HER-AMB-17
            if char_area(t.s, {"npc": npc, "s": si}) is None:
                return
        t.emit("NpcMoved", npc=npc, standee=si, area=a)
        prev = a


def joinable(s: dict, target, exclude: list) -> list[dict]:
    out = []
    for pc in sorted(s["pcs"]):
        if pc in exclude or "avail" not in s["pcs"][pc]["tokens"]:
            continue
        for ref, power, rng in attack_slots(s, pc):
            area = s["pcs"][pc]["area"]
            if area is not None and able(s, rng, area, target):
                out.append({"pc": pc, "slot": ref})
    return out


def _ai_attack(t, power: int, rng) -> None:
    s = t.s
    v = top(t)["vars"]
    npc, si, target = v["npc"], v["s"], v.get("target")
    area = char_area(s, {"npc": npc, "s": si})
    if area is None or not able(s, rng, area, target):
        step(t)                                                   # HER-AI-10
        return
    attackers = [{"npc": npc, "power": power, "ally": is_ally(s, npc)}]
    if is_ally(s, npc) and not v.get("join_done"):
        joined = [j["pc"] for j in v.get("joined", [])]
        options = joinable(s, target, joined)
        if options:
            # HER-DECIDE-19: which PCs join the ally's attack
            wait(t, "ally_join", options + [{"done": True}], None, npc=npc)   # HER-ALLY-04
            return
    attackers += [{"pc": j["pc"], "power": slot_power(s, j["pc"], j["slot"])} for j in v.get("joined", [])]
    set_var(t, "joined", [])
    set_var(t, "join_done", False)
    step(t)
    resolve_attack(t, attackers, target)


def op_ai_melee(t, op):
    _ai_attack(t, op["power"], None)


def op_ai_ranged(t, op):
    _ai_attack(t, op["power"], op["range"])
