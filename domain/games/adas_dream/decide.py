"""decide: one small function per move kind, each naming the rule IDs it enforces."""

from __future__ import annotations

import orjson

from domain.engine import IllegalMove, Turn

from . import content as C
from . import effects as E
from . import evolve as EVOLVE      # a Turn folds its facts with `.evolve`
from . import flow as F
from . import resolver as R
from . import state as S
from .state import deal, deal_decks
from .moves import (action_moves, adjust_moves, has_workshop_move, legal_moves, listed_like, publish_possible,
                    workshop_moves)


def _top(fl):
    return fl["agenda"][-1] if fl["agenda"] else None


def _phase(fl, name):
    top = _top(fl)
    return top is not None and top["k"] == "phase" and top["name"] == name


def _int(move, key, rule):
    value = move.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove(rule, f"field {key!r} must be an integer")
    return value


def d_workshop(ctx, seat, move):
    """ADA-WORKSHOP-09, ADA-WORKSHOP-16: the destination's bonus; the steps pushed in order 1 to 7. ADA-TURN-02,
    ADA-TURN-03, ADA-WORKSHOP-02, ADA-WORKSHOP-03, ADA-WORKSHOP-05, ADA-WORKSHOP-07, ADA-WORKSHOP-08."""
    fl, st, p = ctx.fl, ctx.st, ctx.p(seat)
    if fl["ttype"] not in (None, "workshop") or fl["moved"] or fl["agenda"]:
        raise IllegalMove("ADA-TURN-02", "a Workshop move is only possible at the start of a Workshop turn")
    if all(d is not None for d in p["store"]):
        raise IllegalMove("ADA-TURN-03", "your Store has no empty slot")
    s, i, j = _int(move, "space", "ADA-WORKSHOP-02"), _int(move, "die", "ADA-WORKSHOP-02"), _int(move, "push", "ADA-WORKSHOP-07")
    extra = move.get("extra", False)
    if extra not in (True, False):
        raise IllegalMove("ADA-WORKSHOP-03", "extra must be true or false")
    if not (0 <= s < 6 and 0 <= i < len(st["workshop"][s])):
        raise IllegalMove("ADA-WORKSHOP-02", "choose a die in a Workshop space")
    if extra and p["coal"] < 1:
        raise IllegalMove("ADA-WORKSHOP-05", "the extra space costs 1 Coal")
    die = st["workshop"][s][i]
    dest = (s + (2 if extra else 1)) % 6
    there = st["workshop"][dest]
    if not any(o["v"] <= die["v"] for o in there):
        raise IllegalMove("ADA-WORKSHOP-08", f"no die of value {die['v']} or lower in space {dest + 1} to push")
    if not 0 <= j < len(there) or there[j]["v"] > die["v"]:
        raise IllegalMove("ADA-WORKSHOP-07", f"the pushed die must show {die['v']} or less")
    if extra:
        E.gain(ctx, seat, coal=-1)
    pushed = there[j]
    ctx.emit("WsDieMoved", seat=seat, space=s, index=i, to=dest, extra=extra, die=die)
    ctx.emit("WsDiePushed", seat=seat, space=dest, index=j, die=pushed)
    fl.update(ttype="workshop", moved=True, area="workshop", die_colour=pushed["c"])
    for item in ({"k": "finish", "s": seat}, {"k": "phase", "name": "endopt"}, {"k": "ws_research", "s": seat},
                 {"k": "phase", "name": "ws6"}, {"k": "ws_store", "s": seat}, {"k": "ws_refill", "s": seat},
                 {"k": "wsbonus", "s": seat, "space": dest}):
        ctx.push(item)


def d_adjust(ctx, seat, move):
    """ADA-WORKSHOP-04, ADA-WORKSHOP-05, ADA-WORKSHOP-06, ADA-AMB-03."""
    fl, st, p = ctx.fl, ctx.st, ctx.p(seat)
    if fl["ttype"] not in (None, "workshop"):
        raise IllegalMove("ADA-TURN-02", "the Coal adjustment belongs to a Workshop turn")
    top = _top(fl)
    if top is not None and top["k"] != "phase":
        raise IllegalMove("ADA-WORKSHOP-06", "finish the pending choice first")
    if fl["ttype"] is None and all(d is not None for d in p["store"]):
        raise IllegalMove("ADA-TURN-03", "your Store has no empty slot")
    if fl["adj_used"]:
        raise IllegalMove("ADA-WORKSHOP-05", "the Coal adjustment is once per turn")
    if p["coal"] < 1:
        raise IllegalMove("ADA-WORKSHOP-05", "the adjustment costs 1 Coal")
    s, i = _int(move, "space", "ADA-AMB-03"), _int(move, "die", "ADA-AMB-03")
    delta = move.get("delta")
    if not (0 <= s < 6 and 0 <= i < len(st["workshop"][s])):
        raise IllegalMove("ADA-AMB-03", "the adjustment targets a die in a Workshop space")
    v = st["workshop"][s][i]["v"]
    if not isinstance(delta, int) or isinstance(delta, bool) or delta not in (-1, 1) or not 1 <= v + delta <= 6:
        raise IllegalMove("ADA-WORKSHOP-04", "change the value by exactly 1, staying within 1-6")
    if not fl["moved"]:
        trial = [list(x) for x in st["workshop"]]
        trial[s][i] = {"c": trial[s][i]["c"], "v": v + delta}
        if not has_workshop_move(trial, p["coal"] - 1):
            raise IllegalMove("ADA-WORKSHOP-08", "after this adjustment no die could be moved and push")
    E.gain(ctx, seat, coal=-1)
    ctx.emit("DieValue", seat=seat, where=["ws", s, i], to=v + delta, coal=True)
    fl.update(ttype="workshop", adj_used=True, area="workshop")


def d_actions(ctx, seat, move):
    """ADA-ACTIONS-08, ADA-END-05: the die stays in the Mill; the trigger fires once. ADA-TURN-02, ADA-TURN-04,
    ADA-ACTIONS-01, ADA-ACTIONS-02, ADA-ACTIONS-03, ADA-ACTIONS-04, ADA-ACTIONS-05,
    ADA-END-01."""
    fl, st, p = ctx.fl, ctx.st, ctx.p(seat)
    if fl["ttype"] is not None or fl["agenda"]:
        raise IllegalMove("ADA-TURN-02", "this turn is already a Workshop turn")
    if all(d is None for d in p["store"]) or all(d is not None for d in p["mill"]):
        raise IllegalMove("ADA-TURN-04", "an Actions turn needs a Store die and an empty Mill slot")
    k, m = _int(move, "die", "ADA-ACTIONS-01"), _int(move, "slot", "ADA-ACTIONS-02")
    if not 0 <= k < len(p["store"]) or p["store"][k] is None:
        raise IllegalMove("ADA-ACTIONS-01", "choose a die in your Store")
    if not 0 <= m < 9 or p["mill"][m] is not None:
        raise IllegalMove("ADA-ACTIONS-02", "choose an empty Mill slot")
    die = p["store"][k]
    area = move.get("action")
    if area not in C.AREAS:
        raise IllegalMove("ADA-ACTIONS-03", f"action must be one of {list(C.AREAS)}")
    if die["c"] != "grey" and C.COLOUR_AREA[die["c"]] != area:
        raise IllegalMove("ADA-ACTIONS-03", f"a {die['c']} die takes the {C.COLOUR_AREA[die['c']]} action")
    if not S.performable(st, seat, area):
        raise IllegalMove("ADA-ACTIONS-05", f"the {area} main action cannot be carried out now")
    ctx.emit("DieToMill", seat=seat, store=k, slot=m, die=die)
    if not st["end_triggered"] and all(d is not None for d in ctx.p(seat)["mill"]):
        ctx.emit("EndTriggered", seat=seat)
    fl.update(ttype="actions", area=area)
    ctx.push({"k": "finish", "s": seat})
    ctx.push({"k": "phase", "name": "endopt"})
    ctx.push({"k": "adv_check", "s": seat})      # step 4: Research is read once the main action has resolved
    main_action(ctx, seat, area)


def main_action(ctx, seat, area):
    st = ctx.st
    if area == "study":                       # ADA-AMB-62: Program first, then the Study reward
        ctx.push({"k": "study_main", "s": seat})
        R.ask(ctx, seat, "program", [[o["slot"], o["line"]] for o in S.program_options(st, seat)], "ADA-PROGRAM-03",
              {"main": True})
    elif area == "travel":
        R.ask(ctx, seat, "travel", [c for c, _ in S.travel_destinations(st, seat)], "ADA-TRAVEL-03")
    elif area == "meeting":
        R.ask(ctx, seat, "meeting", S.meeting_options(st, seat), "ADA-MEETING-02")
    else:
        R.ask(ctx, seat, "lecture", S.institution_options(st, seat), "ADA-INSTITUTION-08")


def d_pass(ctx, seat, move):
    """ADA-AMB-44: only when neither turn type is possible."""
    fl, st = ctx.fl, ctx.st
    if fl["ttype"] is not None or fl["agenda"]:
        raise IllegalMove("ADA-TURN-02", "the turn has already started")
    store_room = any(d is None for d in st["players"][seat]["store"])
    if (store_room and (workshop_moves(st, seat) or adjust_moves(st, seat, True))) or action_moves(st, seat):
        raise IllegalMove("ADA-AMB-44", "you can take a Workshop or Actions turn, so you may not pass")
    fl.update(ttype="pass", area=None)
    ctx.push({"k": "finish", "s": seat})
    ctx.push({"k": "phase", "name": "endopt"})


def d_play(ctx, seat, move):
    """ADA-WORKSHOP-13, ADA-PARTNER-06, ADA-PARTNER-09, ADA-PARTNER-10, ADA-PARTNER-11, ADA-PARTNER-12,
    ADA-PARTNER-13, ADA-AMB-09."""
    fl, p = ctx.fl, ctx.p(seat)
    if fl["played6"]:
        raise IllegalMove("ADA-WORKSHOP-13", "only one Partner card in step 6")
    if not _phase(fl, "ws6"):
        raise IllegalMove("ADA-PARTNER-09", "a Partner card is played in step 6 of a Workshop turn")
    card = move.get("card")
    if card not in p["hand"]:
        raise IllegalMove("ADA-PARTNER-06", "play a card from your hand")
    info = C.partner(card)
    slot = fl["die_slot"]
    die = p["store"][slot]
    req = info.get("requirement")
    if req and die["v"] not in req["dieValues"]:
        raise IllegalMove("ADA-PARTNER-10", f"this card needs an active die showing {req['dieValues']}")
    if info.get("cost") == "dieReduction":
        if die["v"] <= 1:
            raise IllegalMove("ADA-PARTNER-12", "a die showing 1 cannot pay a die-reduction cost")
        ctx.emit("DieValue", seat=seat, where=["store", slot], to=die["v"] - 1, cost=True)
    elif info.get("cost") == "money":
        if p["money"] < die["v"]:
            raise IllegalMove("ADA-PARTNER-13", f"this card costs £{die['v']}")
        E.gain(ctx, seat, money=-die["v"])
    fl["agenda"].pop()
    fl["played6"] = True
    ctx.emit("CardPlayed", seat=seat, card=card)
    R.eff(ctx, seat, info["effect"])


def d_skip(ctx, seat, move):
    fl = ctx.fl
    if not (_phase(fl, "ws6") or _phase(fl, "adv")):
        raise IllegalMove("ADA-TURN-02", "nothing to skip now")
    fl["agenda"].pop()


def d_advanced(ctx, seat, move):
    """ADA-ACTIONS-06, ADA-ACTIONS-07, ADA-AMB-16."""
    fl, p = ctx.fl, ctx.p(seat)
    if not _phase(fl, "adv"):
        colour = C.AREA_COLOUR.get(fl["area"])
        if fl["ttype"] == "actions" and colour and p["research"][colour] < C.RESEARCH[colour]["advanced1"]:
            raise IllegalMove("ADA-ACTIONS-06", f"your {colour} Research is below Advanced level 1")
        raise IllegalMove("ADA-ACTIONS-07", "the Advanced action follows the main action of an Actions turn")
    colour = C.AREA_COLOUR[fl["area"]]
    level = 2 if p["research"][colour] >= C.RESEARCH[colour]["advanced2"] else 1
    fl["agenda"].pop()
    E.advanced(ctx, seat, fl["area"], level, fl["ref"])


def d_publish(ctx, seat, move):
    """ADA-ACTIONS-09. ADA-TURN-05, ADA-TURN-06, ADA-BUILD-05, ADA-PUBLISH-01, ADA-PUBLISH-02, ADA-PUBLISH-03,
    ADA-PUBLISH-04,
    ADA-PUBLISH-09, ADA-PUBLISH-10, ADA-PUBLISH-12, ADA-PUBLISH-13, ADA-WORKSHOP-20, ADA-AMB-26, ADA-AMB-51."""
    fl, st, p = ctx.fl, ctx.st, ctx.p(seat)
    if fl["opt_done"]:
        raise IllegalMove("ADA-BUILD-05", "you already took your end-of-turn option")
    if not _phase(fl, "endopt"):
        raise IllegalMove("ADA-TURN-06", "Publish comes after the turn has fully resolved")
    area = fl["area"]
    if fl["ttype"] == "pass":
        raise IllegalMove("ADA-AMB-44", "no Publish on a pass turn")
    if move.get("area") not in (None, area):
        raise IllegalMove("ADA-WORKSHOP-20" if area == "workshop" else "ADA-PUBLISH-02",
                          f"the Publish available is the {area} Publish")
    if p["book"] < 1:
        raise IllegalMove("ADA-PUBLISH-01", "Publishing costs 1 Book")
    if area == "workshop" and p["steam"] >= C.STEAM_MAX:
        raise IllegalMove("ADA-AMB-51", "your Steam marker is at the top")
    if not publish_possible(st, seat):
        rule = {"workshop": "ADA-PUBLISH-03", "study": "ADA-AMB-26", "travel": "ADA-PUBLISH-10",
                "meeting": "ADA-PUBLISH-12", "institution": "ADA-PUBLISH-13"}[area]
        raise IllegalMove(rule, f"the {area} Publish cannot be carried out now")
    fl["agenda"].pop()
    fl["opt_done"] = True
    E.gain(ctx, seat, book=-1)
    ctx.emit("Published", seat=seat, area=area)
    if area == "workshop":
        E.steam_advance(ctx, seat, True)
    elif area == "study":
        targets = S.stack_targets(st, seat)
        if targets:
            R.ask(ctx, seat, "pub_stack", targets, "ADA-PUBLISH-07")
        else:
            R.ask(ctx, seat, "box", S.board_discs(p), "ADA-PUBLISH-09")
    elif area == "travel":
        R.ask(ctx, seat, "pip", E.adjust_options(st, seat, "board"), "ADA-PUBLISH-11", {"left": 4}, optional=True)
    elif area == "meeting":
        R.ask(ctx, seat, "multiplier", [k for k, m in enumerate(st["displays"]["mult"]) if m], "ADA-PUBLISH-12")
    else:
        R.ask(ctx, seat, "swap_own", S.own_dice(st, seat), "ADA-PUBLISH-13")


def _build(ctx, seat, move):
    pick = {"gear": move.get("gear"), "space": move.get("space")}
    options = S.build_options(ctx.st, seat)
    if pick in options and isinstance(pick["space"], int) and not isinstance(pick["space"], bool):
        pick = options[options.index(pick)]
    else:
        p = ctx.p(seat)
        if pick["gear"] not in p["gear_supply"]:
            raise IllegalMove("ADA-BUILD-02", "that gear is not in your personal supply")
        if not isinstance(pick["space"], int) or isinstance(pick["space"], bool) \
                or pick["space"] not in S.empty_gear_spaces(p):
            raise IllegalMove("ADA-GEAR-09", "build on an empty gear space with no disc and no gear")
        raise IllegalMove("ADA-BUILD-02", "you cannot pay that gear's cost")
    E.ch_build(ctx, {"s": seat, "d": {}}, pick)


def d_build(ctx, seat, move):
    """ADA-BUILD-01, ADA-BUILD-02, ADA-BUILD-03, ADA-BUILD-05, ADA-TURN-05, ADA-TURN-06."""
    fl = ctx.fl
    deferred = fl["deferred"]
    if deferred and deferred["seat"] == seat and (fl["final_wait"] or fl["seat"] != seat):
        fl["building"] = deferred["round"]              # ADA-AMB-41: counts as the builder's turn
        _build(ctx, seat, move)
        fl["deferred"] = None
        return
    if fl["opt_done"]:
        raise IllegalMove("ADA-BUILD-05", "you already took your end-of-turn option")
    if not _phase(fl, "endopt"):
        raise IllegalMove("ADA-TURN-06", "Build comes after the turn has fully resolved")
    _build(ctx, seat, move)
    fl["agenda"].pop()
    fl["opt_done"] = True


def d_end_turn(ctx, seat, move):
    """ADA-TURN-05, ADA-TURN-09, ADA-BUILD-04."""
    fl = ctx.fl
    if not _phase(fl, "endopt"):
        raise IllegalMove("ADA-TURN-05", "the turn has not fully resolved yet")
    defer = bool(move.get("defer_build", False))
    if defer and (fl["opt_done"] or not S.build_options(ctx.st, seat)):
        raise IllegalMove("ADA-BUILD-04", "there is no Build you could defer")
    fl["agenda"].pop()
    fl["defer_build"] = defer


def d_decline_build(ctx, seat, move):
    fl = ctx.fl
    if not (fl["deferred"] and fl["deferred"]["seat"] == seat):
        raise IllegalMove("ADA-BUILD-04", "you have no deferred Build")
    fl["deferred"] = None


def d_choose(ctx, seat, move):
    top = _top(ctx.fl)
    if top is None or top["k"] != "choice":
        raise IllegalMove("ADA-TURN-02", "there is no pending choice")
    if "pick" in move and "option" not in move:      # the shape before issue 18 (RULINGS R-16)
        raise IllegalMove("ENGINE-MOVE-02", "field 'pick' is now 'option': send {\"type\": \"choose\", "
                                            "\"option\": <option>} (GET legal-moves lists them)")
    R.answer(ctx, seat, move.get("option"))


DECIDERS = {
    "workshop": d_workshop, "adjust": d_adjust, "actions": d_actions, "pass": d_pass, "play": d_play,
    "skip": d_skip, "advanced": d_advanced, "publish": d_publish, "build": d_build, "end_turn": d_end_turn,
    "decline_build": d_decline_build, "choose": d_choose,
}


def drafter(state):
    draft = state.get("draft")
    return draft["order"][len(draft["picks"])] if draft else None


def d_draft(state, seat, move, rng):
    """ADA-SETUP-18, ADA-AMB-47: reverse turn order picks; 6 of the rest (random) top the Meeting deck."""
    turn = Turn(EVOLVE, state)
    if move.get("type") != "draft" or seat != drafter(state):
        raise IllegalMove("ADA-SETUP-18", f"the tier-1 draft is on; seat {drafter(state)} picks a card")
    if move.get("card") not in state["draft"]["pool"]:
        raise IllegalMove("ADA-SETUP-18", "pick one of the revealed tier-1 cards")
    turn.emit("Drafted", seat=seat, card=move["card"])
    draft = turn.state["draft"]
    if draft["pool"] and len(draft["picks"]) < state["n"]:
        return turn.facts
    pool = rng.shuffled(draft["pool"])
    kept, removed = pool[:6], pool[6:]
    turn.emit("DraftDone", deck=kept, removed=removed, private_to=[], public={"deck": len(kept)}, random=True)
    slots, drawn = deal([None] * 4, turn.state["stacks"]["meet"])
    turn.emit("DisplaySet", display="meet", slots=slots, drawn=drawn)
    for s, card in draft["picks"]:
        for f in deal_decks(s, card, rng, face_down=False):      # drafted cards are public
            turn.add(f)
    return turn.facts


def _canonical(move):
    try:
        return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None


def _must_be_listed(state, seat, move):
    """Issue 16.4: a move is accepted only when it equals a listed one, exactly (no extra or irrelevant key,
    no 1.0 or true for 1): what is stored forever is a listed move. Checked after the move kind's own
    checks, which name the precise rule of most refusals."""
    key = _canonical(move)
    if key is not None and any(_canonical(m) == key for m in listed_like(state, seat, move)):
        return  # one of the listed moves of its kind (the whole list is built only for a refusal)
    legal = legal_moves(state, seat)
    if key is not None and any(_canonical(m) == key for m in legal):
        return
    same = [m for m in legal if m["type"] == move.get("type")]
    known = set().union(*(m.keys() for m in same)) if same else set()
    extra = sorted(str(k) for k in move if k not in known)
    detail = f"field(s) {extra} are not part of a {move.get('type')!r} move" if same and extra else \
        "this move is not one of the listed legal moves"
    raise IllegalMove("ENGINE-MOVE-02", f"{detail} (GET legal-moves lists them)")


def decide(state, seat, move, rng):
    """Validate `move` and return its facts (the kernel's `Rules.decide`)."""
    facts = _decide(state, seat, move, rng)
    _must_be_listed(state, seat, move)
    return facts


def _decide(state, seat, move, rng):
    if state["over"]:
        raise IllegalMove("ADA-END-04", "the game is over")
    if state.get("draft"):
        return d_draft(state, seat, move, rng)
    turn = Turn(EVOLVE, state)
    fl = turn.state["flow"]
    deferred = fl["deferred"]
    out_of_turn = deferred and deferred["seat"] == seat and (fl["final_wait"] or fl["seat"] != seat)
    kind = move.get("type")
    if out_of_turn:
        if kind not in ("build", "decline_build"):
            raise IllegalMove("ADA-TURN-07", "only your deferred Build may be sent out of turn")
        actor = seat
    else:
        if seat != fl["seat"] or fl["final_wait"]:
            raise IllegalMove("ADA-TURN-07", f"seat {seat} is not the active player")
        top = fl["agenda"][-1] if fl["agenda"] else None
        if top is not None and top["k"] == "choice" and kind != "choose":
            if kind in ("publish", "build") and fl["opt_done"]:
                raise IllegalMove("ADA-BUILD-05", "you already took your end-of-turn option")
            rule = {"advanced": "ADA-ACTIONS-07", "play": "ADA-PARTNER-09", "publish": "ADA-TURN-06",
                    "build": "ADA-TURN-06"}.get(kind, "ADA-TURN-02")
            raise IllegalMove(rule, f"a choice is pending ({top['kind']}); answer it with 'choose'")
        actor = seat
    if kind not in DECIDERS:
        raise IllegalMove("ADA-TURN-02", f"unknown move type {kind!r}")
    ctx = R.Ctx(turn, rng, actor)
    DECIDERS[kind](ctx, seat, move)
    R.run(ctx)
    if out_of_turn:
        ctx.fl.pop("building", None)
        if ctx.fl["final_wait"] and ctx.fl["deferred"] is None:
            ctx.fl["final_wait"] = False
            F.game_over(ctx)
    return ctx.commit()
