"""legal_moves: every move a seat may submit now, from the flow record (turn-phase table below).

Phase table (top of the agenda -> moves), with the rules of each row:
  (empty agenda)  start of turn: workshop / adjust / actions / pass
                  ADA-TURN-02, ADA-TURN-03, ADA-TURN-04, ADA-AMB-44
  choice          {"type": "choose", "option": <option>} (and option null if optional)
  phase ws6       play / skip / adjust                                ADA-WORKSHOP-13
  phase adv       advanced / skip                                     ADA-ACTIONS-06, ADA-ACTIONS-07
  phase endopt    publish / build / end_turn (defer_build) / adjust   ADA-TURN-05, ADA-BUILD-04
  deferred seat   build / decline_build                               ADA-BUILD-04, ADA-AMB-43
"""

from __future__ import annotations

from . import state as S
from . import content as C
from .state import choice_options


def pushes(ws, coal):
    """Every legal Workshop move (ADA-WORKSHOP-02, ADA-WORKSHOP-03, ADA-WORKSHOP-07, ADA-WORKSHOP-08): (space, die,
    extra, destination, pushed)."""
    for s in range(6):
        for i, die in enumerate(ws[s]):
            for extra in ((False, True) if coal >= 1 else (False,)):
                d = (s + (2 if extra else 1)) % 6
                for j, other in enumerate(ws[d]):
                    if other["v"] <= die["v"]:
                        yield s, i, extra, d, j


def workshop_moves(state, seat):
    return [{"type": "workshop", "space": s, "die": i, "extra": extra, "push": j}
            for s, i, extra, _, j in pushes(state["workshop"], state["players"][seat]["coal"])]


def has_workshop_move(ws, coal):
    return next(pushes(ws, coal), None) is not None


def _witnesses(ws, coal, limit=3):
    """A few legal (mover, pushed) pairs; an adjustment touching neither keeps a move available."""
    found = []
    for s, i, _, d, j in pushes(ws, coal):
        found.append({(s, i), (d, j)})
        if len(found) >= limit:
            break
    return found


def adjust_moves(state, seat, before_move):
    fl = state["flow"]
    p = state["players"][seat]
    if fl["adj_used"] or p["coal"] < 1:
        return []
    out = []
    ws = state["workshop"]
    witnesses = _witnesses(ws, p["coal"] - 1) if before_move else []
    for s in range(6):
        for i, die in enumerate(ws[s]):
            for delta in (-1, 1):
                if not 1 <= die["v"] + delta <= 6:
                    continue
                if before_move and not any((s, i) not in w for w in witnesses):
                    trial = [list(x) for x in ws]
                    trial[s][i] = {"c": die["c"], "v": die["v"] + delta}
                    if not has_workshop_move(trial, p["coal"] - 1):
                        continue
                out.append({"type": "adjust", "space": s, "die": i, "delta": delta})
    return out


def action_moves(state, seat):
    p = state["players"][seat]
    slots = [k for k in range(9) if p["mill"][k] is None]
    if not slots:
        return []
    cache = {}
    out = []
    for k, die in enumerate(p["store"]):
        if die is None:
            continue
        areas = list(C.AREAS) if die["c"] == "grey" else [C.COLOUR_AREA[die["c"]]]
        for area in areas:
            if area not in cache:
                cache[area] = S.performable(state, seat, area)
            if cache[area]:
                out += [{"type": "actions", "die": k, "slot": m, "action": area} for m in slots]
    return out


def start_moves(state, seat, kind=None):
    """The moves at the start of a turn; `kind` ("workshop", "adjust" or "actions"): only those of that
    kind, for a move checked against the list (it can equal no other). A pass is listed only when
    nothing else is, so any other kind gets the whole list."""
    fl = state["flow"]
    p = state["players"][seat]
    if kind not in ("workshop", "adjust", "actions"):
        kind = None
    out = []
    store_room = any(d is None for d in p["store"])
    if store_room:                      # an adjustment may also be what makes a push possible (ADA-WORKSHOP-08)
        if kind in (None, "workshop"):
            out += workshop_moves(state, seat)
        if kind in (None, "adjust"):
            out += adjust_moves(state, seat, True)
    if fl["ttype"] is None:
        if kind in (None, "actions"):
            out += action_moves(state, seat)
        if not out and kind is None:
            out.append({"type": "pass"})
    return out


def listed_like(state, seat, move):
    """The listed moves that `move` can equal (decide's binding check, as in every game's moves.py):
    at the start of a turn only those of its kind, else the whole list. Same answer as `legal_moves`."""
    return legal_moves(state, seat, like=move)


def playable_cards(state, seat):
    p = state["players"][seat]
    die = p["store"][state["flow"]["die_slot"]]
    out = []
    for card in p["hand"]:
        info = C.partner(card)
        req = info.get("requirement")
        if req and die["v"] not in req["dieValues"]:
            continue
        if info.get("cost") == "dieReduction" and die["v"] <= 1:
            continue
        if info.get("cost") == "money" and p["money"] < die["v"]:
            continue
        out.append({"type": "play", "card": card})
    return out


def publish_possible(state, seat):
    fl = state["flow"]
    p = state["players"][seat]
    if fl["opt_done"] or fl["ttype"] == "pass" or p["book"] < 1:
        return False
    area = fl["area"]
    if area == "workshop":
        return p["steam"] < C.STEAM_MAX and p["coal"] >= C.STEAM_LEVELS[p["steam"] + 1]["coal_to_enter"]
    if area == "study":
        return any(p["covered"])
    if area == "travel":
        return bool(S.own_dice(state, seat))
    if area == "meeting":
        return any(state["displays"]["mult"])
    return bool(S.own_dice(state, seat)) and bool(S.ws_dice(state))


def endopt_moves(state, seat):
    fl = state["flow"]
    out = []
    if publish_possible(state, seat):
        out.append({"type": "publish"})
    builds = [] if fl["opt_done"] else S.build_options(state, seat)
    out += [{"type": "build", **b} for b in builds]
    out.append({"type": "end_turn"})
    if builds:
        out.append({"type": "end_turn", "defer_build": True})
    if fl["ttype"] == "workshop":
        out += adjust_moves(state, seat, False)
    return out


def upcast_move(move):
    """A stored move in today's shape. Before issue 18 a choice named its option `pick`
    (`{"type": "choose", "pick": <option>}`); games and records stored then still hold that shape, and
    whatever re-decides or relabels a stored move (record import, analysis) reads it through here.
    Nothing else ever changed a move's shape, so no content version is needed to tell them apart."""
    if isinstance(move, dict) and move.get("type") == "choose" and "pick" in move and "option" not in move:
        return {("option" if key == "pick" else key): value for key, value in move.items()}
    return move


def legal_moves(state, seat, like=None):
    """Every move `seat` may submit now, one per distinct effect (`same_effect`: of two identical dice, the
    first). `like`: a move about to be checked against this list (decide's binding check): at the start of a
    turn only the moves of its kind, and every shape of the same effect (a stored game or a record may name
    the other identical die), so decide accepts what it always accepted."""
    moves = every_move(state, seat, like)
    return moves if like is not None else [m for m in moves if same_effect(state, seat, m) == m]


def every_move(state, seat, like=None):
    """Every move `seat` may submit now, identical dice told apart by their place (see `legal_moves`)."""
    if state["over"]:
        return []
    draft = state.get("draft")
    if draft:
        if seat != draft["order"][len(draft["picks"])]:
            return []
        return [{"type": "draft", "card": c} for c in draft["pool"]]
    fl = state["flow"]
    deferred = fl["deferred"]
    if deferred and deferred["seat"] == seat and (fl["final_wait"] or fl["seat"] != seat):
        return [{"type": "build", **b} for b in S.build_options(state, seat)] + [{"type": "decline_build"}]
    if seat != fl["seat"] or fl["final_wait"]:
        return []
    agenda = fl["agenda"]
    if not agenda:
        return start_moves(state, seat, like.get("type") if isinstance(like, dict) else None)
    top = agenda[-1]
    if top["k"] == "choice":
        out = [{"type": "choose", "option": o} for o in choice_options(state, top)]
        if top["optional"]:
            out.append({"type": "choose", "option": None})
        return out
    name = top["name"]
    if name == "ws6":
        out = [] if fl["played6"] else playable_cards(state, seat)
        return out + [{"type": "skip"}] + adjust_moves(state, seat, False)
    if name == "adv":
        return [{"type": "advanced"}, {"type": "skip"}]
    return endopt_moves(state, seat)


# -- one move per distinct effect: identical dice -----------------------------------------------------------
def _first_alike(dice, k):
    """The first index of a die equal to dice[k] (same colour and value): moving, pushing, adjusting or
    placing either of two identical dice of one place is the same in effect (RULINGS.md "Identical dice")."""
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(dice) or dice[k] is None:
        return k
    return next(j for j, d in enumerate(dice) if d == dice[k])


def _same_loc(state, seat, loc):
    if isinstance(loc, list) and len(loc) == 3 and loc[0] == "ws" and isinstance(loc[1], int) and 0 <= loc[1] < 6:
        return ["ws", loc[1], _first_alike(state["workshop"][loc[1]], loc[2])]
    if isinstance(loc, list) and len(loc) == 2 and loc[0] == "store":
        return ["store", _first_alike(state["players"][seat]["store"], loc[1])]
    return loc


def same_effect(state, seat, move):
    """The listed move of the same effect as `move` (itself when no identical die could stand in for one)."""
    if not isinstance(move, dict):
        return move
    kind = move.get("type")
    try:
        if kind == "workshop":
            ws = state["workshop"]
            dest = (move["space"] + (2 if move["extra"] else 1)) % 6
            return dict(move, die=_first_alike(ws[move["space"]], move["die"]), push=_first_alike(ws[dest], move["push"]))
        if kind == "adjust":
            return dict(move, die=_first_alike(state["workshop"][move["space"]], move["die"]))
        if kind == "actions":
            return dict(move, die=_first_alike(state["players"][seat]["store"], move["die"]))
        if kind == "choose":
            opt = move.get("option")
            if isinstance(opt, list) and opt and isinstance(opt[0], list):          # [place, delta]
                return dict(move, option=[_same_loc(state, seat, opt[0])] + opt[1:])
            if isinstance(opt, list):
                return dict(move, option=_same_loc(state, seat, opt))
    except (KeyError, IndexError, TypeError):
        return move
    return move


def listed_form(state, seat, move):
    """The rules' optional hook (domain/engine/rules.py `is_listed`): the listed move `move` is the same as."""
    return same_effect(state, seat, move)
