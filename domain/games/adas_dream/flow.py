"""The resolver: an agenda (stack) of pending work items in the state, processed until a player
must choose. Effects (3.1), main and Advanced actions, and every mid-effect choice live here.

Agenda items (the last one is on top):
  {"k": "choice", ...}  waits for {"type": "choose", "pick": <one of opts>}
  {"k": "phase", "name": "ws6"|"adv"|"endopt"}  waits for a phase move (moves.py)
  anything else is resolved automatically by HANDLERS[k].
"""

from __future__ import annotations

from domain.engine import IllegalMove

from . import board as B
from . import content as C
from .state import HAND_SOURCES, choice_options as options, deal, draw_dice, new_flow


class Ctx:
    """One decide call: the Turn (working state + facts), the flow record, the rng and the actor."""

    def __init__(self, turn, rng, actor):
        self.turn = turn
        self.rng = rng
        self.actor = actor
        self.fl = turn.state["flow"]

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
        # Public: the flow record is bookkeeping every seat may see (whose turn, which phase, the options of a
        # pending choice). A choice among the chooser's own cards keeps only where its options come from
        # (`from`, see HAND_SOURCES), so no card of a hand is ever written here. Games stored before this carry
        # the same fact marked private to nobody; evolve reads both alike.
        self.turn.emit("Flow", flow=self.fl)
        return self.turn.facts


# ------------------------------------------------------------------ choices
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
        CHOICES[kind](ctx, {"kind": kind, "s": seat, "d": data or {}}, opts[0])
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
        ctx.fl["agenda"].pop()
        return
    opts = options(ctx.st, item)
    if pick not in opts:
        raise IllegalMove(refusal_rule(ctx.st, item, pick), f"{pick!r} is not one of the allowed choices for {item['kind']}")
    pick = opts[opts.index(pick)]                          # the canonical option (no 1.0 / true for 1)
    ctx.fl["agenda"].pop()
    CHOICES[item["kind"]](ctx, item, pick)


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
        HANDLERS[item["k"]](ctx, item)


# ------------------------------------------------------------------ primitives
def gain(ctx, seat, **delta):
    delta = {k: v for k, v in delta.items() if v}
    if delta:
        ctx.emit("Resources", seat=seat, delta=delta)


def gain_innovation(ctx, seat, n):
    """ADA-INNOV-01/02/04/05, ADA-AMB-50."""
    cur = ctx.p(seat)["innov"]
    new = min(6, cur + n)
    if new == cur:
        return
    ctx.emit("Resources", seat=seat, delta={"innov": new - cur})
    if new == 6:
        ask(ctx, seat, "innov_bonus", list(C.WORKSHOP_REWARDS), "ADA-INNOV-04", optional=True)


def workshop_reward(ctx, seat, reward):
    """ADA-WORKSHOP-01 rewards (also ADA-ICON-05)."""
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
    """ADA-RESEARCH-02/03/05/06/07/09, ADA-AMB-13."""
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
    """ADA-PARTNER-07, ADA-AMB-12."""
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
    """ADA-STEAM-02/05, ADA-AMB-51: skipped at the top or when the Coal cannot be paid."""
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
    """Empty `slot`; for a main action also remove the rightmost item and refill now
    (ADA-STUDY-03/04, ADA-MEETING-09); otherwise refill after the effect (ADA-TURN-08)."""
    slots = list(ctx.st["displays"][name])
    slots[slot] = None
    if main:
        removed = [slots[-1]] if slots[-1] is not None else []
        slots[-1] = None
        slide_refill(ctx, name, slots, removed)
    else:
        ctx.emit("DisplaySet", display=name, slots=slots, drawn=0)
        ctx.push({"k": "refill", "d": name})


def place(ctx, seat, loc):
    ctx.push({"k": "place", "s": seat, "loc": loc})


def eff(ctx, seat, effect):
    ctx.push({"k": "eff", "s": seat, "e": effect})


def gear_swap_targets(p):
    return [g for g in range(12) if p["gears"][g] == "sub"]


def assignment_slots(ctx, seat):
    hand = len(ctx.p(seat)["hand"])
    return [k for k, a in enumerate(ctx.st["displays"]["assign"]) if a and C.ASSIGNMENTS[a]["discard"] <= hand]


def study_item(ctx, seat, kind, main=False):
    """ADA-STUDY-01/10, ADA-ICON-06/07/08."""
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
    """ADA-TRAVEL-04/05/06, ADA-AMB-21."""
    if not rewards:
        return
    if C.CITIES[city]["kind"] == "small":
        eff(ctx, seat, C.CITIES[city]["reward"])
    elif seat not in ctx.st["univ"].get(city, []) and B.can_place_disc(ctx.st, seat):
        eff(ctx, seat, C.UNI_TILES[ctx.st["univ_tiles"][city]]["reward"])
        place(ctx, seat, ["univ", city])


def small_cities_within(ctx, seat, dist):
    here = ctx.p(seat)["city"]
    return sorted(c for c, d in C.SMALL_DISTANCE[here].items() if d <= dist)


def lecture_reward_options(ctx, seat, ref, any_inst):
    """ADA-INSTITUTION-09/10/11, ADA-AMB-29, ADA-AMB-64."""
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
    """ADA-ACTIONS-06, ADA-AMB-16; level-1 texts outside a main action per ADA-AMB-64/27."""
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


# ------------------------------------------------------------------ effects (3.1)
def resolve(ctx, seat, e, item):
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
        if all(p[k] >= v for k, v in need.items()):                    # ADA-ICON-10/11
            ctx.emit("Resources", seat=seat, delta={k: -v for k, v in need.items()})
            eff(ctx, seat, e["then"])
        return
    OPS[e["op"]](ctx, seat, e)


def op_gain(ctx, seat, e):
    gain(ctx, seat, **{e["resource"]: e["amount"]})


def op_pay(ctx, seat, e):
    if ctx.p(seat)[e["resource"]] >= e["amount"]:
        gain(ctx, seat, **{e["resource"]: -e["amount"]})


def op_pay_innov(ctx, seat, e):
    if ctx.p(seat)["innov"] >= e["n"]:
        gain(ctx, seat, innov=-e["n"])


def op_research(ctx, seat, e):
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
    if e["kind"] == "any":
        ask(ctx, seat, "study_any", study_item_kinds(ctx, seat), "ADA-STUDY-10")
    else:
        study_item(ctx, seat, e["kind"])


def op_play_free(ctx, seat, e):
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
    for _ in range(len(ctx.p(seat)["hand"])):
        eff(ctx, seat, e["reward"])


def op_swap_gear(ctx, seat, e):
    ask(ctx, seat, "swap_gear", gear_swap_targets(ctx.p(seat)), "ADA-ICON-20")


def op_gain_multiplier(ctx, seat, e):
    ask(ctx, seat, "multiplier", [k for k, m in enumerate(ctx.st["displays"]["mult"]) if m], "ADA-GEAR-04")


def op_build(ctx, seat, e):
    ask(ctx, seat, "build", B.build_options(ctx.st, seat), "ADA-BUILD-02")


def op_build_free(ctx, seat, e):
    ask(ctx, seat, "build", B.build_options(ctx.st, seat, free_addition=True), "ADA-BUILD-07", {"free": True})


def op_small_city(ctx, seat, e):
    ask(ctx, seat, "small_city", small_cities_within(ctx, seat, e["maxDistance"]), "ADA-ICON-21")


def op_nearest_uni(ctx, seat, e):
    here = ctx.p(seat)["city"]
    cands = [c for c in B.uni_without_own(ctx.st, seat) if c != here]
    if not cands or not B.can_place_disc(ctx.st, seat):
        return
    best = min(C.STEPS[here][c] for c in cands)
    ask(ctx, seat, "nearest_uni", sorted(c for c in cands if C.STEPS[here][c] == best), "ADA-ICON-23")


def op_stack(ctx, seat, e):
    if any(ctx.p(seat)["covered"]):                                    # ADA-AMB-63
        ask(ctx, seat, "stack", B.stack_targets(ctx.st, seat), "ADA-ICON-24")


def _icon_place(ctx, seat, kind, opts, rule):
    if any(ctx.p(seat)["covered"]):                                    # icon placements: ADA-AMB-19
        ask(ctx, seat, kind, opts, rule)


def op_meeting_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["room", r] for r in range(4) if B.room_next_space(ctx.st, r) is not None],
                "ADA-ICON-25")


def op_university_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["univ", c] for c in B.uni_without_own(ctx.st, seat)], "ADA-ICON-26")


def op_lecture_disc(ctx, seat, e):
    _icon_place(ctx, seat, "icon_place", [["lect", i, lv] for i, lv in B.empty_lectures(ctx.st)], "ADA-ICON-27")


def op_move_disc(ctx, seat, e):
    ask(ctx, seat, "move_src", B.movable_discs(ctx.st, seat), "ADA-ICON-28")


def op_remove_disc(ctx, seat, e):
    ask(ctx, seat, "box", B.board_discs(ctx.p(seat)), "ADA-ICON-29")


def op_move_uni(ctx, seat, e):
    srcs = [c for c in C.UNIVERSITY_CITIES if seat in ctx.st["univ"].get(c, [])]
    if B.uni_without_own(ctx.st, seat):
        ask(ctx, seat, "umove_src", srcs, "ADA-ICON-30")


def op_per_disc(ctx, seat, e):
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
        rooms = [r for r in range(4) if B.room_next_space(ctx.st, r) is not None]
        if B.can_place_disc(ctx.st, seat):
            ask(ctx, seat, "carry_room", rooms, "ADA-ICON-32", {"rewards": rewards})
    elif action == "institution":
        if B.can_place_disc(ctx.st, seat):
            ask(ctx, seat, "carry_lect", [[i, lv] for i, lv in B.empty_lectures(ctx.st)], "ADA-ICON-32",
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
    steam_advance(ctx, seat, e["payCoal"])


def op_take_program(ctx, seat, e):
    ask(ctx, seat, "program", [[o["slot"], o["line"]] for o in B.program_options(ctx.st, seat)], "ADA-ICON-37",
        {"main": False})


def op_any_advanced(ctx, seat, e):
    ask(ctx, seat, "any_advanced", list(C.AREAS), "ADA-ICON-38")


def op_breakthrough(ctx, seat, e):
    chosen = e.get("chosen", [])
    ask(ctx, seat, "breakthrough", [c for c in ("purple", "blue", "yellow", "green") if c not in chosen],
        "ADA-ICON-43", {"n": e["n"], "chosen": chosen})


def op_swap_die(ctx, seat, e):
    if B.ws_dice(ctx.st):
        ask(ctx, seat, "swap_own", B.own_dice(ctx.st, seat), "ADA-PUBLISH-13")


def adjust_options(state, seat, scope):
    wheres = []
    if scope in ("board", "both"):
        wheres += B.own_dice(state, seat)
    if scope in ("workshop", "both"):
        wheres += B.ws_dice(state)
    out = []
    for w in wheres:
        v = B.die_at(state, seat, w)["v"]
        out += [[w, d] for d in (-1, 1) if 1 <= v + d <= 6]
    return out


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


# ------------------------------------------------------------------ choice handlers
def ch_choose(ctx, item, pick):
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
    """ADA-STUDY-01/04/05: the reward, then the rightmost Assignment leaves (unless taken itself)."""
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
    """ADA-ASSIGN-02..06: discards, effect, then the column."""
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
    p = ctx.p(item["s"])
    ctx.fl["gaining"] = False
    ctx.emit("PartnerRemoved", seat=item["s"], card=pick, source="hand" if pick in p["hand"] else "discard")


def ch_swap_gear(ctx, item, pick):
    ctx.emit("GearSwapped", seat=item["s"], space=pick)


def ch_multiplier(ctx, item, pick):
    """ADA-GEAR-04: the slot is refilled at once from the stack, no sliding."""
    slots = list(ctx.st["displays"]["mult"])
    ctx.emit("GearGained", seat=item["s"], gear=slots[pick])
    stack = ctx.st["stacks"]["mult"]
    slots[pick] = stack[0] if stack else None
    ctx.emit("DisplaySet", display="mult", slots=slots, drawn=1 if stack else 0)


def ch_build(ctx, item, pick):
    p = ctx.p(item["s"])
    paid = {} if item["d"].get("free") else {("innov" if k == "innovation" else k): v
                                               for k, v in B.gear_cost(pick["gear"]).items() if v}
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
    dsts = [["univ", c] for c in B.uni_without_own(ctx.st, seat)]
    dsts += [["room", r] for r in range(4) if B.room_next_space(ctx.st, r) is not None]
    dsts += [["lect", i, lv] for i, lv in B.empty_lectures(ctx.st)]
    ask(ctx, seat, "move_dst", [d for d in dsts if d != pick[:len(d)]], "ADA-ICON-28", {"src": pick})


def _resolve_loc(ctx, loc):
    if loc[0] == "room" and len(loc) == 2:
        sp = B.room_next_space(ctx.st, loc[1])
        return None if sp is None else ["room", loc[1], sp]
    return loc


def ch_move_dst(ctx, item, pick):
    loc = _resolve_loc(ctx, pick)
    if loc:
        ctx.emit("DiscPlaced", seat=item["s"], loc=loc, src=item["d"]["src"], gear=None)


def ch_box(ctx, item, pick):
    ctx.emit("DiscBoxed", seat=item["s"], gear=pick)


def ch_umove_src(ctx, item, pick):
    ask(ctx, item["s"], "umove_dst", B.uni_without_own(ctx.st, item["s"]), "ADA-ICON-30", {"src": pick})


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
    """ADA-STUDY-02/03, ADA-PROGRAM-02/03, ADA-ICON-37."""
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
    ask(ctx, item["s"], "swap_ws", B.ws_dice(ctx.st), "ADA-PUBLISH-13", {"own": pick})


def ch_swap_ws(ctx, item, pick):
    """ADA-PUBLISH-13/14: exact slots swap; no bonus, refill or Research."""
    ctx.emit("DieSwapped", seat=item["s"], own=item["d"]["own"], ws=pick)


def ch_adjust(ctx, item, pick):
    where, delta = pick
    v = B.die_at(ctx.st, item["s"], where)["v"]
    ctx.emit("DieValue", seat=item["s"], where=where, to=v + delta)


def ch_lecture_reward(ctx, item, pick):
    eff(ctx, item["s"], C.LECTURE_REWARD[(pick[0], pick[1])])


def ch_disc_src(ctx, item, pick):
    _placed(ctx, item["s"], item["d"]["loc"], gear=pick)


def ch_disc_move(ctx, item, pick):
    _placed(ctx, item["s"], item["d"]["loc"], src=pick)


def _placed(ctx, seat, loc, gear=None, src=None):
    loc = _resolve_loc(ctx, loc)
    if loc is None:
        return
    extra = {}
    if loc[0] == "obj":
        area = loc[1]
        claims = ctx.st["obj"][area]
        rnd = ctx.fl["building"] if ctx.fl.get("building") else ctx.st["round"]
        space = "high" if not claims or claims[0]["round"] == rnd else "low"   # ADA-OBJECTIVE-03..05
        loc = ["obj", area, space]
        extra["round"] = rnd
        ctx.fl["claiming"].remove(area)
    ctx.emit("DiscPlaced", seat=seat, loc=loc, gear=gear, src=src, **extra)


# Main actions -----------------------------------------------------------
def ch_travel(ctx, item, pick):
    seat = item["s"]
    cost = C.TRAVEL_COST[ctx.p(seat)["city"]][pick]
    ctx.emit("Travelled", seat=seat, to=pick, cost=cost)
    arrive(ctx, seat, pick)


def ch_meeting(ctx, item, pick):
    """ADA-MEETING-01/05/07/08/09."""
    seat = item["s"]
    r = pick["room"]
    sp = B.room_next_space(ctx.st, r)
    cost = C.ROOM_SPACES[r][sp][pick["pay"]]
    gain(ctx, seat, **({"money": -cost} if pick["pay"] == "money" else {"innov": -cost}))
    ctx.push({"k": "draw", "s": seat, "n": C.SLOT_DRAW[pick["slot"]]})
    ctx.push({"k": "remove", "s": seat})
    ctx.push({"k": "meet_gain", "s": seat, "slot": pick["slot"]})
    place(ctx, seat, ["room", r])


def ch_lecture(ctx, item, pick):
    """ADA-INSTITUTION-02/05."""
    seat = item["s"]
    inst, level = pick["inst"], pick["level"]
    gain(ctx, seat, innov=-B.lecture_cost(ctx.st, seat, level))
    ctx.fl["ref"] = [inst, level]
    eff(ctx, seat, C.LECTURE_REWARD[(inst, level)])
    place(ctx, seat, ["lect", inst, level])


def ch_pip(ctx, item, pick):
    where, delta = pick
    seat = item["s"]
    v = B.die_at(ctx.st, seat, where)["v"]
    ctx.emit("DieValue", seat=seat, where=where, to=v + delta)
    left = item["d"]["left"] - 1
    if left:
        ask(ctx, seat, "pip", adjust_options(ctx.st, seat, "board"), "ADA-PUBLISH-10", {"left": left}, optional=True)


def ch_pub_stack(ctx, item, pick):
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


# ------------------------------------------------------------------ automatic items
def h_eff(ctx, item):
    resolve(ctx, item["s"], item["e"], item)


def h_research(ctx, item):
    research_point(ctx, item["s"], item["c"])


def h_research_any(ctx, item):
    p = ctx.p(item["s"])
    ask(ctx, item["s"], "track", [c for c in C.COLOURS if p["research"][c] < C.RESEARCH[c]["top"]], "ADA-RESEARCH-08")


def h_place(ctx, item):
    """ADA-DISC-01/03/04/05, ADA-AMB-18/19."""
    seat, loc = item["s"], item["loc"]
    if _resolve_loc(ctx, loc) is None:
        return
    covered = B.board_discs(ctx.p(seat))
    if covered:
        ask(ctx, seat, "disc_src", covered, "ADA-DISC-03", {"loc": loc})
        return
    movable = [m for m in B.movable_discs(ctx.st, seat) if m[:len(loc)] != loc]
    if loc[0] == "obj":
        cond = C.OBJECTIVES[ctx.st["objectives"][loc[1]]]["condition"]
        movable = [m for m in movable if B.condition_met(B.without_disc(ctx.st, seat, m), seat, cond)]
        if not movable:
            ctx.fl["claiming"].remove(loc[1])
    # ADA-DISC-04, RULINGS R-13: with no disc left on the board the player "may choose to move one disc"
    # (rulebook): the move may be declined (pick null), and then no disc is placed; a declined Objective
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


def h_ws_refill(ctx, item):
    """ADA-WORKSHOP-10/11, ADA-AMB-06."""
    for space in range(6):
        if not ctx.st["workshop"][space]:
            dice = draw_dice(ctx.st["bag"], 3, ctx.rng)
            ctx.emit("WsRefilled", space=space, dice=dice, random=True)
            ctx.push({"k": "wsbonus", "s": item["s"], "space": space})


def h_wsbonus(ctx, item):
    workshop_reward(ctx, item["s"], C.WORKSHOP_BONUS[item["space"]])


def h_ws_store(ctx, item):
    """ADA-WORKSHOP-12: the highest empty Store slot."""
    p = ctx.p(item["s"])
    slot = max(k for k, d in enumerate(p["store"]) if d is None)
    ctx.fl["die_slot"] = slot
    ctx.emit("DieStored", seat=item["s"], slot=slot)


def h_ws_research(ctx, item):
    """ADA-WORKSHOP-14/15/19."""
    colour = ctx.fl.get("die_colour")
    if colour in C.COLOURS:
        for _ in range(len(ctx.p(item["s"])["columns"][colour])):
            ctx.push({"k": "research", "s": item["s"], "c": colour})


def h_study_main(ctx, item):
    ask(ctx, item["s"], "study_main", study_item_kinds(ctx, item["s"]), "ADA-STUDY-01")


def h_adv_check(ctx, item):
    """ADA-ACTIONS-06, ADA-RESEARCH-04: the Advanced action is offered if, after the main action (which may
    itself have raised that track), the marker is at or above Advanced level 1."""
    colour = C.AREA_COLOUR[ctx.fl["area"]]
    if ctx.p(item["s"])["research"][colour] >= C.RESEARCH[colour]["advanced1"]:
        ctx.push({"k": "phase", "name": "adv"})


def h_finish(ctx, item):
    """ADA-PARTNER-08 then ADA-TURN-09 / ADA-END-*."""
    seat = item["s"]
    hand = ctx.p(seat)["hand"]
    if len(hand) > 5:
        ctx.push(item)
        ask(ctx, seat, "hand_limit", None, "ADA-PARTNER-08", source="hand")
        return
    end_turn(ctx, seat)


HANDLERS = {
    "eff": h_eff, "research": h_research, "research_any": h_research_any, "place": h_place, "refill": h_refill,
    "file": h_file, "discard": h_discard, "remove": h_remove, "draw": h_draw, "meet_gain": h_meet_gain,
    "ask": h_ask, "study_item": h_study_item, "pub_adv": h_pub_adv, "ws_refill": h_ws_refill, "wsbonus": h_wsbonus,
    "ws_store": h_ws_store, "ws_research": h_ws_research, "study_main": h_study_main, "finish": h_finish,
    "adv_check": h_adv_check,
}


# ------------------------------------------------------------------ objectives, end of turn, end of game
def claim_objectives(ctx):
    """ADA-OBJECTIVE-02/06, ADA-AMB-40/42: the actor claims every newly met Objective at once."""
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
        if not B.condition_met(ctx.st, seat, cond):
            continue
        p = ctx.p(seat)
        if not any(p["covered"]) and not any(
                B.condition_met(B.without_disc(ctx.st, seat, m), seat, cond) for m in B.movable_discs(ctx.st, seat)):
            continue
        claiming.append(area)
        ctx.push({"k": "place", "s": seat, "loc": ["obj", area]})


def end_turn(ctx, seat):
    st = ctx.st
    fl = ctx.fl
    n = st["n"]
    nxt = (seat + 1) % n
    rnd = st["round"] + (1 if nxt == st["first"] else 0)
    # ADA-AMB-43: the previous player's deferred Build lapses now; this player's may open
    deferred = {"seat": seat, "round": st["round"]} if fl.get("defer_build") else None
    ctx.emit("TurnEnded", seat=seat, next=nxt, round=rnd)
    ctx.actor = None
    last = st["order"][-1]
    if st["end_triggered"] and seat == last:      # ADA-END-02/03/04
        if deferred:
            new = new_flow(seat)
            new.update(deferred=deferred, final_wait=True)
            ctx.fl = new
            return
        ctx.fl = new_flow(nxt)
        game_over(ctx)
        return
    new = new_flow(nxt)
    new["deferred"] = deferred
    ctx.fl = new


def game_over(ctx):
    from .scoring import final_scores
    ctx.emit("GameOver", scores=final_scores(ctx.st))
