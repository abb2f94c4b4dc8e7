"""Scores, the +50/+100 token and the winners with the book's tie-breaks."""

from __future__ import annotations

from . import state as Q


def scores(state: dict) -> dict[int, int]:
    return {seat: pl["score"] for seat, pl in enumerate(state["players"])}


def score_track(total: int) -> dict:
    """MFW-SCORE-02, MFW-SCORE-03, MFW-AMB-31: the token and the marker position."""
    token = Q.token_of(total)
    return {"token": token, "marker": total - token}


def winners(state: dict) -> list[int]:
    """MFW-ENDGAME-06, MFW-ENDGAME-07, MFW-ENDGAME-08, MFW-ENDGAME-09: highest total, then Masterwork completed, then most Estate Upgrades; else shared."""
    if not state["over"]:
        return []

    def key(seat):
        pl = state["players"][seat]
        return (pl["score"], pl["mw_done"], len(Q.tiles_of(state, seat)))
    best = max(key(seat) for seat in range(state["n"]))
    return [seat for seat in range(state["n"]) if key(seat) == best]


def is_over(state: dict) -> bool:
    return state["over"]
