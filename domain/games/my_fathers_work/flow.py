"""The turn flow as ops: setup, Start of Generation, rounds, End of Round, End of Generation, End of Game.

    setup -> start_gen -> [start_round -> turns ... -> end_round] x3 -> end_gen -> start_gen ... -> final
"""

from __future__ import annotations

from . import content as C
from . import state as Q
from .effects import (ANSWERS, OPS, SIM_DONE, ask, ask_all, arm_compulsions, draw_card, draw_special, eff_ops,
                  fire_hook, gain, set_town)


# ----------------------------------------------------------------------------- setup

def decision(state):
    """Who acts now: every seat still to commit in a simultaneous step, the seat a pending choice
    waits for, or the active player."""
    from domain.engine import Decision
    if state["over"]:
        return Decision.nobody()
    pend = state["pending"]
    if pend is not None:
        if pend["kind"] == "sim":
            return Decision.simultaneous(pend["waiting"], pend["step"])
        return Decision.single(pend["seat"], pend["kind"])
    return Decision.single(state["active"], "place pieces or pass")


def setup_facts(ctx) -> None:
    s = ctx.s
    rng = ctx.rng
    decks = {lv: rng.fork(lv).shuffled(C.EXP_LEVEL_IDS[lv]) for lv in ("A", "B", "C")}  # MFW-SETUP-07
    decks["comp"] = rng.fork("comp").shuffled(sorted(C.COMPULSIONS))  # MFW-SETUP-06
    decks["mal"] = rng.fork("mal").shuffled(sorted(C.MALADJUSTMENTS))
    decks["tiles"] = rng.fork("tiles").shuffled(sorted(i for i, r in C.UPGRADES.items() if r["set"] == "gen12"))  # MFW-SETUP-04, MFW-SETUP-05
    ctx.emit("DecksShuffled", decks=decks, random=True, private_to=[],
             public={"counts": {k: len(v) for k, v in decks.items()}})
    ctx.emit("RowChanged", row=decks["tiles"][:4], drawn=4)
    sheds = sorted(i for i, r in C.UPGRADES.items() if r["set"] == "storage_shed")
    for seat in range(s["n"]):  # MFW-SETUP-10
        ctx.emit("TileBuilt", seat=seat, tile=sheds[seat], plot=0, source="setup")
    scn = C.SCENARIOS[s["scenario"]]
    sp = scn["start_player"]
    first = rng.fork("start").randint(0, s["n"] - 1) if sp == "random" else sp % s["n"]  # MFW-SETUP-17
    ctx.emit("StartPlayerSet", seat=first, random=sp == "random")
    if s["options"]["choose_masterwork"]:  # MFW-SETUP-16, MFW-AMB-44: seat order from seat 0
        ctx.later(*[{"op": "pick_masterwork", "seat": seat} for seat in range(s["n"])])
    else:  # MFW-SETUP-15
        for seat, card in enumerate(rng.fork("mw").sample(C.EXP_LEVEL_IDS["D"], s["n"])):
            ctx.emit("MasterworkDealt", seat=seat, card=card, random=True)
    ctx.later({"op": "start_gen", "gen": 1})


def op_pick_masterwork(ctx, op):
    taken = {p["masterwork"] for p in ctx.s["players"]}
    ask(ctx, op["seat"], "masterwork", [d for d in C.EXP_LEVEL_IDS["D"] if d not in taken], auto=False)


def ans_masterwork(ctx, p, o):
    ctx.emit("MasterworkPicked", seat=p["seat"], card=o)


# ----------------------------------------------------------------------------- start of generation

# MFW-ROUND-01 (Start of Generation, then rounds 1-3, then End of Generation), MFW-STARTGEN-08 (also for
# Generation I), MFW-STARTGEN-09 (finished before round 1 starts), MFW-SAVE-02 (board tracks reset at the start
# of a Generation)
def op_start_gen(ctx, op):
    s = ctx.s
    gen = op["gen"]
    ctx.emit("GenerationStarted", gen=gen)
    g = C.SCENARIOS[s["scenario"]]["generation"][gen - 1]
    set_town(ctx, g["page"], s["added"], s["replaced"])  # MFW-SETUP-02, MFW-STARTGEN-01
    ctx.emit("BoardTracksSet", mob=g["mob_start"], suspicion=g["suspicion_start"])  # MFW-SETUP-03, MFW-ENDGEN-17
    ctx.push({"op": "hook", "hook": "start_of_generation"}, {"op": "sog_draws"}, {"op": "sog_shed"},
             {"op": "start_round", "round": 1})


def op_hook(ctx, op):
    fire_hook(ctx, op["hook"])


def op_sog_draws(ctx, op):
    """MFW-STARTGEN-02: 1 A, 1 B and 1 C for each player."""
    for seat in Q.seat_order(ctx.s):
        for deck in ("A", "B", "C"):
            if ctx.s["decks"][deck]:
                draw_card(ctx, seat, deck)


def has_shed(s, seat) -> bool:
    return any(C.tile(t).get("set") == "storage_shed" for t in Q.tiles_of(s, seat))  # Vanity tiles have no set


def op_sog_shed(ctx, op):
    """MFW-STARTGEN-05 (D2): Storage Shed owners choose their Resource, committed hidden."""
    s = ctx.s
    options = {seat: list(C.RESOURCES) + ["money"] for seat in range(s["n"]) if has_shed(s, seat)}
    ask_all(ctx, "shed", options)


def sim_shed(ctx, commits, data):
    ctx.emit("Revealed", step="shed", commits=commits)
    ctx.push(*[{"op": "sog_apply", "seat": seat, "shed": commits.get(str(seat))} for seat in Q.seat_order(ctx.s)])


# MFW-JOURNAL-12 (Chemistry level 2: a Servant back from Lost each Generation), MFW-UPGRADE-16 (the Storage
# Shed's start-of-Generation Resource)
def op_sog_apply(ctx, op):
    """MFW-STARTGEN-03, MFW-STARTGEN-04, MFW-STARTGEN-05, MFW-STARTGEN-06, MFW-STARTGEN-07 in the order of MFW-AMB-26."""
    s = ctx.s
    seat = op["seat"]
    pl = s["players"][seat]
    ops = []
    shed_paid = False
    for t in Q.tiles_of(s, seat):
        for ab in C.tile(t).get("abilities", []):
            if ab["kind"] != "start_of_generation":
                continue
            if C.tile(t)["set"] == "storage_shed":
                if op["shed"] and not shed_paid:
                    ops.append({"op": "gain_res", "seat": seat, "res": op["shed"]})
                    shed_paid = True
            else:
                ops.extend(eff_ops(seat, ab["effects"]))
    if pl["journal"]["chemistry"] >= 2:  # MFW-STARTGEN-06
        ops.append({"op": "eff", "seat": seat, "eff": {"retrieve": "servant"}})
    for tok in pl["tokens"]:
        ab = C.TOKENS[tok]["ability"]
        if ab["kind"] == "start_of_generation":
            ops.extend(eff_ops(seat, ab["effects"]))
    for t in Q.tiles_of(s, seat):  # MFW-STARTGEN-04
        ops.extend(eff_ops(seat, C.tile(t).get("penalties", [])))
    ops.extend(eff_ops(seat, C.JOURNAL["occult"]["start_of_generation_penalty"][pl["journal"]["occult"]]))  # MFW-STARTGEN-07
    ctx.push(*ops)


def op_gain_res(ctx, op):
    gain(ctx, op["seat"], op["res"], 1)


# ----------------------------------------------------------------------------- rounds

# MFW-ROUND-02 (the scenario's start-of-round hook first), MFW-ENDROUND-10 (every passed status cleared)
def op_start_round(ctx, op):
    ctx.emit("RoundStarted", round=op["round"])
    ctx.push({"op": "hook", "hook": "start_of_round"}, {"op": "round_draw"}, {"op": "income"}, {"op": "begin_turns"})


def op_round_draw(ctx, op):
    """MFW-ROUND-03 (D4): each player picks a deck, committed hidden."""
    decks = Q.nonempty_decks(ctx.s)
    ask_all(ctx, "round_draw", {seat: decks for seat in range(ctx.s["n"])} if decks else {})


def sim_round_draw(ctx, commits, data):
    ctx.emit("Revealed", step="round_draw", commits=commits)
    for seat in Q.seat_order(ctx.s):
        deck = commits.get(str(seat))
        if deck and ctx.s["decks"][deck]:
            draw_card(ctx, seat, deck)


def op_income(ctx, op):
    """MFW-ROUND-04 (modifiable by the scenario, MFW-STORY-01), then start-of-round abilities."""
    s = ctx.s
    ops = []
    for seat in Q.seat_order(s):
        ops.append({"op": "eff", "seat": seat, "eff": {"gain": "money", "n": Q.income(s, seat)}})
        for _, ab in Q.abilities(s, seat, "start_of_round"):
            ops.extend(eff_ops(seat, ab["effects"]))
        for m in s["players"][seat]["mals"]:
            eff = C.MALADJUSTMENTS[m]["effect"]
            if eff.get("trigger") == "start_of_round":
                ops.extend(eff_ops(seat, eff["effects"]))
    ctx.push(*ops)


def op_begin_turns(ctx, op):
    arm_compulsions(ctx)
    ctx.emit("TurnsBegan", active=ctx.s["start_player"])


def next_seat(s) -> int | None:
    """MFW-ROUND-05, MFW-ROUND-12: clockwise, skipping passed players (the current one comes last)."""
    n = s["n"]
    for i in range(1, n + 1):
        seat = (s["active"] + i) % n
        if not s["passed"][seat]:
            return seat
    return None


def op_end_turn(ctx, op):
    arm_compulsions(ctx)  # MFW-AMB-15
    nxt = next_seat(ctx.s)
    ctx.emit("TurnEnded", seat=ctx.s["active"], next=nxt)
    if nxt is None:
        ctx.push({"op": "end_round"})


# MFW-ROUND-10 (runs once every player has passed)
def op_end_round(ctx, op):
    """MFW-AMB-17: unresolved Estate Affairs choices are settled first; then MFW-ENDROUND-01 steps 1..6."""
    s = ctx.s
    ops = [{"op": "ask", "seat": seat, "kind": "ea_keep", "options": list(s["players"][seat]["ea"]), "secret": True}
           for seat in Q.seat_order(s) if s["players"][seat]["ea"]]
    ctx.emit("PhaseSet", phase="end_of_round")
    ctx.push(*ops, {"op": "end_round_steps"})


def servant_cost_zone(s, seat, zone: str) -> bool:
    if zone.startswith("ins:"):
        return True
    if zone.startswith("estate:"):
        rec = Q.estate_location(s, seat, zone[7:])
        return bool(rec and rec["servant_cost"])
    return False


# MFW-ESTATE-08 (a Servant on Estate Affairs back to Quarters), MFW-ESTATE-09 (on Record Knowledge to Lost),
# MFW-ESTATE-10 (both Perform Experiment Servants to Lost), MFW-ESTATE-11 and MFW-PIECES-04 (Self and Caretakers
# back to Quarters, never Lost), MFW-PLACE-17 (pieces stay until now), MFW-ENDROUND-05 (step 3: the Start Player
# token passes clockwise), MFW-ENDROUND-06 (step 4: the end-of-round hook)
def op_end_round_steps(ctx, op):
    s = ctx.s
    for seat in Q.seat_order(s):  # step 1 (MFW-ENDROUND-02, MFW-AMB-36, MFW-AMB-47)
        for piece, zone in s["players"][seat]["pieces"].items():
            if C.PIECE_TYPE[piece] == "servant" and servant_cost_zone(s, seat, zone):
                ctx.emit("PieceMoved", seat=seat, piece=piece, zone="lost")
    for seat in Q.seat_order(s):  # step 2 (MFW-ENDROUND-03, MFW-ENDROUND-04)
        for piece, zone in s["players"][seat]["pieces"].items():
            if zone.startswith(("town:", "estate:")):
                ctx.emit("PieceMoved", seat=seat, piece=piece, zone="quarters")
    ctx.emit("StartPlayerPassed", seat=(s["start_player"] + 1) % s["n"])  # step 3
    ctx.push({"op": "hook", "hook": "end_of_round"}, {"op": "row_refresh"}, {"op": "after_round"})


# MFW-ENDROUND-08 (also after round 3), MFW-UPGRADE-13 (up to 4 face-up tiles, positions 1-4)
def op_row_refresh(ctx, op):
    """MFW-ENDROUND-07, MFW-AMB-25: drop positions 3-4, slide 1-2 down to 3-4, refill 2 then 1."""
    s = ctx.s
    row, stack = s["row"], s["decks"]["tiles"]
    new = [stack[1] if len(stack) > 1 else None, stack[0] if stack else None, row[0], row[1]]
    ctx.emit("RowChanged", row=new, drawn=min(2, len(stack)), discarded=[t for t in row[2:] if t])


def op_after_round(ctx, op):
    s = ctx.s
    if s["round"] < 3:  # MFW-ENDROUND-09
        ctx.push({"op": "start_round", "round": s["round"] + 1})
    else:
        ctx.push({"op": "end_gen"})


# ----------------------------------------------------------------------------- end of generation

# MFW-ENDGEN-02 (steps 1-7 for all players at once, in order), MFW-ENDGEN-16 (score, Journal, tiles carry over),
# MFW-ENDGEN-21 (after Generation III, End of Game scoring), MFW-SCORE-04 (the score is never reset)
def op_end_gen(ctx, op):
    s = ctx.s
    ctx.emit("PhaseSet", phase="end_of_generation")
    ops = [{"op": "hook", "hook": "end_of_generation"}]  # MFW-ENDGEN-01
    for seat in Q.seat_order(s):
        for _, ab in Q.abilities(s, seat, "end_of_generation"):
            ops.extend(eff_ops(seat, ab["effects"]))
    ops.append({"op": "final"} if s["gen"] == 3 else {"op": "eog_keep"})  # MFW-AMB-28
    ctx.push(*ops)


def op_eog_keep(ctx, op):
    s = ctx.s
    ask_all(ctx, "keep", {seat: list(s["players"][seat]["hand"]) for seat in range(s["n"]) if s["players"][seat]["hand"]})


def sim_keep(ctx, commits, data):
    """MFW-ENDGEN-03, MFW-ENDGEN-04: keep exactly one; the rest to the bottoms (identities stay private)."""
    s = ctx.s
    ctx.emit("Revealed", step="keep", commits=commits, private_to=[], public={"step": "keep"})
    for seat in Q.seat_order(s):
        keep = commits.get(str(seat))
        for card in list(s["players"][seat]["hand"]):
            if card != keep:
                ctx.emit("CardToBottom", seat=seat, card=card, private_to=[seat],
                         public={"seat": seat, "level": C.EXPERIMENTS[card]["level"]})
        ctx.emit("HandKept", seat=seat, card=keep, private_to=[seat], public={"seat": seat, "kept": keep is not None})
    ctx.push({"op": "eog_store"})


def op_eog_store(ctx, op):
    s = ctx.s
    ask_all(ctx, "store", {seat: list(s["players"][seat]["completed"]) for seat in range(s["n"])
                           if s["players"][seat]["completed"]}, secret=False)


# MFW-ENDGEN-07 (stored Experiments are permanent)
def sim_store(ctx, commits, data):
    """MFW-ENDGEN-05, MFW-ENDGEN-06, MFW-AMB-30: store one; others to the bottoms; an unstored Masterwork leaves the game."""
    s = ctx.s
    ctx.emit("Revealed", step="store", commits=commits)
    for seat in Q.seat_order(s):
        card = commits.get(str(seat))
        if card:
            ctx.emit("ExperimentStored", seat=seat, card=card)
        for other in list(s["players"][seat]["completed"]):
            if C.EXPERIMENTS[other]["level"] != "D":
                ctx.emit("CardToBottom", seat=seat, card=other)
        if s["players"][seat]["completed"]:
            ctx.emit("CompletedCleared", seat=seat)
    ctx.push({"op": "eog_steps"})


# MFW-MALADJ-02 (a new Maladjustment applies from the next Generation), MFW-MALADJ-03 (none leaves early),
# MFW-MALADJ-04 (step 3: the old ones are discarded), MFW-STARTGEN-10 (in effect from the start of the
# Generation)
def maladjustment_steps(ctx, final: bool) -> None:
    """MFW-ENDGEN-09, MFW-ENDGEN-10, MFW-ENDGEN-11: discard old Maladjustments, gain floor(c/2), discard Compulsions unrevealed."""
    s = ctx.s
    for seat in Q.seat_order(s):
        if s["players"][seat]["mals"]:
            ctx.emit("MaladjustmentsDiscarded", seat=seat)
    for seat in Q.seat_order(s):
        owed = len(s["players"][seat]["comps"]) // 2
        for _ in range(owed):
            card = draw_special(ctx, seat, "mal")
            if card:
                ctx.emit("MaladjustmentDrawn", seat=seat, card=card)
        if final:
            ctx.emit("FinalMaladjustments", seat=seat, n=owed)
        if s["players"][seat]["comps"]:
            ctx.emit("CompulsionsDiscarded", seat=seat, cards=[c["id"] for c in s["players"][seat]["comps"]],
                     private_to=[], public={"seat": seat, "count": len(s["players"][seat]["comps"])})


def op_eog_steps(ctx, op):
    s = ctx.s
    maladjustment_steps(ctx, final=False)
    for seat in Q.seat_order(s):  # step 5 (MFW-ENDGEN-12)
        for piece in C.PIECES:
            zone = "quarters" if piece in ("self", "spouse", "caretaker1") else "lost"
            if s["players"][seat]["pieces"][piece] != zone:
                ctx.emit("PieceMoved", seat=seat, piece=piece, zone=zone)
    for seat in Q.seat_order(s):  # step 6 (MFW-ENDGEN-13): no space effects
        for track in ("creepy", "insanity"):
            if s["players"][seat][track]:
                ctx.emit("TrackMoved", seat=seat, track=track, to=0)
    ctx.push({"op": "eog_bio"})


def bio_options(s, seat) -> list:
    """Up to 2 units among the player's Resources and money (MFW-ENDGEN-15, MFW-AMB-21)."""
    pl = s["players"][seat]
    units = [k for k in C.RESOURCES if pl["res"][k]] + (["money"] if pl["money"] else [])
    have = dict(pl["res"], money=pl["money"])
    opts = [[]] + [[u] for u in units]
    for i, a in enumerate(units):
        for b in units[i:]:
            if a != b or have[a] >= 2:
                opts.append([a, b])
    return opts


def op_eog_bio(ctx, op):
    s = ctx.s
    ask_all(ctx, "bio", {seat: bio_options(s, seat) for seat in range(s["n"])
                         if s["players"][seat]["journal"]["biology"] >= 2})


# MFW-JOURNAL-13 (Biology level 2 keeps up to 2 Resources at step 7)
def sim_bio(ctx, commits, data):
    s = ctx.s
    ctx.emit("Revealed", step="bio", commits=commits)
    for seat in Q.seat_order(s):  # step 7 (MFW-ENDGEN-14, MFW-ENDGEN-15)
        keep: dict = {}
        for unit in commits.get(str(seat)) or []:
            keep[unit] = keep.get(unit, 0) + 1
        ctx.emit("ResourcesReset", seat=seat, keep=keep)
    if s["gen"] == 2:  # MFW-ENDGEN-18, MFW-ENDGEN-19
        stack = ctx.rng.fork("gen3").shuffled(sorted(i for i, r in C.UPGRADES.items() if r["set"] == "gen3"))
        ctx.emit("TilesSwapped", stack=stack, random=True, private_to=[], public={"count": len(stack)})
        ctx.emit("RowChanged", row=stack[:4], drawn=4)
        ctx.emit("InsanitySideSet", side="gen3")
    ctx.push({"op": "start_gen", "gen": s["gen"] + 1})  # MFW-ENDGEN-20


# ----------------------------------------------------------------------------- end of game

# MFW-ENDGAME-10 (the scenario's epilogue is recorded as a message; no effect on scoring)
def op_final(ctx, op):
    ctx.push({"op": "hook", "hook": "end_of_game"}, {"op": "final_steps"})  # MFW-ENDGAME-02


def end_game_points(s, seat, score: dict) -> int:
    pl = s["players"][seat]
    per = score["per"]
    if per == "flat":
        count = 1
    elif per == "journal_level":
        count = sum(pl["journal"].values())
    elif per == "stored":
        count = len(pl["stored"])
    elif per == "upgrade":
        count = len(Q.tiles_of(s, seat))
    else:  # maxed_journal
        count = sum(1 for v in pl["journal"].values() if v >= 3)
    return count * score["vp"]


def final_breakdown(s, seat) -> dict:
    """MFW-ENDGAME-03, MFW-ENDGAME-04, MFW-ENDGAME-05."""
    pl = s["players"][seat]
    tiles = Q.tiles_of(s, seat)
    vanity = 0
    for t in tiles:
        rec = C.tile(t)
        if t in C.VANITY:
            vanity += end_game_points(s, seat, rec["score"])
        for ab in rec.get("abilities", []):
            if ab["kind"] == "end_game_score":
                vanity += end_game_points(s, seat, ab["score"])
    return {"tiles_abilities": vanity, "maladjustments": -3 * pl["final_mals"], "upgrades": len(tiles)}


def op_final_steps(ctx, op):
    s = ctx.s
    maladjustment_steps(ctx, final=True)
    final = {}
    for seat in Q.seat_order(s):
        b = final_breakdown(s, seat)
        final[str(seat)] = b
        for reason, n in b.items():
            if n:
                ctx.emit("Scored", seat=seat, n=n, reason=f"end of game: {reason}")
    ctx.emit("GameEnded", final=final)


def ans_ea_keep(ctx, p, o):
    keep_estate_affairs(ctx, p["seat"], o)


def keep_estate_affairs(ctx, seat, card) -> None:
    """MFW-ESTATE-04: keep 1, the other 2 face-down to the bottoms (MFW-ESTATE-07, MFW-HIDDEN-04, MFW-HIDDEN-05)."""
    ctx.emit("EstateAffairsKept", seat=seat, card=card, private_to=[seat], public={"seat": seat})
    for other in list(ctx.s["players"][seat]["ea"]):
        ctx.emit("CardToBottom", seat=seat, card=other, private_to=[seat],
                 public={"seat": seat, "level": C.EXPERIMENTS[other]["level"]})


OPS.update({"pick_masterwork": op_pick_masterwork, "start_gen": op_start_gen, "hook": op_hook,
            "sog_draws": op_sog_draws, "sog_shed": op_sog_shed, "sog_apply": op_sog_apply, "gain_res": op_gain_res,
            "start_round": op_start_round, "round_draw": op_round_draw, "income": op_income,
            "begin_turns": op_begin_turns, "end_turn": op_end_turn, "end_round": op_end_round,
            "end_round_steps": op_end_round_steps, "row_refresh": op_row_refresh, "after_round": op_after_round,
            "end_gen": op_end_gen, "eog_keep": op_eog_keep, "eog_store": op_eog_store, "eog_steps": op_eog_steps,
            "eog_bio": op_eog_bio, "final": op_final, "final_steps": op_final_steps})
ANSWERS.update({"masterwork": ans_masterwork, "ea_keep": ans_ea_keep})
SIM_DONE.update({"shed": sim_shed, "round_draw": sim_round_draw, "keep": sim_keep, "store": sim_store, "bio": sim_bio})
