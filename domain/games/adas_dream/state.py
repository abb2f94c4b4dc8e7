"""The state: the empty table (initial_state), the random setup (the ADA-SETUP rules) as facts, and every read-only
question asked of a state (discs, costs, what is performable, objective conditions, a pending choice's options).

No other module holds queries; rules modules import this one as `S`."""

from __future__ import annotations

from domain.engine import IllegalMove, fact

from . import content as C

OPTIONS = {"mode": ("standard", "randomised"), "first_player": None, "tier1_draft": (False, True),
           "objective_letter": ("A", "B", None)}


def new_flow(seat: int) -> dict:
    """Per-turn control record (turn type, once-per-turn flags, the pending-decision agenda)."""
    return {"seat": seat, "ttype": None, "moved": False, "area": None, "adj_used": False, "played6": False,
            "opt_done": False, "taken": [], "ref": None, "agenda": [], "deferred": None, "final_wait": False}


#: Choices among the chooser's own cards: their options are read from the state, never stored in the
#: (public) PendingPushed fact (Flow in games stored before issue 18). The hand cannot change while such a choice waits: it is always on top of the agenda.
HAND_SOURCES = {
    "hand": lambda p: list(p["hand"]),
    "hand+discard": lambda p: p["hand"] + p["discard"],
}


def choice_options(state, item):
    """The options of a pending choice item (listed, or read from the chooser's cards)."""
    if "opts" in item:
        return item["opts"]
    return HAND_SOURCES[item["from"]](state["players"][item["s"]])


def new_player(seat: int, players: int, order: int) -> dict:
    """ADA-DISC-06, ADA-STEAM-01, ADA-GEAR-02, ADA-RESOURCE-01: 12 discs on 12 gear spaces, Steam at its start."""
    money = 4 + (1 if order in (1, 3) else 0)          # ADA-SETUP-29
    coal = 1 + (1 if order in (2, 3) else 0)
    return {
        "money": money, "coal": coal, "brass": 1, "book": 1,            # ADA-SETUP-27
        "innov": C.INNOV_START, "steam": C.STEAM_START,                  # ADA-SETUP-25
        "research": {c: 0 for c in C.COLOURS},                           # ADA-SETUP-22
        "store": [None] * C.STORE_SLOTS, "mill": [None] * 9,            # ADA-SETUP-30
        "covered": [True] * 12, "boxed": 0, "gears": [None] * 12,        # ADA-SETUP-24
        "gear_supply": ["add", "sub", "sub"],                            # ADA-SETUP-20
        "programs": {}, "columns": {c: [] for c in C.COLOURS},
        "deck": [], "hand": [], "discard": [],
        "known_partners": [],            # the Partner cards of deck + hand + discard whose identity is public (5.1)
        "atokens": {}, "stokens": [], "city": "london",                  # ADA-SETUP-23
    }


def initial_state(players: int, options: dict) -> dict:
    if players not in (2, 3, 4):
        raise IllegalMove("ADA-SETUP-01", f"Ada's Dream takes 2 to 4 players, not {players}")
    for key in options:
        if key not in OPTIONS:
            raise IllegalMove("ADA-SETUP-06", f"unknown option {key!r}; known: {sorted(OPTIONS)}")
    mode = options.get("mode", "standard")
    if mode not in OPTIONS["mode"]:
        raise IllegalMove("ADA-SETUP-06", f"mode must be 'standard' or 'randomised', not {mode!r}")
    first = options.get("first_player", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise IllegalMove("ADA-SETUP-28", f"first_player must be a seat 0..{players - 1}")
    letter = options.get("objective_letter")
    if letter not in OPTIONS["objective_letter"]:
        raise IllegalMove("ADA-SETUP-08", "objective_letter must be 'A' or 'B'")
    draft = options.get("tier1_draft", False)
    if draft not in (False, True):
        raise IllegalMove("ADA-SETUP-18", "tier1_draft must be true or false")
    order = [(first + k) % players for k in range(players)]
    return {
        "n": players, "first": first, "order": order, "mode": mode, "options": dict(options),
        "players": [new_player(s, players, order.index(s)) for s in range(players)],
        "bag": {}, "workshop": [[] for _ in range(6)], "bonus_die": None,
        "displays": {name: [None] * size for name, size in (("prog", 5), ("assign", 4), ("meet", 4), ("mult", 2))},
        "stacks": {"prog": [], "assign": [], "meet": [], "mult": []},
        "univ_tiles": {}, "univ": {}, "rooms": [[[] for _ in sp] for sp in C.ROOM_SPACES],
        "lect": {i: [[] for _ in range(5)] for i in C.INSTITUTIONS},
        "objectives": {}, "obj": {a: [] for a in C.AREAS}, "breakthroughs": {}, "room_science": [],
        "atokens_taken": {c: 0 for c in C.COLOURS}, "removed": [],
        "turns": [0] * players, "round": 1, "active": first, "end_triggered": False, "over": False,
        "final": None, "flow": new_flow(first), "draft": None,
    }


def deal(slots: list, stack: list) -> tuple[list, int]:
    """Fill empty slots from the stack, rightmost empty slot first (ADA-AMB-57)."""
    slots = list(slots)
    drawn = 0
    for k in range(len(slots) - 1, -1, -1):
        if slots[k] is None and drawn < len(stack):
            slots[k] = stack[drawn]
            drawn += 1
    return slots, drawn


def draw_dice(bag: dict, count: int, rng) -> list:
    """Draw up to `count` dice from the bag at random and roll them (ADA-AMB-06: fewer if short)."""
    pool = [c for c in C.DIE_COLOURS for _ in range(bag[c])]
    picked = rng.sample(pool, min(count, len(pool)))
    return [{"c": c, "v": rng.die(6)} for c in picked]


def setup(state: dict, rng) -> list:
    """ADA-OBJECTIVE-01, ADA-SETUP-10, ADA-SETUP-21, ADA-SETUP-31, ADA-TRAVEL-12: one Objective per area; scoring
    tokens and the supply are implicit and unlimited; unused components are never loaded."""
    n = state["n"]
    per_colour = {4: 10, 3: 9, 2: 8}[n]                      # ADA-SETUP-02, ADA-SETUP-03, ADA-SETUP-04
    bag = {c: per_colour for c in C.DIE_COLOURS}
    workshop = []
    for _ in range(6):                                       # ADA-SETUP-05
        dice = draw_dice(bag, 3, rng)
        for d in dice:
            bag[d["c"]] -= 1
        workshop.append(dice)
    if state["mode"] == "standard":                          # ADA-SETUP-06
        tiles = {c: C.CITIES[c]["standard_tile"] for c in C.REGION_CITIES["southern"] + C.REGION_CITIES["central"]}
        objectives = dict(C.STANDARD["objectives"])
        breakthroughs = dict(C.STANDARD["breakthroughs"])
    else:
        tiles = {}
        for region in ("southern", "central"):               # ADA-SETUP-07
            pool = rng.shuffled(sorted(t for t, tile in C.UNI_TILES.items() if tile["region"] == region))
            for city, tile in zip(C.REGION_CITIES[region], pool):
                tiles[city] = tile
        letter = state["options"].get("objective_letter") or rng.choice(["A", "B"])   # ADA-AMB-46
        objectives = {a: rng.choice(C.OBJ_BY[(a, letter)]) for a in C.AREAS}          # ADA-SETUP-08
        tokens = rng.shuffled(sorted(C.BREAKTHROUGHS))                                 # ADA-SETUP-09
        breakthroughs = {c: tokens[k] for k, c in enumerate(("purple", "blue", "yellow", "green"))}
    for city, tile in C.FIXED_TILES.items():
        tiles[city] = tile["id"]
    sciences = rng.shuffled(list(C.SCIENCES))                # ADA-SETUP-11
    programs = rng.shuffled(sorted(C.PROGRAMS))              # ADA-SETUP-12
    prog_slots, k = deal([None] * 5, programs)
    programs = programs[k:]
    assigns = rng.shuffled(sorted(C.ASSIGNMENTS))            # ADA-SETUP-13
    assign_slots, k = deal([None] * 4, assigns)
    assigns = assigns[k:]
    tier1 = rng.shuffled(C.TIER1)                            # ADA-SETUP-14
    tier2 = rng.shuffled(C.TIER2)
    draft = bool(state["options"].get("tier1_draft", False))
    if draft:                                                # ADA-SETUP-18, ADA-AMB-47: decks built after the draft
        dealt, unused_t1, meeting, meet_slots = [], [], tier2, [None] * 4
    else:
        dealt = tier1[:n]                                    # ADA-SETUP-15
        rest = tier1[n:]
        unused_t1 = rest[6:]                                 # ADA-SETUP-16
        meeting = rest[:6] + tier2                           # ADA-SETUP-17
        meet_slots, k = deal([None] * 4, meeting)
        meeting = meeting[k:]
    mults = rng.shuffled(sorted(C.MULTIPLIERS))              # ADA-SETUP-19
    mult_slots, k = deal([None] * 2, mults)
    mults = mults[k:]
    facts = [
        fact("TableSet", set={
            "bag": bag, "workshop": workshop, "univ_tiles": tiles, "objectives": objectives,
            "breakthroughs": breakthroughs, "room_science": sciences,
            "displays": {"prog": prog_slots, "assign": assign_slots, "meet": meet_slots, "mult": mult_slots},
        }, random=True),
        fact("HiddenSet", private_to=[], public={"sizes": {"prog": len(programs), "assign": len(assigns),
                                                            "meet": len(meeting), "mult": len(mults)}},
             set={"stacks": {"prog": programs, "assign": assigns, "meet": meeting, "mult": mults},
                  "unused_tier1": unused_t1}),
    ]
    facts[1]["random"] = True
    if draft:
        facts.append(fact("TableSet", set={"draft": {"pool": sorted(C.TIER1), "order": list(reversed(state["order"])),
                                                     "picks": []}}))
        return facts
    for seat in range(n):
        facts += deal_decks(seat, dealt[seat], rng, face_down=True)
    return facts


def deal_decks(seat, tier1_card, rng, face_down) -> list:
    """ADA-SETUP-26: 7 Starting cards + the tier-1 card, shuffled; draw 4.

    The Starting cards are public; the tier-1 card is public only when drafted (catalog 5.1): a
    face-down one stays out of `known_partners` (and so out of the running score) until revealed."""
    starting = [f"{c}#{seat}" for c in C.STARTING]
    deck = rng.shuffled(starting + [tier1_card])
    known = starting if face_down else starting + [tier1_card]
    return [fact("PlayerSet", seat=seat, private_to=[], public={"seat": seat, "deck": 8},
                 set={"deck": deck[4:], "hand": [], "known_partners": known}, random=True),
            fact("PlayerSet", seat=seat, private_to=[seat], public={"seat": seat, "hand": 4}, set={"hand": deck[:4]})]


# ------------------------------------------------------------------ read-only queries
def board_discs(p) -> list[int]:
    """Covered gear spaces (each holds one of the player's discs)."""
    return [g for g in range(12) if p["covered"][g]]


def empty_gear_spaces(p) -> list[int]:
    """ADA-DISC-02. Uncovered gear spaces with no gear: where a gear may be built (ADA-GEAR-09)."""
    return [g for g in range(12) if not p["covered"][g] and p["gears"][g] is None]


def own_locations(state, seat, *, include_obj=False) -> list[list]:
    """ADA-DISC-07. Every main-board location holding at least one of seat's discs (once each)."""
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
    """ADA-INSTITUTION-06, ADA-INSTITUTION-07. ADA-INSTITUTION-05: base(L) + base(k) for each 2<=k<L with no own disc
    at level >= k."""
    own_levels = {k + 2 for levels in state["lect"].values() for k, discs in enumerate(levels) if seat in discs}
    cost = C.LECTURE_LEVELS[level]["base_cost"]
    for k in range(2, level):
        if not any(lv >= k for lv in own_levels):
            cost += C.LECTURE_LEVELS[k]["base_cost"]
    return cost


def empty_lectures(state) -> list[tuple[str, int]]:
    """ADA-INSTITUTION-01, ADA-DISC-07: levels 2-6 only."""
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
    """ADA-MEETING-06. ADA-MEETING-01, ADA-MEETING-02, ADA-MEETING-05: room x currency x display slot at the room or
    to its right."""
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
    """ADA-GEAR-07, ADA-GEAR-08."""
    if gear in C.GEAR_COST:
        return C.GEAR_COST[gear]
    m = C.MULTIPLIERS[gear]
    return {k: m[k] for k in ("money", "coal", "brass", "innovation")}


def can_pay(p, cost) -> bool:
    """ADA-RESOURCE-02, ADA-INNOV-03."""
    return all(p["innov" if k == "innovation" else k] >= v for k, v in cost.items())


def build_options(state, seat, *, free_addition=False) -> list[dict]:
    """ADA-GEAR-05, ADA-GEAR-06. ADA-BUILD-01, ADA-BUILD-02: (gear from personal supply, empty uncovered space) pairs
    that can be paid."""
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
    """ADA-OBJECTIVE-07, ADA-PUBLISH-08: stacked discs count."""
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
