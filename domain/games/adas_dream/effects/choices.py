"""What each answered choice does (CHOICES[kind](ctx, item, pick)), main actions' choices included."""

from __future__ import annotations

from .. import content as C
from .. import state as S
from ..resolver import ask, eff, place
from .primitives import (_placed, _resolve_loc, adjust_options, advanced, arrive, gain, research_point,
                         slide_refill, study_item, take_from_display, workshop_reward)


def ch_choose(ctx, item, pick):
    """ADA-PROGRAM-04: distinct entries unless the effect says otherwise."""
    d = item["d"]
    e = d["e"]
    chosen = d["chosen"] + [pick] if e.get("distinct", True) else d["chosen"]
    if d["left"] > 1:
        ctx.push({"k": "eff", "s": item["s"], "e": e, "left": d["left"] - 1, "chosen": chosen})
    eff(ctx, item["s"], e["choose"][pick])


def ch_innov_bonus(ctx, item, pick):
    gain(ctx, item["s"], innov=-2)
    workshop_reward(ctx, item["s"], pick)


def ch_track(ctx, item, pick):
    research_point(ctx, item["s"], pick)


def ch_workshop_reward(ctx, item, pick):
    workshop_reward(ctx, item["s"], pick)


def ch_study_any(ctx, item, pick):
    study_item(ctx, item["s"], pick)


def ch_study_main(ctx, item, pick):
    """ADA-STUDY-01, ADA-STUDY-04, ADA-STUDY-05: the reward, then the rightmost Assignment leaves (unless taken
    itself)."""
    ctx.fl["taken"].append(pick)
    seat = item["s"]
    if pick == "assignment":
        study_item(ctx, seat, pick, main=True)
    else:
        slots = list(ctx.st["displays"]["assign"])
        removed = [slots[-1]] if slots[-1] else []
        slots[-1] = None
        slide_refill(ctx, "assign", slots, removed)
        study_item(ctx, seat, pick)


def ch_study_extra(ctx, item, pick):
    ctx.fl["taken"].append(pick)
    study_item(ctx, item["s"], pick)


def ch_assignment(ctx, item, pick):
    """ADA-STUDY-06, ADA-ASSIGN-08. ADA-ASSIGN-02, ADA-ASSIGN-03, ADA-ASSIGN-04, ADA-ASSIGN-05, ADA-ASSIGN-06:
    discards, effect, then the column."""
    seat = item["s"]
    card = ctx.st["displays"]["assign"][pick]
    info = C.ASSIGNMENTS[card]
    ctx.emit("AssignmentTaken", seat=seat, card=card, slot=pick)
    take_from_display(ctx, "assign", pick, item["d"].get("main", False))
    ctx.push({"k": "file", "s": seat, "card": card})
    eff(ctx, seat, info["effect"])
    for _ in range(info["discard"]):
        ctx.push({"k": "discard", "s": seat, "rule": "ADA-ASSIGN-06"})


def ch_column(ctx, item, pick):
    ctx.emit("AssignmentFiled", seat=item["s"], card=item["d"]["card"], colour=pick)


def ch_discard(ctx, item, pick):
    ctx.emit("CardDiscarded", seat=item["s"], card=pick)


def ch_play_free(ctx, item, pick):
    ctx.emit("CardPlayed", seat=item["s"], card=pick, free=True)
    eff(ctx, item["s"], C.partner(pick)["effect"])


def ch_gain_partner(ctx, item, pick):
    """ADA-PARTNER-05: a gained card goes to the hand."""
    seat = item["s"]
    card = ctx.st["displays"]["meet"][pick]
    ctx.emit("PartnerGained", seat=seat, card=card, slot=pick)
    ctx.fl["gaining"] = True
    take_from_display(ctx, "meet", pick, False)
    ctx.push({"k": "remove", "s": seat})


def ch_use_partner(ctx, item, pick):
    ctx.emit("PartnerUsed", seat=item["s"], card=pick)
    eff(ctx, item["s"], C.partner(pick)["effect"])


def ch_remove(ctx, item, pick):
    """ADA-PARTNER-04: out of the game for good."""
    p = ctx.p(item["s"])
    ctx.fl["gaining"] = False
    ctx.emit("PartnerRemoved", seat=item["s"], card=pick, source="hand" if pick in p["hand"] else "discard")


def ch_swap_gear(ctx, item, pick):
    """ADA-GEAR-10: a built gear changes only through such an effect."""
    ctx.emit("GearSwapped", seat=item["s"], space=pick)


def ch_multiplier(ctx, item, pick):
    """ADA-ICON-17, ADA-MEETING-13. ADA-GEAR-04: the Multiplier display slot is refilled at once from the stack, no
    sliding."""
    slots = list(ctx.st["displays"]["mult"])
    ctx.emit("GearGained", seat=item["s"], gear=slots[pick])
    stack = ctx.st["stacks"]["mult"]
    slots[pick] = stack[0] if stack else None
    ctx.emit("DisplaySet", display="mult", slots=slots, drawn=1 if stack else 0)


def ch_build(ctx, item, pick):
    """ADA-GEAR-07, ADA-GEAR-08: every part of the cost is paid."""
    p = ctx.p(item["s"])
    paid = {} if item["d"].get("free") else {("innov" if k == "innovation" else k): v
                                               for k, v in S.gear_cost(pick["gear"]).items() if v}
    ctx.emit("GearBuilt", seat=item["s"], gear=pick["gear"], space=pick["space"], paid=paid)


def ch_small_city(ctx, item, pick):
    ctx.emit("Travelled", seat=item["s"], to=pick, cost=0)
    arrive(ctx, item["s"], pick)


def ch_nearest_uni(ctx, item, pick):
    ctx.emit("Travelled", seat=item["s"], to=pick, cost=0)
    place(ctx, item["s"], ["univ", pick])


def ch_stack(ctx, item, pick):
    place(ctx, item["s"], pick)


def ch_icon_place(ctx, item, pick):
    place(ctx, item["s"], pick)


def ch_move_src(ctx, item, pick):
    seat = item["s"]
    dsts = [["univ", c] for c in S.uni_without_own(ctx.st, seat)]
    dsts += [["room", r] for r in range(4) if S.room_next_space(ctx.st, r) is not None]
    dsts += [["lect", i, lv] for i, lv in S.empty_lectures(ctx.st)]
    ask(ctx, seat, "move_dst", [d for d in dsts if d != pick[:len(d)]], "ADA-ICON-28", {"src": pick})


def ch_move_dst(ctx, item, pick):
    loc = _resolve_loc(ctx, pick)
    if loc:
        ctx.emit("DiscPlaced", seat=item["s"], loc=loc, src=item["d"]["src"], gear=None)


def ch_box(ctx, item, pick):
    ctx.emit("DiscBoxed", seat=item["s"], gear=pick)


def ch_umove_src(ctx, item, pick):
    ask(ctx, item["s"], "umove_dst", S.uni_without_own(ctx.st, item["s"]), "ADA-ICON-30", {"src": pick})


def ch_umove_dst(ctx, item, pick):
    ctx.emit("DiscPlaced", seat=item["s"], loc=["univ", pick], src=["univ", item["d"]["src"]], gear=None)
    eff(ctx, item["s"], C.UNI_TILES[ctx.st["univ_tiles"][pick]]["reward"])


def ch_carry_travel(ctx, item, pick):
    ctx.emit("Travelled", seat=item["s"], to=pick, cost=0)
    arrive(ctx, item["s"], pick, item["d"]["rewards"])


def ch_carry_room(ctx, item, pick):
    seat = item["s"]
    if item["d"]["rewards"]:
        slots = [k for k in range(pick, 4) if ctx.st["displays"]["meet"][k]]
        ctx.push({"k": "ask", "s": seat, "kind": "gain_partner", "opts": slots, "rule": "ADA-MEETING-05"})
    place(ctx, seat, ["room", pick])


def ch_carry_lect(ctx, item, pick):
    seat = item["s"]
    ctx.fl["ref"] = pick
    if item["d"]["rewards"]:
        eff(ctx, seat, C.LECTURE_REWARD[(pick[0], pick[1])])
    place(ctx, seat, ["lect", pick[0], pick[1]])


def ch_atoken(ctx, item, pick):
    ctx.emit("TokenTaken", seat=item["s"], kind="assign", colour=pick, value=1)


def ch_stoken(ctx, item, pick):
    ctx.emit("TokenTaken", seat=item["s"], kind="science", science=pick, value=1)


def ch_program(ctx, item, pick):
    """ADA-PROGRAM-01, ADA-PROGRAM-05. ADA-STUDY-02, ADA-STUDY-03, ADA-PROGRAM-02, ADA-PROGRAM-03, ADA-ICON-37."""
    seat = item["s"]
    slot, line = pick
    tile = ctx.st["displays"]["prog"][slot]
    ctx.emit("ProgramPlaced", seat=seat, tile=tile, line=line, slot=slot)
    take_from_display(ctx, "prog", slot, item["d"].get("main", False))
    eff(ctx, seat, C.PROGRAM_SPACE[line])


def ch_any_advanced(ctx, item, pick):
    ref = ctx.fl["ref"] if pick == "institution" else None
    advanced(ctx, item["s"], pick, 1, ref)


def ch_breakthrough(ctx, item, pick):
    d = item["d"]
    seat = item["s"]
    if d["n"] > 1:
        eff(ctx, seat, {"op": "breakthrough", "n": d["n"] - 1, "chosen": d["chosen"] + [pick]})
    eff(ctx, seat, C.BREAKTHROUGHS[ctx.st["breakthroughs"][pick]]["reward"])


def ch_swap_own(ctx, item, pick):
    ask(ctx, item["s"], "swap_ws", S.ws_dice(ctx.st), "ADA-PUBLISH-13", {"own": pick})


def ch_swap_ws(ctx, item, pick):
    """ADA-PUBLISH-13, ADA-PUBLISH-14: exact slots swap; no bonus, refill or Research."""
    ctx.emit("DieSwapped", seat=item["s"], own=item["d"]["own"], ws=pick)


def ch_adjust(ctx, item, pick):
    where, delta = pick
    v = S.die_at(ctx.st, item["s"], where)["v"]
    ctx.emit("DieValue", seat=item["s"], where=where, to=v + delta)


def ch_lecture_reward(ctx, item, pick):
    eff(ctx, item["s"], C.LECTURE_REWARD[(pick[0], pick[1])])


def ch_disc_src(ctx, item, pick):
    _placed(ctx, item["s"], item["d"]["loc"], gear=pick)


def ch_disc_move(ctx, item, pick):
    _placed(ctx, item["s"], item["d"]["loc"], src=pick)


def ch_travel(ctx, item, pick):
    """ADA-TRAVEL-02, ADA-TRAVEL-11: the whole route paid; passed cities are not activated."""
    seat = item["s"]
    cost = C.TRAVEL_COST[ctx.p(seat)["city"]][pick]
    ctx.emit("Travelled", seat=seat, to=pick, cost=cost)
    arrive(ctx, seat, pick)


def ch_meeting(ctx, item, pick):
    """ADA-MEETING-04. ADA-MEETING-01, ADA-MEETING-05, ADA-MEETING-07, ADA-MEETING-08, ADA-MEETING-09."""
    seat = item["s"]
    r = pick["room"]
    sp = S.room_next_space(ctx.st, r)
    cost = C.ROOM_SPACES[r][sp][pick["pay"]]
    gain(ctx, seat, **({"money": -cost} if pick["pay"] == "money" else {"innov": -cost}))
    ctx.push({"k": "draw", "s": seat, "n": C.SLOT_DRAW[pick["slot"]]})
    ctx.push({"k": "remove", "s": seat})
    ctx.push({"k": "meet_gain", "s": seat, "slot": pick["slot"]})
    place(ctx, seat, ["room", r])


def ch_lecture(ctx, item, pick):
    """ADA-INSTITUTION-02, ADA-INSTITUTION-05."""
    seat = item["s"]
    inst, level = pick["inst"], pick["level"]
    gain(ctx, seat, innov=-S.lecture_cost(ctx.st, seat, level))
    ctx.fl["ref"] = [inst, level]
    eff(ctx, seat, C.LECTURE_REWARD[(inst, level)])
    place(ctx, seat, ["lect", inst, level])


def ch_pip(ctx, item, pick):
    where, delta = pick
    seat = item["s"]
    v = S.die_at(ctx.st, seat, where)["v"]
    ctx.emit("DieValue", seat=seat, where=where, to=v + delta)
    left = item["d"]["left"] - 1
    if left:
        ask(ctx, seat, "pip", adjust_options(ctx.st, seat, "board"), "ADA-PUBLISH-10", {"left": left}, optional=True)


def ch_pub_stack(ctx, item, pick):
    """ADA-PUBLISH-05: no reward of the space."""
    seat = item["s"]
    area = {"univ": "travel", "room": "meeting", "lect": "institution"}[pick[0]]
    ref = [pick[1], pick[2]] if pick[0] == "lect" else None
    ctx.push({"k": "pub_adv", "s": seat, "area": area, "ref": ref})
    place(ctx, seat, pick)


def ch_pub_adv(ctx, item, pick):
    d = item["d"]
    advanced(ctx, item["s"], d["area"], 1, d["ref"])


def ch_hand_limit(ctx, item, pick):
    ctx.emit("CardDiscarded", seat=item["s"], card=pick, limit=True)


CHOICES = {
    "choose": ch_choose, "innov_bonus": ch_innov_bonus, "track": ch_track, "workshop_reward": ch_workshop_reward,
    "study_any": ch_study_any, "study_main": ch_study_main, "study_extra": ch_study_extra,
    "assignment": ch_assignment, "column": ch_column, "discard": ch_discard, "play_free": ch_play_free,
    "gain_partner": ch_gain_partner, "use_partner": ch_use_partner, "remove": ch_remove, "swap_gear": ch_swap_gear,
    "multiplier": ch_multiplier, "build": ch_build, "small_city": ch_small_city, "nearest_uni": ch_nearest_uni,
    "stack": ch_stack, "icon_place": ch_icon_place, "move_src": ch_move_src, "move_dst": ch_move_dst, "box": ch_box,
    "umove_src": ch_umove_src, "umove_dst": ch_umove_dst, "carry_travel": ch_carry_travel,
    "carry_room": ch_carry_room, "carry_lect": ch_carry_lect, "atoken": ch_atoken, "stoken": ch_stoken,
    "program": ch_program, "any_advanced": ch_any_advanced, "breakthrough": ch_breakthrough,
    "swap_own": ch_swap_own, "swap_ws": ch_swap_ws, "adjust": ch_adjust, "lecture_reward": ch_lecture_reward,
    "disc_src": ch_disc_src, "disc_move": ch_disc_move, "travel": ch_travel, "meeting": ch_meeting,
    "lecture": ch_lecture, "pip": ch_pip, "pub_stack": ch_pub_stack, "pub_adv": ch_pub_adv,
    "hand_limit": ch_hand_limit,
}
