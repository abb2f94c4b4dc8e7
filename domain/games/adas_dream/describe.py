"""describe: one plain sentence per move, built from the move and the facts it produced."""

from __future__ import annotations

from . import content as C
from . import words as W
from .state import choice_options

RES_NAMES = {"money": "£", "coal": "Coal", "brass": "Brass", "book": "Book", "innov": "Innovation"}


def _res(delta):
    parts = []
    for k, v in delta.items():
        if k == "money":
            parts.append(f"{'gains' if v > 0 else 'pays'} £{abs(v)}")
        else:
            parts.append(f"{'gains' if v > 0 else 'spends'} {abs(v)} {RES_NAMES[k]}")
    return ", ".join(parts)


def _card(card):
    return C.partner(card)["name"]


def _fact_text(f, seat):
    t = f["type"]
    if t == "Resources" and f["seat"] == seat:
        return _res(f["delta"])
    if t == "ResearchMoved":
        return f"moves {f['colour']} Research to {f['to']}"
    if t == "SteamMoved":
        return f"raises Steam to {f['to']}"
    if t == "WsDieMoved":
        return (f"moves a {f['die']['c']} {f['die']['v']} from Workshop space {f['space'] + 1} to space {f['to'] + 1}"
                + (" (1 Coal for the extra space)" if f.get("extra") else ""))
    if t == "WsDiePushed":
        return f"pushes a {f['die']['c']} {f['die']['v']} onto the bonus space of Workshop space {f['space'] + 1}"
    if t == "WsRefilled" and not f["dice"]:
        return f"leaves Workshop space {f['space'] + 1} empty (the bag is empty)"
    if t == "WsRefilled":
        return "refills Workshop space {} with {}".format(f["space"] + 1, ", ".join(f"{d['c']} {d['v']}" for d in f["dice"]))
    if t == "DieStored":
        return f"stores the die in Store slot {f['slot'] + 1}"
    if t == "DieToMill":
        return f"places a {f['die']['c']} {f['die']['v']} in Mill slot ({f['slot'] // 3 + 1},{f['slot'] % 3 + 1})"
    if t == "CardsDrawn":
        return f"draws {W.plural(len(f['cards']), 'card')}"
    if t == "CardPlayed":
        return f"plays {_card(f['card'])}"
    if t == "CardDiscarded":
        return f"discards {_card(f['card'])}"
    if t == "PartnerGained":
        return f"gains {_card(f['card'])}"
    if t == "PartnerRemoved":
        return f"removes {_card(f['card'])} from the game"
    if t == "PartnerUsed":
        return f"uses the effect of {_card(f['card'])}"
    if t == "AssignmentTaken":
        return f"takes the Assignment '{C.ASSIGNMENTS[f['card']]['name']}'"
    if t == "AssignmentFiled":
        return f"files it in the {f['colour']} column"
    if t == "ProgramPlaced":
        return f"places {W.program_words(f['tile'])} on {_line(f['line'])}"
    if t == "DiscPlaced":
        loc = f["loc"]
        where = {"univ": lambda: f"the University at {C.CITIES[loc[1]]['name']}",
                 "room": lambda: f"Meeting room {loc[1] + 1}",
                 "lect": lambda: f"the {C.INST_NAMES[loc[1]]} Lecture level {loc[2]}",
                 "obj": lambda: f"the {loc[1]} Objective ({loc[2]} space)"}[loc[0]]()
        return ("moves a disc to " if f.get("src") else "places a disc on ") + where
    if t == "DiscBoxed":
        return "returns a disc to the box"
    if t == "GearGained":
        return f"gains {W.article(W.gear_name(f['gear']))}"
    if t == "GearBuilt":
        return f"builds {W.article(W.gear_name(f['gear']))} on gear space {f['space'] + 1}"
    if t == "GearSwapped":
        return f"turns the Subtraction Gear on space {f['space'] + 1} into an Addition Gear"
    if t == "Travelled":
        return f"travels to {C.CITIES[f['to']]['name']}" + (f" for £{f['cost']}" if f["cost"] else "")
    if t == "TokenTaken":
        label = f["colour"] + " Assignment" if f["kind"] == "assign" else f["science"] + " Science"
        return f"takes a {f['value']}-Prestige {label} token"
    if t == "DieValue":
        w = f["where"]
        place = (f"Workshop space {w[1] + 1}" if w[0] == "ws" else f"the {w[0]}")
        return f"sets a die in {place} to {f['to']}"
    if t == "DieSwapped":
        return "swaps a die with the Workshop"
    if t == "Published":
        return f"publishes ({W.AREA_NAMES[f['area']]})"
    if t == "EndTriggered":
        return "completes the Mill and triggers the end of the game"
    if t == "TurnEnded":
        return "ends the turn"
    if t == "GameOver":
        return None                                      # the sentence ends with the final scores (describe)
    return None


CHOICE_WORDS = {
    "track": "puts the Research on the {} track", "disc_src": "takes the disc from gear space {}",
    "workshop_reward": "picks the Workshop reward: {}", "innov_bonus": "spends 2 Innovation for the reward: {}",
    "study_main": "takes the Study reward: {}", "study_extra": "takes the extra Study reward: {}",
    "study_any": "takes the Study item: {}", "travel": "travels to {}", "small_city": "moves to {}",
    "column": "files the Assignment in the {} column", "remove": "removes {} from the game",
    "hand_limit": "discards {} for the hand limit", "discard": "discards {}", "play_free": "plays {} for free",
    "use_partner": "uses the effect of {}", "breakthrough": "takes the {} Breakthrough",
    "any_advanced": "takes the level-1 {} Advanced action", "atoken": "takes the {} Assignment token",
    "stoken": "chooses the Science {}", "pub_adv": "takes the level-1 Advanced action",
    "umove_src": "moves the disc from {}", "umove_dst": "moves it to {}", "nearest_uni": "goes to {}",
    "carry_travel": "travels for free to {}",
}


GEAR_SIGN = {"add": "+", "sub": "-"}


def _line(line):
    return ("row " if line.startswith("row") else "column ") + line[-1]


def _place(loc):
    """Words for a disc location or a die position."""
    kind = loc[0]
    if kind == "univ":
        return f"the University at {C.CITIES[loc[1]]['name']}"
    if kind == "room":
        return f"Meeting room {loc[1] + 1}"
    if kind == "lect":
        return f"the {C.INST_NAMES[loc[1]]} Lecture level {loc[2]}"
    if kind == "obj":
        return f"the {loc[1]} Objective"
    if kind == "ws":
        return f"the die in Workshop space {loc[1] + 1}"
    if kind == "store":
        return f"the die in Store slot {loc[1] + 1}"
    return f"the die in Mill slot ({loc[1] // 3 + 1},{loc[1] % 3 + 1})"


def _structured(kind, pick, top):
    """Plain words for picks that are numbers, lists or objects (None when there is no special wording)."""
    if kind == "meeting":
        pay = "£" if pick["pay"] == "money" else "Innovation"
        return f"chooses Meeting room {pick['room'] + 1}, paying in {pay}, and the card in display slot {pick['slot'] + 1}"
    if kind == "lecture":
        return f"lectures at the {C.INST_NAMES[pick['inst']]} level {pick['level']}"
    if kind == "build":
        return f"builds a {GEAR_SIGN.get(pick['gear'], 'x')} gear on gear space {pick['space'] + 1}"
    if kind == "program":
        return f"takes the Program in display slot {pick[0] + 1} for {_line(pick[1])}"
    if kind in ("lecture_reward", "carry_lect"):
        return f"takes the reward of the {C.INST_NAMES[pick[0]]} Lecture level {pick[1]}"
    if kind in ("pip", "adjust"):
        return f"moves {_place(pick[0])} {'up' if pick[1] > 0 else 'down'} by 1"
    if kind in ("pub_stack", "stack", "icon_place", "move_dst", "umove_dst"):
        return f"puts the disc on {_place(pick) if isinstance(pick, list) else _place(['univ', pick])}"
    if kind in ("move_src", "disc_move"):
        return f"moves the disc from {_place(pick)}"
    if kind in ("swap_own", "swap_ws"):
        return f"swaps {_place(pick)}"
    if kind == "multiplier":
        return f"takes the Multiplier Gear in display slot {pick + 1}"
    if kind == "assignment":
        return f"takes the Assignment in display slot {pick + 1}"
    if kind == "gain_partner":
        return f"takes the Partner card in display slot {pick + 1}"
    if kind in ("box",):
        return f"returns the disc on gear space {pick + 1} to the box"
    if kind == "swap_gear":
        return f"swaps the Subtraction Gear on gear space {pick + 1}"
    if kind == "carry_room":
        return f"chooses Meeting room {pick + 1}"
    if kind == "choose":
        return f"picks: {W.effect_words(top['d']['e']['choose'][pick])}"
    return None


def _pick_words(state, pick):
    fl = state["flow"]
    top = fl["agenda"][-1] if fl["agenda"] else None
    kind = top.get("kind") if top else None
    opts = choice_options(state, top) if top is not None and top["k"] == "choice" else []
    if pick is None:
        return "declines"
    if opts and pick in opts and not isinstance(pick, str):
        try:
            words = _structured(kind, pick, top)
        except (KeyError, IndexError, TypeError):
            words = None
        if words:
            return words
    value = pick
    if isinstance(pick, str) and pick in C.CITIES:
        value = C.CITIES[pick]["name"]
    elif isinstance(pick, str) and (pick in C.PARTNERS or "#" in pick):
        value = C.partner(pick)["name"]
    elif kind == "disc_src" and isinstance(pick, int):
        value = pick + 1
    elif not isinstance(pick, str):
        pass
    elif kind in ("study_main", "study_extra", "study_any") and pick in W.STUDY_ITEMS:
        value = W.STUDY_ITEMS[pick]
    elif kind in ("workshop_reward", "innov_bonus") and pick in W.REWARD_WORDS:
        value = W.REWARD_WORDS[pick]
    elif kind == "any_advanced" and pick in W.AREA_NAMES:
        value = W.AREA_NAMES[pick]
    if kind in CHOICE_WORDS and opts and pick in opts:
        return CHOICE_WORDS[kind].format(value)
    return f"chooses {value}"


def describe(state, seat, move, facts):
    kind = move.get("type")
    head = {
        "workshop": "takes a Workshop turn",
        "adjust": "pays 1 Coal to adjust a Workshop die",
        "actions": f"takes an Actions turn ({W.AREA_NAMES.get(move.get('action'), move.get('action'))})",
        "pass": "cannot take a turn and passes",
        "play": "plays a Partner card",
        "skip": "skips",
        "advanced": "takes the Advanced action",
        "publish": "publishes",
        "build": "builds a gear",
        "end_turn": "ends the turn" + (" (keeping the Build for later)" if move.get("defer_build") else ""),
        "decline_build": "declines the deferred Build",
        "draft": f"drafts {C.partner(move['card'])['name'] if move.get('card') in C.PARTNERS else move.get('card')}",
        "choose": _pick_words(state, move.get("option")) if kind == "choose" else "",
    }.get(kind, kind)
    details = [x for x in (_fact_text(f, seat) for f in facts) if x and not head.startswith(x)]
    sentence = f"Seat {seat} {head}"
    if details:
        sentence += ": " + "; ".join(details)
    sentence += "."
    over = [f for f in facts if f["type"] == "GameOver"]
    if over:
        sentence += " " + final_words(over[0]["scores"], state)
    return sentence


def final_words(scores, state) -> str:
    """The end of the last move's sentence: the final scores and the winner (ADA-SCORE-20, ADA-SCORE-21,
    ADA-SCORE-22, ADA-SCORE-23 break ties)."""
    from .scoring import ranked_winners
    totals = ", ".join(f"Seat {k} {s['total']}" for k, s in enumerate(scores))
    won = ranked_winners(state, scores)
    return f"Final scores: {totals}. " + " and ".join(f"Seat {w}" for w in won) + \
        (" wins." if len(won) == 1 else " share the win.")
