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


#: The end of game's categories (MFW-ENDGAME-03..05: flow.final_breakdown), with the words a table shows.
BREAKDOWN = (("tiles_abilities", "Vanity tiles and end-of-game abilities"), ("maladjustments", "Maladjustments"),
             ("upgrades", "Estate Upgrades"))


def score_breakdown(state: dict) -> list[dict]:
    """Each seat's score by category, for the end of game table (issue 24): ``[{"category", "points":
    {seat: n}}]``: what was scored during the game, the end of game's categories, then "Total". Empty
    while the game runs."""
    final = state.get("final")
    if not state["over"] or not final:
        return []
    seats = [str(seat) for seat in range(state["n"])]
    during = {seat: state["players"][int(seat)]["score"] - sum(final.get(seat, {}).get(key, 0) for key, _ in BREAKDOWN)
              for seat in seats}
    rows = [{"category": "During the game (Experiments, Journal, events)", "points": during}]
    rows += [{"category": name, "points": {seat: final.get(seat, {}).get(key, 0) for seat in seats}}
             for key, name in BREAKDOWN]
    return rows + [{"category": "Total", "points": {seat: state["players"][int(seat)]["score"] for seat in seats}}]
