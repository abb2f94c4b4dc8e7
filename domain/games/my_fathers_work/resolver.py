"""The resolution machinery: a queue of small operations, all data.

Every automatic consequence (an effect, an Insanity step, a build, a flow step) is an `op`
record in a queue processed front-first. When an op needs a player's choice it records a
pending decision (fact `PendingPushed`, which stores the pending record, and `ResolverSaved`, the rest of
the queue: the resolver's continuation) and processing stops; the answer (`choose` / `commit` move) resumes the saved queue.
So no code is ever suspended: the state alone says what happens next. What each op does lives
in effects/ (content effects, tracks, builds, events, placements) and flow.py (rounds, Generations); they
register their handlers in the three tables below.
"""

from __future__ import annotations

from domain.engine import Turn

from . import state as Q

#: op name -> handler(ctx, op); answer kind -> handler(ctx, pending, option); simultaneous step -> handler.
OPS: dict = {}
ANSWERS: dict = {}
SIM_DONE: dict = {}


class Ctx:
    __slots__ = ("turn", "rng", "queue")

    def __init__(self, turn: Turn, rng, queue=None):
        self.turn = turn
        self.rng = rng
        self.queue = list(queue or [])

    @property
    def s(self) -> dict:
        return self.turn.state

    def emit(self, type_, **kw):
        return self.turn.emit(type_, **kw)

    def push(self, *ops):
        """Put ops at the front of the queue (they run next, in the given order)."""
        self.queue[0:0] = list(ops)

    def later(self, *ops):
        self.queue.extend(ops)


def run(ctx: Ctx) -> None:
    while ctx.queue and ctx.s["pending"] is None and not ctx.s["over"]:
        op = ctx.queue.pop(0)
        OPS[op["op"]](ctx, op)


def eff_ops(seat, effects, **extra) -> list[dict]:
    return [{"op": "eff", "seat": seat, "eff": e, **extra} for e in effects]


def ask(ctx: Ctx, seat: int, kind: str, options: list, *, secret: bool = False, auto: bool = True, **data) -> None:
    """Record a pending choice; a single option is taken at once (no decision to make)."""
    pending = {"seat": seat, "kind": kind, "options": options, "secret": secret, **data}
    if auto and len(options) == 1:
        ANSWERS[kind](ctx, pending, options[0])
        return
    save_queue(ctx)
    if secret:
        ctx.emit("PendingPushed", pending=pending, private_to=[seat],
                 public={"pending": {"seat": seat, "kind": kind, "secret": True,  # MFW-HIDDEN-13: the option
                                     **({} if kind == "event_choice" else {"count": len(options)})}})  # count names no event
    else:
        ctx.emit("PendingPushed", pending=pending)


def save_queue(ctx: Ctx) -> None:
    """The rest of the work waits in the state; nobody sees it (it may name hidden cards)."""
    ctx.emit("ResolverSaved", queue=ctx.queue, private_to=[], public={"count": len(ctx.queue)})
    ctx.queue = []


def ask_all(ctx: Ctx, step: str, options: dict, *, secret: bool = True, **data) -> None:
    """A simultaneous step (MFW-AMB-37): seats with a real choice commit hidden; forced ones are
    committed automatically. `options` maps seat -> list of options (empty: not involved)."""
    commits = {str(s): opts[0] for s, opts in options.items() if len(opts) == 1}
    waiting = [s for s in Q.seat_order(ctx.s) if len(options.get(s, [])) > 1]
    if not waiting:
        SIM_DONE[step](ctx, commits, data)
        return
    pending = {"kind": "sim", "step": step, "waiting": waiting, "secret": secret, "forced": commits,
               "options": {str(s): o for s, o in options.items()}, **data}
    save_queue(ctx)
    ctx.emit("PendingPushed", pending=pending, private_to=[],
             public={"pending": {"kind": "sim", "step": step, "waiting": waiting, "secret": True}})
