"""Words for players: the label of each listed move and the prompt of the decision now (issue 12).

Everything is said in content names (cards, cities, Institutions, tracks), never in ids, with the
costs and gains known before the move. Players are "Seat N" (the service writes in their names).
A prompt is public: a choice among a hand's cards is named without its options.
"""

from __future__ import annotations

from domain.engine.text import article, join, plural

from .. import content as C
from .. import describe as D
from .. import state as S

AREA_NAMES = {"workshop": "Workshop", "study": "Ada's Study", "travel": "Travel", "meeting": "Meeting",
              "institution": "Institution"}
RESOURCE_NAMES = {"coal": "Coal", "brass": "Brass", "book": "Book", "innov": "Innovation", "innovation": "Innovation"}
REWARD_WORDS = {"research": "gain 1 Research on a track of your choice", "coal": "gain 2 Coal", "money": "gain £3",
                "innovation": "gain 1 Innovation", "brass": "gain 1 Brass", "draw": "draw 2 Partner cards"}
STUDY_ITEMS = {"book": "a Book", "addition": "an Addition Gear", "assignment": "an Assignment card"}
GEAR_NAMES = {"add": "Addition Gear", "sub": "Subtraction Gear"}


def amount(resource: str, n: int) -> str:
    if resource == "money":
        return f"£{n}"
    if resource == "book":
        return plural(n, "Book")
    return f"{n} {RESOURCE_NAMES[resource]}"


def die(d) -> str:
    return f"{d['c']} {d['v']}"


def mill_slot(k: int) -> str:
    return f"Mill row {k // 3 + 1}, column {k % 3 + 1}"


def gear_name(gear: str) -> str:
    return GEAR_NAMES.get(gear, "Multiplier Gear")


def cost_words(cost: dict) -> str:
    parts = [amount("money" if k == "money" else k, v) for k, v in cost.items() if v]
    return join(parts) or "nothing"


def effect_words(e) -> str:
    """An effect of the content (catalog 3.1) in plain words."""
    if "all" in e:
        return join([effect_words(x) for x in e["all"]])
    if "choose" in e:
        options = join([effect_words(x) for x in e["choose"]], "or")
        return f"{e['count']} different of: {options}" if e.get("count", 1) > 1 else f"one of: {options}"
    if "cost" in e:
        return f"pay {join([effect_words(x).removeprefix('pay ') for x in e['cost']])} to {effect_words(e['then'])}"
    op = e["op"]
    if op == "gain":
        return f"gain {amount(e['resource'], e['amount'])}"
    if op == "pay":
        return f"pay {amount(e['resource'], e['amount'])}"
    if op == "payInnovation":
        return f"pay {e['n']} Innovation"
    if op == "research":
        track = "a track of your choice" if e["track"] == "any" else f"the {e['track']} track"
        return f"{e['n']} Research on {track}"
    if op == "innovation":
        return f"gain {e['n']} Innovation"
    if op == "draw":
        return f"draw {plural(e['n'], 'Partner card')}"
    if op == "discard":
        return f"discard {plural(e['n'], 'card')}"
    if op == "workshopReward":
        return REWARD_WORDS[e["reward"]] if "reward" in e else "gain a Workshop reward of your choice"
    if op == "studyItem":
        return "gain a Study item of your choice" if e["kind"] == "any" else f"gain {STUDY_ITEMS[e['kind']]}"
    simple = {
        "playPartnerFree": "play a Partner card for free",
        "gainPartnerFromDisplay": "take a Partner card from the display",
        "usePartnerFromDisplay": "use the effect of a Partner card in the display",
        "swapSubtractionForAddition": "turn a Subtraction Gear into an Addition Gear",
        "gainMultiplier": "take a Multiplier Gear", "buildGear": "build a gear", "buildAdditionFree":
        "build an Addition Gear for free", "moveNearestUniversity": "move to the nearest University",
        "stackDisc": "stack a disc on one of yours", "placeMeetingDisc": "place a disc in a Meeting room",
        "placeUniversityDisc": "place a disc on a University", "placeLectureDisc": "place a disc on a Lecture space",
        "moveDisc": "move one of your discs", "removeDisc": "return a disc to the box",
        "moveUniversityDisc": "move a disc to another University",
        "assignmentToken1": "take a 1-Prestige Assignment token",
        "takeProgram": "take a Program tile", "anyAdvancedLevel1": "take any level-1 Advanced action",
        "swapDie": "swap one of your dice with a Workshop die",
    }
    if op in simple:
        return simple[op]
    if op == "perCardInHand":
        return f"for each card in hand: {effect_words(e['reward'])}"
    if op == "perDisc":
        return f"for each disc on Universities and Lectures: {effect_words(e['reward'])}"
    if op == "moveSmallCity":
        return f"move to a small city within {e['maxDistance']}"
    if op == "carryOut":
        return f"carry out the {AREA_NAMES[e['action']]} action" + (" with its rewards" if e["rewards"] else "")
    if op == "scienceToken1":
        return "take a 1-Prestige Science token" + ("" if e["science"] == "any" else f" for {e['science']}")
    if op == "steam":
        return "raise Steam" + (" paying its Coal" if e["payCoal"] else " for free")
    if op == "breakthrough":
        return f"the reward of {plural(e['n'], 'Breakthrough')}"
    if op == "adjustDie":
        return "change a die by 1"
    return "an effect"


def criteria_words(crit) -> str:
    """What a Program's three dice must show (catalog 3.4), in plain words."""
    if "and" in crit:
        return join([criteria_words(c) for c in crit["and"]])
    key = next(iter(crit))
    value = crit[key]
    return {
        "valuesIn": lambda: "dice of " + join([str(v) for v in value], "or"),
        "containsValues": lambda: "dice showing " + join([str(v) for v in value]),
        "sumAtLeast": lambda: f"a sum of at least {value}", "sumAtMost": lambda: f"a sum of at most {value}",
        "sumEquals": lambda: f"a sum of {value}", "allSameValue": lambda: "three equal values",
        "allDifferentValues": lambda: "three different values", "coloursIn": lambda: join(value, "or") + " dice",
        "containsColours": lambda: "a " + join(value) + " die", "allSameColour": lambda: "one colour",
        "allDifferentColours": lambda: "three colours", "ascending": lambda: "rising values",
        "descending": lambda: "falling values",
    }.get(key, lambda: "its dice pattern")()


def program_words(tile: str) -> str:
    info = C.PROGRAMS[tile]
    return f"the {info['prestige']}-Prestige Program ({criteria_words(info['criteria'])})"


IMPERATIVE = {"chooses": "Choose", "takes": "Take", "moves": "Move", "puts": "Put", "builds": "Build",
              "lectures": "Lecture", "swaps": "Swap", "returns": "Return", "picks": "Pick", "spends": "Spend",
              "files": "File", "removes": "Remove", "discards": "Discard", "plays": "Play", "uses": "Use",
              "travels": "Travel", "goes": "Go", "declines": "Decline", "turns": "Turn"}


def imperative(phrase: str) -> str:
    verb, _, rest = phrase.partition(" ")
    return f"{IMPERATIVE.get(verb, verb[:1].upper() + verb[1:])} {rest}".strip()


def choice_label(state, seat, top, pick) -> str:
    kind = top["kind"]
    if pick is None:
        return "Decline"
    p = state["players"][seat]
    if kind == "meeting":
        cost = C.ROOM_SPACES[pick["room"]][S.room_next_space(state, pick["room"])][pick["pay"]]
        card = state["displays"]["meet"][pick["slot"]]
        price = f"£{cost}" if pick["pay"] == "money" else f"{cost} Innovation"
        draws = C.SLOT_DRAW[pick["slot"]]
        return (f"Meet in room {pick['room'] + 1} for {price} and take {C.partner(card)['name']}"
                + (f", then draw {plural(draws, 'card')}" if draws else ""))
    if kind == "lecture":
        cost = S.lecture_cost(state, seat, pick["level"])
        reward = effect_words(C.LECTURE_REWARD[(pick["inst"], pick["level"])])
        return f"Lecture at the {C.INST_NAMES[pick['inst']]}, level {pick['level']}, for {cost} Innovation: {reward}"
    if kind in ("travel", "carry_travel", "small_city", "nearest_uni"):
        cost = C.TRAVEL_COST[p["city"]].get(pick, 0) if kind == "travel" else 0
        city = C.CITIES[pick]
        gain = effect_words(city["reward"]) if city["kind"] == "small" else (
            f"{effect_words(C.UNI_TILES[state['univ_tiles'][pick]]['reward'])} and place a disc")
        return f"Go to {city['name']}" + (f" for £{cost}" if cost else "") + f": {gain}"
    if kind == "program":
        tile = state["displays"]["prog"][pick[0]]
        return f"Take {program_words(tile)} for {D._line(pick[1])}: {effect_words(C.PROGRAM_SPACE[pick[1]])}"
    if kind in ("gain_partner",):
        return f"Take {C.partner(state['displays']['meet'][pick])['name']} from the display"
    if kind == "multiplier":
        gear = state["displays"]["mult"][pick]
        return f"Take the Multiplier Gear costing {cost_words(S.gear_cost(gear))}"
    if kind == "assignment":
        card = C.ASSIGNMENTS[state["displays"]["assign"][pick]]
        extra = f", discarding {plural(card['discard'], 'card')}" if card["discard"] else ""
        return f"Take the Assignment '{card['name']}': {effect_words(card['effect'])}{extra}"
    if kind == "build":
        cost = "for free" if top["d"].get("free") else f"for {cost_words(S.gear_cost(pick['gear']))}"
        return f"Build {article(gear_name(pick['gear']))} on gear space {pick['space'] + 1} {cost}"
    if kind == "choose":
        return f"Choose: {effect_words(top['d']['e']['choose'][pick])}"
    if kind in ("workshop_reward", "innov_bonus"):
        words = REWARD_WORDS[pick]
        return f"Spend 2 Innovation to {words}" if kind == "innov_bonus" else words[:1].upper() + words[1:]
    if kind in ("study_main", "study_extra", "study_any"):
        return f"Take {STUDY_ITEMS[pick]}"
    if kind == "breakthrough":
        reward = effect_words(C.BREAKTHROUGHS[state["breakthroughs"][pick]]["reward"])
        return f"Take the {pick} Breakthrough: {reward}"
    if kind == "any_advanced":
        return f"Take the level-1 {AREA_NAMES[pick]} Advanced action"
    if kind == "use_partner":
        return f"Use the effect of {C.partner(pick)['name']}: {effect_words(C.partner(pick)['effect'])}"
    if kind == "play_free":
        return f"Play {C.partner(pick)['name']} for free: {effect_words(C.partner(pick)['effect'])}"
    if kind == "lecture_reward":
        return f"Take the reward of the {C.INST_NAMES[pick[0]]} level {pick[1]}: " \
               f"{effect_words(C.LECTURE_REWARD[(pick[0], pick[1])])}"
    if kind == "pub_adv":
        return "Take the level-1 Advanced action of that area"
    if kind == "disc_src":
        return f"Take the disc from gear space {pick + 1}"
    if kind in ("atoken", "stoken"):
        return f"Take a 1-Prestige {'Assignment' if kind == 'atoken' else 'Science'} token for {pick}"
    if kind == "column":
        return f"File the Assignment in the {pick} column"
    if kind == "umove_src":
        return f"Move your disc from the University at {C.CITIES[pick]['name']}"
    return imperative(D._pick_words(state, pick))


def label(state, seat, move) -> str:
    """One plain sentence for a listed move, with its known costs and gains."""
    kind = move.get("type")
    fl = state["flow"]
    p = state["players"][seat]
    if kind == "draft":
        card = C.partner(move["card"])
        return f"Draft {card['name']} ({card['science']}, {plural(card['prestige'], 'Prestige', 'Prestige')})"
    if kind == "workshop":
        ws = state["workshop"]
        dest = (move["space"] + (2 if move["extra"] else 1)) % 6
        moved, pushed = ws[move["space"]][move["die"]], ws[dest][move["push"]]
        extra = ", paying 1 Coal for the extra space" if move["extra"] else ""
        return (f"Move the {die(moved)} from Workshop space {move['space'] + 1} to space {dest + 1}{extra}, "
                f"push the {die(pushed)} into your Store and {REWARD_WORDS[C.WORKSHOP_BONUS[dest]]}")
    if kind == "adjust":
        d = state["workshop"][move["space"]][move["die"]]
        return f"Pay 1 Coal to turn the {die(d)} in Workshop space {move['space'] + 1} to {d['v'] + move['delta']}"
    if kind == "actions":
        d = p["store"][move["die"]]
        return f"Put the {die(d)} from your Store into {mill_slot(move['slot'])} and take the " \
               f"{AREA_NAMES[move['action']]} action"
    if kind == "pass":
        return "Pass: no Workshop or Actions turn is possible"
    if kind == "play":
        card = C.partner(move["card"])
        active = p["store"][fl["die_slot"]]
        cost = {"dieReduction": f" (the active die drops to {active['v'] - 1})",
                "money": f" (pay £{active['v']})"}.get(card.get("cost"), "")
        return f"Play {card['name']}{cost}: {effect_words(card['effect'])}"
    if kind == "skip":
        top = fl["agenda"][-1]
        return "Play no Partner card" if top.get("name") == "ws6" else "Skip the Advanced action"
    if kind == "advanced":
        colour = C.AREA_COLOUR[fl["area"]]
        level = 2 if p["research"][colour] >= C.RESEARCH[colour]["advanced2"] else 1
        return f"Take the level-{level} {AREA_NAMES[fl['area']]} Advanced action"
    if kind == "publish":
        what = {"workshop": "raise your Steam, paying its Coal",
                "study": "stack a disc from your board on one of yours",
                "travel": "move your dice up to 4 pips", "meeting": "take a Multiplier Gear",
                "institution": "swap one of your dice with a Workshop die"}[fl["area"]]
        return f"Spend 1 Book to publish: {what}"
    if kind == "build":
        return f"Build {article(gear_name(move['gear']))} on gear space {move['space'] + 1} for " \
               f"{cost_words(S.gear_cost(move['gear']))}"
    if kind == "end_turn":
        return "End your turn and keep your Build for the next player's turn" if move.get("defer_build") \
            else "End your turn"
    if kind == "decline_build":
        return "Give up your deferred Build"
    if kind == "choose":
        return choice_label(state, seat, fl["agenda"][-1], move.get("option"))
    return kind.replace("_", " ").capitalize()


CHOICE_PROMPTS = {
    "track": "choose a Research track", "workshop_reward": "choose a Workshop reward",
    "innov_bonus": "choose the Innovation top bonus, or decline", "study_main": "choose the Study reward",
    "study_extra": "choose the extra Study reward", "study_any": "choose a Study item",
    "assignment": "choose an Assignment from the display", "column": "choose the column for the Assignment",
    "discard": "choose a card of their hand to discard",
    "play_free": "choose a card of their hand to play for free",
    "gain_partner": "choose a Partner card from the display", "use_partner": "choose a display card to use",
    "remove": "choose a card of their hand or discard pile to remove from the game",
    "swap_gear": "choose the Subtraction Gear to turn into an Addition Gear", "multiplier": "choose a Multiplier Gear",
    "build": "choose a gear and a gear space to build on", "small_city": "choose a small city to move to",
    "nearest_uni": "choose the nearest University to move to", "stack": "choose one of their discs to stack on",
    "icon_place": "choose where to place a disc", "move_src": "choose the disc to move",
    "move_dst": "choose where the disc goes", "box": "choose the disc to return to the box",
    "umove_src": "choose the University disc to move", "umove_dst": "choose the University it moves to",
    "carry_travel": "choose a city to travel to for free", "carry_room": "choose a Meeting room",
    "carry_lect": "choose a Lecture space", "atoken": "choose an Assignment token colour",
    "stoken": "choose a Science token", "program": "choose a Program tile and its line",
    "any_advanced": "choose a level-1 Advanced action", "breakthrough": "choose a Breakthrough",
    "swap_own": "choose one of their dice to swap", "swap_ws": "choose the Workshop die to swap with",
    "adjust": "choose a die to change by 1", "lecture_reward": "choose a Lecture reward to take",
    "disc_src": "choose the gear space the disc comes from",
    "disc_move": "choose a placed disc to move there, or decline", "travel": "choose where to travel",
    "meeting": "choose a Meeting room, how to pay and a Partner card", "lecture": "choose a Lecture space",
    "pip": "choose a die to move up or down by 1, or stop", "pub_stack": "choose one of their discs to stack on",
    "pub_adv": "take the level-1 Advanced action, or decline", "hand_limit": "discard down to 5 cards",
    "choose": "choose an option of the effect",
}


def prompt(state) -> str:
    """What is being decided now and by whom; a pending choice names its options unless they are a hand's cards."""
    if state["over"]:
        return "The game is over."
    draft = state.get("draft")
    if draft:
        return f"Seat {draft['order'][len(draft['picks'])]}: draft a tier-1 Partner card"
    fl = state["flow"]
    seat = fl["seat"]
    deferred = fl["deferred"]
    if fl["final_wait"]:
        return f"Seat {deferred['seat']}: build the deferred gear or decline it before final scoring"
    if deferred and deferred["seat"] != seat:
        head = f"Seat {seat}: take your turn (Seat {deferred['seat']} may still send their deferred Build)"
    else:
        head = None
    agenda = fl["agenda"]
    if not agenda:
        return head or f"Seat {seat}: take a Workshop turn or an Actions turn"
    top = agenda[-1]
    if top["k"] == "phase":
        if top["name"] == "ws6":
            text = "play a Partner card with the active die, or play none"
        elif top["name"] == "adv":
            text = f"take the {AREA_NAMES[fl['area']]} Advanced action, or skip it"
        elif fl["ttype"] == "pass":
            text = "build a gear, or end the turn"
        else:
            text = "publish, build a gear, or end the turn"
        return f"Seat {seat}: {text}"
    text = f"Seat {top['s']}: {CHOICE_PROMPTS.get(top['kind'], 'make a choice')}"
    if "opts" in top:                                    # a hand's cards are never named here (the prompt is public)
        named = [choice_label(state, top["s"], top, o) for o in top["opts"]]
        if len(named) <= 6:
            text += " (" + join(named, "or") + ")"
        else:
            text += f" ({len(named)} options)"
    return text
