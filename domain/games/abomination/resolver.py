"""The resolution machinery: content effects and internal steps run from a queue.

A queue item is ``[seat, effect]``. When an effect needs a player's choice, a pending-decision
record is pushed (fact `PendingPushed`) holding the rest of the queue; the matching move pops it
and resumes the queue. What each effect does lives in effects.py; the round's internal steps
("_" ops) in flow.py.
"""

from __future__ import annotations

# ---------------------------------------------------------------- queue
def run(turn, queue):
    """Run queue items until empty or suspended on a pending decision. Returns True if suspended."""
    from . import flow  # internal steps of the round live in flow
    from .effects import apply, cap_step, icon_step
    while queue:
        seat, eff = queue.pop(0)
        op = eff["op"]
        if op == "_icon":
            if icon_step(turn, seat, eff, queue):
                return True
        elif op == "_cap":
            if cap_step(turn, seat, queue):
                return True
        elif op == "_vp":
            turn.emit("Vp", seat=seat, n=eff["n"], why=eff["why"])
        elif op == "_advanceRoll":
            from .effects import advance_roll
            advance_roll(turn, seat)
        elif op.startswith("_"):
            if flow.internal(turn, seat, eff, queue):
                return True
        elif apply(turn, seat, eff, queue):
            return True
        flow.after_effect(turn)
    return False


def push(turn, record, queue):
    record["rest"] = list(queue)
    queue.clear()
    public = {k: v for k, v in record.items() if k not in ("rest", "cards", "card", "entry")}
    if "cards" in record and cards_are_public(record):
        public["cards"] = list(record["cards"])
    turn.emit("PendingPushed", record=record, private_to=[], public={"record": public})
    return True


def cards_are_public(record):
    """The cards a pending decision offers are face up (a display, the Morgue deck's top, the Hospital pile's
    top) unless they come from the top of a face-down deck (H-02)."""
    return record.get("source") != "deck" or record.get("deck") == "morgue"


def items(seat, effects):
    return [[seat, e] for e in effects]
