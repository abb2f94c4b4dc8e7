"""The automatic agenda items of effects (HANDLERS[k](ctx, item)): resolved without a player's answer."""

from __future__ import annotations

from .. import content as C
from .. import state as S
from ..resolver import ask
from .icons import resolve
from .primitives import _resolve_loc, draw, research_point, slide_refill, study_item, study_item_kinds, take_from_display


def h_eff(ctx, item):
    resolve(ctx, item["s"], item["e"], item)


def h_research(ctx, item):
    research_point(ctx, item["s"], item["c"])


def h_research_any(ctx, item):
    p = ctx.p(item["s"])
    ask(ctx, item["s"], "track", [c for c in C.COLOURS if p["research"][c] < C.RESEARCH[c]["top"]], "ADA-RESEARCH-08")


def h_place(ctx, item):
    """ADA-DISC-01, ADA-DISC-03, ADA-DISC-04, ADA-DISC-05, ADA-AMB-18, ADA-AMB-19."""
    seat, loc = item["s"], item["loc"]
    if _resolve_loc(ctx, loc) is None:
        return
    covered = S.board_discs(ctx.p(seat))
    if covered:
        ask(ctx, seat, "disc_src", covered, "ADA-DISC-03", {"loc": loc})
        return
    movable = [m for m in S.movable_discs(ctx.st, seat) if m[:len(loc)] != loc]
    if loc[0] == "obj":
        cond = C.OBJECTIVES[ctx.st["objectives"][loc[1]]]["condition"]
        movable = [m for m in movable if S.condition_met(S.without_disc(ctx.st, seat, m), seat, cond)]
        if not movable:
            ctx.fl["claiming"].remove(loc[1])
    # ADA-DISC-04, RULINGS R-13: with no disc left on the board the player "may choose to move one disc"
    # (rulebook): the move may be declined (option null), and then no disc is placed; a declined Objective
    # claim stays in `claiming` for the rest of the turn (offered again on a later turn). An out-of-turn
    # Build's consequences never wait for an answer, so there the move is made.
    ask(ctx, seat, "disc_move", movable, "ADA-DISC-05" if loc[0] == "obj" else "ADA-DISC-04", {"loc": loc},
        optional=not ctx.fl.get("building"))


def h_refill(ctx, item):
    slide_refill(ctx, item["d"], ctx.st["displays"][item["d"]])


def h_file(ctx, item):
    colours = C.ASSIGNMENTS[item["card"]]["colours"] or list(C.COLOURS)
    ask(ctx, item["s"], "column", list(colours), "ADA-ASSIGN-03" if len(colours) == 1 else "ADA-ASSIGN-04",
        {"card": item["card"]})


def h_discard(ctx, item):
    ask(ctx, item["s"], "discard", None, item["rule"], source="hand")


def h_remove(ctx, item):
    ask(ctx, item["s"], "remove", None, "ADA-PARTNER-03", source="hand+discard")


def h_draw(ctx, item):
    draw(ctx, item["s"], item["n"])


def h_meet_gain(ctx, item):
    seat = item["s"]
    card = ctx.st["displays"]["meet"][item["slot"]]
    ctx.emit("PartnerGained", seat=seat, card=card, slot=item["slot"])
    ctx.fl["gaining"] = True
    take_from_display(ctx, "meet", item["slot"], True)


def h_ask(ctx, item):
    ask(ctx, item["s"], item["kind"], item["opts"], item["rule"])


def h_study_item(ctx, item):
    study_item(ctx, item["s"], item["kind"])


def h_pub_adv(ctx, item):
    ask(ctx, item["s"], "pub_adv", ["advanced"], "ADA-PUBLISH-06", {"area": item["area"], "ref": item["ref"]},
        optional=True)


def h_study_main(ctx, item):
    ask(ctx, item["s"], "study_main", study_item_kinds(ctx, item["s"]), "ADA-STUDY-01")


HANDLERS = {
    "eff": h_eff, "research": h_research, "research_any": h_research_any, "place": h_place, "refill": h_refill,
    "file": h_file, "discard": h_discard, "remove": h_remove, "draw": h_draw, "meet_gain": h_meet_gain,
    "ask": h_ask, "study_item": h_study_item, "pub_adv": h_pub_adv, "study_main": h_study_main,
}
