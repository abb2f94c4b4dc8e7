"""The empty table (initial_state) and the random setup (ADA-SETUP-*) as facts."""

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
#: (public) Flow fact. The hand cannot change while such a choice waits: it is always on top of the agenda.
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
    n = state["n"]
    per_colour = {4: 10, 3: 9, 2: 8}[n]                      # ADA-SETUP-02..04
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
