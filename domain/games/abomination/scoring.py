"""Final scoring and tie-breaks (ABOM-SCORE-*, ABOM-OBJECTIVE-05, ABOM-AMB-19, ABOM-AMB-20, ABOM-AMB-21)."""

from __future__ import annotations

from .content import C


def alive_count(p):
    return sum(1 for part in p["parts"] if part["alive"])


def tiebreak_key(st, seat):
    """ABOM-SCORE-10, ABOM-SCORE-11, ABOM-SCORE-12: alive parts, francs, then turn order from the first player."""
    p = st["p"][seat]
    return (alive_count(p), p["francs"], -((seat - st["first"]) % st["n"]))


def dial_vp_up(attr, reached_max):
    """ABOM-SCORE-04: the highest VP(n) reached above the start on Reputation or Expertise (ABOM-AMB-19:
    reached at any time, an icon's own space included)."""
    dial = C.dials[attr]
    vals = [i["n"] for i in dial["icons"] if i["icon"] == "VP" and dial["start"] < i["at"] <= reached_max]
    return max(vals) if vals else 0


def humanity_vp(p):
    """ABOM-SCORE-05, ABOM-AMB-20: positive final Humanity scores the highest VP reached, negative the lowest."""
    dial = C.dials["humanity"]
    lo, hi = p["reached"]["humanity"]
    value = p["attr"]["humanity"]
    if value > 0:
        vals = [i["n"] for i in dial["icons"] if i["icon"] == "VP" and 0 < i["at"] <= hi and i["at"] > dial["start"]]
        return max(vals) if vals else 0
    if value < 0:
        vals = [i["n"] for i in dial["icons"] if i["icon"] == "VP" and lo <= i["at"] < dial["start"]]
        return min(vals) if vals else 0
    return 0


def final_scores(st):
    """ABOM-SCORE-01 (build VP already on the track), ABOM-SCORE-02 (alive points), ABOM-SCORE-03 and
    ABOM-OBJECTIVE-06 (10 VP per objective, counted only now), ABOM-SCORE-04, ABOM-SCORE-05, ABOM-SCORE-06 and
    ABOM-SCORE-07 (5 VP to every player tied on the highest positive Humanity when the Captain ended the game),
    ABOM-SCORE-08 (no bonus at 0 or below, nor after a monster end), ABOM-SCORE-09 (most VP wins, then the
    tie-breakers of tiebreak_key)."""
    n = st["n"]
    final = {}
    best_h = max(p["attr"]["humanity"] for p in st["p"])
    for seat, p in enumerate(st["p"]):
        alive = sum(C.anatomy[part["type"]]["alivePoints"] for part in p["parts"] if part["alive"])
        objectives = 10 * sum(1 for o, s in st["claimed"].items() if s == seat)
        rep = dial_vp_up("reputation", p["reached"]["reputation"][1])
        exp = dial_vp_up("expertise", p["reached"]["expertise"][1])
        hum = humanity_vp(p)
        bonus = 5 if st["end"] == "captain" and best_h > 0 and p["attr"]["humanity"] == best_h else 0
        total = p["vp"] + alive + objectives + rep + exp + hum + bonus
        final[str(seat)] = {"track": p["vp"], "alive": alive, "objectives": objectives, "reputation": rep,
                            "expertise": exp, "humanity": hum, "humanityBonus": bonus, "total": total}
    top = max(f["total"] for f in final.values())
    tied = [s for s in range(n) if final[str(s)]["total"] == top]
    best = max(tiebreak_key(st, s) for s in tied)
    winners = [s for s in tied if tiebreak_key(st, s) == best]
    return final, winners


def scores(state):
    """The final totals once scored, else the VP on the score track."""
    if state.get("final"):
        return {int(s): v["total"] for s, v in state["final"].items()}
    return {s: p["vp"] for s, p in enumerate(state["p"])}


def is_over(state):
    return state["phase"] == "over"


def winners(state):
    if not is_over(state):
        return []
    return list(state["winners"] or final_scores(state)[1])


#: The final score sheet's categories, in the rulebook's order, with the words a table shows.
BREAKDOWN = (("track", "VP on the score track"), ("alive", "Living parts"), ("objectives", "Bonus objectives"),
             ("reputation", "Reputation"), ("expertise", "Expertise"), ("humanity", "Humanity"),
             ("humanityBonus", "Humanity bonus (the Captain's end)"))


def score_breakdown(state) -> list[dict]:
    """Each seat's score by category, for the end of game table (issue 24): ``[{"category", "points":
    {seat: n}}]``, the categories of `final_scores`, then "Total". Empty while the game runs."""
    final = state.get("final")
    if not final:
        return []
    rows = [{"category": name, "points": {seat: entry[key] for seat, entry in final.items()}}
            for key, name in BREAKDOWN]
    return rows + [{"category": "Total", "points": {seat: entry["total"] for seat, entry in final.items()}}]
