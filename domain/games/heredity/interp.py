"""The instruction interpreter. Its call stack and instruction pointers live in the state.

`run(ctx)` executes instructions until the game ends, a decision is pending (a record in
`state["pending"]`), or the Family card's action window waits for the players. When the
stack is empty the Hourglass advances (HER-TIMELINE-03). Every change is a fact emitted
through the Turn, so replay never runs this module.

Frame: {"ops", "i", "self" (card being resolved), "actor" (acting PC), "face" (face of
`self` when the frame started: a frame whose card was flipped or burned is abandoned,
HER-AMB-07), "vars", "kind"}.
"""

from __future__ import annotations

from .board import board
from .query import (
    C, available_tokens, card_zone, char_area, defence, face, face_side, free_heart_slots, immune,
    in_play, injurable_cards, is_ally, is_dying, is_full, is_hostile, items_of, items_in_area, npc_section, npcs_on_terrain,
    override, pc_cards, same_area, standees, tokens,
)
from .timeline import anchor_fact, arrival_ops, next_position, restored

CMP = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
WAITING_OPS = {"damage", "hit", "aiTarget", "aiMove", "activate", "gainItem", "gainMaterials", "placeNpc", "actionWindow",
               "aiMelee", "aiRanged"}


class Ctx:
    """The Turn being built plus the move's random stream."""

    def __init__(self, turn, rng) -> None:
        self.turn = turn
        self.rng = rng

    @property
    def s(self) -> dict:
        return self.turn.state

    def emit(self, type_: str, **data) -> dict:
        private_to = data.pop("private_to", None)
        public = data.pop("public", None)
        return self.turn.emit(type_, private_to=private_to, public=public, **data)


# -- stack helpers -----------------------------------------------------------------------
def push(t: Ctx, ops: list, self_card=None, actor=None, kind="block", vars_=None, track_face=False) -> None:
    if not ops:
        return
    f = face_side(t.s, self_card) if (track_face and self_card is not None) else None
    if kind == "block" and t.s["stack"]:
        parent = t.s["stack"][-1]
        f = parent["face"]
        merged = dict(parent["vars"])
        merged.update(vars_ or {})
        vars_ = merged
    t.emit("StackPush", frame={"ops": ops, "i": 0, "self": self_card, "actor": actor, "face": f,
                               "vars": vars_ or {}, "kind": kind})


def top(t: Ctx) -> dict:
    return t.s["stack"][-1]


def step(t: Ctx) -> None:
    t.emit("StackStep")


def set_var(t: Ctx, key: str, value, depth: int | None = None) -> None:
    t.emit("FrameVar", depth=len(t.s["stack"]) - 1 if depth is None else depth, key=key, value=value)


def wait(t: Ctx, kind: str, options: list, pc: str | None = None, **extra) -> None:
    t.emit("Pending", pending={"kind": kind, "options": options, "pc": pc, **extra})


def warn(t: Ctx, detail: str) -> None:
    t.emit("Warning", detail=detail)


# -- the loop ------------------------------------------------------------------------------
def run(t: Ctx, limit: int = 5000, floor: int = -1) -> None:
    """Resolve until something waits; `floor` (tests, probes) stops once the stack is that low."""
    for _ in range(limit):
        s = t.s
        if s["over"] is not None or s["pending"] is not None:
            return
        stack = s["stack"]
        if len(stack) <= floor:
            return
        if s["window"] is not None and len(stack) == s["window"]:
            return
        if not stack:
            advance(t)
            continue
        frame = stack[-1]
        if frame["face"] is not None and frame["self"] is not None and (
                card_zone(s, frame["self"]) == "burned" or face_side(s, frame["self"]) != frame["face"]):
            t.emit("StackPop")                                  # HER-AMB-07
            continue
        if frame["i"] >= len(frame["ops"]):
            t.emit("StackPop")
            continue
        execute(t, frame["ops"][frame["i"]])
    raise RuntimeError("heredity interpreter did not settle")


def advance(t: Ctx) -> None:
    """HER-TIMELINE-03/04, HER-RESTORE-01..03."""
    pos = next_position(t.s)
    t.emit("HourglassMoved", pos=pos, card=t.s["timeline"][pos]["card"])
    fixed = restored(t.s)
    if fixed is not None:
        t.emit("TimelineRestored", timeline=fixed[0], hourglass=fixed[1])
    host = t.s["timeline"][t.s["hourglass"]]["card"]
    ops = arrival_ops(t.s, t.s["hourglass"])
    family = host == C(t.s).family
    if not family or not any(op.get("op") == "checkDefeat" for op in ops):
        # HER-TIMELINE-14, HER-AMB-40: after this card's Event, the defeat conditions printed by the cards;
        # the Family card's own condition only where its Event concludes (HER-TIMELINE-09)
        t.emit("StackPush", frame={"ops": [{"op": "checkDefeat"}], "i": 0, "self": None, "actor": None,
                                   "face": None, "vars": {"family": True} if family else {}, "kind": "check"})
    push(t, ops, host, None, "event", track_face=True)


# -- possibility (HER-AMB-08) ---------------------------------------------------------------
def self_of(t: Ctx, card):
    return card if card is not None else top(t)["self"]


def available(t: Ctx, number: int) -> bool:
    return number in C(t.s).cards and card_zone(t.s, number) == "deck"


def possible(t: Ctx, op: dict) -> bool:
    s = t.s
    kind = op["op"]
    if kind == "take":
        return available(t, op["card"])
    if kind == "flip":
        n = self_of(t, op["card"])
        if n is None or not in_play(s, n):
            return False
        return C(s).card(n)["kind"] != "item" or bool(top(t)["vars"].get("upgrade"))
    if kind == "burn":
        n = self_of(t, op["card"])
        return n is not None and card_zone(s, n) != "burned"
    if kind == "anchor":
        n = top(t)["self"]
        return n is not None and anchor_fact(s, n, op["colour"], op["vertical"]) is not None
    if kind == "addTokens":
        limit = C(s).special.get(op["kind"])
        if limit is None:
            return True
        used = sum(c.get("tokens", {}).get(op["kind"], 0) for c in s["cards"].values())
        return used + op["count"] <= limit          # HER-COMP-03; an Initialise needing it is skipped (HER-ITEM-08)
    if kind == "removeTokens":
        tgt = op["target"]
        if "area" in tgt:
            return sum(n for a, n in s["area_materials"].items() if same_area(s, a, tgt["area"])) >= op["count"]
        return tokens(s, self_of(t, tgt["card"]), op["kind"]) >= op["count"]
    if kind == "placeNpc":
        return in_play(s, op["npc"]) and not standees(s, op["npc"]) and npc_section(s, op["npc"]) is not None
    if kind == "setAttitude":
        return in_play(s, op["npc"])
    if kind == "gainItem":
        return available(t, op["item"]) or card_zone(s, op["item"]) == "table"
    if kind == "payMaterials":
        actor = top(t)["actor"]
        return actor is not None and s["pcs"][actor]["materials"] >= op["count"]
    if kind == "placeTerrain":
        return available(t, op["terrain"])
    if kind == "karmaEvolve":
        return available(t, op["card"]) and C(s).card(op["card"])["kind"] == "karma"
    if kind == "karmaEffect":
        bound = s["bind"].get(op["bind"])
        return bound is not None and bool(C(s).card(bound)["effect"])
    if kind == "attack":
        return bool(attack_targets(t.s, top(t)["actor"], op.get("range")))
    if kind == "seq":
        return all(possible(t, o) for o in op["body"])
    if kind == "else":
        return possible(t, op["first"]) or possible(t, op["second"])
    return True


# -- conditions ----------------------------------------------------------------------------
def cond(t: Ctx, c: dict) -> bool:
    s = t.s
    k = c["c"]
    if k == "and":
        return cond(t, c["a"]) and cond(t, c["b"])
    if k == "or":
        return cond(t, c["a"]) or cond(t, c["b"])
    if k == "not":
        return not cond(t, c["a"])
    if k in ("true", "false"):
        return k == "true"
    if k == "tokens":
        tgt = c["target"]
        if "area" in tgt:
            n = sum(v for a, v in s["area_materials"].items() if same_area(s, a, tgt["area"]))
        else:
            n = tokens(s, self_of(t, tgt["card"]), c["kind"])
        return CMP[c["cmp"]](n, c["k"])
    if k == "in_play":
        return in_play(s, c["card"])
    if k == "in_timeline":
        return card_zone(s, c["card"]) == "timeline"
    if k == "burned":
        return card_zone(s, c["card"]) == "burned"
    if k == "face":
        return in_play(s, c["card"]) and face_side(s, c["card"]) == c["side"]
    if k == "pc_in":
        pcs = [c["pc"]] if c["pc"] else list(s["pcs"])
        return any(same_area(s, s["pcs"][p]["area"], c["area"]) for p in pcs)
    if k == "npc_in":
        return any(same_area(s, a, c["area"]) for _, a in standees(s, c["npc"]))
    if k == "hostile":
        return is_hostile(s, c["card"])
    if k == "dead":
        return s["cards"].get(str(c["card"]), {}).get("dead", False) or (
            bool(s["npcs"].get(str(c["card"]))) and not standees(s, c["card"]))
    if k == "dying":
        return is_dying(s, c["pc"])
    if k == "any_dying":
        return any(is_dying(s, p) for p in s["pcs"])
    if k == "has_item":
        pcs = [c["pc"]] if c["pc"] else list(s["pcs"])
        return any(c["item"] in items_of(s, p) for p in pcs)
    if k == "materials":
        pc = c["pc"] or top(t)["actor"]
        return pc is not None and CMP[c["cmp"]](s["pcs"][pc]["materials"], c["k"])
    if k.startswith("karma_"):
        bound = s["bind"].get(c["bind"])
        if bound is None:
            return False
        rec = C(s).card(bound)
        if k == "karma_type":
            return rec["type"] == c["type"]
        if k == "karma_value":
            return CMP[c["cmp"]](rec["value"], c["k"])
        return rec["fails"]
    raise ValueError(f"unknown condition {k}")


# -- execution -------------------------------------------------------------------------------
def execute(t: Ctx, op: dict) -> None:
    kind = op["op"]
    if kind == "else":
        execute(t, op["first"] if possible(t, op["first"]) else op["second"])     # HER-INSTR-03/04
        return
    if kind not in WAITING_OPS:
        if kind not in ("if", "seq") and not possible(t, op):
            step(t)
            warn(t, f"instruction {kind} is not possible and is skipped")       # HER-AMB-08/10
            return
        step(t)
    HANDLERS[kind](t, op)


def actor_pc(t: Ctx):
    return top(t)["actor"]


def op_if(t, op):
    branch = op["then"] if cond(t, op["cond"]) else op["else"]           # HER-INSTR-05, HER-AMB-09
    push(t, branch, top(t)["self"], actor_pc(t))


def op_seq(t, op):
    push(t, op["body"], top(t)["self"], actor_pc(t))


def op_take(t, op):
    take_card(t, op["card"], actor_pc(t), dict(top(t)["vars"]))


def take_card(t: Ctx, number: int, actor, vars_=None) -> None:
    """HER-CARDS-02/03: take card N front up and apply its effects."""
    s = t.s
    rec = C(s).card(number)
    kind = rec["kind"]
    if kind == "terrain":
        place_terrain(t, number, None, 0)
        return
    if kind == "item":
        t.emit("CardTaken", card=number, zone="table")
        if actor is not None and not (vars_ or {}).get("allocate"):
            equip(t, actor, number)
        else:
            push(t, [{"op": "gainItem", "item": number, "recipient": "ALLOCATE"}], None, None)
        return
    reader = rec["front"].get("reader") if kind == "narrative" else None
    t.emit("CardTaken", card=number, zone="table", reader=reader,
           reader_seats=s["control"].get(reader, []) if reader else [])
    if kind != "narrative":
        return
    ops = list(rec["front"]["instructions"])
    if rec["front"]["npc"] is not None:
        ops.append({"op": "npcEnter", "npc": number})
    push(t, ops, number, actor, "card", vars_, track_face=True)


def leave_timeline(t: Ctx, number: int, zone: str = "table") -> None:
    """HER-CARDS-11, HER-NPC-10, HER-AMB-06: out of its slot; standees and stack leave too."""
    s = t.s
    if card_zone(s, number) == "timeline":
        for pos in s["timeline"]:
            if pos["card"] == number:
                for b in pos["below"]:
                    if b["card"] is not None:
                        t.emit("CardUnanchored", card=b["card"], zone="table")
        t.emit("CardUnanchored", card=number, zone=zone)
        remove_standees(t, number)


def remove_standees(t: Ctx, number: int) -> None:
    for i, _ in standees(t.s, number):
        t.emit("NpcStandeeRemoved", npc=number, standee=i)


def op_flip(t, op):
    flip_card(t, self_of(t, op["card"]), actor_pc(t))


def flip_card(t: Ctx, number: int, actor) -> None:
    """HER-CARDS-04/05/06, HER-TIMELINE-12/13."""
    s = t.s
    rec = C(s).card(number)
    new = "back" if face_side(s, number) == "front" else "front"
    if rec.get("back") is None:
        new = "front"
    if rec["kind"] == "terrain":
        flip_terrain(t, number, new)
        return
    leave_timeline(t, number)
    t.emit("CardFlipped", card=number, face=new)
    if rec["kind"] == "narrative":
        f = rec[new] if new == "front" else rec["back"]
        ops = list(f["instructions"])
        if f["npc"] is not None:
            ops.append({"op": "npcEnter", "npc": number})
        push(t, ops, number, actor, "card", track_face=True)


def op_burn(t, op):
    burn_card(t, self_of(t, op["card"]))


def burn_card(t: Ctx, number: int) -> None:
    """HER-CARDS-08/09."""
    s = t.s
    leave_timeline(t, number, "table")
    remove_standees(t, number)
    if C(s).card(number)["kind"] == "item":
        for pc, p in s["pcs"].items():
            for i, where in enumerate(p["tokens"]):
                if isinstance(where, str) and where.startswith(f"{number}."):
                    t.emit("TokenToMiddle", pc=pc, token=i)
    t.emit("CardBurned", card=number)


def op_anchor(t, op):
    """HER-ANCHOR-01..07: the position is fully determined by the search."""
    number = top(t)["self"]
    found = anchor_fact(t.s, number, op["colour"], op["vertical"])
    if card_zone(t.s, number) == "timeline":
        leave_timeline(t, number)
        found = anchor_fact(t.s, number, op["colour"], op["vertical"])
    t.turn.add(found)


def op_tokens(t, op):
    tgt = op["target"]
    sign = 1 if op["op"] == "addTokens" else -1
    if "area" in tgt:
        if op["kind"] == "materials":
            if sign > 0:
                t.emit("AreaMaterials", area=tgt["area"], delta=op["count"])
            else:
                remove_area_materials(t, tgt["area"], op["count"])
        return
    t.emit("CardTokens", card=self_of(t, tgt["card"]), kind=op["kind"], delta=sign * op["count"])


def remove_area_materials(t: Ctx, area: str, count: int) -> None:
    for raw, n in sorted(t.s["area_materials"].items()):
        if count and same_area(t.s, raw, area):
            k = min(n, count)
            t.emit("AreaMaterials", area=raw, delta=-k)
            count -= k


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
    """HER-NPC-02/03: place each standee; a full area sends it to the nearest non-full area."""
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
    """One Damage token for a PC: HER-DAMAGE-03..08, HER-INJURY-01..03, HER-DYING-03."""
    s = t.s
    pc = op["pc"]
    if is_dying(s, pc):
        step(t)
        t.emit("DamageDiscarded", pc=pc)
        return
    free = free_heart_slots(s, pc)
    revealed = top(t)["vars"].get("revealed")
    # One free heart slot takes the token at once: the slot a forced injury just revealed (HER-INJURY-03), or
    # any slot when no voluntary injury is possible (else the players may injure first, HER-INJURY-05/06).
    if len(free) == 1 and (free[0].split(".")[0] == str(revealed) or not injurable_cards(s, pc)):
        step(t)
        t.emit("DamagePlaced", pc=pc, slot=free[0])
    elif free:
        wait(t, "damage_slot", free, pc)
    else:
        fronts = [n for n in pc_cards(s, pc) if face_side(s, n) == "front"]
        if len(fronts) == 1:
            injure(t, pc, fronts[0])
        else:
            wait(t, "injury_card", fronts, pc)


def injure(t: Ctx, pc: str, card: int, voluntary: bool = False) -> None:
    """HER-INJURY-02: tokens on the card discarded (Action tokens to the middle), card flipped."""
    for i, where in enumerate(t.s["pcs"][pc]["tokens"]):
        if isinstance(where, str) and where.startswith(f"{card}."):
            t.emit("TokenToMiddle", pc=pc, token=i)
    t.emit("SevereInjury", pc=pc, card=card, voluntary=voluntary)
    if not voluntary:
        set_var(t, "revealed", card)           # the remaining Damage goes on the revealed slot (HER-INJURY-03)


def damage_npc(t: Ctx, npc: int, s_idx: int, amount: int) -> None:
    """HER-NPC-07/08, HER-DAMAGE-07, HER-AMB-32."""
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


def resolve_here(t: Ctx, area: str) -> str:
    return top(t)["vars"].get("here") if area.upper() == "HERE" else area


def op_gain_item(t, op):
    """HER-INV-01/03, HER-DECIDE-15."""
    s = t.s
    item = op["item"]
    rec = op["recipient"]
    if card_zone(s, item) == "deck":
        if not available(t, item):
            step(t)
            warn(t, f"item {item} is not available")
            return
        t.emit("CardTaken", card=item, zone="table")
    elif card_zone(s, item) != "table":
        step(t)
        return
    if rec.startswith("AREA:"):
        step(t)
        t.emit("ItemDropped", item=item, area=resolve_here(t, rec[5:]), ref=True)
        return
    pc = actor_pc(t) if rec == "ACTING_PC" and not top(t)["vars"].get("allocate") else (
        rec if rec in s["pcs"] else None)
    if pc is None:
        wait(t, "allocate_item", sorted(s["pcs"]), None, item=item)
        return
    step(t)
    equip(t, pc, item)


def op_gain_materials(t, op):
    s = t.s
    rec = op["recipient"]
    if rec.startswith("AREA:"):
        step(t)
        t.emit("AreaMaterials", area=resolve_here(t, rec[5:]), delta=op["count"])
        return
    pc = actor_pc(t) if rec == "ACTING_PC" and not top(t)["vars"].get("allocate") else (
        rec if rec in s["pcs"] else None)
    if pc is not None:
        step(t)
        t.emit("PcMaterials", pc=pc, delta=op["count"])
        return
    done = top(t)["vars"].get("allocated", 0)
    if done >= op["count"]:
        set_var(t, "allocated", 0)
        step(t)
        return
    wait(t, "allocate_materials", sorted(s["pcs"]), None, left=op["count"] - done)


def free_anchors(s: dict, pc: str, item: int) -> list[str]:
    """HER-ITEM-01 / HER-AMB-22: brown Items on right anchors, grey on left, matching symbol, one per anchor."""
    rec = C(s).card(item)
    side = "right" if rec["colour"] == "brown" else "left"
    symbol = face(s, item)["anchor"]
    used = {s["cards"][str(i)].get("anchor") for i in items_of(s, pc)}
    out = []
    for n in pc_cards(s, pc):
        for k, sym in enumerate(face(s, n)["anchors"][side]):
            key = f"{n}:{side}:{k}"
            if sym == symbol and key not in used:
                out.append(key)
    return out


def blocking_items(s: dict, pc: str, item: int) -> list[int]:
    """Items of the PC sitting on an anchor the new Item could use (HER-AMB-22)."""
    rec = C(s).card(item)
    side = "right" if rec["colour"] == "brown" else "left"
    symbol = face(s, item)["anchor"]
    out = []
    for held in items_of(s, pc):
        n, held_side, k = s["cards"][str(held)]["anchor"].split(":")
        if held_side == side and face(s, int(n))["anchors"][side][int(k)] == symbol:
            out.append(held)
    return out


def equip(t: Ctx, pc: str, item: int, anchor: str | None = None) -> None:
    s = t.s
    anchors = free_anchors(s, pc, item)
    if anchor is None:
        if not anchors:
            if blocking_items(s, pc, item) and s["pcs"][pc]["area"] is not None:
                # HER-AMB-22: the players may first drop a held Item (free) to make room
                push(t, [{"op": "overflowChoice", "item": item, "pc": pc}], None, pc)
                return
            t.emit("ItemDropped", item=item, area=s["pcs"][pc]["area"], ref=True)      # HER-AMB-22
            return
        if len(anchors) > 1:
            push(t, [{"op": "equipChoice", "item": item, "pc": pc}], None, pc)
            return
        anchor = anchors[0]
    t.emit("ItemEquipped", item=item, pc=pc, anchor=anchor)
    initialise(t, pc, item)


def initialise(t: Ctx, pc: str, item: int) -> None:
    """HER-ITEM-05, HER-AMB-24: first collection in the chapter."""
    if item in t.s["initialised"]:
        return
    t.emit("Initialised", item=item)
    push(t, list(face(t.s, item)["initialise"]), item, pc, "card")


def op_overflow_choice(t, op):
    options = [{"drop": i} for i in blocking_items(t.s, op["pc"], op["item"])] + [{"leave": op["item"]}]
    wait(t, "item_overflow", options, op["pc"], item=op["item"])


def op_equip_choice(t, op):
    anchors = free_anchors(t.s, op["pc"], op["item"])
    if len(anchors) < 2:                  # another Item took an anchor meanwhile (several Items picked up at once)
        equip(t, op["pc"], op["item"], anchors[0] if anchors else None)
        return
    wait(t, "item_anchor", anchors, op["pc"], item=op["item"])


def op_pay(t, op):
    t.emit("PcMaterials", pc=actor_pc(t), delta=-op["count"])


def op_place_materials(t, op):
    t.emit("AreaMaterials", area=resolve_here(t, op["area"]), delta=op["count"])


def op_place_terrain(t, op):
    place_terrain(t, op["terrain"], op.get("at"), op.get("level", 0))


def place_terrain(t: Ctx, number: int, at, level: int, pc_from: str | None = None) -> None:
    """HER-TERRAIN-01/09, HER-EXPLORE-05."""
    s = t.s
    rec = C(s).card(number)
    old = rec.get("replaces")
    if old is not None and str(old) in s["terrains"]:
        pos = s["terrains"][str(old)]
        t.emit("CardTaken", card=number, zone="terrain")
        t.emit("TerrainPlaced", terrain=number, x=pos["x"], y=pos["y"], level=pos.get("level", 0), replaces=old)
        mapping = rec["front"]["area_map"]
        regroup = rec["front"]["regroup"]
        relocate(t, old, number, lambda a: regroup or mapping.get(a, a))
        t.emit("CardBurned", card=old)
    else:
        x, y = at if at else rec.get("at", [len(s["terrains"]) * 3 + 20, 20])
        t.emit("CardTaken", card=number, zone="terrain")
        t.emit("TerrainPlaced", terrain=number, x=x, y=y, level=level, replaces=None)
    reveal(t, number)


def relocate(t: Ctx, old: int, new: int, mapping) -> None:
    """HER-TERRAIN-05/09/10: Characters and tokens keep their (mapped) areas."""
    s = t.s
    prefix = f"{old}:"

    def m(a):
        return f"{new}:{mapping(a[len(prefix):])}"
    for pc, p in s["pcs"].items():
        if p["area"] and p["area"].startswith(prefix):
            t.emit("PcMoved", pc=pc, area=m(p["area"]), reason="terrain")
    for n, i, a in npcs_on_terrain(s):
        if a.startswith(prefix):
            t.emit("NpcMoved", npc=n, standee=i, area=m(a), reason="terrain")
    for a, k in sorted(s["area_materials"].items()):
        if a.startswith(prefix) and m(a) != a:
            t.emit("AreaMaterials", area=a, delta=-k)
            t.emit("AreaMaterials", area=m(a), delta=k)
    for key, card in sorted(s["cards"].items()):
        if card.get("zone") == "area" and card["area"].startswith(prefix):
            t.emit("ItemDropped", item=int(key), area=m(card["area"]), ref=True)


def flip_terrain(t: Ctx, number: int, new: str) -> None:
    rec = C(t.s).card(number)
    f = rec[new] if new == "front" else rec["back"]
    t.emit("CardFlipped", card=number, face=new)
    regroup = f["regroup"]
    relocate(t, number, number, lambda a: regroup or f["area_map"].get(a, a))
    reveal(t, number)


def reveal(t: Ctx, number: int) -> None:
    """HER-TERRAIN-02/04/06, HER-SETUP-11: markers, Materials, start symbols of the visible face."""
    s = t.s
    side = face_side(s, number)
    f = face(s, number)
    markers = [f"{number}/{side}/{i}" for i, icon in enumerate(f["icons"]) if icon["kind"] in ("watch", "speak", "interact")]
    t.emit("MarkersSet", terrain=number, markers=markers)
    for icon in f["icons"]:
        if icon["kind"] == "materials":
            t.emit("AreaMaterials", area=f"{number}:{icon['area']}", delta=icon["count"])
        if icon["kind"] == "start" and s["pcs"].get(icon["pc"], {}).get("area", "x") is None:
            t.emit("PcMoved", pc=icon["pc"], area=f"{number}:{icon['area']}", reason="start")


def op_make_action(t, op):
    t.emit("ActionMade", card=top(t)["self"], action=op["action"])


def op_persistent(t, op):
    n = top(t)["self"]
    t.emit("ModifierAdded", card=n, face=face_side(t.s, n), modifier=op["modifier"])


def draw_karma(t: Ctx) -> int:
    """HER-KARMA-02/04, HER-COMBAT-07."""
    k = t.s["karma"]
    if not k["deck"]:
        order = t.rng.shuffled(k["discard"])
        t.emit("KarmaShuffled", order=order, random=True, private_to=[], public={"count": len(order)})
    card = t.s["karma"]["deck"][0]
    rec = C(t.s).card(card)
    t.emit("KarmaDrawn", card=card, name=rec["name"], value=rec["value"], fails=rec["fails"], random=True)
    return card


def op_draw_karma(t, op):
    card = draw_karma(t)
    if op.get("bind"):
        t.emit("Bound", var=op["bind"], card=card)


def op_karma_evolve(t, op):
    """HER-KARMA-06/07/08."""
    s = t.s
    new = op["card"]
    rec = C(s).card(new)
    t.emit("CardTaken", card=new, zone="karma")
    cards = s["karma"]["deck"] + s["karma"]["discard"]
    old = next((c for c in cards if C(s).card(c)["type"] == rec["type"]), None)
    rest = [c for c in cards if c != old] + [new]
    order = t.rng.shuffled(rest)
    t.emit("KarmaEvolved", new=new, old=old, order=order, random=True, private_to=[],
           public={"new": new, "old": old, "count": len(order)})
    if old is not None:
        t.emit("CardBurned", card=old)


def op_karma_effect(t, op):
    card = t.s["bind"][op["bind"]]
    push(t, list(C(t.s).card(card)["effect"]), top(t)["self"], actor_pc(t))


def attack_targets(s: dict, pc, rng) -> list[dict]:
    """NPC standees a PC can attack: same area (Melee, incl. HER-COMBAT-17) or within Range."""
    if pc is None or s["pcs"][pc]["area"] is None:
        return []
    area = s["pcs"][pc]["area"]
    b = board(C(s), s)
    out = []
    for n, i, a in npcs_on_terrain(s):
        if rng is None:
            ok = same_area(s, a, area) or (is_full(s, a) and b.step_colour(area, a) in ("white", "green", "red"))
        else:
            ok = b.in_range(area, a, rng)
        if ok:
            out.append({"npc": n, "s": i})
    return out


def op_attack(t, op):
    """A card action granting an attack (HER-RANGED-01); the target is in the frame vars."""
    target = top(t)["vars"].get("target")
    if target is None:
        return
    resolve_attack(t, [{"pc": actor_pc(t), "power": op["power"]}], target)


def resolve_attack(t: Ctx, attackers: list[dict], target: dict) -> None:
    """HER-COMBAT-07..16, HER-COMBINED-04..07, HER-NPC-05."""
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


def op_retrieve(t, op):
    t.emit("TokensRetrieved")                                                # HER-TIMELINE-07


def op_window(t, op):
    """HER-TIMELINE-08: opens the window; the end_window move steps past it."""
    if t.s["window"] is None:
        t.emit("WindowOpened", depth=len(t.s["stack"]))


def check_defeat(s: dict, family: bool = True) -> str | None:
    """The first fulfilled defeat condition: the Family card's (HER-TIMELINE-09, HER-DYING-06) when `family`,
    then those printed by the narrative cards in play (HER-TIMELINE-14)."""
    fam = C(s).card(C(s).family)["front"]
    if family and eval_static(s, fam["defeat"]):
        return "the Family card's Defeat condition is fulfilled"
    for key, card in s["cards"].items():
        rec = C(s).card(int(key))
        if card["zone"] in ("timeline", "table") and rec["kind"] == "narrative":
            d = face(s, int(key)).get("defeat")
            if d is not None and eval_static(s, d, int(key)):
                return f"the defeat condition of card {key} is fulfilled"
    return None


class _Static:
    def __init__(self, s, self_card):
        self.turn = type("T", (), {"state": s})()
        self.s = s
        self.self_card = self_card


def eval_static(s: dict, c: dict, self_card=None) -> bool:
    fake = Ctx(type("T", (), {"state": s})(), None)
    s_stack_backup = s["stack"]
    if self_card is not None:
        s["stack"] = s_stack_backup + [{"ops": [], "i": 0, "self": self_card, "actor": None, "face": None,
                                        "vars": {}, "kind": "probe"}]
    try:
        return cond(fake, c)
    finally:
        s["stack"] = s_stack_backup


def op_check_defeat(t, op):
    """HER-TIMELINE-09/14, HER-DYING-06, HER-AMB-40. The Family card's Defeat condition (a Dying PC dies) is
    checked where the Family card's Event section concludes: "The Event section of the Family card concludes
    by checking the 'Defeat condition'". The check after any other card's Event (a frame of kind "check")
    evaluates only the conditions printed by other cards, so a PC made Dying by an NPC can still be healed
    in the next action window ("as soon as a Damage token is removed ... they are no longer Dying")."""
    frame = top(t)
    reason = check_defeat(t.s, family=frame["kind"] != "check" or bool(frame["vars"].get("family")))
    if reason:
        t.emit("GameEnded", outcome="defeat", reason=reason)


def op_victory(t, op):
    t.emit("GameEnded", outcome="victory", reason=f"card {top(t)['self']}")


def op_defeat(t, op):
    t.emit("GameEnded", outcome="defeat", reason=f"card {top(t)['self']}")


def op_purple(t, op):
    """HER-COMP-01 / HER-AMB-43: the purple token joins a PC's tokens only when a card says so."""
    if op["pc"] in t.s["pcs"] and t.s.get("purple") != op["pc"]:
        t.emit("PurpleAssigned", pc=op["pc"])


def op_narrate(t, op):
    t.emit("Narrated", text=op["text"])


def op_run_event(t, op):
    ev = face(t.s, op["card"]).get("event")
    push(t, list(ev["ops"]) if ev else [], op["card"], None, "event", track_face=True)


# -- NPC AI -----------------------------------------------------------------------------------
from .ai import op_activate, op_ai_melee, op_ai_move, op_ai_ranged, op_ai_target  # noqa: E402

HANDLERS = {
    "if": op_if, "seq": op_seq, "take": op_take, "flip": op_flip, "burn": op_burn, "anchor": op_anchor,
    "addTokens": op_tokens, "removeTokens": op_tokens, "placeNpc": op_place_npc, "npcEnter": op_npc_enter,
    "setAttitude": op_attitude, "damage": op_damage, "hit": op_hit, "gainItem": op_gain_item,
    "gainMaterials": op_gain_materials, "payMaterials": op_pay, "placeMaterials": op_place_materials,
    "placeTerrain": op_place_terrain, "makeAction": op_make_action, "persistent": op_persistent,
    "drawKarma": op_draw_karma, "karmaEvolve": op_karma_evolve, "karmaEffect": op_karma_effect,
    "attack": op_attack, "retrieveActions": op_retrieve, "actionWindow": op_window,
    "checkDefeat": op_check_defeat, "victory": op_victory, "defeat": op_defeat, "narrate": op_narrate, "purple": op_purple,
    "runEvent": op_run_event, "burnDead": op_burn_dead, "equipChoice": op_equip_choice,
    "overflowChoice": op_overflow_choice,
    "activate": op_activate, "aiTarget": op_ai_target, "aiMove": op_ai_move, "aiMelee": op_ai_melee,
    "aiRanged": op_ai_ranged,
}
