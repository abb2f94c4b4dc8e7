"""Read-only questions about the state: discs, costs, what is performable, objective conditions."""

from __future__ import annotations

from . import content as C


def board_discs(p) -> list[int]:
    """Covered gear spaces (each holds one of the player's discs)."""
    return [g for g in range(12) if p["covered"][g]]


def empty_gear_spaces(p) -> list[int]:
    """Uncovered gear spaces with no gear: where a gear may be built (ADA-GEAR-09)."""
    return [g for g in range(12) if not p["covered"][g] and p["gears"][g] is None]


def own_locations(state, seat, *, include_obj=False) -> list[list]:
    """Every main-board location holding at least one of seat's discs (once each)."""
    out = []
    for city, stack in state["univ"].items():
        if seat in stack:
            out.append(["univ", city])
    for r, room in enumerate(state["rooms"]):
        for sp, discs in enumerate(room):
            if seat in discs:
                out.append(["room", r, sp])
    for inst, levels in state["lect"].items():
        for k, discs in enumerate(levels):
            if seat in discs:
                out.append(["lect", inst, k + 2])
    if include_obj:
        out += [["obj", a, c["space"]] for a, claims in state["obj"].items() for c in claims if c["seat"] == seat]
    return out


def loc_discs(state, loc) -> list:
    if loc[0] == "univ":
        return state["univ"].get(loc[1], [])
    if loc[0] == "room":
        return state["rooms"][loc[1]][loc[2]]
    return state["lect"][loc[1]][loc[2] - 2]


def stack_targets(state, seat) -> list[list]:
    """Own discs a Study Publish / stack icon may go on: at most 2 own discs per spot (ADA-PUBLISH-07)."""
    return [loc for loc in own_locations(state, seat) if loc_discs(state, loc).count(seat) < 2]


def movable_discs(state, seat) -> list[list]:
    """Placed discs that may be moved (never Objective discs, ADA-AMB-20)."""
    return own_locations(state, seat)


def can_place_disc(state, seat) -> bool:
    p = state["players"][seat]
    return any(p["covered"]) or bool(movable_discs(state, seat))


def room_next_space(state, r):
    for sp, discs in enumerate(state["rooms"][r]):
        if not discs:
            return sp
    return None


def lecture_cost(state, seat, level) -> int:
    """ADA-INSTITUTION-05: base(L) + base(k) for each 2<=k<L with no own disc at level >= k."""
    own_levels = {k + 2 for levels in state["lect"].values() for k, discs in enumerate(levels) if seat in discs}
    cost = C.LECTURE_LEVELS[level]["base_cost"]
    for k in range(2, level):
        if not any(lv >= k for lv in own_levels):
            cost += C.LECTURE_LEVELS[k]["base_cost"]
    return cost


def empty_lectures(state) -> list[tuple[str, int]]:
    return [(inst, k + 2) for inst in C.INSTITUTIONS for k, discs in enumerate(state["lect"][inst]) if not discs]


def uni_without_own(state, seat) -> list[str]:
    return [c for c in C.UNIVERSITY_CITIES if seat not in state["univ"].get(c, [])]


def travel_destinations(state, seat) -> list[tuple[str, int]]:
    p = state["players"][seat]
    here = p["city"]
    discs = can_place_disc(state, seat)          # a University arrival must be able to place its disc (ADA-AMB-17)
    return [(c, cost) for c, cost in sorted(C.TRAVEL_COST[here].items())
            if c != here and cost <= p["money"]
            and (discs or C.CITIES[c]["kind"] == "small" or seat in state["univ"].get(c, []))]


def meeting_options(state, seat) -> list[dict]:
    """ADA-MEETING-01/02/05: room x currency x display slot at the room or to its right."""
    p = state["players"][seat]
    slots = state["displays"]["meet"]
    out = []
    for r in range(4):
        sp = room_next_space(state, r)
        if sp is None:
            continue
        cost = C.ROOM_SPACES[r][sp]
        pays = [k for k, have in (("money", p["money"]), ("innovation", p["innov"])) if cost[k] <= have]
        for pay in pays:
            for s in range(r, 4):
                if slots[s] is not None:
                    out.append({"room": r, "pay": pay, "slot": s})
    return out


def institution_options(state, seat) -> list[dict]:
    innov = state["players"][seat]["innov"]
    return [{"inst": i, "level": lv} for i, lv in empty_lectures(state) if lecture_cost(state, seat, lv) <= innov]


def program_options(state, seat) -> list[dict]:
    p = state["players"][seat]
    lines = [ln for ln in C.LINES if ln not in p["programs"]]
    return [{"slot": s, "line": ln} for s, tile in enumerate(state["displays"]["prog"]) if tile for ln in lines]


def performable(state, seat, area) -> bool:
    """ADA-ACTIONS-05 / ADA-AMB-17."""
    if area == "study":
        return bool(program_options(state, seat))
    if area == "travel":
        return bool(travel_destinations(state, seat))
    if area == "meeting":
        return bool(meeting_options(state, seat)) and can_place_disc(state, seat)
    return bool(institution_options(state, seat)) and can_place_disc(state, seat)


def gear_cost(gear) -> dict:
    if gear in C.GEAR_COST:
        return C.GEAR_COST[gear]
    m = C.MULTIPLIERS[gear]
    return {k: m[k] for k in ("money", "coal", "brass", "innovation")}


def can_pay(p, cost) -> bool:
    return all(p["innov" if k == "innovation" else k] >= v for k, v in cost.items())


def build_options(state, seat, *, free_addition=False) -> list[dict]:
    """ADA-BUILD-01/02: (gear from personal supply, empty uncovered space) pairs that can be paid."""
    p = state["players"][seat]
    spaces = empty_gear_spaces(p)
    if not spaces:
        return []
    kinds = []
    for g in p["gear_supply"]:
        if g in kinds:
            continue
        if free_addition:
            if g == "add":
                kinds.append(g)
        elif can_pay(p, gear_cost(g)):
            kinds.append(g)
    return [{"gear": g, "space": s} for g in kinds for s in spaces]


def die_at(state, seat, where):
    if where[0] == "ws":
        return state["workshop"][where[1]][where[2]]
    return state["players"][seat][where[0]][where[1]]


def own_dice(state, seat) -> list[list]:
    p = state["players"][seat]
    return [[zone, k] for zone in ("store", "mill") for k, d in enumerate(p[zone]) if d is not None]


def ws_dice(state) -> list[list]:
    return [["ws", s, k] for s in range(6) for k in range(len(state["workshop"][s]))]


# ------------------------------------------------------------------ objectives (3.5)
def lecture_leaders(state, seat) -> int:
    """Institutions where seat has strictly the most Lecture discs."""
    count = 0
    for inst, levels in state["lect"].items():
        tally = {}
        for discs in levels:
            for s in discs:
                tally[s] = tally.get(s, 0) + 1
        mine = tally.get(seat, 0)
        if mine and all(v < mine for s, v in tally.items() if s != seat):
            count += 1
    return count


def supply_cards(p) -> list[str]:
    return p["deck"] + p["hand"] + p["discard"]


def condition_met(state, seat, cond) -> bool:
    p = state["players"][seat]
    if "and" in cond:
        return all(condition_met(state, seat, c) for c in cond["and"])
    if "discsOnUniversities" in cond:
        return all(seat in state["univ"].get(c, []) for c in cond["discsOnUniversities"])
    if "assignmentsInColumn" in cond:
        return len(p["columns"][cond["assignmentsInColumn"]]) >= cond["n"]
    if "millHasColours" in cond:
        colours = {d["c"] for d in p["mill"] if d}
        return all(c in colours for c in cond["millHasColours"])
    if "gearsBuilt" in cond:
        kind = cond["gearsBuilt"]
        built = [g for g in p["gears"] if g]
        if kind == "addition":
            built = [g for g in built if g == "add"]
        elif kind == "subtraction":
            built = [g for g in built if g == "sub"]
        elif kind == "multiplier":
            built = [g for g in built if g not in ("add", "sub")]
        return len(built) >= cond["n"]
    if "lectureMajorityInstitutions" in cond:
        return lecture_leaders(state, seat) >= cond["lectureMajorityInstitutions"]
    if "partnersWithoutScience" in cond:
        return sum(1 for c in supply_cards(p) if C.partner(c)["science"] == "none") >= cond["partnersWithoutScience"]
    if "partnersOfScience" in cond:
        return sum(1 for c in supply_cards(p) if C.partner(c)["science"] == cond["partnersOfScience"]) >= cond["n"]
    if "programsPlaced" in cond:
        return len(p["programs"]) >= cond["programsPlaced"]
    if "meetingRoomsWithDisc" in cond:
        return sum(1 for room in state["rooms"] if any(seat in d for d in room)) >= cond["meetingRoomsWithDisc"]
    raise KeyError(cond)


def without_disc(state, seat, loc):
    """A shallow what-if copy of the disc areas with one of seat's discs at loc removed."""
    what_if = dict(state)
    what_if["univ"] = {c: list(s) for c, s in state["univ"].items()}
    what_if["rooms"] = [[list(d) for d in room] for room in state["rooms"]]
    what_if["lect"] = {i: [list(d) for d in lv] for i, lv in state["lect"].items()}
    loc_discs(what_if, loc).remove(seat)
    return what_if
