"""Final scoring (ADA-SCORE-01, ADA-SCORE-02, ADA-SCORE-03, ADA-SCORE-04, ADA-SCORE-05, ADA-SCORE-06, ADA-SCORE-07,
ADA-SCORE-08, ADA-SCORE-09, ADA-SCORE-10, ADA-SCORE-11, ADA-SCORE-12, ADA-SCORE-13, ADA-SCORE-14, ADA-SCORE-15,
ADA-SCORE-16, ADA-SCORE-17, ADA-SCORE-18, ADA-SCORE-19, ADA-SCORE-20, ADA-SCORE-21, ADA-SCORE-22, ADA-SCORE-23,
ADA-SCORE-24) and tie-breaks; a pure function of the state."""

from __future__ import annotations

from . import state as S
from . import content as C


def criteria_met(crit, dice) -> bool:
    """ADA-PROGRAM-06, ADA-PROGRAM-07, ADA-PROGRAM-08, ADA-PROGRAM-09: exactly 3 dice as they stand at the end; gears
    and discs ignored. Program criteria over the 3 dice of a line (3.4, ADA-AMB-48)."""
    values = [d["v"] for d in dice]
    colours = [d["c"] for d in dice]
    if "and" in crit:
        return all(criteria_met(c, dice) for c in crit["and"])
    if "valuesIn" in crit:
        return all(v in crit["valuesIn"] for v in values)
    if "containsValues" in crit:
        rest = list(values)
        for v in crit["containsValues"]:
            if v not in rest:
                return False
            rest.remove(v)
        return True
    if "sumAtLeast" in crit:
        return sum(values) >= crit["sumAtLeast"]
    if "sumAtMost" in crit:
        return sum(values) <= crit["sumAtMost"]
    if "sumEquals" in crit:
        return sum(values) == crit["sumEquals"]
    if "allSameValue" in crit:
        return len(set(values)) == 1
    if "allDifferentValues" in crit:
        return len(set(values)) == 3
    if "coloursIn" in crit:
        return all(c in crit["coloursIn"] for c in colours)
    if "containsColours" in crit:
        return all(c in colours for c in crit["containsColours"])
    if "allSameColour" in crit:
        return len(set(colours)) == 1
    if "allDifferentColours" in crit:
        return len(set(colours)) == 3
    if "ascending" in crit:
        return values[0] < values[1] < values[2]
    if "descending" in crit:
        return values[0] > values[1] > values[2]
    raise KeyError(crit)


def apply_gear(gear, left, right):
    """ADA-GEAR-01."""
    if gear == "add":
        return left + right
    if gear == "sub":
        return left - right
    return left * right                               # every Multiplier: x the next die (ADA-AMB-49)


def line_value(p, line):
    """ADA-SCORE-12, ADA-SCORE-13: None when incomplete, else (d1 op1 d2) op2 d3 with no precedence."""
    dice = [p["mill"][k] for k in C.LINE_SLOTS[line]]
    gears = [p["gears"][g] for g in C.LINE_GEARS[line]]
    if any(d is None for d in dice) or any(g is None for g in gears):
        return None
    value = apply_gear(gears[0], dice[0]["v"], dice[1]["v"])
    return apply_gear(gears[1], value, dice[2]["v"])


def line_cap(p):
    """ADA-STEAM-03."""
    return C.STEAM_LEVELS[p["steam"]]["line_cap"]


def row_majorities(state):
    """ADA-SCORE-04, ADA-SCORE-05, ADA-AMB-30, ADA-AMB-31: per level row across the 4 Institutions; ties halve (down)."""
    out = [0] * state["n"]
    for level in range(2, 7):
        tally = {}
        for inst in C.INSTITUTIONS:
            for s in state["lect"][inst][level - 2]:
                tally[s] = tally.get(s, 0) + 1
        if not tally:
            continue
        best = max(tally.values())
        leaders = [s for s, v in tally.items() if v == best]
        prestige = C.LECTURE_LEVELS[level]["row_prestige"]
        for s in leaders:
            out[s] += prestige if len(leaders) == 1 else prestige // 2
    return out


def meeting_tokens(state):
    """ADA-SCORE-06, ADA-SCORE-07, ADA-SCORE-08: end-of-game Science tokens per room."""
    out = [[] for _ in range(state["n"])]
    for r, room in enumerate(state["rooms"]):
        tally = {}
        for discs in room:
            for s in discs:
                tally[s] = tally.get(s, 0) + 1
        if not tally:
            continue
        science = state["room_science"][r]
        best = max(tally.values())
        leaders = [s for s, v in tally.items() if v == best]
        for s in tally:
            if len(leaders) == 1 and s == leaders[0]:
                out[s].append({"science": science, "value": 2})
            elif len(leaders) > 1 and s not in leaders:
                continue
            else:
                out[s].append({"science": science, "value": 1})
    return out


def final_scores(state, public_only=False) -> list[dict]:
    """ADA-PARTNER-16, ADA-ACTIONS-08, ADA-ASSIGN-07. The score sheet of every seat. public_only: the running score
    shown during play, which counts
    only the Partner cards whose identity is public (`known_partners`, catalog 5.1/5.3); final scoring
    (public_only=False) counts every card of the supply (ADA-SCORE-09, ADA-SCORE-10)."""
    majorities = row_majorities(state)
    tokens = meeting_tokens(state)
    result = []
    for seat, p in enumerate(state["players"]):
        cards = p["known_partners"] if public_only else S.supply_cards(p)
        s = {}
        s["objectives"] = sum(C.OBJECTIVES[state["objectives"][a]]["prestige_" + c["space"]]
                              for a, claims in state["obj"].items() for c in claims if c["seat"] == seat)
        uni = 0
        for city, stack in state["univ"].items():
            if seat in stack:
                uni += C.UNI_TILES[state["univ_tiles"][city]]["prestige"]
                uni += sum(2 * (len(stack) - 1 - k) for k, who in enumerate(stack) if who == seat)
        s["universities"] = uni
        s["lectures"] = majorities[seat]
        sci = 0
        for tok in p["stokens"] + tokens[seat]:
            sci += tok["value"] * sum(1 for c in cards if C.partner(c)["science"] == tok["science"])
        s["science"] = sci
        s["partners"] = sum(C.partner(c)["prestige"] for c in cards)
        s["programs"] = sum(C.PROGRAMS[tile]["prestige"] for line, tile in p["programs"].items()
                            if all(p["mill"][k] is not None for k in C.LINE_SLOTS[line])
                            and criteria_met(C.PROGRAMS[tile]["criteria"], [p["mill"][k] for k in C.LINE_SLOTS[line]]))
        cap = line_cap(p)
        s["lines"] = sum(min(v, cap) for v in (line_value(p, ln) for ln in C.LINES) if v is not None)
        built = sum(1 for g in p["gears"] if g)
        s["gear_penalty"] = -2 * (12 - built)
        s["innovation"] = C.INNOV_PRESTIGE.get(p["innov"], 0)
        s["assignment_tokens"] = sum(v * len(p["columns"][colour]) for colour, v in p["atokens"].items())
        s["leftovers"] = p["book"] + (p["money"] + p["coal"] + p["brass"]) // 10
        s["total"] = sum(s.values())
        s["gears_built"] = built
        s["mill_pips"] = sum(d["v"] for d in p["mill"] if d)
        result.append(s)
    return result


def scores(state) -> dict[int, int]:
    """Each seat's score: the running score while the game runs, the final score once over.

    RULINGS R-12: the running score counts only publicly known Partner cards; final scoring counts all."""
    totals = state["final"] or final_scores(state, public_only=True)
    return {seat: s["total"] for seat, s in enumerate(totals)}


def is_over(state) -> bool:
    return state["over"]


def winners(state) -> list[int]:
    """The winner once the game is over (ADA-SCORE-20, ADA-SCORE-21, ADA-SCORE-22, ADA-SCORE-23 break ties)."""
    return ranked_winners(state, state["final"]) if state["over"] else []


def ranked_winners(state, scores) -> list[int]:
    """ADA-SCORE-20, ADA-SCORE-21, ADA-SCORE-22, ADA-SCORE-23: total, then gears built, then Mill pips, then closest
    to the first player."""
    order = state["order"]
    best = max((s["total"], s["gears_built"], s["mill_pips"]) for s in scores)
    tied = [seat for seat in order if (scores[seat]["total"], scores[seat]["gears_built"], scores[seat]["mill_pips"]) == best]
    return tied[:1]


#: The final score sheet's categories (ADA-SCORE-*), with the words a table shows.
BREAKDOWN = (("objectives", "Objectives"), ("universities", "Universities"), ("lectures", "Lecture majorities"),
             ("science", "Science tokens"), ("partners", "Partner cards"), ("programs", "Programs"),
             ("lines", "Mill lines"), ("gear_penalty", "Gears not built"), ("innovation", "Innovation"),
             ("assignment_tokens", "Assignment tokens"), ("leftovers", "Books and leftovers"))


def score_breakdown(state) -> list[dict]:
    """Each seat's score by category, for the end of game table (issue 24): ``[{"category", "points":
    {seat: n}}]``, the categories of `final_scores`, then "Total". Empty while the game runs."""
    final = state.get("final")
    if not final:
        return []
    rows = [{"category": name, "points": {str(seat): sheet[key] for seat, sheet in enumerate(final)}}
            for key, name in BREAKDOWN]
    return rows + [{"category": "Total", "points": {str(seat): sheet["total"] for seat, sheet in enumerate(final)}}]
