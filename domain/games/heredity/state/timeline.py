"""The Timeline: positions, anchoring search, restoring gaps, and the events of an arrival.

A Timeline is a list of positions (pos0 = the Family card). Each position has a
horizontal slot colour, the card in it (or None) and a vertical stack of slots
(HER-AMB-01). Anchoring searches from the Hourglass position inclusive to the end, then
from pos0 up to the Hourglass (HER-ANCHOR-03, HER-ANCHOR-04, HER-AMB-02).
"""

from __future__ import annotations

from .queries import face


def find_slot(state: dict, colour: str, vertical: bool) -> tuple[int, int | None] | None:
    """(position, stack index or None) of the first free matching slot, or None (HER-ANCHOR-05)."""
    line = state["timeline"]
    h = state["hourglass"]
    order = list(range(h, len(line))) + list(range(0, h))
    for p in order:
        pos = line[p]
        if not vertical:
            if pos["card"] is None and pos["colour"] == colour:
                return p, None
        elif pos["card"] is not None:
            for k, slot in enumerate(pos["below"]):
                if slot["card"] is None and slot["colour"] == colour:
                    return p, k
    return None


def anchor_fact(state: dict, card: int, colour: str, vertical: bool) -> dict | None:
    found = find_slot(state, colour, vertical)
    if found is None:
        return None
    p, k = found
    blocks = face(state, card).get("blocks", [])
    stack = [b["colour"] for b in blocks if b["direction"] == "below"] if k is None else []
    right = [b["colour"] for b in blocks if b["direction"] == "right"]
    new_end = None
    if k is None and p == len(state["timeline"]) - 1 and right:
        new_end = right[0]
    return {"type": "CardAnchored", "card": card, "pos": p, "below": k, "stack": stack, "new_end": new_end}


# HER-TIMELINE-10, HER-NPC-11: the Hourglass stops only on Timeline cards
def next_position(state: dict) -> int:
    """HER-TIMELINE-03, HER-TIMELINE-04, HER-AMB-04: next position to the right holding a card, else pos0."""
    line = state["timeline"]
    for p in range(state["hourglass"] + 1, len(line)):
        if line[p]["card"] is not None:
            return p
    return 0


# HER-RESTORE-04: called only when the Hourglass moves, so a gap persists until then
def restored(state: dict) -> tuple[list, int] | None:
    """HER-RESTORE-01, HER-RESTORE-02: close every gap (an empty position with a card to its right)."""
    line = state["timeline"]
    last = max((p for p, pos in enumerate(line) if pos["card"] is not None), default=0)
    gaps = [p for p in range(1, last) if line[p]["card"] is None]
    if not gaps:
        return None
    new_line = [pos for p, pos in enumerate(line) if p not in gaps]
    h = state["hourglass"] - sum(1 for g in gaps if g < state["hourglass"])
    return new_line, h


# HER-TIMELINE-05, HER-NARRATIVE-04, HER-TIMELINE-06: only the Event section runs on arrival (none: nothing happens)
def arrival_ops(state: dict, pos: int) -> list:
    """The Event section of the card the Hourglass moved onto, with its vertical stack
    (HER-TIMELINE-11, HER-AMB-06). The defeat check that follows (HER-TIMELINE-14) runs in its
    own frame, so it happens even when the card flips or burns itself."""
    host = state["timeline"][pos]["card"]
    f = face(state, host)
    ops: list = []
    if f.get("npc") is not None:
        ops.append({"op": "activate", "npc": host})            # HER-AI-01
    steps = list(f["event"]["ops"]) if f.get("event") else []
    stacked = [b["card"] for b in state["timeline"][pos]["below"] if b["card"] is not None]
    before: dict[int, list] = {}
    after: dict[int, list] = {}
    tail: list = []
    for v in stacked:
        trig = (face(state, v).get("event") or {}).get("trigger") or {"when": "onHostEvent"}
        run = {"op": "runEvent", "card": v}
        if trig["when"] == "beforeHostStep":
            before.setdefault(trig.get("step", 1), []).append(run)
        elif trig["when"] == "afterHostStep":
            after.setdefault(trig.get("step", 1), []).append(run)
        elif trig["when"] == "onCondition":
            tail.append({"op": "if", "cond": trig["cond"], "then": [run], "else": []})
        else:
            tail.append(run)
    for n, step in enumerate(steps, start=1):
        ops += before.get(n, [])
        ops.append(step)
        ops += after.get(n, [])
    ops += tail
    return ops
