"""The turn and phase table: who acts now, the automatic steps of a turn, the end of a turn and of the game.

Decisions (Board Game Arena style), each with the rules that shape it:
  tier-1 draft (variant)  one seat at a time, in reverse turn order
                          ADA-SETUP-18, ADA-AMB-47
  a turn                  the active seat (flow["seat"]); its phases are agenda items:
    start                 workshop / adjust / actions / pass
                          ADA-TURN-01, ADA-TURN-02, ADA-TURN-03, ADA-TURN-04, ADA-AMB-44
    Workshop turn         move + push -> bonus -> refill -> Store -> step 6 (phase ws6: play / skip)
                          -> Research per Assignment column -> end-of-turn options
                          ADA-WORKSHOP-02, ADA-WORKSHOP-10, ADA-WORKSHOP-12, ADA-WORKSHOP-13, ADA-WORKSHOP-14, ADA-TURN-05
    Actions turn          die to the Mill -> main action -> Advanced (phase adv) -> end-of-turn options
                          ADA-ACTIONS-01, ADA-ACTIONS-06, ADA-ACTIONS-07
    end-of-turn options   phase endopt: publish / build / end_turn (defer_build) -> hand limit -> next seat
                          ADA-TURN-05, ADA-TURN-06, ADA-TURN-09, ADA-PARTNER-08
  deferred Build          the previous seat may send build / decline_build during the next turn (mode team,
                          R-10); before final scoring the game waits for it
                          ADA-BUILD-04, ADA-AMB-43
  the end                 the last seat of the round in which a Mill filled up
                          ADA-END-01, ADA-END-02, ADA-END-03, ADA-END-04
"""

from __future__ import annotations

from domain.engine import Decision

from . import content as C
from .effects.primitives import workshop_reward
from .resolver import ask
from .scoring import final_scores
from .state import draw_dice, new_flow


def decision(state):
    """Who must act now, and how."""
    if state["over"]:
        return Decision.nobody()
    draft = state.get("draft")
    if draft:
        return Decision.single(draft["order"][len(draft["picks"])], "pick a tier-1 Partner card")   # ADA-SETUP-18
    fl = state["flow"]
    deferred = fl["deferred"]
    if fl["final_wait"]:
        return Decision.single(deferred["seat"], "settle your deferred Build")
    if deferred and deferred["seat"] != fl["seat"]:
        # ADA-BUILD-04 / ADA-AMB-43: two seats may send a move, but not the same moves. The active seat plays
        # its turn; the previous seat may only send its deferred end-of-turn Build (build / decline_build).
        # decide() refuses anything else from either seat (ADA-TURN-07); legal_moves lists each seat's own.
        active, builder = fl["seat"], deferred["seat"]
        return Decision(
            (active, builder), "team",
            f"seat {active} takes their turn; seat {builder} may only send their deferred Build "
            f"(build or decline_build)",
            {"active": active, "deferred_build": builder})
    return Decision.single(fl["seat"], "take your turn")


# ------------------------------------------------------------------ the automatic steps of a turn
def h_ws_refill(ctx, item):
    """ADA-WORKSHOP-10, ADA-WORKSHOP-11, ADA-AMB-06."""
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
    """ADA-ASSIGN-07. ADA-WORKSHOP-14, ADA-WORKSHOP-15, ADA-WORKSHOP-19."""
    colour = ctx.fl.get("die_colour")
    if colour in C.COLOURS:
        for _ in range(len(ctx.p(item["s"])["columns"][colour])):
            ctx.push({"k": "research", "s": item["s"], "c": colour})


def h_adv_check(ctx, item):
    """ADA-ACTIONS-06, ADA-RESEARCH-04: the Advanced action is offered if, after the main action (which may
    itself have raised that track), the marker is at or above Advanced level 1."""
    colour = C.AREA_COLOUR[ctx.fl["area"]]
    if ctx.p(item["s"])["research"][colour] >= C.RESEARCH[colour]["advanced1"]:
        ctx.push({"k": "phase", "name": "adv"})


def h_finish(ctx, item):
    """ADA-PARTNER-08 (hand limit), then ADA-TURN-09: the turn ends (end_turn checks the end of the game)."""
    seat = item["s"]
    hand = ctx.p(seat)["hand"]
    if len(hand) > 5:
        ctx.push(item)
        ask(ctx, seat, "hand_limit", None, "ADA-PARTNER-08", source="hand")
        return
    end_turn(ctx, seat)


def end_turn(ctx, seat):
    """ADA-TURN-01: clockwise; turns and rounds counted."""
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
    if st["end_triggered"] and seat == last:      # ADA-END-02, ADA-END-03, ADA-END-04
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
    ctx.emit("GameOver", scores=final_scores(ctx.st))


STEPS = {
    "ws_refill": h_ws_refill, "wsbonus": h_wsbonus, "ws_store": h_ws_store, "ws_research": h_ws_research,
    "adv_check": h_adv_check, "finish": h_finish,
}
