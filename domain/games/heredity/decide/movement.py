"""Move and Explore (HER-MOVE-01, HER-EXPLORE-02, ...).
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .common import check_pc, check_slot, check_window, place_token, token_index
from ..resolver import push
from ..effects.movement import explore
from ..state.board import board
from ..state.queries import available_tokens, C, is_full, pc_slots, same_area
from ..state.reach import explore_options


def check_move(s: dict, seat: int, move: dict) -> tuple:
    """HER-MOVE-01, HER-MOVE-02, HER-MOVE-03, HER-MOVE-04, HER-MOVE-05, HER-MOVE-06, HER-MOVE-07, HER-AREA-02,
    HER-AREA-03, HER-AREA-04, HER-AREA-05, HER-AREA-06, HER-LEVEL-02."""
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
    push(t, ops, None, pc, "action")


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
