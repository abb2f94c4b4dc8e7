"""The resolver's machinery: an agenda (a stack of pending work items in the flow record) processed until
a player must choose, and the objective check after every resolved step.

Agenda items (the last one is on top):
  {"k": "choice", ...}  waits for {"type": "choose", "option": <one of its options>}  (answered by `answer`)
  {"k": "phase", "name": "ws6"|"adv"|"endopt"}  waits for a phase move (moves.py lists them, decide.py plays them)
  anything else is resolved automatically by `run`: a turn step of flow.STEPS or an item of effects.HANDLERS.
What the items do lives in `effects` (content effects, actions, choices) and `flow` (the turn's steps).
"""

from __future__ import annotations

from domain.engine import IllegalMove

from . import content as C
from . import state as S
from .state import HAND_SOURCES, choice_options as options


class Ctx:
    """One decide call: the Turn (working state + facts), the flow record, the rng and the actor."""

    def __init__(self, turn, rng, actor):
        self.turn = turn
        self.rng = rng
        self.actor = actor
        self.fl = turn.state["flow"]
        top = self.fl["agenda"][-1] if self.fl["agenda"] else None
        self.owed = top if top is not None and top["k"] == "choice" else None   # owed when this decide began

    @property
    def st(self):
        return self.turn.state

    def p(self, seat):
        return self.turn.state["players"][seat]

    def emit(self, type_, **data):
        return self.turn.emit(type_, **data)

    def push(self, item):
        self.fl["agenda"].append(item)

    def commit(self):
        """The template's pending-decision facts (domain/games/README.md): `ResolverSaved` (the flow record
        without the choice owed now: the turn's state and the agenda of work left once it is made), then
        `PendingPushed` (the choice now owed, the agenda's top) when one is newly owed; `PendingResolved` was
        emitted by `answer`. A choice owed before and still owed (an out-of-turn deferred Build, which
        never waits, R-3) stays: `keeps_pending`. Games stored before issue 18 hold the whole record,
        owed choice included, in `Flow` facts; evolve folds them forever.

        Public: the flow record is bookkeeping every seat may see (whose turn, which phase, the options of a
        pending choice). A choice among the chooser's own cards keeps only where its options come from
        (`from`, see HAND_SOURCES), so no card of a hand is ever written here."""
        fl = self.fl
        agenda = fl["agenda"]
        top = agenda[-1] if agenda and agenda[-1]["k"] == "choice" else None
        saved = dict(fl, agenda=agenda[:-1]) if top is not None else fl
        if self.owed is not None and top is self.owed:
            self.turn.emit("ResolverSaved", flow=saved, keeps_pending=True)
            return self.turn.facts
        if self.owed is not None:           # defensive: the owed choice is no longer on top (never seen)
            self.turn.emit("PendingResolved", seat=self.owed["s"], kind=self.owed["kind"], withdrawn=True)
        self.turn.emit("ResolverSaved", flow=saved)
        if top is not None:
            self.turn.emit("PendingPushed", seat=top["s"], pending=top)
        return self.turn.facts


def ask(ctx, seat, kind, opts, rule, data=None, optional=False, source=None):
    """Push a choice; resolve it at once when there is exactly one mandatory option.

    `source` names a HAND_SOURCES entry instead of `opts` for a choice among the chooser's own cards."""
    if source is not None:
        opts = HAND_SOURCES[source](ctx.p(seat))
    if not opts:
        return
    if seat != ctx.fl["seat"] and not optional:      # out-of-turn Build consequences: first option (RULINGS)
        opts = opts[:1]
    if len(opts) == 1 and not optional:
        choice(kind)(ctx, {"kind": kind, "s": seat, "d": data or {}}, opts[0])
        return
    item = {"k": "choice", "kind": kind, "s": seat, "rule": rule, "d": data or {}, "optional": optional}
    if source is None:
        item["opts"] = opts
    else:
        item["from"] = source
    ctx.push(item)


def refusal_rule(state, item, pick):
    """The rule a refused pick breaks: the choice's own rule, or a more precise one."""
    if item["kind"] == "lecture" and isinstance(pick, dict) and pick.get("inst") in C.INSTITUTIONS:
        level = pick.get("level")
        if level == 1 or (level in (2, 3, 4, 5, 6) and state["lect"][pick["inst"]][level - 2]):
            return "ADA-INSTITUTION-03"   # level 1, or a Lecture space that already holds a disc
    if item["kind"] == "meeting" and isinstance(pick, dict) and any(
            o["room"] == pick.get("room") and o["pay"] == pick.get("pay") for o in item.get("opts", [])):
        return "ADA-MEETING-05"          # the room can be paid for: the card slot is to its left or empty
    if item["kind"] in ("pub_stack", "stack") and isinstance(pick, list) and pick[:1] == ["obj"]:
        return "ADA-PUBLISH-04"          # never on an Objective disc (ADA-AMB-20, ADA-AMB-63)
    return item["rule"]


def answer(ctx, seat, pick):
    item = ctx.fl["agenda"][-1]
    if pick is None and item["optional"]:
        resolved(ctx, seat, item)
        return
    opts = options(ctx.st, item)
    if pick not in opts:
        raise IllegalMove(refusal_rule(ctx.st, item, pick), f"{pick!r} is not one of the allowed choices for {item['kind']}")
    pick = opts[opts.index(pick)]                          # the canonical option (no 1.0 / true for 1)
    resolved(ctx, seat, item)
    choice(item["kind"])(ctx, item, pick)


def resolved(ctx, seat, item):
    """The owed choice was made: `PendingResolved` takes it off the agenda (evolve pops the top). It names
    the kind only; the option is in the move, listed whole for every viewer (view.view_move)."""
    assert ctx.fl is ctx.turn.state["flow"] and ctx.fl["agenda"][-1] is item
    ctx.emit("PendingResolved", seat=seat, kind=item["kind"])
    ctx.owed = None


def run(ctx):
    """Resolve automatic items until a choice or phase is on top (or the agenda is empty)."""
    while True:
        claim_objectives(ctx)
        agenda = ctx.fl["agenda"]
        if not agenda or ctx.st["over"]:
            return
        item = agenda[-1]
        if item["k"] in ("choice", "phase"):
            return
        agenda.pop()
        handler(item["k"])(ctx, item)


def place(ctx, seat, loc):
    ctx.push({"k": "place", "s": seat, "loc": loc})


def eff(ctx, seat, effect):
    ctx.push({"k": "eff", "s": seat, "e": effect})


def claim_objectives(ctx):
    """ADA-OBJECTIVE-02, ADA-OBJECTIVE-06, ADA-AMB-40, ADA-AMB-42: the actor claims every newly met Objective at once."""
    seat = ctx.actor
    if seat is None or ctx.st["over"]:
        return
    if ctx.fl.get("gaining") and seat == ctx.fl["seat"]:
        return                                        # the active player's Partner gain resolves fully first (ADA-PARTNER-02)
    claiming = ctx.fl.setdefault("claiming", [])
    for area in C.AREAS:
        if area in claiming or any(c["seat"] == seat for c in ctx.st["obj"][area]):
            continue
        cond = C.OBJECTIVES[ctx.st["objectives"][area]]["condition"]
        if not S.condition_met(ctx.st, seat, cond):
            continue
        p = ctx.p(seat)
        if not any(p["covered"]) and not any(
                S.condition_met(S.without_disc(ctx.st, seat, m), seat, cond) for m in S.movable_discs(ctx.st, seat)):
            continue
        claiming.append(area)
        ctx.push({"k": "place", "s": seat, "loc": ["obj", area]})


def handler(kind):
    """The function resolving an automatic agenda item of kind `kind`: a turn step or an effect's item."""
    from . import effects, flow        # defined over this machinery (they import it), so looked up at call time
    return flow.STEPS.get(kind) or effects.HANDLERS[kind]


def choice(kind):
    """What answering a choice of kind `kind` does."""
    from . import effects
    return effects.CHOICES[kind]
