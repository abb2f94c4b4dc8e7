"""Turn actions: placement (Town and Estate), free actions, Estate Affairs keep, pass, end of turn.

`check_place` is the single validator (legal_moves filters candidates through it, decide
calls it); `apply_place` turns a valid placement into facts and queued ops.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from . import content as C
from . import state as Q
from .flow import keep_estate_affairs
from .effects import ANSWERS, OPS, ask, combos, eff_ops, gain, note


def _piece_type(pieces: list[str]) -> str:
    types = {C.PIECE_TYPE[p] for p in pieces}
    if len(types) != 1:
        raise IllegalMove("MFW-PLACE-02", "all pieces of one placement must be of a single type")
    return types.pop()


# MFW-PIECES-02 (the Spouse is a Servant-type piece), MFW-PIECES-05 (Servant-types on Town and Estate
# Locations), MFW-PIECES-06 (the Self too), MFW-PIECES-10 (a piece back in Quarters can be placed again this
# round), MFW-JOURNAL-17 (any piece type may Record Knowledge), MFW-ICON-10 (Spouse or Servant)
def check_place(s: dict, seat: int, move: dict) -> dict:
    """Validate a placement; return what apply_place needs. Raises IllegalMove(rule id)."""
    pl = s["players"][seat]
    loc = move.get("loc")
    if s["passed"][seat]:
        raise IllegalMove("MFW-ROUND-09", "you have passed this round")
    if pl["ea"] and not s["turn"]["placed"]:
        raise IllegalMove("MFW-ESTATE-06", "first keep one of the cards drawn at Estate Affairs")
    if s["turn"]["placed"]:
        estate = isinstance(loc, str) and loc not in C.LOCATIONS
        if estate and loc == "record_knowledge":
            raise IllegalMove("MFW-JOURNAL-07", "one Record Knowledge (one Estate action) per turn")
        raise IllegalMove("MFW-PLACE-18" if estate else "MFW-ROUND-06", "you have already placed this turn")
    if not isinstance(loc, str) or "locs" in move:
        raise IllegalMove("MFW-PLACE-01", "a placement names exactly one Location")
    if move.get("owner", seat) != seat:
        raise IllegalMove("MFW-PLACE-03", "you may not place on another player's Estate")
    pieces = move.get("pieces")
    if not isinstance(pieces, list) or not pieces or any(not isinstance(p, str) or p not in C.PIECES for p in pieces) \
            or len(set(pieces)) != len(pieces):
        raise IllegalMove("MFW-PLACE-01", f"name one or more of your pieces {list(C.PIECES)}")
    for p in pieces:
        if pl["pieces"][p] != "quarters":
            raise IllegalMove("MFW-PIECES-07", f"your {p} is not in your Quarters ({pl['pieces'][p]})")
    ptype = _piece_type(pieces)
    if loc in C.LOCATIONS:
        return _check_town(s, seat, loc, pieces, ptype)
    rec = Q.estate_location(s, seat, loc)
    if rec is None:
        raise IllegalMove("MFW-PLACE-01", f"{loc!r} is not a Location of the current Town or of your Estate")
    return _check_estate(s, seat, loc, rec, pieces, ptype, move)


# MFW-TRACKS-06 (an overtaken player still reaches the Church-type Locations), MFW-PLACE-13 (a cost per
# performance), MFW-PLACE-14 (every reward per performance), MFW-PLACE-16 (no capacity limit)
def _check_town(s, seat, loc, pieces, ptype) -> dict:
    rec = C.LOCATIONS[loc]
    if loc not in s["town"]:
        raise IllegalMove("MFW-STORY-05", f"{rec['name']} is not in the current Town")
    if ptype == "caretaker":
        raise IllegalMove("MFW-PIECES-03", "Caretakers may only be placed on your Estate")
    if Q.overtaken(s, seat) and rec["category"] != "church":
        raise IllegalMove("MFW-TRACKS-05", "the Angry Mob has overtaken you: only the Church is open to you")
    if rec["category"] == "laborers_union" and not Q.lost_servant_types(s, seat):
        raise IllegalMove("MFW-TOWN-09", "you have no Servant or Spouse in Lost")
    uses = 1 if ptype == "self" or rec["repeatable"] else len(pieces)
    fee = Q.fee(s, seat, loc, ptype)
    need = [{"pay": "money", "n": fee}] if fee else []
    for _ in range(uses):
        need += rec["cost_per_use"]
    if not Q.can_pay(s, seat, need):
        raise IllegalMove("MFW-PLACE-12", f"you cannot pay ${fee} fee plus {uses} use(s) of {rec['name']}")
    return {"where": "town", "loc": loc, "pieces": pieces, "ptype": ptype, "fee": fee}


# MFW-ESTATE-01 (every Estate has Estate Affairs, Record Knowledge and Perform Experiment), MFW-ESTATE-03 (draw
# mode: any mix of A, B and C), MFW-PLACE-19 (the Self performs an Estate action once), MFW-TRACKS-08 (overtaken
# status never affects the Estate), MFW-JOURNAL-01 (4 Journal tracks), MFW-JOURNAL-04 (free Journal Knowledge
# never pays a Journal cost), MFW-JOURNAL-06 (recording Occult causes no Insanity), MFW-EXPERIMENT-22 (one
# Experiment per action)
def _check_estate(s, seat, loc, rec, pieces, ptype, move) -> dict:
    pl = s["players"][seat]
    two = rec["servants_required"] == 2
    if two:  # MFW-EXPERIMENT-01, MFW-AMB-05, MFW-AMB-06
        ok = (ptype in ("self", "caretaker") and len(pieces) == 1) or (ptype == "servant" and len(pieces) == 2)
        if not ok:
            raise IllegalMove("MFW-EXPERIMENT-01", "use your Self, 1 Caretaker or exactly 2 Servant-type pieces")
    elif len(pieces) != 1:
        raise IllegalMove("MFW-PLACE-18", "one piece performs one Estate action (MFW-AMB-05)")
    info = {"where": "estate", "loc": loc, "pieces": pieces, "ptype": ptype}
    if loc == "estate_affairs":
        if move.get("mode") not in ("draw", "money"):
            raise IllegalMove("MFW-ESTATE-02", "Estate Affairs: mode 'draw' (3 cards, keep 1) or 'money' ($1)")
        info["mode"] = move["mode"]
    elif loc == "record_knowledge":
        track = move.get("track")
        if track not in C.TRACKS:
            raise IllegalMove("MFW-JOURNAL-02", f"name one Journal track of {list(C.TRACKS)}")
        level = pl["journal"][track]
        if level >= 3:
            raise IllegalMove("MFW-JOURNAL-05", f"your {track} Journal is already at its maximum level")
        cost = C.JOURNAL[track]["cost"][level]
        cubes = move.get("cubes", {track: cost})
        if cubes != {track: cost}:
            raise IllegalMove("MFW-JOURNAL-03", f"level {level + 1} of {track} costs exactly {cost} {track} cube(s)")
        if pl["res"][track] < cost:
            raise IllegalMove("MFW-JOURNAL-05", f"you need {cost} {track} cube(s); Journal Knowledge cannot pay")
        info.update(track=track, cost=cost)
    elif loc == "perform_experiment":
        card = move.get("card")
        if card != pl["masterwork"] and card not in pl["hand"]:
            raise IllegalMove("MFW-EXPERIMENT-02", "perform a card from your hand or your own Masterwork")
        if card == pl["masterwork"] and pl["mw_done"]:
            raise IllegalMove("MFW-EXPERIMENT-21", "your Masterwork is already completed")
        exp = C.EXPERIMENTS[card]
        level = exp["level"]
        if not Q.prerequisites_met(s, seat, level):
            rule = {"B": "MFW-EXPERIMENT-04", "C": "MFW-EXPERIMENT-05", "D": "MFW-EXPERIMENT-06"}[level]
            raise IllegalMove(rule, f"a {level} Experiment needs {C.PREREQS[level]} completed")
        for k, n in exp["cost_ingredients"].items():
            if pl["res"][k] < n:
                raise IllegalMove("MFW-EXPERIMENT-09", f"you need {n} {k} (no substitution)")
        if not Q.payment_plans(s, seat, card):
            rule = "MFW-EXPERIMENT-11" if exp["cost_knowledge"].get("occult", 0) > pl["res"]["occult"] + pl["journal"]["occult"] \
                else "MFW-EXPERIMENT-10"
            raise IllegalMove(rule, "you cannot pay the Knowledge cost")
        info["card"] = card
    return info


def apply_place(ctx, seat: int, info: dict) -> None:
    s = ctx.s
    loc = info["loc"]
    zone = ("town:" if info["where"] == "town" else "estate:") + loc
    ctx.emit("Placed", seat=seat, loc=loc, pieces=info["pieces"], zone=zone, fee=info.get("fee", 0),
             **{k: info[k] for k in ("mode", "track", "card") if k in info})
    if info["where"] == "town":
        _apply_town(ctx, seat, info)
    else:
        _apply_estate(ctx, seat, info)
    ctx.later({"op": "after_place", "seat": seat})


# MFW-TOWN-03 (each Insanity icon: +1 Insanity), MFW-TOWN-04 (each Creepy icon: +1 Creepy), MFW-TOWN-05 (each
# Angry Mob icon: the Mob 1 left), MFW-TOWN-06 (ingredient Locations), MFW-TOWN-07 (Knowledge Locations),
# MFW-TOWN-12 (an arrow moves that track), MFW-ICON-01 (x1: the Self performs once)
def _apply_town(ctx, seat, info):
    rec = C.LOCATIONS[info["loc"]]
    if info["fee"]:
        ctx.emit("Paid", seat=seat, res="money", n=info["fee"], reason="occupied")
    note(ctx, seat, "place", category=rec["category"])
    ops = eff_ops(seat, rec["penalties"])  # MFW-TOWN-01, MFW-TOWN-02: once per placement
    perform = {"op": "perform", "seat": seat, "loc": info["loc"]}
    if rec["repeatable"]:  # MFW-TOWN-10
        ops += [perform, {"op": "lu_again", "seat": seat, "loc": info["loc"]}]
    elif info["ptype"] == "self":  # MFW-PLACE-05, MFW-PLACE-06
        ops.append(perform)
        if not rec["no_self_bonus"]:
            ops.append({"op": "self_second", "seat": seat, "loc": info["loc"]})
    else:  # MFW-PLACE-04
        ops += [perform] * len(info["pieces"])
    for piece in info["pieces"]:  # MFW-PLACE-20, MFW-ICON-03, MFW-AMB-39
        for trig in rec["piece_triggers"]:
            if trig["piece"] == piece or (trig["piece"] == "servant" and C.PIECE_TYPE[piece] == "servant") \
                    or trig["piece"] == "self" == piece:
                ops += eff_ops(seat, trig["effects"])
    for _, ab in Q.abilities(ctx.s, seat, "on_place"):  # Upgrade abilities tied to a Town Location
        if ab["location"] in (info["loc"], rec["category"]) and ab["piece"] in ("any", info["ptype"]):
            ops += eff_ops(seat, ab["effects"])
    if rec["consult_app"]:  # MFW-TOWN-15
        ops.append({"op": "event", "event": rec["consult_app"], "placer": seat})
    ctx.later(*ops)


def performable(s, seat, loc) -> bool:
    rec = C.LOCATIONS[loc]
    if rec["category"] == "laborers_union" and not Q.lost_servant_types(s, seat):
        return False  # MFW-AMB-07
    return Q.can_pay(s, seat, rec["cost_per_use"])


def op_perform(ctx, op):
    s = ctx.s
    seat = op["seat"]
    rec = C.LOCATIONS[op["loc"]]
    if not performable(s, seat, op["loc"]):
        return
    ctx.push(*eff_ops(seat, rec["cost_per_use"] + rec["reward_per_use"]))


def op_self_second(ctx, op):
    """MFW-AMB-08: the Self's second performance is optional when it costs something."""
    s = ctx.s
    rec = C.LOCATIONS[op["loc"]]
    if not performable(s, op["seat"], op["loc"]):
        return
    then = [{"op": "perform", "seat": op["seat"], "loc": op["loc"]}]
    if rec["cost_per_use"]:
        ask(ctx, op["seat"], "yes_no", ["yes", "no"], auto=False, then=then, what="second performance")
    else:
        ctx.push(*then)


def op_lu_again(ctx, op):
    if performable(ctx.s, op["seat"], op["loc"]):
        ask(ctx, op["seat"], "yes_no", ["yes", "no"], auto=False, what="hire again",
            then=[{"op": "perform", "seat": op["seat"], "loc": op["loc"]}, dict(op)])


def _apply_estate(ctx, seat, info):
    loc = info["loc"]
    if loc == "estate_affairs":
        if info["mode"] == "money":
            gain(ctx, seat, "money", 1)
        else:
            ctx.later(*[{"op": "draw_exp", "seat": seat, "deck": "choice", "dest": "ea"}] * 3)
    elif loc == "record_knowledge":
        track = info["track"]
        level = ctx.s["players"][seat]["journal"][track] + 1
        ctx.emit("Paid", seat=seat, res=track, n=info["cost"])
        ctx.emit("JournalAdvanced", seat=seat, track=track, level=level)
        note(ctx, seat, "record")
        if level == 3:  # MFW-JOURNAL-16, MFW-AMB-38: the Vanity first, then card cycling
            ctx.later({"op": "eff", "seat": seat, "eff": {"upgrade": "vanity"}})
        ctx.later({"op": "cycle", "seat": seat, "n": level})
    elif loc == "perform_experiment":
        ctx.later({"op": "exp_pay", "seat": seat, "card": info["card"]})
    else:
        ctx.later(*eff_ops(seat, Q.estate_location(ctx.s, seat, loc)["effects"]))


def op_cycle(ctx, op):
    """MFW-JOURNAL-08: optionally discard exactly N cards and draw N."""
    hand = ctx.s["players"][op["seat"]]["hand"]
    if len(hand) >= op["n"]:
        ask(ctx, op["seat"], "cycle", ["skip"] + combos(sorted(hand), op["n"]), secret=True, auto=False)


def ans_cycle(ctx, p, o):
    if o == "skip":
        return
    seat = p["seat"]
    for card in o:
        ctx.emit("CardToBottom", seat=seat, card=card, private_to=[seat],
                 public={"seat": seat, "level": C.EXPERIMENTS[card]["level"]})
    ctx.push(*[{"op": "draw_exp", "seat": seat, "deck": "choice"}] * len(o))


def op_exp_pay(ctx, op):
    plans = Q.payment_plans(ctx.s, op["seat"], op["card"])
    ask(ctx, op["seat"], "pay_plan", plans, card=op["card"])


def ans_pay_plan(ctx, p, plan):
    """MFW-EXPERIMENT-09, MFW-EXPERIMENT-10, MFW-EXPERIMENT-11, MFW-EXPERIMENT-12, MFW-EXPERIMENT-13, MFW-EXPERIMENT-14, MFW-EXPERIMENT-15, MFW-EXPERIMENT-16, MFW-AMB-43: pay (Occult Insanity resolved fully) before the rewards."""
    s = ctx.s
    seat, card = p["seat"], p["card"]
    exp = C.EXPERIMENTS[card]
    cost = Q.plan_cost(s, seat, card, plan)
    for k, n in exp["cost_ingredients"].items():
        ctx.emit("Paid", seat=seat, res=k, n=n)
    for k, n in cost["cubes"].items():
        if n:
            ctx.emit("Paid", seat=seat, res=k, n=n)
    ops = [{"op": "ins_step", "seat": seat}] * cost["insanity"]
    ctx.push(*ops, {"op": "exp_complete", "seat": seat, "card": card})


# MFW-EXPERIMENT-20 (each Experiment has a Type), MFW-SCORE-05 (VP from Experiment rewards and the C bonus)
def op_exp_complete(ctx, op):
    s = ctx.s
    seat, card = op["seat"], op["card"]
    exp = C.EXPERIMENTS[card]
    ctx.emit("ExperimentCompleted", seat=seat, card=card, level=exp["level"], title=exp["title"])
    if exp["level"] == "C":  # MFW-EXPERIMENT-17, MFW-EXPERIMENT-18, MFW-EXPERIMENT-19
        bonus = {1: 8, 2: 4}.get(s["gen"], 0)
        if bonus:
            ctx.emit("Scored", seat=seat, n=bonus, reason="C bonus")
    note(ctx, seat, "complete", level=exp["level"])
    ops = eff_ops(seat, exp["rewards"])
    if exp["consult_app"]:
        ops.append({"op": "event", "event": exp["consult_app"], "placer": seat})
    ctx.push(*ops)


# ----------------------------------------------------------------------------- the rest of a turn

def visit_refusal(s, seat, ab) -> IllegalMove | None:
    """A free action that targets a Town Location obeys the Town rules (MFW-AMB-12, MFW-AMB-42)."""
    for e in ab["effects"]:
        if "visit" not in e:
            continue
        rec = C.LOCATIONS[e["visit"]]
        if e["visit"] not in s["town"]:
            return IllegalMove("MFW-STORY-05", f"{rec['name']} is not in the current Town")
        if Q.overtaken(s, seat) and rec["category"] != "church":
            return IllegalMove("MFW-TRACKS-05", "the Angry Mob has overtaken you: only the Church is open to you")
        if not Q.can_pay(s, seat, ab["cost"] + rec["cost_per_use"]):
            return IllegalMove("MFW-FREE-02", f"you cannot pay for {rec['name']}")
    return None


def usable_free_actions(s, seat) -> list[str]:
    used = s["turn"]["free_used"]
    out = []
    for source, ab in Q.abilities(s, seat, "free_action"):
        if used.count(source) < ab["uses"] and Q.can_pay(s, seat, ab["cost"]) and visit_refusal(s, seat, ab) is None:
            out.append(source)
    return out


def op_after_place(ctx, op):
    """MFW-ROUND-12, MFW-AMB-32: the turn ends by itself unless a free action or a keep is still possible."""
    s = ctx.s
    if not usable_free_actions(s, op["seat"]) and not s["players"][op["seat"]]["ea"]:
        ctx.push({"op": "end_turn"})


def do_free(ctx, seat, source) -> None:
    s = ctx.s
    abilities = dict(Q.abilities(s, seat, "free_action"))
    if not isinstance(source, str) or source not in abilities:
        raise IllegalMove("MFW-FREE-01", f"{source!r} is not a free action you own")
    ab = abilities[source]
    if s["players"][seat]["ea"] and not s["turn"]["placed"]:
        raise IllegalMove("MFW-ESTATE-06", "first keep one of the cards drawn at Estate Affairs")
    if s["turn"]["free_used"].count(source) >= ab["uses"]:
        raise IllegalMove("MFW-AMB-32", "this free action was already used this turn")
    if not Q.can_pay(s, seat, ab["cost"]):
        raise IllegalMove("MFW-FREE-02", "you cannot pay this free action's cost")
    refusal = visit_refusal(s, seat, ab)
    if refusal is not None:
        raise refusal
    ctx.emit("FreeActionUsed", seat=seat, source=source)
    ctx.later(*eff_ops(seat, ab["cost"] + ab["effects"]))
    if s["turn"]["placed"]:
        ctx.later({"op": "after_place", "seat": seat})


# MFW-ESTATE-05 (the keep-1 choice may wait until the start of the next turn)
def do_keep(ctx, seat, card) -> None:
    pl = ctx.s["players"][seat]
    if card not in pl["ea"]:
        raise IllegalMove("MFW-ESTATE-04", "keep one of the 3 cards you drew at Estate Affairs")
    keep_estate_affairs(ctx, seat, card)
    if ctx.s["turn"]["placed"]:
        ctx.later({"op": "after_place", "seat": seat})


OPS.update({"perform": op_perform, "self_second": op_self_second, "lu_again": op_lu_again, "cycle": op_cycle,
            "exp_pay": op_exp_pay, "exp_complete": op_exp_complete, "after_place": op_after_place})
ANSWERS.update({"cycle": ans_cycle, "pay_plan": ans_pay_plan})
