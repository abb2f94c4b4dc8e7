"""decide: one small handler per move kind; each names the rule IDs it enforces."""

from __future__ import annotations

from types import SimpleNamespace

from domain.engine import IllegalMove, Turn

from . import content as C
from . import state as Q
from .describe import choice_label
from .actions import apply_place, check_place, do_free, do_keep
from .evolve import evolve
from .effects import ANSWERS, SIM_DONE, Ctx, run

#: What `Turn` needs of the rules: the fold of one fact, so facts chain within one decision.
FOLD = SimpleNamespace(evolve=evolve)


def decide(state, seat, move, rng) -> list[dict]:
    """The move's own rule checks first (they name the broken rule), then the list is binding: a move
    `decide` would accept is refused unless it equals a listed one (issue 16.4)."""
    facts = decide_move(state, seat, move, rng)  # works on a copy: `state` is unchanged
    from .moves import legal_moves
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
