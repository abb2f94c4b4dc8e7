"""PC actions and answers to pending decisions: one small check/apply pair per move kind.

Every `check_*` raises IllegalMove(rule ID) or returns what the apply step needs; the
apply step emits facts and pushes instruction frames, then `interp.run` resumes play.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from . import interp as I
from .board import board
from .query import (
    C, available_tokens, card_zone, char_area, face, face_side, find_action, free_heart_slots, in_play,
    is_dying, is_free, is_full, items_in_area, items_of, link_area, npc_section, npcs_on_terrain, override, pc_cards,
    pc_slots, same_area, slot_state, standees,
)


# -- common checks ----------------------------------------------------------------------
def check_pc(s: dict, seat: int, pc) -> None:
    if pc not in s["pcs"]:
        raise IllegalMove("HER-CONTROL-05", f"unknown PC {pc!r}")
    if seat not in s["control"][pc]:
        raise IllegalMove("HER-CONTROL-05", f"seat {seat} does not control {pc}")


def check_window(s: dict) -> None:
    if s["pending"] is not None or (s["window"] is not None and len(s["stack"]) != s["window"]):
        raise IllegalMove("HER-ACTION-07", "another action or decision is still being resolved")
    if s["window"] is None:
        raise IllegalMove("HER-ACTION-08", "Action tokens are spent only during the Family card's action window")


def token_index(s: dict, pc: str) -> int:
    avail = available_tokens(s, pc)
    if not avail:
        raise IllegalMove("HER-ACTION-10", f"{pc} has no available Action token")
    return avail[0]


def slot_record(s: dict, pc: str, ref) -> dict:
    for r, rec, n in pc_slots(s, pc):
        if r == ref:
            return rec
    raise IllegalMove("HER-ACTION-05", f"slot {ref!r} is not on {pc}'s cards or Items")


def check_slot(s: dict, pc: str, ref, icon: str | None) -> dict:
    """HER-ACTION-01..05, HER-ITEM-13, HER-DYING-04."""
    rec = slot_record(s, pc, ref)
    if not rec["accepts"]:
        raise IllegalMove("HER-ITEM-13", f"slot {ref} grants no action: no Action token can be placed on it")
    if slot_state(s, ref)["t"] is not None:
        raise IllegalMove("HER-ACTION-03", f"slot {ref} already holds an Action token")
    if not is_free(s, ref):
        raise IllegalMove("HER-ACTION-02", f"slot {ref} is covered by a Damage token")
    if icon is not None and icon not in rec["icons"]:
        raise IllegalMove("HER-ACTION-04", f"slot {ref} has no {icon} icon")
    if rec["heart"] and is_dying(s, pc):
        raise IllegalMove("HER-DYING-04", f"{pc} is Dying: only slots without a heart may be used")
    return rec


def place_token(t, pc: str, ref: str) -> None:
    t.emit("TokenPlaced", pc=pc, token=token_index(t.s, pc), slot=ref)


# -- terrain icon actions (Watch, Speak, Interact) --------------------------------------------
def marker_icon(s: dict, marker):
    try:
        terrain, side, idx = str(marker).split("/")
        icon = C(s).face(int(terrain), side)["icons"][int(idx)]
    except (ValueError, KeyError, IndexError):
        return None, None
    return int(terrain), icon


def check_icon_action(s: dict, seat: int, move: dict) -> tuple:
    kind = move["type"]
    rule = {"watch": "HER-WATCH-01", "speak": "HER-SPEAK-01", "interact": "HER-INTERACT-01"}[kind]
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    terrain, icon = marker_icon(s, move.get("marker"))
    if icon is None or icon["kind"] != kind or move["marker"] not in s["markers"]:
        raise IllegalMove(rule, f"no available {kind} icon {move.get('marker')!r} (HER-TERRAIN-03)")
    area = f"{terrain}:{icon['area']}"
    if not same_area(s, s["pcs"][pc]["area"], area):
        raise IllegalMove(rule, f"{pc} is not in the area of that {kind} icon")
    token_index(s, pc)
    check_slot(s, pc, move.get("slot"), kind)
    return pc, icon, area


def do_icon_action(t, seat: int, move: dict) -> None:
    pc, icon, area = check_icon_action(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("MarkerRemoved", marker=move["marker"])                     # HER-TERRAIN-03
    vars_ = {"speak_area": area} if move["type"] == "speak" else {}
    I.push(t, [{"op": "take", "card": icon["card"]}], None, pc, "action", vars_)


# -- card actions -----------------------------------------------------------------------------
def action_place_ok(s: dict, pc: str, card: int, action: dict) -> bool:
    link = action["link"]
    if link["kind"] == "terrain":
        return same_area(s, s["pcs"][pc]["area"], link_area(s, link))   # HER-INSTR-10, HER-TERRAIN-09
    if link["kind"] == "npc":
        npc = link.get("npc", card)
        return any(same_area(s, s["pcs"][pc]["area"], a) for _, a in standees(s, npc))   # HER-INSTR-12
    return True                                                                       # HER-INSTR-11


def first_blocker(t_state: dict, pc, body: list, target=None):
    """HER-AMB-08: an action whose body starts with an unpayable cost or a targetless attack is refused."""
    if not body:
        return None
    op = body[0]
    if op["op"] == "payMaterials" and s_mat(t_state, pc) < op["count"]:
        return IllegalMove("HER-MATERIAL-03", f"{pc} holds fewer than {op['count']} Materials")
    if op["op"] == "attack":
        targets = I.attack_targets(t_state, pc, op.get("range"))
        if target not in targets:
            return IllegalMove("HER-RANGED-02", f"no legal target {target!r} for this attack")
    return None


def s_mat(s, pc):
    return s["pcs"][pc]["materials"]


def check_card_action(s: dict, seat: int, move: dict) -> tuple:
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    action = find_action(s, move.get("card"), move.get("action"))
    if action is None:
        raise IllegalMove("HER-INSTR-09", f"card {move.get('card')} offers no action {move.get('action')}")
    if action.get("combined"):
        raise IllegalMove("HER-INSTR-13", "a combined action needs every participant in one command")
    if not action_place_ok(s, pc, move["card"], action):
        rule = "HER-INSTR-12" if action["link"]["kind"] == "npc" else "HER-INSTR-10"
        raise IllegalMove(rule, f"{pc} is not where this action can be performed")
    token_index(s, pc)
    icon = action["icon"]
    if icon == "attack":
        check_attack_slot(s, pc, move.get("slot"))
    else:
        check_slot(s, pc, move.get("slot"), icon)
    blocker = first_blocker(s, pc, action["body"], move.get("target"))
    if blocker:
        raise blocker
    return pc, action


def do_card_action(t, seat: int, move: dict) -> None:
    pc, action = check_card_action(t.s, seat, move)
    place_token(t, pc, move["slot"])
    I.push(t, list(action["body"]), move["card"], pc, "action", {"target": move.get("target")}, track_face=True)


def check_combined_action(s: dict, seat: int, move: dict) -> tuple:
    """HER-INSTR-13, HER-DECIDE-18."""
    check_window(s)
    action = find_action(s, move.get("card"), move.get("action"))
    if action is None or not action.get("combined"):
        raise IllegalMove("HER-INSTR-13", "no such combined action")
    parts = move.get("participants") or []
    pcs = [p.get("pc") for p in parts]
    need = action["combined"].get("participants", 2)
    if len(pcs) != need or len(set(pcs)) != len(pcs):
        raise IllegalMove("HER-INSTR-13", f"this combined action needs exactly {need} different PCs")
    areas = action["combined"].get("areas")
    if not areas and pcs != sorted(pcs):
        raise IllegalMove("HER-INSTR-13", "list the participants in PC order (no designated areas)")
    check_participants(s, seat, move)
    for k, p in enumerate(parts):
        token_index(s, p["pc"])
        check_slot(s, p["pc"], p.get("slot"), action["icon"])
        where_ok = same_area(s, s["pcs"][p["pc"]]["area"], areas[k]) if areas else action_place_ok(s, p["pc"], move["card"], action)
        if not where_ok:
            raise IllegalMove("HER-INSTR-13", f"{p['pc']} is not in its designated area")
    return parts, action


def do_combined_action(t, seat: int, move: dict) -> None:
    parts, action = check_combined_action(t.s, seat, move)
    if ask_consent(t, seat, move):
        return
    apply_combined_action(t, move)


def apply_combined_action(t, move: dict) -> None:
    action = find_action(t.s, move["card"], move["action"])
    parts = move["participants"]
    for p in parts:
        place_token(t, p["pc"], p["slot"])
    I.push(t, list(action["body"]), move["card"], parts[0]["pc"], "action", {"allocate": True}, track_face=True)


# -- Move, exploration ------------------------------------------------------------------------
def check_move(s: dict, seat: int, move: dict) -> tuple:
    """HER-MOVE-01..07, HER-AREA-02..06, HER-LEVEL-02."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    path = move.get("path") or []
    slots = move.get("slots") or []
    if not path:
        raise IllegalMove("HER-MOVE-01", "a Move crosses at least one line")
    if len(slots) != len(path):
        raise IllegalMove("HER-MOVE-01", "one Action token (on its own Move slot) per line crossed")
    if len(set(slots)) != len(slots):
        raise IllegalMove("HER-MOVE-01", "each token goes on a different Move slot")
    if len(available_tokens(s, pc)) < len(slots):
        raise IllegalMove("HER-ACTION-10", f"{pc} has only {len(available_tokens(s, pc))} available tokens")
    for ref in slots:
        check_slot(s, pc, ref, "move")
    order = [r for r, rec, n in pc_slots(s, pc)]
    if slots != sorted(slots, key=order.index):                          # the tokens go down together
        raise IllegalMove("HER-MOVE-01", "list the Move slots in the order of the PC's cards and Items")
    b = board(C(s), s)
    prev = s["pcs"][pc]["area"]
    last = path[-1]
    if isinstance(last, str) and last.startswith("explore:"):
        steps = path[:-1]
        end = steps[-1] if steps else prev
        if not any(o["marker"] == last[8:] for o in explore_options(s, pc, end)):
            raise IllegalMove("HER-EXPLORE-02", "no usable Explore icon at the end of that path")
        path = steps
        if not path:
            raise IllegalMove("HER-EXPLORE-02", "an exploration without a crossing before it is an explore move")
    for a in path:
        if not isinstance(a, str) or a.startswith("explore:"):
            raise IllegalMove("HER-MOVE-02", "an exploration can only be the last crossing of a Move")
        if b.c(a) != a:
            raise IllegalMove("HER-MOVE-04", f"{a} is part of the merged area {b.c(a)}: name it so")
        colour = b.step_colour(prev, a)
        if colour is None:
            raise IllegalMove("HER-MOVE-04", f"{a} is not adjacent to {prev}")
        if colour in ("blue", "black"):
            raise IllegalMove("HER-MOVE-03", f"no Character can cross a {colour} line")
        prev = a
    if last is path[-1] and is_full(s, path[-1]) and not same_area(s, path[-1], s["pcs"][pc]["area"]):
        raise IllegalMove("HER-MOVE-05", f"{path[-1]} is full: a movement cannot end there")
    return pc, move["path"], slots


def do_move(t, seat: int, move: dict) -> None:
    pc, path, slots = check_move(t.s, seat, move)
    for ref in slots:
        place_token(t, pc, ref)
    ops = [{"op": "pcExplore", "pc": pc, "marker": a[8:]} if a.startswith("explore:") else
           {"op": "pcStep", "pc": pc, "to": a, "last": k == len(path) - 1} for k, a in enumerate(path)]
    I.push(t, ops, None, pc, "action")


def op_pc_step(t, op):
    """One crossing of a committed Move (HER-AMB-17/18)."""
    s = t.s
    pc, to = op["pc"], op["to"]
    b = board(C(s), s)
    colour = b.step_colour(s["pcs"][pc]["area"], to)
    if colour not in ("white", "green", "red", "level") or (op["last"] and is_full(s, to)):
        t.emit("MoveStopped", pc=pc, at=s["pcs"][pc]["area"])
        t.emit("StackPop")
        return
    enter(t, pc, to, colour)


def enter(t, pc: str, to: str, colour: str | None) -> None:
    s = t.s
    t.emit("PcMoved", pc=pc, area=to, line=colour)
    events = immediate_events(s, to)
    for terrain, ops in reversed(events):                            # HER-TERRAIN-07
        I.push(t, ops, terrain, pc, "event", track_face=True)
    if colour == "red":
        amount = override(s, "red_line_damage", 1)
        I.push(t, [{"op": "hit", "pc": pc}] * amount, None, pc)       # HER-AREA-06 (resolved first)


def immediate_events(s: dict, area: str) -> list:
    b = board(C(s), s)
    out = []
    for terrain, idx, icon in b.icons:
        if icon["kind"] == "immediateEvent" and b.c(f"{terrain}:{icon['area']}") == b.c(area):
            out.append((terrain, list(icon["ops"])))
    return out


def explore_options(s: dict, pc: str, area: str | None = None) -> list[dict]:
    """Explore / Level Change icons the PC may use from where it stands, or from `area` on its way
    (HER-EXPLORE-02/04, HER-LEVEL-04)."""
    area = area or s["pcs"][pc]["area"]
    if area is None:
        return []
    b = board(C(s), s)
    rep = b.c(area)
    out = []
    for terrain, idx, icon in b.icons:
        marker = f"{terrain}/{face_side(s, terrain)}/{idx}"
        if icon["kind"] == "explore":
            if card_zone(s, icon["terrain"]) != "deck":
                continue
            segs = face(s, terrain)["edges"].get(icon["edge"], [])
            ok = [seg for seg in segs if b.c(f"{terrain}:{seg['area']}") == rep and seg["colour"] not in ("black", "blue")]
            if ok:
                out.append({"marker": marker, "icon": icon, "terrain": terrain, "seg": ok[0]})
        elif icon["kind"] == "levelChange" and icon.get("terrain") and card_zone(s, icon["terrain"]) == "deck":
            if b.c(f"{terrain}:{icon['area']}") == rep:
                out.append({"marker": marker, "icon": icon, "terrain": terrain, "seg": None})
    return out


def check_explore(s: dict, seat: int, move: dict) -> tuple:
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    opts = [o for o in explore_options(s, pc) if o["marker"] == move.get("marker")]
    if not opts:
        raise IllegalMove("HER-EXPLORE-02", "no usable Explore icon there (black or blue edge, or no icon)")
    token_index(s, pc)
    check_slot(s, pc, move.get("slot"), "move")                       # HER-EXPLORE-03
    return pc, opts[0]


def do_explore(t, seat: int, move: dict) -> None:
    pc, opt = check_explore(t.s, seat, move)
    place_token(t, pc, move["slot"])
    explore(t, pc, opt)


def op_pc_explore(t, op):
    """The last crossing of a committed Move explores (HER-AMB-20)."""
    opts = [o for o in explore_options(t.s, op["pc"]) if o["marker"] == op["marker"]]
    if not opts:
        t.emit("MoveStopped", pc=op["pc"], at=t.s["pcs"][op["pc"]]["area"])
        return
    explore(t, op["pc"], opts[0])


def explore(t, pc: str, opt: dict) -> None:
    """HER-EXPLORE-01/05/06, HER-LEVEL-04."""
    s = t.s
    icon, terrain = opt["icon"], opt["terrain"]
    pos = s["terrains"][str(terrain)]
    new = icon["terrain"]
    if icon["kind"] == "explore":
        dx, dy = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[icon["edge"]]
        I.place_terrain(t, new, [pos["x"] + dx, pos["y"] + dy], pos.get("level", 0))
        opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[icon["edge"]]
        span = opt["seg"]["span"]
        segs = face(t.s, new)["edges"].get(opposite, [])
        dest = next((g["area"] for g in segs if g["span"][0] < span[1] and span[0] < g["span"][1]),
                    segs[0]["area"] if segs else next(iter(face(t.s, new)["areas"])))
        colour = "white"
    else:
        I.place_terrain(t, new, [pos["x"] + 50, pos["y"]], pos.get("level", 0) + 1)     # HER-LEVEL-04
        dest = next(i["area"] for i in face(t.s, new)["icons"]
                    if i["kind"] == "levelChange" and i["link"] == icon["link"])
        colour = "level"
    enter(t, pc, f"{new}:{dest}", colour)


# -- attacks ----------------------------------------------------------------------------------
def attack_slots(s: dict, pc: str) -> list[tuple[str, int, int | None]]:
    """(slot, power, range) usable for an attack now: Item attack slots, Head/Feet slots unarmed."""
    out = []
    cards = C(s).pc(pc)["cards"]
    unarmed = override(s, "unarmed_power", 1)
    dying = is_dying(s, pc)
    for ref, rec, n in pc_slots(s, pc):
        if not is_free(s, ref) or (dying and rec["heart"]):
            continue
        if rec.get("attack"):
            out.append((ref, rec["attack"]["power"], rec["attack"]["range"]))
        elif n in (cards["head"], cards["feet"]) and rec["accepts"]:
            out.append((ref, unarmed, None))                           # HER-COMBAT-03, HER-AMB-34
    return out


def slot_power(s: dict, pc: str, ref: str) -> int:
    for r, power, rng in attack_slots(s, pc):
        if r == ref:
            return power
    rec = slot_record(s, pc, ref)
    return rec["attack"]["power"] if rec.get("attack") else override(s, "unarmed_power", 1)


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
    if target not in I.attack_targets(s, pc, rng):
        if rng is None:
            raise IllegalMove("HER-COMBAT-06", "a Melee attack needs the target in the attacker's area")
        raise IllegalMove("HER-RANGED-02", "the target is not within Range on a straight line")


def max_targets(s: dict, pc: str, ref) -> int:
    for r, rec, n in pc_slots(s, pc):
        if r == ref and rec.get("attack"):
            return rec["attack"].get("targets", 1)
    return 1


def check_attack(s: dict, seat: int, move: dict) -> tuple:
    """HER-COMBAT-02..06; several targets only with a slot that allows them (HER-COMBAT-15)."""
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
        if I.char_area(t.s, target) is not None:
            I.resolve_attack(t, [{"pc": pc, "power": power}], target)


def check_combined_attack(s: dict, seat: int, move: dict) -> list:
    """HER-COMBINED-01..03, HER-DECIDE-17."""
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
    I.resolve_attack(t, [{"pc": p["pc"], "power": p["power"]} for p in parts], move["target"])


# -- several controllers: one command, co-signed (HER-COMBINED-03, HER-INSTR-13, HER-CONTROL-05) --
def combo_key(move: dict) -> str:
    return f"{move['type']}:" + ",".join(sorted(p.get("pc", "?") for p in move.get("participants") or []))


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
    I.wait(t, "combined_consent", ["accept", "decline"], others[0], move=move, by=seat, agreed=agreed)
    return True


# -- Heal ---------------------------------------------------------------------------------------
def check_heal(s: dict, seat: int, move: dict) -> tuple:
    """HER-HEAL-01..04, HER-AMB-47."""
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


def do_heal(t, seat: int, move: dict) -> None:
    pc, target = check_heal(t.s, seat, move)
    place_token(t, pc, move["slot"])
    if "pc" in target:
        t.emit("DamageRemoved", slot=move["damage"], pc=target["pc"])
    else:
        t.emit("NpcDamaged", npc=target["npc"], standee=target["s"], amount=-1)


# -- Items: pick up, drop, trade, repair, upgrade, use ---------------------------------------------
def check_interact_slot(s: dict, pc: str, ref) -> None:
    token_index(s, pc)
    check_slot(s, pc, ref, "interact")                                 # HER-INTERACT-03, HER-AMB-15


def check_pickup(s: dict, seat: int, move: dict) -> tuple:
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    check_interact_slot(s, pc, move.get("slot"))
    area = s["pcs"][pc]["area"]
    here = sum(n for a, n in s["area_materials"].items() if same_area(s, a, area))
    k = move.get("materials", 0)
    items = move.get("items", [])
    if not isinstance(k, int) or k < 0 or k > here:
        raise IllegalMove("HER-INV-09", f"only {here} Materials lie in {pc}'s area")
    lying = items_in_area(s, area)
    if any(i not in lying for i in items) or items != sorted(set(items)):
        raise IllegalMove("HER-INV-09", "name distinct Items lying in the PC's area, in increasing order")
    if k == 0 and not items:
        raise IllegalMove("HER-INV-09", "pick up at least one thing")
    return pc, k, items


def do_pickup(t, seat: int, move: dict) -> None:
    pc, k, items = check_pickup(t.s, seat, move)
    place_token(t, pc, move["slot"])
    if k:
        I.remove_area_materials(t, t.s["pcs"][pc]["area"], k)
        t.emit("PcMaterials", pc=pc, delta=k)
    for item in items:
        I.equip(t, pc, item)                       # HER-INV-10; several matching anchors: item_anchor decision


def check_drop(s: dict, seat: int, move: dict) -> str:
    """HER-INV-05/06, HER-AMB-26: free, during the action window (or an item overflow)."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    joining = s["pending"] is not None and s["pending"]["kind"] == "ally_join"      # HER-AMB-26
    if s["window"] is None and not joining:
        raise IllegalMove("HER-INV-05", "dropping is possible only during the PCs' action time")
    if s["pcs"][pc]["area"] is None:
        raise IllegalMove("HER-INV-05", f"{pc} is not on the Terrain")
    if "item" in move:
        if move["item"] not in items_of(s, pc):
            raise IllegalMove("HER-INV-06", f"{pc} does not hold Item {move['item']}")
    else:
        k = move.get("materials", 0)
        if not isinstance(k, int) or k <= 0 or k > s["pcs"][pc]["materials"]:
            raise IllegalMove("HER-INV-05", f"{pc} cannot drop {k!r} Materials")
    return pc


def do_drop(t, seat: int, move: dict) -> None:
    pc = check_drop(t.s, seat, move)
    area = t.s["pcs"][pc]["area"]
    if "item" in move:
        t.emit("ItemDropped", item=move["item"], area=area, ref=True, pc=pc)     # HER-INV-07
    else:
        t.emit("PcMaterials", pc=pc, delta=-move["materials"])
        t.emit("AreaMaterials", area=area, delta=move["materials"])


def trade_key(move: dict) -> str:
    return f"{move.get('pc')}>{move.get('with')}"


def check_trade(s: dict, seat: int, move: dict) -> tuple:
    """HER-INV-11/12, HER-AMB-27."""
    pc, other = move.get("pc"), move.get("with")
    check_pc(s, seat, pc)
    check_window(s)
    if other not in s["pcs"] or other == pc:
        raise IllegalMove("HER-INV-11", "trade with another PC")
    if not same_area(s, s["pcs"][pc]["area"], s["pcs"][other]["area"]):
        raise IllegalMove("HER-INV-12", "the 2 PCs must be in the same area")
    if trade_key(move) in s["declined"]:
        raise IllegalMove("HER-INV-12", "that trade was already refused during this action window")
    check_interact_slot(s, pc, move.get("slot"))
    give, take = move.get("give") or {}, move.get("take") or {}
    for who, part in ((pc, give), (other, take)):
        if "materials" in part and part["materials"] <= 0 or "items" in part and (
                not part["items"] or part["items"] != sorted(set(part["items"]))):
            raise IllegalMove("HER-INV-11", "name a positive number of Materials and distinct Items in increasing order")
        if part.get("materials", 0) > s["pcs"][who]["materials"]:
            raise IllegalMove("HER-INV-11", f"{who} does not hold that many Materials")
        if any(i not in items_of(s, who) for i in part.get("items", [])):
            raise IllegalMove("HER-INV-11", f"{who} does not hold those Items")
    if not (give.get("materials") or give.get("items") or take.get("materials") or take.get("items")):
        raise IllegalMove("HER-INV-11", "a trade exchanges at least something")
    return pc, other, give, take


def do_trade(t, seat: int, move: dict) -> None:
    pc, other, give, take = check_trade(t.s, seat, move)
    if seat in t.s["control"][other]:
        apply_trade(t, move)                                            # one seat controls both
    else:
        I.wait(t, "trade_consent", ["accept", "decline"], other, trade=move)     # HER-DECIDE-14


def apply_trade(t, move: dict) -> None:
    pc, other = move["pc"], move["with"]
    give, take = move.get("give") or {}, move.get("take") or {}
    place_token(t, pc, move["slot"])
    for frm, to, part in ((pc, other, give), (other, pc, take)):
        if part.get("materials"):
            t.emit("PcMaterials", pc=frm, delta=-part["materials"])
            t.emit("PcMaterials", pc=to, delta=part["materials"])
        for item in part.get("items", []):
            t.emit("ItemDropped", item=item, area=t.s["pcs"][frm]["area"], ref=False, pc=frm, traded=True)
            I.equip(t, to, item)                                          # HER-INV-13


def own_item(s: dict, seat: int, move: dict, rule: str) -> tuple:
    """The acting PC and an Item of its own inventory (Repair, Upgrade)."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    item = move.get("item")
    if item not in items_of(s, pc):
        raise IllegalMove(rule, f"Item {item} is not in {pc}'s inventory")
    return pc, item


def check_repair(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-14/15."""
    pc, item = own_item(s, seat, move, "HER-ITEM-15")
    damaged = [r for r, rec in I_card_slots(s, item) if slot_state(s, r)["d"]]
    if not damaged:
        raise IllegalMove("HER-ITEM-15", f"Item {item} carries no Damage token")
    if s["pcs"][pc]["materials"] < 1:
        raise IllegalMove("HER-ITEM-15", f"{pc} holds no Materials")
    check_interact_slot(s, pc, move.get("slot"))
    ref = move.get("damage")
    if ref not in damaged:
        raise IllegalMove("HER-ITEM-14", f"no Damage token on {ref}")
    return pc, ref


def I_card_slots(s, number):
    from .query import card_slots
    return card_slots(s, number)


def do_repair(t, seat: int, move: dict) -> None:
    pc, ref = check_repair(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("PcMaterials", pc=pc, delta=-1)
    t.emit("DamageRemoved", slot=ref, pc=pc)


def check_upgrade(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-16/17, HER-AMB-25."""
    pc, item = own_item(s, seat, move, "HER-ITEM-16")
    if any(slot_state(s, r)["t"] is not None or slot_state(s, r)["d"] for r, _ in I_card_slots(s, item)):
        raise IllegalMove("HER-ITEM-16", "an Item carrying an Action or Damage token cannot be upgraded")
    ups = face(s, item)["upgrades"]
    k = move.get("upgrade", 0)
    if not isinstance(k, int) or not 0 <= k < len(ups):
        raise IllegalMove("HER-ITEM-17", f"Item {item} has no upgrade {k!r}")
    if s["pcs"][pc]["materials"] < ups[k]["cost"]:
        raise IllegalMove("HER-ITEM-17", f"the upgrade costs {ups[k]['cost']} Materials")
    check_interact_slot(s, pc, move.get("slot"))
    return pc, item, ups[k]


def do_upgrade(t, seat: int, move: dict) -> None:
    pc, item, up = check_upgrade(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("PcMaterials", pc=pc, delta=-up["cost"])
    # The upgrade effect runs first, then the (new face's) Initialise effect (HER-ITEM-07).
    I.push(t, [{"op": "initialiseAfterUpgrade", "item": item}], item, pc, "action", {"upgrade": True})
    I.push(t, list(up["effect"]), item, pc, "block", {"upgrade": True})


def op_init_after_upgrade(t, op):
    item = op["item"]
    I.push(t, list(face(t.s, item)["initialise"]), item, I.top(t)["actor"], "card")


def check_use_item(s: dict, seat: int, move: dict) -> tuple:
    """HER-ITEM-10: a slot whose effect is given on the Item."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    token_index(s, pc)
    rec = check_slot(s, pc, move.get("slot"), None)
    if not rec["effect"] or move["slot"].split(".")[0] not in [str(i) for i in items_of(s, pc)]:
        raise IllegalMove("HER-ITEM-10", "that slot has no Item effect to apply")
    return pc, rec


def do_use_item(t, seat: int, move: dict) -> None:
    pc, rec = check_use_item(t.s, seat, move)
    place_token(t, pc, move["slot"])
    I.push(t, list(rec["effect"]), int(move["slot"].split(".")[0]), pc, "action")


# -- voluntary severe injury, end of window -----------------------------------------------------
def check_injure(s: dict, seat: int, move: dict) -> tuple:
    """HER-INJURY-05, HER-AMB-38."""
    pc = move.get("pc")
    check_pc(s, seat, pc)
    card = move.get("card")
    if card not in pc_cards(s, pc) or face_side(s, card) != "front":
        raise IllegalMove("HER-INJURY-05", "choose one of the PC's cards showing its front")
    from .query import card_slots
    if not all(slot_state(s, r)["d"] for r, _ in card_slots(s, card)):
        raise IllegalMove("HER-INJURY-05", "every slot of that card's front must hold a Damage token")
    return pc, card


#: Pending decisions asked by an instruction that stays on the stack until answered, whose options
#: depend on the PC's slots: after a voluntary injury they are cleared and asked again.
RECOMPUTED = ("damage_slot", "injury_card", "ally_join")


def do_injure(t, seat: int, move: dict) -> None:
    """HER-INJURY-05/06, HER-DECIDE-09: "at any time", also while a decision is pending. The revealed
    slot is available at once, so a pending Damage placement (or forced injury, or joining an ally's
    attack) is asked again with the options recomputed: the book's Maeve example places the remaining
    Damage token on the revealed slot."""
    pc, card = check_injure(t.s, seat, move)
    I.injure(t, pc, card, voluntary=True)
    p = t.s["pending"]
    if p is not None and p["kind"] in RECOMPUTED and p["pc"] in (pc, None):
        t.emit("PendingCleared", kind=p["kind"], choice=None, recomputed=True)


def check_end_window(s: dict, seat: int, move: dict) -> None:
    check_window(s)


def do_end_window(t, seat: int, move: dict) -> None:
    check_end_window(t.s, seat, move)
    t.emit("WindowClosed")
    I.step(t)                                                              # past ACTION_WINDOW


# -- answers to pending decisions --------------------------------------------------------------
def check_choose(s: dict, seat: int, move: dict) -> tuple:
    p = s["pending"]
    if p is None:
        raise IllegalMove("HER-GEN-02", "no decision is pending")
    if p["pc"] is not None and seat not in s["control"][p["pc"]]:
        raise IllegalMove("HER-CONTROL-05", f"the decision belongs to {p['pc']}'s controller")
    k = move.get("option")
    if not isinstance(k, int) or not 0 <= k < len(p["options"]):
        raise IllegalMove("HER-GEN-02", f"option must be 0..{len(p['options']) - 1}")
    opt = p["options"][k]
    if isinstance(opt, dict) and "slot" in opt and seat not in s["control"][opt["pc"]]:
        raise IllegalMove("HER-CONTROL-05", f"only {opt['pc']}'s controller may spend its token")
    return p, opt


def frame_depth(s: dict, kind: str) -> int:
    for d in range(len(s["stack"]) - 1, -1, -1):
        if s["stack"][d]["kind"] == kind:
            return d
    return len(s["stack"]) - 1


def do_choose(t, seat: int, move: dict) -> None:
    p, opt = check_choose(t.s, seat, move)
    kind = p["kind"]
    t.emit("PendingCleared", kind=kind, choice=opt)
    if kind == "damage_slot":
        I.step(t)
        t.emit("DamagePlaced", pc=p["pc"], slot=opt)
    elif kind == "injury_card":
        I.injure(t, p["pc"], opt)
    elif kind == "allocate_item":
        I.step(t)
        I.equip(t, opt, p["item"])
    elif kind == "allocate_materials":
        t.emit("PcMaterials", pc=opt, delta=1)
        I.set_var(t, "allocated", I.top(t)["vars"].get("allocated", 0) + 1)
    elif kind == "choose_pc":
        I.set_var(t, "chosen_pc", opt)
    elif kind == "npc_area":
        I.set_var(t, "npc_area", opt)
    elif kind == "npc_order":
        I.set_var(t, "first", opt)
    elif kind in ("npc_target", "ally_target"):
        I.set_var(t, "target", None if opt.get("none") else opt)
        I.step(t)
    elif kind == "npc_path":
        I.set_var(t, "path", opt)
    elif kind == "item_overflow":                                         # HER-AMB-22
        area = t.s["pcs"][p["pc"]]["area"]
        if "drop" in opt:
            anchor = t.s["cards"][str(opt["drop"])]["anchor"]
            t.emit("ItemDropped", item=opt["drop"], area=area, ref=True, pc=p["pc"])
            t.emit("ItemEquipped", item=p["item"], pc=p["pc"], anchor=anchor)
            I.initialise(t, p["pc"], p["item"])
        else:
            t.emit("ItemDropped", item=p["item"], area=area, ref=True)
    elif kind == "item_anchor":
        t.emit("ItemEquipped", item=p["item"], pc=p["pc"], anchor=opt)
        I.initialise(t, p["pc"], p["item"])
    elif kind == "ally_join":
        if opt.get("done"):
            I.set_var(t, "join_done", True)
        else:
            place_token(t, opt["pc"], opt["slot"])
            I.set_var(t, "joined", I.top(t)["vars"].get("joined", []) + [opt])
    elif kind == "combined_consent":
        if opt == "decline":
            t.emit("TradeDeclined", key=combo_key(p["move"]))
        elif not ask_consent(t, p["by"], p["move"], p["agreed"] + [p["pc"]]):
            (apply_combined_attack if p["move"]["type"] == "combined_attack" else apply_combined_action)(t, p["move"])
    elif kind == "trade_consent":
        if opt == "accept":
            apply_trade(t, p["trade"])
        else:
            t.emit("TradeDeclined", key=trade_key(p["trade"]))


I.HANDLERS["pcStep"] = op_pc_step
I.HANDLERS["pcExplore"] = op_pc_explore
I.HANDLERS["initialiseAfterUpgrade"] = op_init_after_upgrade

#: The keys each move kind may carry (besides "type"): required, then optional. Anything else is refused, so
#: nothing unlisted reaches the permanent log (issue 16.4).
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


DO = {
    "watch": do_icon_action, "speak": do_icon_action, "interact": do_icon_action, "card_action": do_card_action,
    "combined_action": do_combined_action, "move": do_move, "explore": do_explore, "attack": do_attack,
    "combined_attack": do_combined_attack, "heal": do_heal, "pickup": do_pickup, "drop": do_drop,
    "trade": do_trade, "repair": do_repair, "upgrade": do_upgrade, "use_item": do_use_item,
    "injure": do_injure, "end_window": do_end_window, "choose": do_choose,
}
