"""The small verbs every effect, action and choice is written with: gain, research, draw, display refills,
Study items, arrivals, the Advanced actions."""

from __future__ import annotations

from .. import content as C
from .. import state as S
from ..resolver import ask, eff, place
from ..state import deal


def gain(ctx, seat, **delta):
    delta = {k: v for k, v in delta.items() if v}
    if delta:
        ctx.emit("Resources", seat=seat, delta=delta)


def gain_innovation(ctx, seat, n):
    """ADA-ICON-04. ADA-INNOV-01, ADA-INNOV-02, ADA-INNOV-04, ADA-INNOV-05, ADA-AMB-50."""
    cur = ctx.p(seat)["innov"]
    new = min(6, cur + n)
    if new == cur:
        return
    ctx.emit("Resources", seat=seat, delta={"innov": new - cur})
    if new == 6:
        ask(ctx, seat, "innov_bonus", list(C.WORKSHOP_REWARDS), "ADA-INNOV-04", optional=True)


def workshop_reward(ctx, seat, reward):
    """ADA-WORKSHOP-17, ADA-WORKSHOP-18. ADA-WORKSHOP-01 rewards (also ADA-ICON-05)."""
    if reward == "research":
        research_any(ctx, seat, 1)
    elif reward == "coal":
        gain(ctx, seat, coal=2)
    elif reward == "money":
        gain(ctx, seat, money=3)
    elif reward == "innovation":
        gain_innovation(ctx, seat, 1)
    elif reward == "brass":
        gain(ctx, seat, brass=1)
    else:
        draw(ctx, seat, 2)


def research_any(ctx, seat, n):
    """ADA-RESEARCH-08, ADA-AMB-14: each point on any track not at its top."""
    for _ in range(n):
        ctx.push({"k": "research_any", "s": seat})


def research_point(ctx, seat, colour):
    """ADA-RESEARCH-01, ADA-RESEARCH-10, ADA-ICON-39: one track per area; at the top the surplus is lost.
    ADA-RESEARCH-02, ADA-RESEARCH-03, ADA-RESEARCH-05, ADA-RESEARCH-06, ADA-RESEARCH-07, ADA-RESEARCH-09,
    ADA-AMB-13."""
    p = ctx.p(seat)
    track = C.RESEARCH[colour]
    cur = p["research"][colour]
    if cur >= track["top"]:
        return
    new = cur + 1
    ctx.emit("ResearchMoved", seat=seat, colour=colour, to=new)
    if new == track["top"] and colour not in p["atokens"]:
        # the 2-token sits on top until a player reaches the top; a 1-token taken by the icon (ADA-ICON-33)
        # comes from under it (ADA-AMB-15), so the 2 is gone only once some player holds it
        value = 1 if any(q["atokens"].get(colour) == 2 for q in ctx.st["players"]) else 2
        ctx.emit("TokenTaken", seat=seat, kind="assign", colour=colour, value=value)
    if new in track["breakthrough_spaces"]:
        token = ctx.st["breakthroughs"][colour]
        ctx.push({"k": "eff", "s": seat, "e": C.BREAKTHROUGHS[token]["reward"]})


def draw(ctx, seat, n):
    """ADA-ICON-02. ADA-PARTNER-07, ADA-AMB-12."""
    remaining = n
    while remaining > 0:
        p = ctx.p(seat)
        if not p["deck"]:
            if not p["discard"]:
                return
            deck = ctx.rng.shuffled(p["discard"])
            ctx.emit("Reshuffled", seat=seat, deck=deck, private_to=[], public={"seat": seat, "size": len(deck)},
                     random=True)
            continue
        cards = p["deck"][:remaining]
        ctx.emit("CardsDrawn", seat=seat, cards=cards, private_to=[seat], public={"seat": seat, "count": len(cards)})
        remaining -= len(cards)


def steam_advance(ctx, seat, pay_coal):
    """ADA-STEAM-02, ADA-STEAM-05, ADA-AMB-51: skipped at the top or when the Coal cannot be paid."""
    p = ctx.p(seat)
    if p["steam"] >= C.STEAM_MAX:
        return False
    coal = C.STEAM_LEVELS[p["steam"] + 1]["coal_to_enter"] if pay_coal else 0
    if p["coal"] < coal:
        return False
    ctx.emit("SteamMoved", seat=seat, to=p["steam"] + 1, coal=coal)
    return True


def slide_refill(ctx, name, slots, removed=()):
    """ADA-TURN-08: slide right keeping order, then refill rightmost-first (ADA-AMB-57)."""
    kept = [s for s in slots if s is not None]
    slots = [None] * (len(slots) - len(kept)) + kept
    slots, drawn = deal(slots, ctx.st["stacks"][name])
    ctx.emit("DisplaySet", display=name, slots=slots, drawn=drawn, removed=list(removed))


def take_from_display(ctx, name, slot, main):
    """ADA-STUDY-11, ADA-ASSIGN-08. Empty `slot`; for a main action also remove the rightmost item and refill now
    (ADA-STUDY-03, ADA-STUDY-04, ADA-MEETING-09); otherwise refill after the effect (ADA-TURN-08)."""
    slots = list(ctx.st["displays"][name])
    slots[slot] = None
    if main:
        removed = [slots[-1]] if slots[-1] is not None else []
        slots[-1] = None
        slide_refill(ctx, name, slots, removed)
    else:
        ctx.emit("DisplaySet", display=name, slots=slots, drawn=0)
        ctx.push({"k": "refill", "d": name})


def gear_swap_targets(p):
    return [g for g in range(12) if p["gears"][g] == "sub"]


def assignment_slots(ctx, seat):
    hand = len(ctx.p(seat)["hand"])
    return [k for k, a in enumerate(ctx.st["displays"]["assign"]) if a and C.ASSIGNMENTS[a]["discard"] <= hand]


def study_item(ctx, seat, kind, main=False):
    """ADA-GEAR-03. ADA-STUDY-01, ADA-STUDY-10, ADA-ICON-06, ADA-ICON-07, ADA-ICON-08."""
    if kind == "book":
        gain(ctx, seat, book=1)
    elif kind == "addition":
        ctx.emit("GearGained", seat=seat, gear="add")
    elif kind == "assignment":
        ask(ctx, seat, "assignment", assignment_slots(ctx, seat), "ADA-ASSIGN-06", {"main": main})


def study_item_kinds(ctx, seat, exclude=()):
    kinds = [k for k in ("book", "addition", "assignment") if k not in exclude]
    if "assignment" in kinds and not assignment_slots(ctx, seat):
        kinds.remove("assignment")
    return kinds


def arrive(ctx, seat, city, rewards=True):
    """ADA-TRAVEL-04, ADA-TRAVEL-05, ADA-TRAVEL-06, ADA-AMB-21."""
    if not rewards:
        return
    if C.CITIES[city]["kind"] == "small":
        eff(ctx, seat, C.CITIES[city]["reward"])
    elif seat not in ctx.st["univ"].get(city, []) and S.can_place_disc(ctx.st, seat):
        eff(ctx, seat, C.UNI_TILES[ctx.st["univ_tiles"][city]]["reward"])
        place(ctx, seat, ["univ", city])


def small_cities_within(ctx, seat, dist):
    here = ctx.p(seat)["city"]
    return sorted(c for c, d in C.SMALL_DISTANCE[here].items() if d <= dist)


def lecture_reward_options(ctx, seat, ref, any_inst):
    """ADA-INSTITUTION-09, ADA-INSTITUTION-10, ADA-INSTITUTION-11, ADA-AMB-29, ADA-AMB-64."""
    if ref is None:
        out = []
        for inst, levels in ctx.st["lect"].items():
            own = [k + 2 for k, d in enumerate(levels) if seat in d]
            if own:
                out += [[inst, lv] for lv in range(2, max(own)) if not levels[lv - 2]]
        return out
    inst0, level0 = ref
    insts = C.INSTITUTIONS if any_inst else [inst0]
    return [[i, lv] for i in insts for lv in range(2, level0) if not ctx.st["lect"][i][lv - 2]]


def advanced(ctx, seat, area, level, ref=None):
    """ADA-STUDY-08, ADA-TRAVEL-09, ADA-MEETING-10, ADA-MEETING-11, ADA-MEETING-12, ADA-STUDY-09: the card taken this
    turn is in hand and may be played; Study places no disc. ADA-ACTIONS-06, ADA-AMB-16; level-1 texts outside a
    main action per ADA-AMB-64, ADA-AMB-27."""
    if area == "study":
        if level == 1:
            ask(ctx, seat, "study_extra", study_item_kinds(ctx, seat, ctx.fl["taken"]), "ADA-STUDY-07")
        else:
            for kind in reversed(study_item_kinds(ctx, seat, ctx.fl["taken"])):
                ctx.push({"k": "study_item", "s": seat, "kind": kind})
    elif area == "travel":
        ask(ctx, seat, "small_city", small_cities_within(ctx, seat, level), "ADA-TRAVEL-08")
    elif area == "meeting":
        eff(ctx, seat, {"op": "playPartnerFree"})
        if level == 2:
            eff(ctx, seat, {"op": "draw", "n": 2})
    else:
        ask(ctx, seat, "lecture_reward", lecture_reward_options(ctx, seat, ref, level == 2), "ADA-INSTITUTION-11")


def adjust_options(state, seat, scope):
    wheres = []
    if scope in ("board", "both"):
        wheres += S.own_dice(state, seat)
    if scope in ("workshop", "both"):
        wheres += S.ws_dice(state)
    out = []
    for w in wheres:
        v = S.die_at(state, seat, w)["v"]
        out += [[w, d] for d in (-1, 1) if 1 <= v + d <= 6]
    return out


def _resolve_loc(ctx, loc):
    if loc[0] == "room" and len(loc) == 2:
        sp = S.room_next_space(ctx.st, loc[1])
        return None if sp is None else ["room", loc[1], sp]
    return loc


def _placed(ctx, seat, loc, gear=None, src=None):
    """ADA-TRAVEL-07, ADA-DISC-02, ADA-OBJECTIVE-08: on top of a stack; the gear space is uncovered; an Objective
    disc stays for good."""
    loc = _resolve_loc(ctx, loc)
    if loc is None:
        return
    extra = {}
    if loc[0] == "obj":
        area = loc[1]
        claims = ctx.st["obj"][area]
        rnd = ctx.fl["building"] if ctx.fl.get("building") else ctx.st["round"]
        # ADA-OBJECTIVE-03, ADA-OBJECTIVE-04, ADA-OBJECTIVE-05
        space = "high" if not claims or claims[0]["round"] == rnd else "low"
        loc = ["obj", area, space]
        extra["round"] = rnd
        ctx.fl["claiming"].remove(area)
    ctx.emit("DiscPlaced", seat=seat, loc=loc, gear=gear, src=src, **extra)


# Main actions -----------------------------------------------------------
