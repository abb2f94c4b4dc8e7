"""Content: load the TOML sample pack, validate it against the catalog's schemas (section 3),
and precompute every lookup the rules need (travel costs, small-city distances, lines)."""

from __future__ import annotations

import heapq

from domain.engine import ContentError, load_toml, require, require_count, require_one_of, require_unique_ids

PKG = "domain.games.adas_dream"
COLOURS = ("yellow", "blue", "green", "purple")          # action colours
DIE_COLOURS = COLOURS + ("grey",)
SCIENCES = ("mathematics", "physics", "astronomy", "engineering")
AREAS = ("study", "travel", "meeting", "institution")
AREA_COLOUR = {"study": "purple", "travel": "blue", "meeting": "yellow", "institution": "green"}
COLOUR_AREA = {c: a for a, c in AREA_COLOUR.items()}
WORKSHOP_REWARDS = ("research", "coal", "money", "innovation", "brass", "draw")
ROUTE_COST = {"road": 1, "rail": 2, "ferry": 4}
LINES = ("row1", "row2", "row3", "col1", "col2", "col3")

EFFECT_OPS = {
    "gain", "draw", "discard", "research", "innovation", "payInnovation", "pay", "workshopReward", "studyItem",
    "playPartnerFree", "gainPartnerFromDisplay", "usePartnerFromDisplay", "perCardInHand",
    "swapSubtractionForAddition", "gainMultiplier", "buildGear", "buildAdditionFree", "moveSmallCity",
    "moveNearestUniversity", "stackDisc", "placeMeetingDisc", "placeUniversityDisc", "placeLectureDisc",
    "moveDisc", "removeDisc", "moveUniversityDisc", "perDisc", "carryOut", "assignmentToken1", "scienceToken1",
    "steam", "takeProgram", "anyAdvancedLevel1", "breakthrough", "swapDie", "adjustDie",
}


def check_effect(effect, where: str) -> None:
    if not isinstance(effect, dict):
        raise ContentError(f"{where}: an effect must be a table, got {effect!r}")
    if "all" in effect:
        for k, part in enumerate(require(effect, "all", list, where)):
            check_effect(part, f"{where}.all[{k}]")
        return
    if "choose" in effect:
        for k, part in enumerate(require(effect, "choose", list, where)):
            check_effect(part, f"{where}.choose[{k}]")
        require(effect, "count", int, where)
        return
    if "cost" in effect:
        for k, part in enumerate(require(effect, "cost", list, where)):
            check_effect(part, f"{where}.cost[{k}]")
            if part.get("op") not in ("pay", "payInnovation"):
                raise ContentError(f"{where}.cost[{k}]: a cost is pay or payInnovation")
        check_effect(require(effect, "then", dict, where), f"{where}.then")
        return
    name = require_one_of(effect, "op", sorted(EFFECT_OPS), where)
    if name in ("gain", "pay"):
        require_one_of(effect, "resource", ("money", "coal", "brass", "book"), where)
        require(effect, "amount", int, where)
    elif name in ("draw", "discard", "innovation", "payInnovation"):
        require(effect, "n", int, where)
    elif name == "research":
        require_one_of(effect, "track", ("any",) + COLOURS, where)
        require(effect, "n", int, where)
    elif name == "studyItem":
        require_one_of(effect, "kind", ("book", "addition", "assignment", "any"), where)
    elif name in ("perCardInHand", "perDisc"):
        check_effect(require(effect, "reward", dict, where), f"{where}.reward")
    elif name == "moveSmallCity":
        require_one_of(effect, "maxDistance", (1, 2), where)
    elif name == "carryOut":
        require_one_of(effect, "action", AREAS, where)
        require(effect, "rewards", bool, where)
    elif name == "scienceToken1":
        require_one_of(effect, "science", SCIENCES + ("any",), where)
    elif name == "steam":
        require(effect, "payCoal", bool, where)
    elif name == "breakthrough":
        require(effect, "n", int, where)
    elif name == "adjustDie":
        require_one_of(effect, "scope", ("board", "workshop", "both"), where)
    elif name == "workshopReward" and "reward" in effect:
        require_one_of(effect, "reward", WORKSHOP_REWARDS, where)


def _by_id(items, where):
    require_unique_ids(items, where)
    return {item["id"]: item for item in items}


# ------------------------------------------------------------------ board
_board = load_toml(PKG, "board.toml")
STORE_SLOTS = require(_board, "store_slots", int, "board.toml")
if STORE_SLOTS < 1:
    raise ContentError("board.toml: store_slots must be at least 1")
INNOV = require(_board, "innovation", dict, "board.toml")
INNOV_START = require(INNOV, "start", int, "board.toml [innovation]")
INNOV_PRESTIGE = {int(k): v for k, v in require(INNOV, "prestige_by_space", dict, "board.toml [innovation]").items()}
STEAM = require(_board, "steam", dict, "board.toml")
STEAM_START = require(STEAM, "start", int, "board.toml [steam]")
STEAM_LEVELS = {lv["level"]: lv for lv in require(STEAM, "levels", list, "board.toml [steam]")}
STEAM_MAX = max(STEAM_LEVELS)
_caps = [STEAM_LEVELS[k]["line_cap"] for k in sorted(STEAM_LEVELS)]
if any(b <= a for a, b in zip(_caps, _caps[1:])):
    raise ContentError("board.toml [steam]: line_cap must rise strictly with the level (ADA-STEAM-06)")
if STEAM_LEVELS.get(3, {}).get("line_cap") != 20:
    raise ContentError("board.toml [steam]: level 3 must cap a line at 20 (ADA-STEAM-04)")
GEARS = require(_board, "gears", dict, "board.toml")
GEAR_COST = {"add": GEARS["addition"], "sub": GEARS["subtraction"]}
WORKSHOP_BONUS = [None] * 6
for row in require(_board, "workshop", list, "board.toml"):
    WORKSHOP_BONUS[require(row, "space", int, "board.toml [[workshop]]") - 1] = require_one_of(
        row, "reward", WORKSHOP_REWARDS, "board.toml [[workshop]]")
if sorted(WORKSHOP_BONUS) != sorted(WORKSHOP_REWARDS):
    raise ContentError("board.toml: the six Workshop bonuses must each be used once (ADA-WORKSHOP-01)")
PROGRAM_SPACE = {}
for row in require(_board, "program_space", list, "board.toml"):
    line = require_one_of(row, "line", LINES, "board.toml [[program_space]]")
    check_effect(row["bonus"], f"board.toml program_space {line}")
    PROGRAM_SPACE[line] = row["bonus"]
require_count(list(PROGRAM_SPACE), 6, "board.toml [[program_space]]")
RESEARCH = {}
for row in require(_board, "research", list, "board.toml"):
    where = f"board.toml research {row.get('colour')}"
    colour = require_one_of(row, "colour", COLOURS, where)
    if not 0 < row["advanced1"] < row["advanced2"] <= row["top"]:
        raise ContentError(f"{where}: need 0 < advanced1 < advanced2 <= top")
    if not all(0 < b <= row["top"] for b in row["breakthrough_spaces"]):
        raise ContentError(f"{where}: breakthrough spaces must lie in 1..top")
    RESEARCH[colour] = row
require_count(list(RESEARCH), 4, "board.toml [[research]]")
LECTURE_LEVELS = {row["level"]: row for row in require(_board, "lecture_level", list, "board.toml")}
if [LECTURE_LEVELS[k]["base_cost"] for k in range(2, 7)] != [1, 1, 2, 2, 3]:
    raise ContentError("board.toml: Lecture base costs must be 1,1,2,2,3 (ADA-INSTITUTION-04)")
if LECTURE_LEVELS[6]["row_prestige"] != 8:
    raise ContentError("board.toml: level 6 row Prestige must be 8")
ROOMS = sorted(require(_board, "meeting_room", list, "board.toml"), key=lambda r: r["index"])
require_count(ROOMS, 4, "board.toml [[meeting_room]]")
ROOM_SPACES = [[{"money": s["money"], "innovation": s["innovation"]} for s in sorted(r["spaces"], key=lambda s: s["order"])]
               for r in ROOMS]
if ROOM_SPACES[0][0] != {"money": 5, "innovation": 3}:
    raise ContentError("board.toml: room 1 costs 5 money or 3 Innovation (ADA-MEETING-03)")
SLOT_DRAW = [s["draw"] for s in sorted(require(_board, "display_slot", list, "board.toml"), key=lambda s: s["index"])]
require_count(SLOT_DRAW, 4, "board.toml [[display_slot]]")
if SLOT_DRAW[0] != 2:
    raise ContentError("board.toml: display slot 1 draws 2")

# ------------------------------------------------------------------ institutions
_inst = load_toml(PKG, "institutions.toml")
INSTITUTIONS = [row["id"] for row in require(_inst, "institution", list, "institutions.toml")]
INST_NAMES = {row["id"]: row["name"] for row in _inst["institution"]}
require_count(INSTITUTIONS, 4, "institutions.toml [[institution]]")
LECTURE_REWARD = {}
for row in require(_inst, "lecture_space", list, "institutions.toml"):
    where = f"institutions.toml lecture {row.get('institution')} L{row.get('level')}"
    if row["institution"] not in INST_NAMES or row["level"] not in range(2, 7):
        raise ContentError(f"{where}: unknown institution or level")
    check_effect(row["reward"], where)
    LECTURE_REWARD[(row["institution"], row["level"])] = row["reward"]
require_count(list(LECTURE_REWARD), 20, "institutions.toml [[lecture_space]]")
LEVEL1_REWARD = _inst.get("level1_reward")  # ADA-AMB-29: none in this pack

# ------------------------------------------------------------------ map
_map = load_toml(PKG, "map.toml")
CITIES = _by_id(require(_map, "city", list, "map.toml"), "map.toml [[city]]")
FIXED_TILES = {}
for cid, city in CITIES.items():
    where = f"map.toml city {cid}"
    kind = require_one_of(city, "kind", ("small", "university"), where)
    if kind == "small":
        check_effect(require(city, "reward", dict, where), where)
    else:
        region = require_one_of(city, "region", ("southern", "central", "fixed"), where)
        if region == "fixed":
            tile = _map.get("fixed_tiles", {}).get(cid)
            if tile is None:
                raise ContentError(f"{where}: a fixed-region University needs [fixed_tiles.{cid}]")
            check_effect(tile["reward"], where)
            FIXED_TILES[cid] = tile
if "london" not in CITIES:
    raise ContentError("map.toml: London must exist (ADA-SETUP-23)")
ADJ: dict[str, list[tuple[str, int]]] = {c: [] for c in CITIES}
for route in require(_map, "route", list, "map.toml"):
    where = f"map.toml route {route.get('id')}"
    if route["a"] not in CITIES or route["b"] not in CITIES:
        raise ContentError(f"{where}: unknown city")
    cost = ROUTE_COST[require_one_of(route, "type", tuple(ROUTE_COST), where)]
    ADJ[route["a"]].append((route["b"], cost))
    ADJ[route["b"]].append((route["a"], cost))
UNIVERSITY_CITIES = [c for c in CITIES if CITIES[c]["kind"] == "university"]
SMALL_CITIES = [c for c in CITIES if CITIES[c]["kind"] == "small"]
REGION_CITIES = {r: [c for c in UNIVERSITY_CITIES if CITIES[c]["region"] == r] for r in ("southern", "central", "fixed")}
if len(REGION_CITIES["southern"]) > 8 or len(REGION_CITIES["central"]) > 7:
    raise ContentError("map.toml: at most 8 southern and 7 central University spaces")


def _dijkstra(src: str, weight) -> dict[str, int]:
    best = {src: 0}
    heap = [(0, src)]
    while heap:
        d, c = heapq.heappop(heap)
        if d > best[c]:
            continue
        for n, cost in ADJ[c]:
            nd = d + weight(n, cost)
            if nd < best.get(n, 1 << 30):
                best[n] = nd
                heapq.heappush(heap, (nd, n))
    return best


def _cheapest(src: str) -> dict[str, int]:
    """Cheapest route cost (ADA-TRAVEL-01, ADA-AMB-22)."""
    return _dijkstra(src, lambda city, cost: cost)


def _small_distance(src: str) -> dict[str, int]:
    """Small-city distance (2.0): small cities entered along a path; universities count 0."""
    best = _dijkstra(src, lambda city, cost: 1 if CITIES[city]["kind"] == "small" else 0)
    return {c: d for c, d in best.items() if CITIES[c]["kind"] == "small" and c != src}


TRAVEL_COST = {c: _cheapest(c) for c in CITIES}
if len(TRAVEL_COST["london"]) != len(CITIES):
    raise ContentError("map.toml: the travel graph must be connected")
SMALL_DISTANCE = {c: _small_distance(c) for c in CITIES}


def _steps(src: str) -> dict[str, int]:
    """Movement steps (routes travelled) from src, for the nearest-University icon."""
    best = {src: 0}
    frontier = [src]
    while frontier:
        nxt = []
        for c in frontier:
            for n, _ in ADJ[c]:
                if n not in best:
                    best[n] = best[c] + 1
                    nxt.append(n)
        frontier = nxt
    return best


STEPS = {c: _steps(c) for c in CITIES}

# ------------------------------------------------------------------ tiles and cards
UNI_TILES = _by_id(require(load_toml(PKG, "universities.toml"), "tile", list, "universities.toml"), "universities.toml")
for tid, tile in UNI_TILES.items():
    check_effect(tile["reward"], f"universities.toml {tid}")
    if tile["prestige"] < 0:
        raise ContentError(f"universities.toml {tid}: prestige must be >= 0")
UNI_TILES.update({tile["id"]: {**tile, "region": "fixed"} for tile in FIXED_TILES.values()})
if sum(1 for t in UNI_TILES.values() if t["region"] == "southern") != 8 or \
        sum(1 for t in UNI_TILES.values() if t["region"] == "central") != 7:
    raise ContentError("universities.toml: need 8 southern and 7 central tiles")

PROGRAMS = _by_id(require(load_toml(PKG, "programs.toml"), "program", list, "programs.toml"), "programs.toml")
require_count(list(PROGRAMS), 28, "programs.toml")

OBJECTIVES = _by_id(require(load_toml(PKG, "objectives.toml"), "objective", list, "objectives.toml"), "objectives.toml")
require_count(list(OBJECTIVES), 24, "objectives.toml")
for oid, obj in OBJECTIVES.items():
    if not obj["prestige_high"] > obj["prestige_low"] >= 0:
        raise ContentError(f"objectives.toml {oid}: need prestige_high > prestige_low >= 0")
OBJ_BY = {(a, l): sorted(o for o in OBJECTIVES if OBJECTIVES[o]["area"] == a and OBJECTIVES[o]["letter"] == l)
          for a in AREAS for l in "AB"}
if not all(OBJ_BY.values()):
    raise ContentError("objectives.toml: each area needs at least one tile of each letter")

# ADA-ASSIGN-01: every Assignment card carries its effect, discard count and colours (validated below)
ASSIGNMENTS = _by_id(require(load_toml(PKG, "assignments.toml"), "assignment", list, "assignments.toml"), "assignments.toml")
require_count(list(ASSIGNMENTS), 30, "assignments.toml")
for aid, card in ASSIGNMENTS.items():
    check_effect(card["effect"], f"assignments.toml {aid}")
    if any(c not in COLOURS for c in card["colours"]) or len(card["colours"]) > 2:
        raise ContentError(f"assignments.toml {aid}: 0-2 colours from {COLOURS}")
    if not 0 <= card["discard"] <= 5:
        raise ContentError(f"assignments.toml {aid}: discard must be 0..5")

# ADA-PARTNER-01: every Partner card carries tier, Science, Prestige, effect and optional requirement/cost;
# ADA-TURN-10: no paw-print reference numbers are loaded, they have no effect in the multiplayer game
PARTNERS = _by_id(require(load_toml(PKG, "partners.toml"), "partner", list, "partners.toml"), "partners.toml")
for pid, card in PARTNERS.items():
    where = f"partners.toml {pid}"
    require_one_of(card, "tier", ("S", "1", "2"), where)
    require_one_of(card, "science", SCIENCES + ("none",), where)
    check_effect(require(card, "effect", dict, where), where)
    if card.get("cost") == "dieReduction" and 1 in card.get("requirement", {}).get("dieValues", []):
        raise ContentError(f"{where}: a die-reduction card must not require a 1")
STARTING = sorted(p for p in PARTNERS if PARTNERS[p]["tier"] == "S")
TIER1 = sorted(p for p in PARTNERS if PARTNERS[p]["tier"] == "1")
TIER2 = sorted(p for p in PARTNERS if PARTNERS[p]["tier"] == "2")
require_count(STARTING, 7, "partners.toml starting cards")
require_count(TIER1, 10, "partners.toml tier-1 cards")
require_count(TIER2, 30, "partners.toml tier-2 cards")

_gears = load_toml(PKG, "gears.toml")
MULTIPLIERS = _by_id(require(_gears, "multiplier", list, "gears.toml"), "gears.toml [[multiplier]]")
require_count(list(MULTIPLIERS), 12, "gears.toml [[multiplier]]")
for mid, m in MULTIPLIERS.items():
    if "factor" in m:
        raise ContentError(f"gears.toml {mid}: Multipliers have no factor (ADA-AMB-49)")
    if m["innovation"] > 6 or not any(m[k] for k in ("money", "coal", "brass", "innovation")):
        raise ContentError(f"gears.toml {mid}: cost needs a part above 0 and innovation <= 6")
BREAKTHROUGHS = _by_id(require(_gears, "breakthrough", list, "gears.toml"), "gears.toml [[breakthrough]]")
require_count(list(BREAKTHROUGHS), 9, "gears.toml [[breakthrough]]")
for bid, b in BREAKTHROUGHS.items():
    check_effect(b["reward"], f"gears.toml {bid}")

STANDARD = load_toml(PKG, "standard.toml")
if len({OBJECTIVES[o]["letter"] for o in STANDARD["objectives"].values()}) != 1:
    raise ContentError("standard.toml: the four Objectives must share a letter")


def card_base(card_id: str) -> str:
    """Starting cards exist once per seat as '<id>#<seat>'."""
    return card_id.split("#", 1)[0]


def partner(card_id: str) -> dict:
    return PARTNERS[card_base(card_id)]


# Mill geometry (2.0): slot = 3*row + col; gear spaces 0-5 horizontal (row-major), 6-11 vertical (column-major).
LINE_SLOTS = {f"row{r + 1}": [3 * r, 3 * r + 1, 3 * r + 2] for r in range(3)}
LINE_SLOTS.update({f"col{c + 1}": [c, 3 + c, 6 + c] for c in range(3)})
LINE_GEARS = {f"row{r + 1}": [2 * r, 2 * r + 1] for r in range(3)}
LINE_GEARS.update({f"col{c + 1}": [6 + 2 * c, 7 + 2 * c] for c in range(3)})
