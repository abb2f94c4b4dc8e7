"""The instruction interpreter's machinery (the resolver). Its call stack and instruction pointers live in the state.

`run(ctx)` executes instructions until the game ends, a decision is pending (a record in
`state["pending"]`), or the Family card's action window waits for the players. When the
stack is empty the Hourglass advances (HER-TIMELINE-03). Every change is a fact emitted
through the Turn, so replay never runs this module.

Frame: {"ops", "i", "self" (card being resolved), "actor" (acting PC), "face" (face of
`self` when the frame started: a frame whose card was flipped or burned is abandoned,
HER-AMB-07), "vars", "kind"}.

The instructions themselves are applied by `effects/` (their handlers fill `HANDLERS`).
"""

from __future__ import annotations

from domain.engine import Turn
from types import SimpleNamespace

from .evolve import evolve
from .state.queries import (
    C, card_zone, face_side, in_play, is_dying, is_hostile, items_of, npc_section, same_area, standees, tokens,
)
from .state.reach import attack_targets
from .state.timeline import anchor_fact, arrival_ops, next_position, restored


CMP = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


WAITING_OPS = {"damage", "hit", "aiTarget", "aiMove", "activate", "gainItem", "gainMaterials", "placeNpc", "actionWindow",
               "aiMelee", "aiRanged"}


#: op name -> handler(ctx, op); filled by `effects` (and the effects of the PCs' own moves).
HANDLERS: dict = {}
_FOLD = SimpleNamespace(evolve=evolve)


def new_turn(state: dict) -> Turn:
    """A Turn folding this game's facts onto a copy of `state`."""
    return Turn(_FOLD, state)


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
    t.emit("ResolverPushed", frame={"ops": ops, "i": 0, "self": self_card, "actor": actor, "face": f,
                               "vars": vars_ or {}, "kind": kind})


def top(t: Ctx) -> dict:
    return t.s["stack"][-1]


def step(t: Ctx) -> None:
    t.emit("ResolverStepped")


def set_var(t: Ctx, key: str, value, depth: int | None = None) -> None:
    t.emit("ResolverVarSet", depth=len(t.s["stack"]) - 1 if depth is None else depth, key=key, value=value)


def wait(t: Ctx, kind: str, options: list, pc: str | None = None, **extra) -> None:
    t.emit("PendingPushed", pending={"kind": kind, "options": options, "pc": pc, **extra})


def warn(t: Ctx, detail: str) -> None:
    t.emit("Warning", detail=detail)


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
            t.emit("ResolverPopped")                                  # HER-AMB-07
            continue
        if frame["i"] >= len(frame["ops"]):
            t.emit("ResolverPopped")
            continue
        execute(t, frame["ops"][frame["i"]])
    raise RuntimeError("heredity interpreter did not settle")


def advance(t: Ctx) -> None:
    """HER-TIMELINE-03, HER-TIMELINE-04, HER-RESTORE-01, HER-RESTORE-02, HER-RESTORE-03."""
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
        t.emit("ResolverPushed", frame={"ops": [{"op": "checkDefeat"}], "i": 0, "self": None, "actor": None,
                                   "face": None, "vars": {"family": True} if family else {}, "kind": "check"})
    push(t, ops, host, None, "event", track_face=True)


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
        # HER-ITEM-18: an Item is flipped only by an upgrade
        return C(s).card(n)["kind"] != "item" or bool(top(t)["vars"].get("upgrade"))
    if kind == "burn":
        n = self_of(t, op["card"])
        return n is not None and card_zone(s, n) != "burned"
    if kind == "anchor":
        n = top(t)["self"]
        return n is not None and anchor_fact(s, n, op["colour"], op["vertical"]) is not None
    if kind == "addTokens":
        limit = C(s).special.get(op["kind"])
        # HER-COMP-02: standard tokens are unlimited
        if limit is None:
            return True
        used = sum(c.get("tokens", {}).get(op["kind"], 0) for c in s["cards"].values())
        return used + op["count"] <= limit          # HER-COMP-03; an Initialise needing it is skipped (HER-ITEM-08)
    # HER-INSTR-06: removing a token is possible only when there is one
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


# HER-INSTR-01, HER-INSTR-02: instructions apply in order; a taken card's frame is resolved before the next;
# HER-INSTR-14: ANCHOR ELSE BURN is an `else`
def execute(t: Ctx, op: dict) -> None:
    kind = op["op"]
    if kind == "else":
        execute(t, op["first"] if possible(t, op["first"]) else op["second"])     # HER-INSTR-03, HER-INSTR-04
        return
    if kind not in WAITING_OPS:
        if kind not in ("if", "seq") and not possible(t, op):
            step(t)
            warn(t, f"instruction {kind} is not possible and is skipped")       # HER-AMB-08, HER-AMB-10
            return
        step(t)
    HANDLERS[kind](t, op)


def actor_pc(t: Ctx):
    return top(t)["actor"]


def resolve_here(t: Ctx, area: str) -> str:
    return top(t)["vars"].get("here") if area.upper() == "HERE" else area
