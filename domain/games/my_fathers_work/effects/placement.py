"""The effects of a turn's action: a placement on a Town or Estate Location and its performances,
Estate Affairs, Record Knowledge and its card cycling, an Experiment's payment and completion, and the
end of a turn after a placement. `decide` checks the move (decide.check_place); `apply_place` turns a
checked placement into facts and queued ops."""

from __future__ import annotations

from .. import content as C
from .. import state as Q
from .primitives import ANSWERS, OPS, ask, combos, eff_ops, gain, note


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


def op_perform(ctx, op):
    s = ctx.s
    seat = op["seat"]
    rec = C.LOCATIONS[op["loc"]]
    if not Q.performable(s, seat, op["loc"]):
        return
    ctx.push(*eff_ops(seat, rec["cost_per_use"] + rec["reward_per_use"]))


def op_self_second(ctx, op):
    """MFW-AMB-08: the Self's second performance is optional when it costs something."""
    s = ctx.s
    rec = C.LOCATIONS[op["loc"]]
    if not Q.performable(s, op["seat"], op["loc"]):
        return
    then = [{"op": "perform", "seat": op["seat"], "loc": op["loc"]}]
    if rec["cost_per_use"]:
        ask(ctx, op["seat"], "yes_no", ["yes", "no"], auto=False, then=then, what="second performance")
    else:
        ctx.push(*then)


def op_lu_again(ctx, op):
    if Q.performable(ctx.s, op["seat"], op["loc"]):
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


def op_after_place(ctx, op):
    """MFW-ROUND-12, MFW-AMB-32: the turn ends by itself unless a free action or a keep is still possible."""
    s = ctx.s
    if not Q.usable_free_actions(s, op["seat"]) and not s["players"][op["seat"]]["ea"]:
        ctx.push({"op": "end_turn"})


OPS.update({"perform": op_perform, "self_second": op_self_second, "lu_again": op_lu_again, "cycle": op_cycle,
            "exp_pay": op_exp_pay, "exp_complete": op_exp_complete, "after_place": op_after_place})
ANSWERS.update({"cycle": ans_cycle, "pay_plan": ans_pay_plan})
