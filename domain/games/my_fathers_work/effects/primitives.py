"""What the resolver applies (the primitives): content effects, tracks, Insanity steps, pieces, draws, builds,
scenario events and votes, and the answers to their pending choices (registered in the tables of
resolver.py)."""

from __future__ import annotations

from itertools import combinations

from .. import content as C
from .. import state as Q
from ..resolver import ANSWERS, OPS, SIM_DONE, Ctx, ask, ask_all, eff_ops, run, save_queue  # noqa: F401


# ----------------------------------------------------------------------------- compulsions

def note(ctx: Ctx, seat: int, on: str, n: int = 1, **attrs) -> None:
    """Feed one game event to the player's armed Compulsions (MFW-COMPULSION-02, MFW-COMPULSION-03, MFW-COMPULSION-04, MFW-AMB-15)."""
    pl = ctx.s["players"][seat]
    for comp in list(pl["comps"]):
        if not comp["armed"]:
            continue
        cond = C.COMPULSIONS[comp["id"]]["condition"]
        if cond["on"] != on:
            continue
        if on == "gain" and cond["kind"] != attrs.get("kind"):
            continue
        if on == "complete" and cond["level"] not in ("any", attrs.get("level")):
            continue
        if on == "place" and cond["category"] != attrs.get("category"):
            continue
        progress = comp["progress"] + n
        if progress >= cond["n"]:
            vp = C.COMPULSIONS[comp["id"]]["vp"]
            ctx.emit("CompulsionCompleted", seat=seat, card=comp["id"], vp=vp)
            ctx.emit("Scored", seat=seat, n=vp, reason="compulsion")
        else:
            ctx.emit("CompulsionProgress", seat=seat, card=comp["id"], progress=progress,
                     private_to=[seat], public={"seat": seat})


# MFW-FAQ-03 (a Compulsion drawn during an action is not checked against it), MFW-COMPULSION-05 (a completed one
# goes to the discard pile)
def arm_compulsions(ctx: Ctx) -> None:
    if any(not c["armed"] for pl in ctx.s["players"] for c in pl["comps"]):
        ctx.emit("CompulsionsArmed")


def draw_special(ctx: Ctx, seat: int, deck: str) -> str | None:
    """Draw a Compulsion or Maladjustment; an empty deck is rebuilt from its discards (MFW-AMB-33)."""
    s = ctx.s
    if not s["decks"][deck]:
        discard = deck + "_discard"
        if not s["decks"][discard]:
            return None
        order = ctx.rng.fork(f"reshuffle-{deck}-{len(ctx.turn.facts)}").shuffled(s["decks"][discard])
        ctx.emit("DeckShuffled", deck=deck, order=order, from_discard=discard, random=True,
                 private_to=[], public={"deck": deck, "count": len(order)})
    return s["decks"][deck][0]


# ----------------------------------------------------------------------------- effects

# MFW-ICON-05 (+V tile), MFW-ICON-06 (crossed-out tile: discard one), MFW-ICON-07 (deck with arrow: search a
# deck), MFW-ICON-08 (?: 1 Knowledge of any type), MFW-ICON-09 (book: consult the Storybook), MFW-ICON-11 (an
# arrow under a track icon: backwards)
def op_eff(ctx: Ctx, op: dict) -> None:
    seat, e = op["seat"], op["eff"]
    s = ctx.s
    if "gain" in e:
        kind = e["gain"]
        if kind == "vp":
            ctx.emit("Scored", seat=seat, n=e["n"], reason=op.get("why", "reward"))
        elif kind == "money":
            gain(ctx, seat, "money", e["n"])
        elif kind == "resource":
            ask(ctx, seat, "resource", list(C.RESOURCES) + ["money"])
        elif e["kind"] == "any":
            for _ in range(e["n"]):
                ctx.push({"op": "ask", "seat": seat, "kind": "knowledge", "options": list(C.KNOWLEDGE)})
        else:
            gain(ctx, seat, e["kind"], e["n"])
    elif "pay" in e:
        ctx.emit("Paid", seat=seat, res="money" if e["pay"] == "money" else e["kind"], n=e["n"])
    elif "move" in e:
        move_track(ctx, seat, e["move"], e["steps"])
    elif "retrieve" in e:
        retrieve(ctx, seat, e["retrieve"])
    elif "draw" in e:
        if e["draw"] == "experiment":
            ctx.push(*[{"op": "draw_exp", "seat": seat, "deck": e["deck"]} for _ in range(e["n"])])
        elif e["draw"] == "compulsion":
            for _ in range(e["n"]):
                card = draw_special(ctx, seat, "comp")
                if card:
                    ctx.emit("CompulsionDrawn", seat=seat, card=card, private_to=[seat], public={"seat": seat})
        else:
            for _ in range(e["n"]):
                card = draw_special(ctx, seat, "mal")
                if card:
                    ctx.emit("MaladjustmentDrawn", seat=seat, card=card)
    elif "search" in e:
        decks = Q.nonempty_decks(s)
        if decks:
            ask(ctx, seat, "search_deck", decks)
    elif "upgrade" in e:
        if e["upgrade"] == "buy":
            offer_row(ctx, seat)
        elif e["upgrade"] == "vanity":
            names = Q.vanity_names(s, seat)
            if names:  # MFW-AMB-48: nothing available, nothing happens
                ask(ctx, seat, "vanity", names)
        else:
            tiles = [f"plot:{i}" for i, t in enumerate(s["players"][seat]["plots"]) if t is not None]
            if tiles:  # MFW-AMB-16
                ask(ctx, seat, "discard_tile", tiles)
    elif "consult" in e:
        fire_event(ctx, e["consult"], placer=seat)
    elif "visit" in e:  # a free action resolving a Town Location once: its own penalties apply (MFW-AMB-42)
        rec = C.LOCATIONS[e["visit"]]
        ops = eff_ops(seat, rec["penalties"]) + [{"op": "perform", "seat": seat, "loc": e["visit"]}]
        if rec["consult_app"]:
            ops.append({"op": "event", "event": rec["consult_app"], "placer": seat})
        ctx.push(*ops)
    elif "lose_piece" in e:
        lose_piece(ctx, seat, e["lose_piece"], op.get("space", 0))
    elif "choice" in e:
        ask(ctx, seat, "slash", list(range(len(e["choice"]))), effects=e["choice"])


# MFW-FAQ-04 (resources and money are unlimited), MFW-SCORE-01 (VP change the total at once, via Scored)
def gain(ctx: Ctx, seat: int, res: str, n: int) -> None:
    if n <= 0:
        if n < 0 and res == "money":
            ctx.emit("Paid", seat=seat, res="money", n=min(-n, ctx.s["players"][seat]["money"]))
        return
    ctx.emit("Gained", seat=seat, res=res, n=n)
    note(ctx, seat, "gain", n, kind=res)


# MFW-TRACKS-02 (Creepy right, the Mob left), MFW-TOWN-13 (backwards: Creepy/Insanity left, the Mob right),
# MFW-TRACKS-11 (a Church visit may clear overtaken status), MFW-INSANITY-13 (Insanity from every source steps
# one space at a time)
def move_track(ctx: Ctx, seat, track: str, steps: int) -> None:
    s = ctx.s
    if track == "insanity":
        if steps > 0:
            ctx.push(*[{"op": "ins_step", "seat": seat} for _ in range(steps)])
        else:
            to = max(0, s["players"][seat]["insanity"] + steps)  # MFW-INSANITY-03: nothing applies
            ctx.emit("TrackMoved", seat=seat, track="insanity", to=to)
    elif track == "creepy":
        to = min(C.MOB_LENGTH - 1, max(0, s["players"][seat]["creepy"] + steps))  # MFW-AMB-11
        ctx.emit("TrackMoved", seat=seat, track="creepy", to=to)
    elif track == "mob":
        to = min(s["suspicion"], max(0, s["mob"] + steps))  # MFW-TRACKS-03, MFW-AMB-09
        ctx.emit("TrackMoved", seat=None, track="mob", to=to)
    elif track == "suspicion":
        to = min(C.MOB_LENGTH - 1, max(0, s["suspicion"] + steps))
        ctx.emit("TrackMoved", seat=None, track="suspicion", to=to)
        if s["mob"] > to:
            ctx.emit("TrackMoved", seat=None, track="mob", to=to)


# MFW-INSANITY-04 (entering a space again applies it again), MFW-INSANITY-05 (a Creepy icon: +1 Creepy),
# MFW-INSANITY-09 (a Compulsion above: draw 1), MFW-INSANITY-10 (discard-upgrade icon), MFW-INSANITY-12
# (Generation III side: Maladjustments)
def op_ins_step(ctx: Ctx, op: dict) -> None:
    """MFW-INSANITY-01, MFW-INSANITY-02, MFW-INSANITY-11: one space at a time; past the end: -3 VP and the last space's penalties."""
    seat = op["seat"]
    s = ctx.s
    spaces = C.INSANITY[s["insanity_side"]]
    pos = s["players"][seat]["insanity"]
    if pos < len(spaces):
        ctx.emit("TrackMoved", seat=seat, track="insanity", to=pos + 1)
        space = spaces[pos]
        ctx.push(*eff_ops(seat, space["above"] + space["below"], space=pos + 1))
    else:
        ctx.emit("Scored", seat=seat, n=-3, reason="past the end of the Insanity Track")
        last = spaces[-1]
        ctx.push(*eff_ops(seat, [e for e in last["above"] + last["below"] if is_penalty(e)], space=pos))


def is_penalty(e: dict) -> bool:
    """MFW-AMB-14: Creepy, losing a piece, discarding a tile and Maladjustments repeat; bonuses do not."""
    return (e.get("move") == "creepy" and e.get("steps", 0) > 0) or "lose_piece" in e or \
        e.get("upgrade") == "discard" or e.get("draw") == "maladjustment"


# MFW-INSANITY-07 (a piece under the track cannot be placed or retrieved), MFW-INSANITY-08 (the performance it
# made stands)
def lose_piece(ctx: Ctx, seat: int, kind: str, space: int) -> None:
    """MFW-INSANITY-06, MFW-AMB-13: any own piece of the type not already under the track."""
    pieces = ctx.s["players"][seat]["pieces"]
    allowed = {"servant": ("servant1", "servant2"), "spouse": ("spouse",),
               "servant_or_spouse": ("spouse", "servant1", "servant2")}[kind]
    options = [p for p in allowed if not pieces[p].startswith("ins:")]
    if options:
        ask(ctx, seat, "lose_piece", options, space=space)


def retrieve(ctx: Ctx, seat: int, what: str) -> None:
    """MFW-PIECES-08, MFW-PIECES-09, MFW-PIECES-11, MFW-ICON-02: from the player's own Lost only."""
    lost = Q.pieces_in(ctx.s, seat, "lost")
    if what == "caretaker":
        cands = [p for p in lost if C.PIECE_TYPE[p] == "caretaker"][:1]
    else:
        servants = [p for p in lost if p.startswith("servant")][:1]
        cands = (["spouse"] if "spouse" in lost else []) + servants
    if cands:
        ask(ctx, seat, "retrieve", cands)


def op_draw_exp(ctx: Ctx, op: dict) -> None:
    decks = Q.nonempty_decks(ctx.s)
    if op["deck"] != "choice":
        decks = [d for d in decks if d == op["deck"]]
    if decks:  # MFW-AMB-33: an empty deck cannot be chosen; no deck, no draw
        ask(ctx, op["seat"], "draw_deck", decks, dest=op.get("dest", "hand"))


def draw_card(ctx: Ctx, seat: int, deck: str, dest: str = "hand") -> None:
    card = ctx.s["decks"][deck][0]
    ctx.emit("CardDrawn", seat=seat, deck=deck, card=card, dest=dest,
             private_to=[seat], public={"seat": seat, "deck": deck, "dest": dest})


# ----------------------------------------------------------------------------- tiles

def offer_row(ctx: Ctx, seat: int) -> None:
    """MFW-TOWN-11 / MFW-ICON-04: buy one row tile (optional)."""
    s = ctx.s
    options = ["none"]
    for pos, t in enumerate(s["row"]):
        if t is not None and Q.build_options(s, seat, t, C.UPGRADES[t]["price"]):
            options.append(f"row:{pos}")
    if len(options) > 1:
        ask(ctx, seat, "buy", options, auto=False)


def op_build(ctx: Ctx, op: dict) -> None:
    where = Q.build_options(ctx.s, op["seat"], op["tile"], op["price"])
    if where:
        ask(ctx, op["seat"], "plot", where, tile=op["tile"], price=op["price"], source=op["source"])


# MFW-UPGRADE-07 (a discarded tile leaves the game), MFW-UPGRADE-20 and MFW-UPGRADE-21 (a Vanity tile follows
# the plot rules; no room, no money: discard), MFW-UPGRADE-22 (Vanity tiles count as Estate Upgrades)
def build(ctx: Ctx, seat: int, tile: str, price: int, source: str, where: str) -> None:
    """Pay, take the tile from its source, open/replace a plot, build, then its penalties (UPGRADE-*)."""
    s = ctx.s
    pl = s["players"][seat]
    if price:
        ctx.emit("Paid", seat=seat, res="money", n=price)
    if source.startswith("row:"):
        pos = int(source[4:])
        row = s["row"]
        stack = s["decks"]["tiles"]
        new_row = [stack[0] if stack else None] + row[:pos] + row[pos + 1:]  # MFW-UPGRADE-14
        ctx.emit("RowChanged", row=new_row, drawn=1 if stack else 0, bought=tile)
    if where == "expand":
        plot = pl["open"]
        ctx.emit("Paid", seat=seat, res="money", n=C.ESTATE_COSTS[plot])
        ctx.emit("PlotOpened", seat=seat, plot=plot, cost=C.ESTATE_COSTS[plot])
    elif where.startswith("replace:"):
        plot = int(where[8:])
        ctx.emit("TileDiscarded", seat=seat, plot=plot, tile=pl["plots"][plot])
    else:
        plot = int(where[5:])
    ctx.emit("TileBuilt", seat=seat, tile=tile, plot=plot, source="vanity" if source == "vanity" else source)
    note(ctx, seat, "build")
    ctx.push(*eff_ops(seat, C.tile(tile).get("penalties", [])))  # MFW-UPGRADE-11, MFW-AMB-24


# ----------------------------------------------------------------------------- scenario

def event_targets(s: dict, ev: dict, placer) -> list[int]:
    kind = ev["targets"]
    seats = Q.seat_order(s)
    if kind in ("all", "each"):
        return seats
    if kind == "placer":
        return [placer] if placer is not None else []
    if kind == "start_player":
        return [s["start_player"]]
    key = {"highest_score": ("score", max), "lowest_score": ("score", min), "most_creepy": ("creepy", max),
           "least_creepy": ("creepy", min), "most_upgrades": ("upgrades", max)}[kind]

    def value(seat):
        return len(Q.tiles_of(s, seat)) if key[0] == "upgrades" else s["players"][seat][key[0]]
    best = key[1](value(x) for x in seats)
    return [x for x in seats if value(x) == best]


def fire_hook(ctx: Ctx, hook: str) -> None:
    s = ctx.s
    events = [ev for ev in C.SCENARIOS[s["scenario"]].get("event", [])
              if ev["hook"] == hook and ev["id"] not in s["fired"]
              and ev["when"].get("generation", s["gen"]) == s["gen"] and ev["when"].get("round", s["round"]) == s["round"]]
    ops = [{"op": "event", "event": ev["id"], "placer": None} for ev in events]
    ctx.push(*ops)


def fire_event(ctx: Ctx, event_id: str, placer=None) -> None:
    ctx.push({"op": "event", "event": event_id, "placer": placer})


def scenario_event(event_id: str) -> dict:
    for scn in C.SCENARIOS.values():
        for ev in scn.get("event", []):
            if ev["id"] == event_id:
                return ev
    raise KeyError(event_id)


def op_event(ctx: Ctx, op: dict) -> None:
    """MFW-STORY-01, MFW-STORY-02, MFW-STORY-03, MFW-STORY-04, MFW-STORY-05, MFW-STORY-06, MFW-STORY-07, MFW-STORY-08: fire one scenario event: message (maybe secret), effects, choices, votes."""
    s = ctx.s
    ev = scenario_event(op["event"])
    targets = event_targets(s, ev, op["placer"])
    if ev["secret"]:  # MFW-HIDDEN-13: others learn only that these seats got a secret message, never which one
        ctx.emit("EventFired", event=ev["id"], hook=ev["hook"], targets=targets, private_to=list(targets),
                 public={"targets": targets, "secret": True})
        for t in targets:
            ctx.emit("Message", event=ev["id"], to=t, text=ev["message"], private_to=[t],
                     public={"to": t, "secret": True})
    else:
        ctx.emit("EventFired", event=ev["id"], hook=ev["hook"], targets=targets)
        ctx.emit("Message", event=ev["id"], to=None, text=ev["message"])
    ops = event_effect_ops(s, ev["effects"], targets, ev["id"])
    for t in targets if ev.get("choice") else []:
        ops.append({"op": "ask", "seat": t, "kind": "event_choice", "options": list(range(len(ev["choice"]))),
                    "secret": ev["secret"], "event": ev["id"], "targets": [t]})
    if ev.get("vote"):
        ops.append({"op": "vote", "event": ev["id"], "targets": targets})
    ctx.push(*ops)


GLOBAL_KEYS = ("page", "add_location", "remove_location", "replace_location", "set_suspicion", "set_mob",
               "modifier", "give_token")


def event_effect_ops(s, effects, targets, event_id) -> list[dict]:
    ops = []
    for e in effects:
        if any(k in e for k in GLOBAL_KEYS) or e.get("move") in ("mob", "suspicion"):
            ops.append({"op": "global", "eff": e, "targets": targets, "event": event_id})
        else:
            ops.extend({"op": "eff", "seat": t, "eff": e, "why": "scenario"} for t in targets)
    return ops


def town_for(page: str, added: list, replaced: dict) -> list[str]:
    base = [lid for lid, r in C.LOCATIONS.items() if page in r["pages"]]
    out = [replaced.get(lid, lid) for lid in base] + [a for a in added if a not in base]
    seen, town = set(), []
    for lid in out:
        if lid and lid not in seen:
            seen.add(lid)
            town.append(lid)
    return town


def set_town(ctx: Ctx, page: str, added: list, replaced: dict) -> None:
    ctx.emit("TownChanged", page=page, town=town_for(page, added, replaced), added=added, replaced=replaced)


def op_global(ctx: Ctx, op: dict) -> None:
    s = ctx.s
    e = op["eff"]
    if "page" in e:
        set_town(ctx, e["page"], s["added"], s["replaced"])
    elif "add_location" in e:
        set_town(ctx, s["page"], s["added"] + [e["add_location"]], s["replaced"])
    elif "remove_location" in e:
        set_town(ctx, s["page"], [a for a in s["added"] if a != e["remove_location"]],
                 dict(s["replaced"], **{e["remove_location"]: ""}))
    elif "replace_location" in e:
        rep = e["replace_location"]
        set_town(ctx, s["page"], [a for a in s["added"] if a != rep["new"]], dict(s["replaced"], **{rep["old"]: rep["new"]}))
    elif "set_suspicion" in e:
        ctx.emit("TrackMoved", seat=None, track="suspicion", to=e["set_suspicion"])
        if s["mob"] > e["set_suspicion"]:
            ctx.emit("TrackMoved", seat=None, track="mob", to=e["set_suspicion"])
    elif "set_mob" in e:
        ctx.emit("TrackMoved", seat=None, track="mob", to=min(e["set_mob"], s["suspicion"]))
    elif "modifier" in e:
        secret = scenario_event(op["event"])["secret"]  # MFW-HIDDEN-13: a secret event's id stays hidden
        ctx.emit("ModifierSet", rule=e["modifier"]["rule"], params=e["modifier"]["params"],
                 **({} if secret else {"event": op["event"]}))
    elif "give_token" in e:
        for t in op["targets"]:
            ctx.emit("TokenGiven", seat=t, token=e["give_token"])
    elif "move" in e:
        move_track(ctx, None, e["move"], e["steps"])


def op_vote(ctx: Ctx, op: dict) -> None:
    ev = scenario_event(op["event"])
    n = len(ev["vote"])
    ask_all(ctx, "vote", {seat: list(range(n)) for seat in Q.seat_order(ctx.s)}, event=op["event"],
            targets=op["targets"])


def op_ask(ctx: Ctx, op: dict) -> None:
    data = {k: v for k, v in op.items() if k not in ("op", "seat", "kind", "options", "secret")}
    ask(ctx, op["seat"], op["kind"], op["options"], secret=op.get("secret", False), **data)


# ----------------------------------------------------------------------------- answers

def ans_resource(ctx, p, o):
    gain(ctx, p["seat"], o, 1)


def ans_slash(ctx, p, o):
    ctx.emit("ChoiceMade", seat=p["seat"], option=o)
    ctx.push(*eff_ops(p["seat"], p["effects"][o]))


def ans_retrieve(ctx, p, o):
    ctx.emit("PieceMoved", seat=p["seat"], piece=o, zone="quarters", retrieved=True)


def ans_lose_piece(ctx, p, o):
    ctx.emit("PieceMoved", seat=p["seat"], piece=o, zone=f"ins:{p['space']}")


def ans_draw_deck(ctx, p, o):
    draw_card(ctx, p["seat"], o, p.get("dest", "hand"))


def ans_search_deck(ctx, p, o):
    seat = p["seat"]
    cards = sorted(ctx.s["decks"][o])  # MFW-HIDDEN-03, MFW-HIDDEN-06: the searcher sees the cards, never the order
    ctx.emit("Searched", seat=seat, deck=o, cards=cards, private_to=[seat], public={"seat": seat, "deck": o})
    ask(ctx, seat, "search_take", cards, secret=True, deck=o)


def ans_search_take(ctx, p, o):
    seat, deck = p["seat"], p["deck"]
    ctx.emit("CardDrawn", seat=seat, deck=deck, card=o, dest="hand", private_to=[seat],
             public={"seat": seat, "deck": deck, "dest": "hand"})
    order = ctx.rng.fork(f"search-{len(ctx.turn.facts)}").shuffled(ctx.s["decks"][deck])  # MFW-AMB-40
    ctx.emit("DeckShuffled", deck=deck, order=order, random=True, private_to=[], public={"deck": deck, "count": len(order)})


def ans_buy(ctx, p, o):
    if o == "none":
        return
    t = ctx.s["row"][int(o[4:])]
    ctx.push({"op": "build", "seat": p["seat"], "tile": t, "price": C.UPGRADES[t]["price"], "source": o})


# MFW-UPGRADE-18 (Vanity tiles are gained only by their effects, never bought)
def ans_vanity(ctx, p, o):
    ctx.push({"op": "build", "seat": p["seat"], "tile": Q.vanity_tile_for(ctx.s, o), "price": 0, "source": "vanity"})


def ans_plot(ctx, p, o):
    build(ctx, p["seat"], p["tile"], p["price"], p["source"], o)


def ans_discard_tile(ctx, p, o):
    plot = int(o[5:])
    ctx.emit("TileDiscarded", seat=p["seat"], plot=plot, tile=ctx.s["players"][p["seat"]]["plots"][plot])


def ans_knowledge(ctx, p, o):
    gain(ctx, p["seat"], o, 1)


def ans_event_choice(ctx, p, o):
    ev = scenario_event(p["event"])
    ctx.emit("ChoiceMade", seat=p["seat"], option=o, event=p["event"],
             **({"private_to": [p["seat"]], "public": {"seat": p["seat"]}} if p["secret"] else {}))
    ctx.push(*event_effect_ops(ctx.s, ev["choice"][o]["effects"], p["targets"], p["event"]))


def ans_yes_no(ctx, p, o):
    if o == "yes":
        ctx.push(*p["then"])


def sim_vote(ctx, commits, data):
    """MFW-STORY-07: every seat's Voting token is a hidden commit. An open vote reveals who voted
    what; a secret ballot (`vote_secret`) reveals only the tally, never a seat's vote."""
    ev = scenario_event(data["event"])
    tally = [0] * len(ev["vote"])
    for o in commits.values():
        tally[o] += 1
    best = max(tally)
    winner = tally.index(best)  # ties: the first listed option among the tied (RULINGS)
    if ev.get("vote_secret"):
        ctx.emit("Revealed", step="vote", commits=commits, private_to=[], public={"step": "vote", "tally": tally})
        ctx.emit("VoteResult", event=data["event"], tally=tally, winner=winner)
    else:
        ctx.emit("Revealed", step="vote", commits=commits)
        ctx.emit("VoteResult", event=data["event"], votes=dict(commits), tally=tally, winner=winner)
    ctx.push(*event_effect_ops(ctx.s, ev["vote"][winner]["effects"], data["targets"], data["event"]))


OPS.update({"eff": op_eff, "ins_step": op_ins_step, "draw_exp": op_draw_exp, "build": op_build, "event": op_event,
       "global": op_global, "vote": op_vote, "ask": op_ask})
ANSWERS.update({"resource": ans_resource, "slash": ans_slash, "retrieve": ans_retrieve, "lose_piece": ans_lose_piece,
           "draw_deck": ans_draw_deck, "search_deck": ans_search_deck, "search_take": ans_search_take,
           "buy": ans_buy, "vanity": ans_vanity, "plot": ans_plot, "discard_tile": ans_discard_tile,
           "knowledge": ans_knowledge, "event_choice": ans_event_choice, "yes_no": ans_yes_no})
SIM_DONE.update({"vote": sim_vote})


def combos(items: list, k: int) -> list[list]:
    return [list(c) for c in combinations(items, k)]
