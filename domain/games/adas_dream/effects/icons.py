"""The effect language of the content (catalog 3.1): `resolve` walks an effect, OPS holds one function per icon."""

from __future__ import annotations

from .. import content as C
from .. import state as S
from ..resolver import ask, eff
from .primitives import (adjust_options, draw, gain, gain_innovation, gear_swap_targets, research_any,
                         small_cities_within, steam_advance, study_item, study_item_kinds, workshop_reward)


def resolve(ctx, seat, e, item):
    """ADA-PARTNER-15, ADA-RESOURCE-02, ADA-INNOV-03: an effect's parts; a cost is paid in full or the effect does
    not happen."""
    if "all" in e:
        for part in reversed(e["all"]):
            eff(ctx, seat, part)
        return
    if "choose" in e:
        opts = [k for k in range(len(e["choose"])) if k not in item.get("chosen", [])]
        ask(ctx, seat, "choose", opts, "ADA-ICON-43",
            {"e": e, "left": item.get("left", e["count"]), "chosen": item.get("chosen", [])})
        return
    if "cost" in e:
        p = ctx.p(seat)
        need = {}
        for part in e["cost"]:
            key = "innov" if part["op"] == "payInnovation" else part["resource"]
            need[key] = need.get(key, 0) + part.get("amount", part.get("n", 0))
        if all(p[k] >= v for k, v in need.items()):                    # ADA-ICON-10, ADA-ICON-11
            ctx.emit("Resources", seat=seat, delta={k: -v for k, v in need.items()})
            eff(ctx, seat, e["then"])
        return
    OPS[e["op"]](ctx, seat, e)


def op_gain(ctx, seat, e):
    """ADA-ICON-01, ADA-RESOURCE-03: the supply never runs out."""
    gain(ctx, seat, **{e["resource"]: e["amount"]})


def op_pay(ctx, seat, e):
    """ADA-RESOURCE-02: paid in that resource only; more than the holding is not paid."""
    if ctx.p(seat)[e["resource"]] >= e["amount"]:
        gain(ctx, seat, **{e["resource"]: -e["amount"]})


def op_pay_innov(ctx, seat, e):
    """ADA-INNOV-03, ADA-INNOV-06."""
    if ctx.p(seat)["innov"] >= e["n"]:
        gain(ctx, seat, innov=-e["n"])


def op_research(ctx, seat, e):
    """ADA-ICON-03, ADA-ICON-39: any track, or the colour shown."""
    if e["track"] == "any":
        research_any(ctx, seat, e["n"])
    else:
        for _ in range(e["n"]):
            ctx.push({"k": "research", "s": seat, "c": e["track"]})


def op_workshop_reward(ctx, seat, e):
    if "reward" in e:
        workshop_reward(ctx, seat, e["reward"])
    else:
        ask(ctx, seat, "workshop_reward", list(C.WORKSHOP_REWARDS), "ADA-ICON-05")


def op_study_item(ctx, seat, e):
    """ADA-ICON-09."""
    if e["kind"] == "any":
        ask(ctx, seat, "study_any", study_item_kinds(ctx, seat), "ADA-STUDY-10")
    else:
        study_item(ctx, seat, e["kind"])


def op_play_free(ctx, seat, e):
    """ADA-ICON-12."""
    ask(ctx, seat, "play_free", None, "ADA-PARTNER-14", source="hand")


def op_gain_partner(ctx, seat, e):
    slots = [k for k, c in enumerate(ctx.st["displays"]["meet"]) if c]
    ask(ctx, seat, "gain_partner", slots, "ADA-ICON-13")


def _recursive(effect):
    if "all" in effect or "choose" in effect:
        return any(_recursive(x) for x in effect.get("all", effect.get("choose", [])))
    if "cost" in effect:
        return _recursive(effect["then"])
    return effect.get("op") == "usePartnerFromDisplay"


def op_use_partner(ctx, seat, e):
    cards = [c for c in ctx.st["displays"]["meet"] if c and not _recursive(C.partner(c)["effect"])]
    ask(ctx, seat, "use_partner", cards, "ADA-ICON-14")


def op_per_card(ctx, seat, e):
    """ADA-ICON-15: counted when it resolves."""
    for _ in range(len(ctx.p(seat)["hand"])):
        eff(ctx, seat, e["reward"])


def op_swap_gear(ctx, seat, e):
    ask(ctx, seat, "swap_gear", gear_swap_targets(ctx.p(seat)), "ADA-ICON-20")


def op_gain_multiplier(ctx, seat, e):
    """ADA-ICON-17."""
    ask(ctx, seat, "multiplier", [k for k, m in enumerate(ctx.st["displays"]["mult"]) if m], "ADA-GEAR-04")


def op_build(ctx, seat, e):
    """ADA-ICON-18, ADA-BUILD-06, ADA-GEAR-06: an effect's Build leaves the end-of-turn option alone."""
    ask(ctx, seat, "build", S.build_options(ctx.st, seat), "ADA-BUILD-02")


def op_build_free(ctx, seat, e):
    """ADA-ICON-19."""
    ask(ctx, seat, "build", S.build_options(ctx.st, seat, free_addition=True), "ADA-BUILD-07", {"free": True})


def op_small_city(ctx, seat, e):
    """ADA-ICON-21, ADA-ICON-22, ADA-TRAVEL-10: maxDistance 1 or 2, Universities skipped."""
    ask(ctx, seat, "small_city", small_cities_within(ctx, seat, e["maxDistance"]), "ADA-ICON-21")


def op_nearest_uni(ctx, seat, e):
    here = ctx.p(seat)["city"]
    cands = [c for c in S.uni_without_own(ctx.st, seat) if c != here]
    if not cands or not S.can_place_disc(ctx.st, seat):
        return
    best = min(C.STEPS[here][c] for c in cands)
    ask(ctx, seat, "nearest_uni", sorted(c for c in cands if C.STEPS[here][c] == best), "ADA-ICON-23")


def op_stack(ctx, seat, e):
    if any(ctx.p(seat)["covered"]):                                    # ADA-AMB-63
        ask(ctx, seat, "stack", S.stack_targets(ctx.st, seat), "ADA-ICON-24")


def _icon_place(ctx, seat, kind, opts, rule):
    if any(ctx.p(seat)["covered"]):                                    # icon placements: ADA-AMB-19
        ask(ctx, seat, kind, opts, rule)


def op_meeting_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["room", r] for r in range(4) if S.room_next_space(ctx.st, r) is not None],
                "ADA-ICON-25")


def op_university_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["univ", c] for c in S.uni_without_own(ctx.st, seat)], "ADA-ICON-26")


def op_lecture_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["lect", i, lv] for i, lv in S.empty_lectures(ctx.st)], "ADA-ICON-27")


def op_move_disc(ctx, seat, e):
    ask(ctx, seat, "move_src", S.movable_discs(ctx.st, seat), "ADA-ICON-28")


def op_remove_disc(ctx, seat, e):
    ask(ctx, seat, "box", S.board_discs(ctx.p(seat)), "ADA-ICON-29")


def op_move_uni(ctx, seat, e):
    srcs = [c for c in C.UNIVERSITY_CITIES if seat in ctx.st["univ"].get(c, [])]
    if S.uni_without_own(ctx.st, seat):
        ask(ctx, seat, "umove_src", srcs, "ADA-ICON-30")


def op_per_disc(ctx, seat, e):
    """ADA-ICON-31: stacked discs each count."""
    n = sum(stack.count(seat) for stack in ctx.st["univ"].values())
    n += sum(d.count(seat) for levels in ctx.st["lect"].values() for d in levels)
    for _ in range(n):
        eff(ctx, seat, e["reward"])


def op_carry_out(ctx, seat, e):
    """ADA-ICON-32: the action without its cost; its rewards only with the tick (rewards=true)."""
    action, rewards = e["action"], e["rewards"]
    if action == "travel":
        here = ctx.p(seat)["city"]
        ask(ctx, seat, "carry_travel", sorted(c for c in C.CITIES if c != here), "ADA-ICON-32", {"rewards": rewards})
    elif action == "meeting":
        rooms = [r for r in range(4) if S.room_next_space(ctx.st, r) is not None]
        if S.can_place_disc(ctx.st, seat):
            ask(ctx, seat, "carry_room", rooms, "ADA-ICON-32", {"rewards": rewards})
    elif action == "institution":
        if S.can_place_disc(ctx.st, seat):
            ask(ctx, seat, "carry_lect", [[i, lv] for i, lv in S.empty_lectures(ctx.st)], "ADA-ICON-32",
                {"rewards": rewards})
    else:
        if rewards:
            eff(ctx, seat, {"op": "studyItem", "kind": "any"})
        eff(ctx, seat, {"op": "takeProgram"})


def op_assignment_token(ctx, seat, e):
    ask(ctx, seat, "atoken", [c for c in C.COLOURS if c not in ctx.p(seat)["atokens"]], "ADA-ICON-33")


def op_science_token(ctx, seat, e):
    if e["science"] == "any":
        ask(ctx, seat, "stoken", list(C.SCIENCES), "ADA-ICON-34")
    else:
        ctx.emit("TokenTaken", seat=seat, kind="science", science=e["science"], value=1)


def op_steam(ctx, seat, e):
    """ADA-ICON-35, ADA-ICON-36: with or without its Coal."""
    steam_advance(ctx, seat, e["payCoal"])


def op_take_program(ctx, seat, e):
    ask(ctx, seat, "program", [[o["slot"], o["line"]] for o in S.program_options(ctx.st, seat)], "ADA-ICON-37",
        {"main": False})


def op_any_advanced(ctx, seat, e):
    ask(ctx, seat, "any_advanced", list(C.AREAS), "ADA-ICON-38")


def op_breakthrough(ctx, seat, e):
    """ADA-ICON-40."""
    chosen = e.get("chosen", [])
    ask(ctx, seat, "breakthrough", [c for c in ("purple", "blue", "yellow", "green") if c not in chosen],
        "ADA-ICON-43", {"n": e["n"], "chosen": chosen})


def op_swap_die(ctx, seat, e):
    """ADA-ICON-41."""
    if S.ws_dice(ctx.st):
        ask(ctx, seat, "swap_own", S.own_dice(ctx.st, seat), "ADA-PUBLISH-13")


def op_adjust_die(ctx, seat, e):
    ask(ctx, seat, "adjust", adjust_options(ctx.st, seat, e["scope"]), "ADA-ICON-42")


def op_discard(ctx, seat, e):
    for _ in range(e["n"]):
        ctx.push({"k": "discard", "s": seat, "rule": "ADA-ICON-16"})


OPS = {
    "gain": op_gain, "pay": op_pay, "payInnovation": op_pay_innov, "research": op_research,
    "innovation": lambda ctx, s, e: gain_innovation(ctx, s, e["n"]), "draw": lambda ctx, s, e: draw(ctx, s, e["n"]),
    "discard": op_discard, "workshopReward": op_workshop_reward, "studyItem": op_study_item,
    "playPartnerFree": op_play_free, "gainPartnerFromDisplay": op_gain_partner, "usePartnerFromDisplay": op_use_partner,
    "perCardInHand": op_per_card, "swapSubtractionForAddition": op_swap_gear, "gainMultiplier": op_gain_multiplier,
    "buildGear": op_build, "buildAdditionFree": op_build_free, "moveSmallCity": op_small_city,
    "moveNearestUniversity": op_nearest_uni, "stackDisc": op_stack, "placeMeetingDisc": op_meeting_disc,
    "placeUniversityDisc": op_university_disc, "placeLectureDisc": op_lecture_disc, "moveDisc": op_move_disc,
    "removeDisc": op_remove_disc, "moveUniversityDisc": op_move_uni, "perDisc": op_per_disc,
    "carryOut": op_carry_out, "assignmentToken1": op_assignment_token, "scienceToken1": op_science_token,
    "steam": op_steam, "takeProgram": op_take_program, "anyAdvancedLevel1": op_any_advanced,
    "breakthrough": op_breakthrough, "swapDie": op_swap_die, "adjustDie": op_adjust_die,
}
