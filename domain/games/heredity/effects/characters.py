"""Effects on Characters: NPCs entering and placed, direct Damage, a PC's Damage token, severe injury,
NPC damage and death, attacks.
"""

from __future__ import annotations

from .cards import leave_timeline
from .timeline import draw_karma
from ..resolver import actor_pc, Ctx, possible, push, set_var, step, top, wait, warn
from ..state.board import board
from ..state.queries import (
    C, card_zone, char_area, defence, face_side, free_heart_slots, immune, in_play, injurable_cards, is_dying,
    is_full, is_hostile, npc_section, npcs_on_terrain, pc_cards, same_area, standees,
)


# HER-COMP-04, HER-NPC-12: an NPC card's standees enter only with it, one or several
def op_npc_enter(t, op):
    """HER-NPC-02, HER-SPEAK-03 / HER-AMB-50: standees enter play when the card is taken."""
    number = op["npc"]
    if not in_play(t.s, number) or standees(t.s, number) or t.s["npcs"].get(str(number)):
        return
    area = top(t)["vars"].get("speak_area")
    sec = npc_section(t.s, number)
    if area is None and sec["placement"]:
        pl = sec["placement"]
        area = f"{pl['terrain']}:{pl['area']}" if "terrain" in pl else icon_area(t.s, pl.get("icon"))
    if area is None:
        return                          # placed later by an explicit PLACE_NPC instruction
    push(t, [{"op": "placeNpc", "npc": number, "area": area}], number, actor_pc(t))


def icon_area(s: dict, name) -> str | None:
    b = board(C(s), s)
    for number, i, icon in b.icons:
        if icon["kind"] == "npcPlacement" and icon.get("id") == name:
            return f"{number}:{icon['area']}"
    return None


def op_place_npc(t, op):
    """HER-NPC-02, HER-NPC-03: place each standee; a full area sends it to the nearest non-full area."""
    s = t.s
    number = op["npc"]
    if not possible(t, op) and not (s["npcs"].get(str(number)) and top(t)["vars"].get("placing") == number):
        step(t)
        warn(t, f"NPC {number} cannot be placed")
        return
    sec = npc_section(s, number)
    placed = len(standees(s, number))
    if placed >= sec["standees"]:
        step(t)
        return
    area = op.get("area")
    if area is None:
        pl = sec["placement"] or {}
        area = f"{pl.get('terrain')}:{pl.get('area')}" if "terrain" in pl else icon_area(s, pl.get("icon"))
    if area is None or board(C(s), s).c(area) not in board(C(s), s).capacity:
        step(t)
        warn(t, f"NPC {number}: placement area not revealed")
        return
    choice = top(t)["vars"].get("npc_area")
    if choice is None:
        options = placement_options(s, area)
        if not options:
            step(t)
            warn(t, f"NPC {number}: no revealed area can receive it")
            return
        if len(options) > 1:
            # HER-DECIDE-24: several equally near non-full areas
            wait(t, "npc_area", options, None, npc=number)
            return
        choice = options[0]
    set_var(t, "npc_area", None)
    set_var(t, "placing", number)
    t.emit("NpcPlaced", npc=number, standee=placed, area=choice)
    if placed + 1 >= sec["standees"]:
        set_var(t, "placing", None)
        step(t)


def placement_options(s: dict, area: str) -> list[str]:
    """HER-NPC-03: the area itself, else the nearest ring of revealed non-full areas."""
    if not is_full(s, area):
        return [area]
    b = board(C(s), s)
    frontier, seen = [b.c(area)], {b.c(area)}
    while frontier:
        ring = []
        for a in frontier:
            for nb, colour in sorted(b.adj.get(a, {}).items()):
                if colour in ("white", "green") and nb not in seen:
                    seen.add(nb)
                    ring.append(nb)
        ok = sorted(a for a in ring if not is_full(s, a))
        if ok:
            return ok
        frontier = ring
    return []


def op_attitude(t, op):
    """HER-NPC-06, HER-ALLY-01."""
    t.emit("CardTokens", card=op["npc"], kind=op["attitude"], delta=1)


def characters(t: Ctx, selector: str, arg) -> tuple[list[str], list[tuple[int, int]]]:
    s = t.s
    pcs = [p for p in s["pcs"] if s["pcs"][p]["area"] is not None]
    npcs = [(n, i) for n, i, _ in npcs_on_terrain(s)]
    if selector == "ACTING_PC":
        return ([actor_pc(t)] if actor_pc(t) else []), []
    if selector == "ALL_PCS":
        return pcs, []
    if selector == "ALL_CHARACTERS":
        return pcs, npcs
    if selector == "CHARACTERS_IN":
        return ([p for p in pcs if same_area(s, s["pcs"][p]["area"], arg)],
                [(n, i) for n, i in npcs if same_area(s, char_area(s, {"npc": n, "s": i}), arg)])
    if selector == "NPC":
        return [], [(int(arg), i) for i, _ in standees(s, int(arg))]
    if selector in s["pcs"]:
        return [selector], []
    return [], []


def op_damage(t, op):
    """HER-INSTR-07, HER-DAMAGE-02: direct damage ignores Defence. `CHOSEN_PC`: the players
    choose a non-Dying PC (HER-DECIDE-25, HER-AMB-39)."""
    if op["selector"] == "CHOSEN_PC":
        chosen = top(t)["vars"].get("chosen_pc")
        if chosen is None:
            options = sorted(p for p, rec in t.s["pcs"].items() if rec["area"] and not is_dying(t.s, p))
            if len(options) > 1:
                wait(t, "choose_pc", options, None)
                return
            chosen = options[0] if options else None
        set_var(t, "chosen_pc", None)
        op = dict(op, selector=chosen or "NOBODY")
    step(t)
    pcs, npcs = characters(t, op["selector"], op.get("arg"))
    hits = []
    for pc in pcs:
        if immune(t.s, pc, op.get("tag")):
            t.emit("Immune", pc=pc, tag=op["tag"])
            continue
        hits += [{"op": "hit", "pc": pc}] * op["amount"]
    for n, i in npcs:
        damage_npc(t, n, i, op["amount"])
    push(t, hits, top(t)["self"], actor_pc(t))


def op_hit(t, op):
    """One Damage token for a PC: HER-DAMAGE-03, HER-DAMAGE-04, HER-DAMAGE-05, HER-DAMAGE-06, HER-DAMAGE-07,
    HER-DAMAGE-08, HER-INJURY-01, HER-INJURY-02, HER-INJURY-03, HER-DYING-03."""
    s = t.s
    pc = op["pc"]
    if is_dying(s, pc):
        step(t)
        t.emit("DamageDiscarded", pc=pc)
        return
    # HER-INJURY-07: free heart slots are filled before any severe injury
    free = free_heart_slots(s, pc)
    revealed = top(t)["vars"].get("revealed")
    # One free heart slot takes the token at once: the slot a forced injury just revealed (HER-INJURY-03), or
    # any slot when no voluntary injury is possible (else the players may injure first, HER-INJURY-05, HER-INJURY-06).
    if len(free) == 1 and (free[0].split(".")[0] == str(revealed) or not injurable_cards(s, pc)):
        step(t)
        t.emit("DamagePlaced", pc=pc, slot=free[0])
    elif free:
        # HER-DECIDE-07: which free heart slot takes the token
        wait(t, "damage_slot", free, pc)
    else:
        fronts = [n for n in pc_cards(s, pc) if face_side(s, n) == "front"]
        if len(fronts) == 1:
            injure(t, pc, fronts[0])
        else:
            # HER-DECIDE-08: which front card suffers the severe injury
            wait(t, "injury_card", fronts, pc)


def injure(t: Ctx, pc: str, card: int, voluntary: bool = False) -> None:
    """HER-INJURY-02: tokens on the card discarded (Action tokens to the middle), card flipped."""
    for i, where in enumerate(t.s["pcs"][pc]["tokens"]):
        if isinstance(where, str) and where.startswith(f"{card}."):
            # HER-CARDS-07: Action tokens on the flipped card return spent
            t.emit("TokenToMiddle", pc=pc, token=i)
    t.emit("SevereInjury", pc=pc, card=card, voluntary=voluntary)
    if not voluntary:
        set_var(t, "revealed", card)           # the remaining Damage goes on the revealed slot (HER-INJURY-03)


def damage_npc(t: Ctx, npc: int, s_idx: int, amount: int) -> None:
    """HER-NPC-07, HER-NPC-08, HER-DAMAGE-07, HER-AMB-32."""
    if amount <= 0:
        return
    area = char_area(t.s, {"npc": npc, "s": s_idx})
    if area is None:
        return
    t.emit("NpcDamaged", npc=npc, standee=s_idx, amount=amount)
    sec = npc_section(t.s, npc)
    if t.s["npcs"][str(npc)][s_idx]["damage"] >= sec["life"]:
        t.emit("NpcStandeeRemoved", npc=npc, standee=s_idx, died=True)
        if not standees(t.s, npc):
            leave_timeline(t, npc, "table")
            t.emit("NpcSlain", npc=npc)
            push(t, list(sec["death"]) + [{"op": "burnDead", "card": npc, "face": face_side(t.s, npc)}],
                 npc, None, "death", {"here": area})


def op_burn_dead(t, op):
    """HER-AMB-33: the dead NPC's card is burned unless its Death effect moved it."""
    n = op["card"]
    if card_zone(t.s, n) == "table" and face_side(t.s, n) == op["face"]:
        t.emit("CardBurned", card=n)


def op_attack(t, op):
    """A card action granting an attack (HER-RANGED-01); the target is in the frame vars."""
    target = top(t)["vars"].get("target")
    if target is None:
        return
    resolve_attack(t, [{"pc": actor_pc(t), "power": op["power"]}], target)


# HER-RANGED-07, HER-COMBAT-01: Melee and Ranged, PCs and NPCs, resolve alike; HER-KARMA-05: only a Karma card's
# value and fail mark count
def resolve_attack(t: Ctx, attackers: list[dict], target: dict) -> None:
    """HER-COMBAT-07, HER-COMBAT-08, HER-COMBAT-09, HER-COMBAT-10, HER-COMBAT-11, HER-COMBAT-12, HER-COMBAT-13,
    HER-COMBAT-14, HER-COMBAT-15, HER-COMBAT-16, HER-COMBINED-04, HER-COMBINED-05, HER-COMBINED-06, HER-COMBINED-07,
    HER-NPC-05."""
    s = t.s
    if "npc" in target:
        sec = npc_section(s, target["npc"])
        dfc = sec["defence"]
        by_players = any("pc" in a or a.get("ally") for a in attackers)
        if by_players and not is_hostile(s, target["npc"]):
            t.emit("CardTokens", card=target["npc"], kind="hostile", delta=1)
    else:
        dfc = defence(s, target["pc"])
    card = draw_karma(t)
    rec = C(s).card(card)
    power = sum(a["power"] for a in attackers)
    total = power + rec["value"] - dfc
    success = total > 0 and not rec["fails"]
    t.emit("Attack", attackers=attackers, target=target, karma=card, power=power, defence=dfc,
           total=total, success=success)
    if not success:
        return
    if "npc" in target:
        damage_npc(t, target["npc"], target["s"], total)
    else:
        push(t, [{"op": "hit", "pc": target["pc"]}] * total, None, None)
