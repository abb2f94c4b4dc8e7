"""Every thing the content of Ada's Dream defines, with what it does in plain words (API.md "Glossary").

Written from the content data through words.py's phrases (`effect_words`, `criteria_words`), never
from a published card: Partner cards, Assignments, Programs, Objectives (cards); University tiles,
Multiplier Gears, the Addition and Subtraction Gears (tiles); Breakthrough tokens (tokens); the cities
of the travel map with their routes, the Institutions (locations); the Workshop spaces, the Lecture
spaces, the Meeting rooms, the display slots, the Program lines and the Research tracks (spaces).
All of it is public: the glossary of the game type shows the whole pack.

Keys (domain/games/README.md): `card:<id>`, `tile:<id>`, `token:<id>`, `location:<id>`, and
`space:<place>.<n>` for the numbered spaces of a board part (`space:workshop.1`, `space:lecture.inst_lamps.4`,
`space:room.2`, `space:display.1`, `space:program.row1`, `space:track.blue`).
"""

from __future__ import annotations

from domain.engine.text import join, plural

from .. import content as C

SCIENCE = {"none": "no Science", "mathematics": "Mathematics", "physics": "Physics", "astronomy": "Astronomy",
           "engineering": "Engineering"}
ROUTE = {"road": "road", "rail": "railway", "ferry": "ferry"}
AREA_OF_COLOUR = {"purple": "Ada's Study", "blue": "Travel", "yellow": "Meeting", "green": "Institution"}
LINE = {"row1": "the top row", "row2": "the middle row", "row3": "the bottom row", "col1": "the left column",
        "col2": "the middle column", "col3": "the right column"}


def entry(key: str, kind: str, name: str, text: str) -> dict:
    return {"key": key, "kind": kind, "name": name, "text": text}


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def partner_text(card: dict, effect_words) -> str:
    tier = {"S": "A starting Partner card (each player has one)", "1": "A first-tier Partner card",
            "2": "A second-tier Partner card"}[card["tier"]]
    out = [f"{tier} of {SCIENCE[card['science']]}, worth {plural(card['prestige'], 'Prestige', 'Prestige')}."]
    need = (card.get("requirement") or {}).get("dieValues")
    if need:
        out.append(f"Played only with an active die of {join([str(v) for v in need], 'or')}.")
    cost = card.get("cost")
    if cost == "dieReduction":
        out.append("Playing it lowers the active die by 1.")
    elif cost == "money":
        out.append("Playing it costs as many pounds as the active die shows.")
    out.append(f"When played: {effect_words(card['effect'])}.")
    return " ".join(out)


def objective_text(obj: dict) -> str:
    return (f"An Objective of the {_area(obj['area'])} area: a player who manages to "
            f"{condition_words(obj['condition'])} places a disc on it, worth {obj['prestige_high']} Prestige for the "
            f"first round it is done in and {obj['prestige_low']} for later players.")


def _area(area: str) -> str:
    return {"study": "Ada's Study", "travel": "Travel", "meeting": "Meeting", "institution": "Institution"}[area]


def condition_words(cond: dict) -> str:
    if "and" in cond:
        return join([condition_words(c) for c in cond["and"]])
    if "discsOnUniversities" in cond:
        return "have a disc on the Universities of " + join([C.CITIES[c]["name"] for c in cond["discsOnUniversities"]])
    if "assignmentsInColumn" in cond:
        return f"file {plural(cond['n'], 'Assignment')} in the {cond['assignmentsInColumn']} column"
    if "millHasColours" in cond:
        return "have dice of " + join(cond["millHasColours"]) + " in the Mill"
    if "gearsBuilt" in cond:
        kind = {"addition": "Addition Gear", "subtraction": "Subtraction Gear", "multiplier": "Multiplier Gear",
                "any": "gear"}[cond["gearsBuilt"]]
        return f"build {plural(cond['n'], kind)}"
    if "lectureMajorityInstitutions" in cond:
        return f"lead the Lectures of {plural(cond['lectureMajorityInstitutions'], 'Institution')}"
    if "partnersWithoutScience" in cond:
        return f"have {plural(cond['partnersWithoutScience'], 'Partner card')} without a Science"
    if "partnersOfScience" in cond:
        return f"have {plural(cond['n'], 'Partner card')} of {SCIENCE[cond['partnersOfScience']]}"
    if "programsPlaced" in cond:
        return f"place {plural(cond['programsPlaced'], 'Program')}"
    if "meetingRoomsWithDisc" in cond:
        return f"have a disc in {plural(cond['meetingRoomsWithDisc'], 'Meeting room')}"
    return "meet its condition"


def _cost(cost: dict) -> str:
    from .labels import cost_words
    return cost_words({k: cost.get(k, 0) for k in ("money", "coal", "brass", "innovation")})


def city_text(cid: str, city: dict, uni_text) -> str:
    routes = []
    for route in C._map["route"]:
        if cid in (route["a"], route["b"]):
            other = route["b"] if route["a"] == cid else route["a"]
            routes.append(f"{ROUTE[route['type']]} to {C.CITIES[other]['name']} "
                          f"(£{C.ROUTE_COST[route['type']]})")
    if city["kind"] == "small":
        head = "A small city of the travel map. Reward for travelling here: " + uni_text(city["reward"]) + "."
    elif city["region"] == "fixed":
        tile = C.FIXED_TILES[cid]
        head = (f"A University city of the travel map with its own tile, {tile['name']}: whoever travels here places a "
                f"disc (worth {tile['prestige']} Prestige at the end) and takes the reward: {uni_text(tile['reward'])}.")
    else:
        head = (f"A University city of the {city['region']} region: at setup it gets a University tile of that "
                f"region; whoever travels here places a disc and gains that tile's reward.")
    return head + (f" Routes: {join(routes)}." if routes else "")


def glossary(content=C) -> list[dict]:
    """Every card, tile, token, location and space of the pack: see the module doc."""
    from .labels import GEAR_NAMES, REWARD_WORDS, criteria_words, effect_words
    out = []
    for pid in sorted(content.PARTNERS):
        card = content.PARTNERS[pid]
        out.append(entry(f"card:{pid}", "card", card["name"], partner_text(card, effect_words)))
    for aid in sorted(content.ASSIGNMENTS):
        card = content.ASSIGNMENTS[aid]
        colours = f"a {join(card['colours'], 'or')} column" if card["colours"] else "any column"
        extra = f" Taking it discards {plural(card['discard'], 'card')} from the hand." if card["discard"] else ""
        out.append(entry(f"card:{aid}", "card", card["name"],
                         f"An Assignment, filed in {colours}: {effect_words(card['effect'])}.{extra}"))
    for gid in sorted(content.PROGRAMS):
        prog = content.PROGRAMS[gid]
        out.append(entry(f"card:{gid}", "card", f"{prog['prestige']}-Prestige Program",
                         f"A Program tile for a line of three dice of the Mill showing "
                         f"{criteria_words(prog['criteria'])}: worth {prog['prestige']} Prestige, and the line's "
                         f"bonus when placed."))
    for oid in sorted(content.OBJECTIVES):
        obj = content.OBJECTIVES[oid]
        out.append(entry(f"card:{oid}", "card", f"{_area(obj['area'])} Objective: {condition_words(obj['condition'])}",
                         objective_text(obj)))
    for tid in sorted(content.UNI_TILES):
        tile = content.UNI_TILES[tid]
        region = "its own city" if tile["region"] == "fixed" else f"a University of the {tile['region']} region"
        out.append(entry(f"tile:{tid}", "tile", tile["name"],
                         f"A University tile on {region}: whoever travels there places a disc (each disc there scores "
                         f"{tile['prestige']} Prestige at the end) and takes the reward: {effect_words(tile['reward'])}."))
    for mid in sorted(content.MULTIPLIERS):
        gear = content.MULTIPLIERS[mid]
        out.append(entry(f"tile:{mid}", "tile", f"Multiplier Gear costing {_cost(gear)}",
                         f"A Multiplier Gear, built for {_cost(gear)}: on a line of the Mill it multiplies by the "
                         f"next die instead of adding it."))
    for gear, name in GEAR_NAMES.items():
        cost = content.GEAR_COST[gear]
        does = "adds the next die" if gear == "add" else "subtracts the next die"
        out.append(entry(f"tile:gear-{gear}", "tile", name, f"A gear of the Mill, built for {_cost(cost)}: it {does} "
                                                             "on its line."))
    for bid in sorted(content.BREAKTHROUGHS):
        bt = content.BREAKTHROUGHS[bid]
        out.append(entry(f"token:{bid}", "token", "Breakthrough token",
                         f"A Breakthrough on a Research track; its reward: {effect_words(bt['reward'])}."))
    for cid in sorted(content.CITIES):
        city = content.CITIES[cid]
        out.append(entry(f"location:{cid}", "location", city["name"], city_text(cid, city, effect_words)))
    for iid in content.INSTITUTIONS:
        name = content.INST_NAMES[iid]
        out.append(entry(f"location:{iid}", "location", name,
                         f"An Institution with Lecture spaces of levels 2 to 6: a Lecture there costs Innovation "
                         f"and gives the space's reward."))
        for level in range(2, 7):
            cost = content.LECTURE_LEVELS[level]["base_cost"]
            out.append(entry(f"space:lecture.{iid}.{level}", "space", f"{name}, level {level}",
                             f"A Lecture space of level {level} (from {plural(cost, 'Innovation', 'Innovation')}): "
                             f"{effect_words(content.LECTURE_REWARD[(iid, level)])}."))
    for k, reward in enumerate(content.WORKSHOP_BONUS, start=1):
        out.append(entry(f"space:workshop.{k}", "space", f"Workshop space {k}",
                         f"A space of the Workshop ring: a die moved here pushes a die into the mover's Store, and "
                         f"the mover can {REWARD_WORDS[reward]}."))
    for k, spaces in enumerate(content.ROOM_SPACES, start=1):
        prices = join([f"£{s['money']} or {s['innovation']} Innovation" for s in spaces])
        out.append(entry(f"space:room.{k}", "space", f"Meeting room {k}",
                         f"A Meeting room: meeting here places a disc and takes a Partner card from the display; "
                         f"its spaces cost, in order, {prices}."))
    for k, draw in enumerate(content.SLOT_DRAW, start=1):
        extra = f" also draws {plural(draw, 'card')}" if draw else " draws nothing more"
        out.append(entry(f"space:display.{k}", "space", f"Display slot {k}",
                         f"A slot of the Partner display: whoever takes the card from here{extra}."))
    for line, bonus in content.PROGRAM_SPACE.items():
        out.append(entry(f"space:program.{line}", "space", f"Program space of {LINE[line]}",
                         f"Where a Program for {LINE[line]} of the Mill is placed: it also gives "
                         f"{effect_words(bonus)}."))
    for colour, row in content.RESEARCH.items():
        bt = f", a Breakthrough at space {join([str(b) for b in row['breakthrough_spaces']])}" \
            if row["breakthrough_spaces"] else ""
        out.append(entry(f"space:track.{colour}", "space", f"{colour.capitalize()} Research track",
                         f"The Research track of the {AREA_OF_COLOUR[colour]} area, {row['top']} spaces{bt}: from "
                         f"space {row['advanced1']} the area's level-1 Advanced action, from space {row['advanced2']} "
                         f"its level-2 one."))
    return out
