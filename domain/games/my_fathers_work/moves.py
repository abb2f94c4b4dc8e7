"""Legal moves: candidates are generated here and filtered through the same validators decide uses."""

from __future__ import annotations

from domain.engine import IllegalMove

from . import content as C
from . import state as Q
from .decide import check_place


def piece_sets(s, seat) -> list[list[str]]:
    """Distinct piece groups from Quarters (identical Servants/Caretakers are interchangeable)."""
    home = Q.pieces_in(s, seat, "quarters")
    servants = [p for p in home if p.startswith("servant")]
    out = []
    if "self" in home:
        out.append(["self"])
    care = [p for p in home if p.startswith("caretaker")]
    if care:
        out.append(care[:1])
    for spouse in ([False, True] if "spouse" in home else [False]):
        for k in range(len(servants) + 1):
            group = (["spouse"] if spouse else []) + servants[:k]
            if group:
                out.append(group)
    return out


def placement_candidates(s, seat) -> list[dict]:
    pl = s["players"][seat]
    out = []
    groups = piece_sets(s, seat)
    for loc in s["town"]:
        for g in groups:
            out.append({"type": "place", "loc": loc, "pieces": g})
    singles = [g for g in groups if len(g) == 1]
    # Perform Experiment (and 2-piece Estate Locations): the Self, one Caretaker or two Servant-type pieces
    workers = [g for g in groups if len(g) == 2 or C.PIECE_TYPE[g[0]] in ("self", "caretaker")]
    for g in singles:
        for mode in ("draw", "money"):
            out.append({"type": "place", "loc": "estate_affairs", "pieces": g, "mode": mode})
        for track in C.TRACKS:
            out.append({"type": "place", "loc": "record_knowledge", "pieces": g, "track": track})
    cards = list(pl["hand"]) + ([pl["masterwork"]] if pl["masterwork"] and not pl["mw_done"] else [])
    cards = [c for c in cards if Q.can_perform(s, seat, c)]
    for g in workers:
        for card in cards:
            out.append({"type": "place", "loc": "perform_experiment", "pieces": g, "card": card})
    for t in Q.tiles_of(s, seat):
        rec = Q.estate_location(s, seat, t)
        if rec:
            for g in (workers if rec["servants_required"] == 2 else singles):
                out.append({"type": "place", "loc": t, "pieces": g})
    return out


def legal_placements(s, seat, candidates=None) -> list[dict]:
    legal = []
    for move in placement_candidates(s, seat) if candidates is None else candidates:
        try:
            check_place(s, seat, move)
        except IllegalMove:
            continue
        legal.append(move)
    return legal


def turn_moves(s, seat, like=None) -> list[dict]:
    """`like`: a move about to be checked against the list (see `listed_like`): of the placements only
    it is validated, when it is one of the candidates (a placement equals no other listed move)."""
    pl = s["players"][seat]
    if pl["ea"] and not s["turn"]["placed"]:  # MFW-ESTATE-06
        return [{"type": "keep", "card": c} for c in pl["ea"]]
    free = [{"type": "free", "source": src} for src in Q.usable_free_actions(s, seat)]
    if s["turn"]["placed"]:
        return free + [{"type": "keep", "card": c} for c in pl["ea"]] + [{"type": "end_turn"}]
    if like is None:
        placements = legal_placements(s, seat)
    elif like.get("type") == "place" and like in placement_candidates(s, seat):
        placements = legal_placements(s, seat, [like])
    else:
        placements = []
    return placements + free + [{"type": "pass"}]


def legal_moves(s, seat, like=None) -> list[dict]:
    if s["over"]:
        return []
    pend = s["pending"]
    if pend is not None:
        if pend["kind"] == "sim":
            if seat in pend["waiting"]:
                return [{"type": "commit", "option": o} for o in pend["options"][str(seat)]]
            return []
        if pend["seat"] == seat:
            return [{"type": "choose", "option": o} for o in distinct_options(s, pend)]
        return []
    if s["phase"] == "turns" and s["active"] == seat:
        return turn_moves(s, seat, like)
    return []


def listed_like(s, seat, move) -> list[dict]:
    """The listed moves that `move` can equal (decide's binding check, as in every game's moves.py):
    in a turn before the placement, of the placements only `move` itself is checked (one
    `check_place`, not one per placement). Same membership answer as `legal_moves`."""
    return legal_moves(s, seat, like=move)


def distinct_options(s, pend) -> list:
    """The options of a pending choice, one per distinct effect: losing either of two Servants that
    stand in the same place is the same loss (RULINGS "Two Servants in one place"), so only the
    first is listed; `decide` accepts the other (stored games, records), see `listed_form`."""
    if pend["kind"] != "lose_piece":
        return list(pend["options"])
    where = s["players"][pend["seat"]]["pieces"]
    seen, out = set(), []
    for piece in pend["options"]:
        key = (C.PIECE_TYPE[piece], where[piece])
        if key not in seen:
            seen.add(key)
            out.append(piece)
    return out


def listed_form(s, seat, move):
    """The listed move of the same effect as `move` (domain/engine/rules.py is_listed, ENGINE-MOVE-02):
    losing a Servant left out by `distinct_options` is losing the listed one that stands in the same
    place; any other move is its own form."""
    pend = s["pending"]
    if s["over"] or pend is None or pend.get("kind") != "lose_piece" or pend["seat"] != seat \
            or not isinstance(move, dict) or set(move) != {"type", "option"} or move["type"] != "choose" \
            or move["option"] not in pend["options"]:
        return move
    where = s["players"][seat]["pieces"]
    key = (C.PIECE_TYPE[move["option"]], where[move["option"]])
    first = next(p for p in distinct_options(s, pend) if (C.PIECE_TYPE[p], where[p]) == key)
    return {"type": "choose", "option": first}
