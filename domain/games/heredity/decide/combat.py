"""Attacks, combined attacks (co-signed across players) and Heal.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .common import check_pc, check_slot, check_window, place_token, token_index
from .shape import combo_key
from ..resolver import wait
from ..effects.characters import resolve_attack
from ..state.queries import char_area, is_free, pc_slots, same_area, slot_state
from ..state.reach import attack_slots, attack_targets, max_targets, slot_power, slot_record


def check_attack_slot(s: dict, pc: str, ref) -> tuple[int, int | None]:
    for r, power, rng in attack_slots(s, pc):
        if r == ref:
            return power, rng
    slot_record(s, pc, ref)
    if not is_free(s, ref):
        raise IllegalMove("HER-ACTION-02", f"slot {ref} is not free")
    raise IllegalMove("HER-COMBAT-03", f"slot {ref} cannot be used to attack (Head/Feet or an Item attack slot)")


def check_target(s: dict, pc: str, rng, target) -> None:
    if not isinstance(target, dict) or "npc" not in target:
        raise IllegalMove("HER-COMBAT-06", "the target must be an NPC on the Terrain")
    if target not in attack_targets(s, pc, rng):
        if rng is None:
            raise IllegalMove("HER-COMBAT-06", "a Melee attack needs the target in the attacker's area")
        raise IllegalMove("HER-RANGED-02", "the target is not within Range on a straight line")


def check_attack(s: dict, seat: int, move: dict) -> tuple:
    """HER-COMBAT-02, HER-COMBAT-03, HER-COMBAT-04, HER-COMBAT-05, HER-COMBAT-06; several targets only with a slot that
    allows them (HER-COMBAT-15)."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    token_index(s, pc)
    power, rng = check_attack_slot(s, pc, move.get("slot"))
    targets = move["targets"] if "targets" in move else [move.get("target")]
    if not isinstance(targets, list) or not targets or len(targets) > max_targets(s, pc, move["slot"]):
        raise IllegalMove("HER-COMBAT-15", "this attack cannot take that many targets")
    if any(targets.count(x) > 1 for x in targets):
        raise IllegalMove("HER-COMBAT-15", "each target is attacked once")
    if "targets" in move and any(not isinstance(x, dict) or "npc" not in x for x in targets):
        raise IllegalMove("HER-COMBAT-06", "the targets must be NPCs on the Terrain")
    if "targets" in move and targets != sorted(targets, key=lambda x: (x["npc"], x["s"])):
        raise IllegalMove("HER-COMBAT-15", "list the targets in order of NPC card and standee")
    for target in targets:
        check_target(s, pc, rng, target)
    return pc, power, targets


def do_attack(t, seat: int, move: dict) -> None:
    pc, power, targets = check_attack(t.s, seat, move)
    place_token(t, pc, move["slot"])                                   # HER-COMBAT-02, HER-AMB-54
    for target in targets:                                             # HER-COMBAT-15: one Karma card each
        if char_area(t.s, target) is not None:
            resolve_attack(t, [{"pc": pc, "power": power}], target)


def check_combined_attack(s: dict, seat: int, move: dict) -> list:
    """HER-COMBINED-01, HER-COMBINED-02, HER-COMBINED-03, HER-DECIDE-17."""
    check_window(s)
    parts = move.get("participants") or []
    if len(parts) < 2 or len({p.get("pc") for p in parts}) != len(parts):
        raise IllegalMove("HER-COMBINED-01", "a combined attack needs two or more different PCs")
    if [p["pc"] for p in parts] != sorted(p["pc"] for p in parts):
        raise IllegalMove("HER-COMBINED-01", "list the participants of a combined attack in PC order")
    check_participants(s, seat, move)
    out = []
    for p in parts:
        token_index(s, p["pc"])
        power, rng = check_attack_slot(s, p["pc"], p.get("slot"))
        try:
            check_target(s, p["pc"], rng, move.get("target"))
        except IllegalMove as err:
            raise IllegalMove("HER-COMBINED-02", f"{p['pc']}: {err.detail}") from None
        out.append({"pc": p["pc"], "power": power, "slot": p["slot"]})
    return out


def do_combined_attack(t, seat: int, move: dict) -> None:
    check_combined_attack(t.s, seat, move)
    if ask_consent(t, seat, move):
        return
    apply_combined_attack(t, move)


def apply_combined_attack(t, move: dict) -> None:
    parts = [{"pc": p["pc"], "slot": p["slot"], "power": slot_power(t.s, p["pc"], p["slot"])}
             for p in move["participants"]]
    for p in parts:
        place_token(t, p["pc"], p["slot"])
    resolve_attack(t, [{"pc": p["pc"], "power": p["power"]} for p in parts], move["target"])


def check_participants(s: dict, seat: int, move: dict) -> None:
    parts = move.get("participants") or []
    for p in parts:
        if p.get("pc") not in s["pcs"]:
            raise IllegalMove("HER-CONTROL-05", f"unknown PC {p.get('pc')!r}")
    if not any(seat in s["control"][p["pc"]] for p in parts):
        raise IllegalMove("HER-CONTROL-05", f"seat {seat} controls none of the participants")
    if combo_key(move) in s["declined"]:
        raise IllegalMove("HER-CONTROL-05", "the other controllers already refused this during the window")


def foreign(s: dict, seat: int, move: dict, agreed: list) -> list[str]:
    return [p["pc"] for p in move["participants"] if seat not in s["control"][p["pc"]] and p["pc"] not in agreed]


def ask_consent(t, seat: int, move: dict, agreed: list | None = None) -> bool:
    """Wait for the next other controller's agreement; False when everybody agreed."""
    agreed = agreed or []
    others = foreign(t.s, seat, move, agreed)
    if not others:
        return False
    wait(t, "combined_consent", ["accept", "decline"], others[0], move=move, by=seat, agreed=agreed)
    return True


def check_heal(s: dict, seat: int, move: dict) -> tuple:
    """HER-HEAL-01, HER-HEAL-02, HER-HEAL-03, HER-HEAL-04, HER-AMB-47."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    token_index(s, pc)
    check_slot(s, pc, move.get("slot"), "heal")
    target = move.get("target") or {}
    area = char_area(s, target) if ("pc" in target and target["pc"] in s["pcs"]) or "npc" in target else None
    if area is None or not same_area(s, area, s["pcs"][pc]["area"]):
        raise IllegalMove("HER-HEAL-01", "the healed Character must be in the healer's area")
    if "pc" in target:
        ref = move.get("damage")
        if ref not in [r for r, rec, n in pc_slots(s, target["pc"]) if slot_state(s, r)["d"]]:
            raise IllegalMove("HER-HEAL-03", f"no Damage token on {ref!r} of {target['pc']}")
    elif s["npcs"][str(target["npc"])][target["s"]]["damage"] <= 0:
        raise IllegalMove("HER-HEAL-03", "that NPC has no Damage token")
    return pc, target


# HER-INJURY-04: a Heal removes a Damage token only; a card on its b side stays so
def do_heal(t, seat: int, move: dict) -> None:
    pc, target = check_heal(t.s, seat, move)
    place_token(t, pc, move["slot"])
    if "pc" in target:
        t.emit("DamageRemoved", slot=move["damage"], pc=target["pc"])
    else:
        t.emit("NpcDamaged", npc=target["npc"], standee=target["s"], amount=-1)
