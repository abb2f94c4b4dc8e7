"""The move tree (API.md "Move tree"): each listed move's steps from the general to the particular, the
board elements it involves, and its label (one sentence, the detail left to the path and the glossary).

At the start of a turn the first steps are the kinds of turn (Workshop turn, Actions turn, changing a die
for 1 Coal, a pass); a Workshop turn then names the die moved, where to, and the die pushed with its
reward; an Actions turn the die from the Store, the action, and the Mill space. A pending choice with at
most 12 options lists them flat; a longer one groups them (cities by kind and price, Meeting rooms,
Program tiles, Institutions, places of discs, dice). Identical dice are listed once (moves.same_effect),
so no two listed moves share their words.
"""

from __future__ import annotations

from domain.engine.text import plural

from .. import content as C
from .. import describe as D
from .. import state as S
from .labels import (AREA_NAMES, REWARD_WORDS, choice_label, cost_words, die, effect_words, gear_name, label as
                     sentence, mill_slot, program_words)

FLAT = 12          # a choice with at most this many options is one level


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def place_words(state, seat, loc) -> str:
    """A die's or a disc's place, naming the die: "the blue 3 in Workshop space 2", "Meeting room 3, space 2"."""
    kind = loc[0] if isinstance(loc, list) and loc else None
    try:
        if kind in ("ws", "store", "mill"):
            d = S.die_at(state, seat, loc)
            where = {"ws": lambda: f"Workshop space {loc[1] + 1}", "store": lambda: "your Store",
                     "mill": lambda: mill_slot(loc[1])}[kind]()
            return f"the {die(d)} in {where}"
        if kind == "room":
            return f"Meeting room {loc[1] + 1}" + (f", space {loc[2] + 1}" if len(loc) > 2 else "")
        if kind == "univ":
            return f"the University at {C.CITIES[loc[1]]['name']}"
        if kind == "lect":
            return f"the {C.INST_NAMES[loc[1]]} Lecture level {loc[2]}"
        if kind == "obj":
            return f"the {AREA_NAMES.get(loc[1], loc[1])} Objective"
    except (KeyError, IndexError, TypeError):
        pass
    return D._place(loc) if isinstance(loc, list) and loc else "there"


LOC_VERB = {"swap_own": "Swap", "swap_ws": "Swap with", "stack": "Stack a disc on", "pub_stack": "Stack a disc on",
            "icon_place": "Place the disc on", "move_dst": "Move the disc to", "move_src": "Move the disc from",
            "disc_move": "Move the disc from", "umove_src": "Move your disc from"}


def _short_effect(e) -> str:
    words = effect_words(e)
    if len(words) > 60 and "choose" in e:
        return f"{plural(e.get('count', 1), 'reward')} of your choice"
    return words


def option_words(state, seat, top, pick) -> str:
    """A pending choice's option as a short imperative sentence, naming what tells it from the others."""
    kind = top["kind"]
    if pick is None:
        return "Decline"
    if kind in LOC_VERB and isinstance(pick, list):
        return f"{LOC_VERB[kind]} {place_words(state, seat, pick)}"
    if kind in ("pip", "adjust") and isinstance(pick, list) and len(pick) == 2 and isinstance(pick[0], list):
        d = S.die_at(state, seat, pick[0])
        return f"Turn {place_words(state, seat, pick[0])} to {d['v'] + pick[1]}"
    if kind == "program":
        tile = state["displays"]["prog"][pick[0]]
        return f"Take {program_words(tile)} for {D._line(pick[1])}: {_short_effect(C.PROGRAM_SPACE[pick[1]])}"
    if kind in ("discard", "remove", "hand_limit"):
        card = C.partner(pick)
        verb = {"discard": "Discard", "remove": "Remove from the game", "hand_limit": "Discard"}[kind]
        return f"{verb} {card['name']}"
    if kind == "box":
        return f"Return the disc on gear space {pick + 1} to the box"
    if kind == "swap_gear":
        return f"Turn the Subtraction Gear on gear space {pick + 1} into an Addition Gear"
    if kind == "carry_room":
        return f"Meeting room {pick + 1}"
    if kind == "carry_lect":
        return f"The {C.INST_NAMES[pick[0]]} Lecture level {pick[1]}"
    if kind == "track":
        return f"The {pick} Research track"
    if kind == "stoken":
        return f"A 1-Prestige Science token for {pick}"
    return choice_label(state, seat, top, pick)


def _choice_group(state, seat, top, pick) -> str:
    """The first step of an option of a long choice (more than FLAT options)."""
    kind = top["kind"]
    if pick is None:
        return "Decline"
    if isinstance(pick, str) and pick in C.CITIES:
        city = C.CITIES[pick]
        what = "Small cities" if city["kind"] == "small" else "University cities"
        if kind == "travel":                 # by price, in bands of £2 (at most 7 first steps)
            cost = C.TRAVEL_COST[state["players"][seat]["city"]].get(pick, 0)
            if not cost:
                return "Travel for free"
            low = cost if cost % 2 else cost - 1
            return f"Travel for £{low} or £{low + 1}" if low < 11 else "Travel for £11 or more"
        return what
    if kind == "meeting":
        return f"Meeting room {pick['room'] + 1}"
    if kind == "lecture":
        return f"The {C.INST_NAMES[pick['inst']]}"
    if kind == "program":
        return _cap(program_words(state["displays"]["prog"][pick[0]]))
    if kind == "build":
        return _cap(gear_name(pick["gear"]))
    if isinstance(pick, list) and pick and isinstance(pick[0], list):
        pick = pick[0]
    if isinstance(pick, list) and pick:
        return {"ws": "Workshop dice", "store": "Dice of your Store", "mill": "Dice of your Mill",
                "room": "Meeting rooms", "univ": "Universities", "lect": "Lectures",
                "obj": "Objectives"}.get(pick[0], "Other places")
    if isinstance(pick, str) and (pick in C.PARTNERS or "#" in pick):
        science = C.partner(pick)["science"]
        return "Cards without a Science" if science == "none" else f"{science.capitalize()} cards"
    return "Options"


def steps(state, seat, move) -> list[str]:
    kind = move.get("type")
    fl = state["flow"]
    if kind == "draft":
        card = C.partner(move["card"])
        return ["Draft a tier-1 Partner card",
                f"{card['name']} ({card['science']}, {plural(card['prestige'], 'Prestige', 'Prestige')})"]
    if kind == "workshop":
        ws = state["workshop"]
        dest = (move["space"] + (2 if move["extra"] else 1)) % 6
        moved, pushed = ws[move["space"]][move["die"]], ws[dest][move["push"]]
        return ["Workshop turn", f"the {die(moved)} in space {move['space'] + 1}",
                f"to space {dest + 1}" + (" (1 Coal for the extra space)" if move["extra"] else ""),
                f"push the {die(pushed)} and {REWARD_WORDS[C.WORKSHOP_BONUS[dest]]}"]
    if kind == "adjust":
        d = state["workshop"][move["space"]][move["die"]]
        return ["Change a Workshop die for 1 Coal", f"the {die(d)} in space {move['space'] + 1}",
                f"to {d['v'] + move['delta']}"]
    if kind == "actions":
        d = state["players"][seat]["store"][move["die"]]
        return ["Actions turn", f"the {die(d)} from your Store", f"the {AREA_NAMES[move['action']]} action",
                f"into {mill_slot(move['slot'])}"]
    if kind == "play":
        return ["Play a Partner card", sentence(state, seat, move).removeprefix("Play ")]
    if kind == "build":
        return ["Build a gear", _cap(gear_name(move["gear"])),
                f"on gear space {move['space'] + 1} for {cost_words(S.gear_cost(move['gear']))}"]
    if kind == "choose":
        top = fl["agenda"][-1]
        opts = S.choice_options(state, top) + ([None] if top.get("optional") else [])
        said = option_words(state, seat, top, move.get("option"))
        pick = move.get("option")
        if len(opts) <= FLAT or pick is None:
            return [said]
        if isinstance(pick, list) and len(pick) == 2 and isinstance(pick[0], list):      # a die and a change
            d = S.die_at(state, seat, pick[0])
            return [_choice_group(state, seat, top, pick), _cap(place_words(state, seat, pick[0])),
                    f"to {d['v'] + pick[1]}"]
        return [_choice_group(state, seat, top, pick), said]
    return [sentence(state, seat, move)]


def paths(state, seat, moves) -> list[list[str]]:
    return [[_cap(step) for step in steps(state, seat, m)] for m in moves]


def label(state, seat, move) -> str:
    """One readable sentence: the kind of move, then what tells it from the others."""
    kind = move.get("type")
    said = steps(state, seat, move)
    if kind == "workshop":
        return f"Workshop: move {said[1]} {said[2]}, {said[3]}"
    if kind == "adjust":
        return f"Pay 1 Coal to turn {said[1]} {said[2]}"
    if kind == "actions":
        return f"Actions: put {said[1]} {said[3]}, {said[2]}"
    if kind == "choose":
        return option_words(state, seat, state["flow"]["agenda"][-1], move.get("option"))
    if kind == "build":
        return f"Build {'an' if said[1][0] in 'AEIOU' else 'a'} {said[1]} {said[2]}"
    if kind == "draft":
        return f"Draft {said[1]}"
    if kind == "play":
        return f"Play {said[1]}"
    return said[-1]


def _card_key(card) -> str | None:
    return f"card:{C.card_base(card)}" if isinstance(card, str) and C.card_base(card) in C.PARTNERS else None


def _loc_keys(loc) -> list[str]:
    kind = loc[0] if isinstance(loc, list) and loc else None
    if kind == "ws":
        return [f"space:workshop.{loc[1] + 1}"]
    if kind == "room":
        return [f"space:room.{loc[1] + 1}"]
    if kind == "univ":
        return [f"location:{loc[1]}"]
    if kind == "lect":
        return [f"space:lecture.{loc[1]}.{loc[2]}"]
    return []


def targets(state, seat, moves) -> list[list[str]]:
    """Per move: the Workshop spaces, cards, tiles, cities, rooms and Lecture spaces it involves, and
    the seat's own area for what happens on the player's board."""
    out = []
    for m in moves:
        kind = m.get("type")
        keys: list = []
        if kind == "workshop":
            dest = (m["space"] + (2 if m["extra"] else 1)) % 6
            keys = [f"space:workshop.{m['space'] + 1}", f"space:workshop.{dest + 1}"]
        elif kind == "adjust":
            keys = [f"space:workshop.{m['space'] + 1}"]
        elif kind in ("actions", "publish", "end_turn", "pass", "skip", "advanced", "decline_build"):
            keys = [f"seat:{seat}"]
        elif kind in ("draft", "play"):
            keys = [_card_key(m.get("card"))]
        elif kind == "build":
            gear = m.get("gear")
            keys = [f"tile:gear-{gear}" if gear in ("add", "sub") else f"tile:{gear}", f"seat:{seat}"]
        elif kind == "choose":
            keys = _choice_keys(state, seat, m.get("option"))
        out.append([k for k in keys if k])
    return out


def _choice_keys(state, seat, pick) -> list:
    fl = state["flow"]
    top = fl["agenda"][-1] if fl["agenda"] else {}
    kind = top.get("kind")
    d = state["displays"]
    try:
        if pick is None:
            return []
        if isinstance(pick, str) and pick in C.CITIES:
            return [f"location:{pick}"]
        if isinstance(pick, str):
            if kind in ("track", "column", "atoken") and pick in C.COLOURS:
                return [f"space:track.{pick}"]
            if kind == "breakthrough":
                return [f"token:{state['breakthroughs'][pick]}"]
            return [_card_key(pick)]
        if kind == "meeting":
            return [f"space:room.{pick['room'] + 1}", f"space:display.{pick['slot'] + 1}",
                    _card_key(d["meet"][pick["slot"]])]
        if kind == "lecture":
            return [f"location:{pick['inst']}", f"space:lecture.{pick['inst']}.{pick['level']}"]
        if kind == "program":
            return [f"card:{d['prog'][pick[0]]}", f"space:program.{pick[1]}"]
        if kind in ("lecture_reward", "carry_lect"):
            return [f"space:lecture.{pick[0]}.{pick[1]}"]
        if kind == "assignment":
            return [f"card:{d['assign'][pick]}"]
        if kind == "multiplier":
            return [f"tile:{d['mult'][pick]}"]
        if kind == "gain_partner":
            return [_card_key(d["meet"][pick])]
        if kind == "carry_room":
            return [f"space:room.{pick + 1}"]
        if kind == "build":
            gear = pick["gear"]
            return [f"tile:gear-{gear}" if gear in ("add", "sub") else f"tile:{gear}"]
        if isinstance(pick, list) and pick and isinstance(pick[0], list):
            return _loc_keys(pick[0])
        if isinstance(pick, list):
            return _loc_keys(pick)
    except (KeyError, IndexError, TypeError):
        return []
    return []
