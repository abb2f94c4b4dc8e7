"""decide: one small handler per move kind; each names the rule IDs it enforces."""

from __future__ import annotations

from types import SimpleNamespace

from domain.engine import IllegalMove, Turn

from . import content as C
from . import state as Q
from .describe import choice_label
from .evolve import evolve
from .effects import ANSWERS, SIM_DONE, Ctx, apply_place, eff_ops, run
from .flow import keep_estate_affairs

#: What `Turn` needs of the rules: the fold of one fact, so facts chain within one decision.
FOLD = SimpleNamespace(evolve=evolve)


def decide(state, seat, move, rng) -> list[dict]:
    """The move's own rule checks first (they name the broken rule), then the list is binding: a move
    `decide` would accept is refused unless it equals a listed one (issue 16.4)."""
    facts = decide_move(state, seat, move, rng)  # works on a copy: `state` is unchanged
    from .moves import legal_moves, listed_form, listed_like
    if listed_form(state, seat, move) in listed_like(state, seat, move):  # not every placement; one of twins
        return facts
    listed = legal_moves(state, seat)
    if move not in listed:
        same = [m for m in listed if m.get("type") == move.get("type")]
        keys = set().union(*(set(m) for m in same)) if same else set()
        extra = sorted(set(move) - keys)
        raise IllegalMove("MFW-ROUND-06", f"unknown key(s) {extra} for a {move.get('type')!r} move" if extra else
                          f"this {move.get('type')!r} move is not one of the {len(same)} listed; "
                          "post one of GET /legal-moves as it is")
    return facts


def decide_move(state, seat, move, rng) -> list[dict]:
    turn = Turn(FOLD, state)
    ctx = Ctx(turn, rng)
    kind = move.get("type")
    pend = state["pending"]
    if state["over"]:
        raise IllegalMove("MFW-ENDGAME-01", "the game is over")
    if pend is not None:
        if pend["kind"] == "sim":
            commit(ctx, seat, move, pend)
        else:
            choose(ctx, seat, move, pend)
    else:
        if state["phase"] != "turns" or seat != state["active"]:
            rule = "MFW-FREE-03" if kind == "free" else "MFW-ROUND-11"
            raise IllegalMove(rule, f"it is seat {state['active']}'s turn")
        TURN_MOVES.get(kind, unknown)(ctx, seat, move)
    run(ctx)
    return turn.facts


def unknown(ctx, seat, move):
    raise IllegalMove("MFW-ROUND-06", f"unknown move type {move.get('type')!r}: place, pass, free, keep or end_turn")


def choose(ctx, seat, move, pend):
    if seat != pend["seat"]:
        raise IllegalMove("MFW-ROUND-11", f"waiting for seat {pend['seat']} to choose ({pend['kind']})")
    if move.get("type") != "choose" or move.get("option") not in pend["options"]:
        raise IllegalMove(rule_of_choice(ctx.s, pend, move.get("option")),
                          f"choose one of the offered options for {pend['kind']}: {pend['options']}")
    queue = list(ctx.s["queue"])
    secret = pend.get("secret")
    extra = {"private_to": [seat], "public": {"seat": seat, "kind": pend["kind"]}} if secret else {}
    label = choice_label(ctx.s, pend, move["option"])
    ctx.emit("PendingResolved", seat=seat, kind=pend["kind"], option=move["option"], label=label, **extra)
    ctx.queue = queue
    ANSWERS[pend["kind"]](ctx, pend, move["option"])


def commit(ctx, seat, move, pend):
    if seat not in pend["waiting"]:
        raise IllegalMove("MFW-ROUND-11", "you have nothing to commit now")
    if move.get("type") != "commit" or move.get("option") not in pend["options"][str(seat)]:
        raise IllegalMove(RULE_OF_CHOICE.get(pend["step"], "MFW-ROUND-06"), f"commit one of the offered options ({pend['step']})")
    queue = list(ctx.s["queue"])
    ctx.emit("Committed", seat=seat, step=pend["step"], option=move["option"], private_to=[seat],
             public={"seat": seat, "step": pend["step"]})
    if not ctx.s["pending"]["waiting"]:
        commits = dict(pend.get("forced", {}), **ctx.s["commits"])
        data = dict(ctx.s["pending"])
        ctx.queue = queue
        SIM_DONE[pend["step"]](ctx, commits, data)


def place(ctx, seat, move):
    apply_place(ctx, seat, check_place(ctx.s, seat, move))


def pass_(ctx, seat, move):
    """MFW-ROUND-07, MFW-ROUND-08, MFW-ROUND-09."""
    if ctx.s["turn"]["placed"]:
        raise IllegalMove("MFW-ROUND-06", "you already placed this turn: end your turn instead")
    if ctx.s["players"][seat]["ea"]:
        raise IllegalMove("MFW-ESTATE-06", "first keep one of the cards drawn at Estate Affairs")
    ctx.emit("Passed", seat=seat)
    ctx.later({"op": "end_turn"})


def free(ctx, seat, move):
    do_free(ctx, seat, move.get("source"))


def keep(ctx, seat, move):
    do_keep(ctx, seat, move.get("card"))


def end_turn(ctx, seat, move):
    if not ctx.s["turn"]["placed"]:
        raise IllegalMove("MFW-ROUND-06", "place pieces or pass before ending your turn")
    ctx.later({"op": "end_turn"})


def rule_of_choice(s, pend, option) -> str:
    """The rule a refused answer breaks (most specific first)."""
    kind = pend["kind"]
    if kind == "plot" and isinstance(option, str) and option.startswith("expand"):
        return "MFW-UPGRADE-05" if option != "expand" else "MFW-UPGRADE-10"
    if kind == "buy" and isinstance(option, str) and option.startswith("row:") and option[4:].isdigit():
        pos = int(option[4:])
        tile = s["row"][pos] if pos < 4 else None
        if tile and C.tile(tile)["name"] in Q.tile_names(s, pend["seat"]):
            return "MFW-UPGRADE-09"
        return "MFW-UPGRADE-10"
    if kind == "vanity" and isinstance(option, str) and option in s["vanity"]:
        return "MFW-UPGRADE-17" if s["vanity"][option] == 0 else "MFW-UPGRADE-09"
    return RULE_OF_CHOICE.get(kind, "MFW-ROUND-06")


TURN_MOVES = {"place": place, "pass": pass_, "free": free, "keep": keep, "end_turn": end_turn}
RULE_OF_CHOICE = {"keep": "MFW-ENDGEN-03", "store": "MFW-ENDGEN-05", "bio": "MFW-ENDGEN-15", "cycle": "MFW-JOURNAL-08",
                  "round_draw": "MFW-ROUND-03", "shed": "MFW-STARTGEN-05", "masterwork": "MFW-SETUP-16",
                  "ea_keep": "MFW-ESTATE-04", "slash": "MFW-PLACE-15", "plot": "MFW-UPGRADE-04",
                  "vanity": "MFW-UPGRADE-19", "buy": "MFW-TOWN-11", "pay_plan": "MFW-EXPERIMENT-10",
                  "lose_piece": "MFW-INSANITY-06", "draw_deck": "MFW-AMB-33", "retrieve": "MFW-TOWN-08"}


# ----------------------------------------------------------------------------- the checks of a placement, a free action, a keep


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
    refusal = Q.visit_refusal(s, seat, ab)
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
