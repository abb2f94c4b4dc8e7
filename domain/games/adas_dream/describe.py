"""describe: one plain sentence per move, built from the move and the facts it produced."""

from __future__ import annotations

from . import content as C

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
    if t == "WsRefilled":
        return "refills Workshop space {} with {}".format(f["space"] + 1, ", ".join(f"{d['c']} {d['v']}" for d in f["dice"]))
    if t == "DieStored":
        return f"stores the die in Store slot {f['slot'] + 1}"
    if t == "DieToMill":
        return f"places a {f['die']['c']} {f['die']['v']} in Mill slot ({f['slot'] // 3 + 1},{f['slot'] % 3 + 1})"
    if t == "CardsDrawn":
        return f"draws {len(f['cards'])} card(s)"
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
        return f"places Program {f['tile']} on {f['line']}"
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
        return f"gains a {'Addition' if f['gear'] == 'add' else 'Subtraction' if f['gear'] == 'sub' else 'Multiplier'} Gear"
    if t == "GearBuilt":
        return f"builds a {'+' if f['gear'] == 'add' else '-' if f['gear'] == 'sub' else 'x'} gear on gear space {f['space'] + 1}"
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
        return f"publishes ({f['area']})"
    if t == "EndTriggered":
        return "completes the Mill and triggers the end of the game"
    if t == "TurnEnded":
        return "ends the turn"
    if t == "GameOver":
        return "the game ends: " + ", ".join(f"seat {k} scores {s['total']}" for k, s in enumerate(f["scores"]))
    return None


CHOICE_WORDS = {
    "track": "puts the Research on the {} track", "disc_src": "takes the disc from gear space {}",
    "workshop_reward": "picks the {} Workshop reward", "innov_bonus": "spends 2 Innovation for the {} reward",
    "study_main": "takes the Study reward: {}", "study_extra": "takes the extra Study reward: {}",
    "study_any": "takes the Study item: {}", "travel": "travels to {}", "small_city": "moves to {}",
    "column": "files the Assignment in the {} column", "remove": "removes {} from the game",
    "hand_limit": "discards {} for the hand limit", "discard": "discards {}", "play_free": "plays {} for free",
    "use_partner": "uses the effect of {}", "breakthrough": "takes the {} Breakthrough",
    "any_advanced": "takes the level-1 {} Advanced action", "atoken": "takes the {} Assignment token",
    "stoken": "takes a {} Science token", "pub_adv": "takes the level-1 Advanced action",
}


def _pick_words(state, pick):
    fl = state["flow"]
    top = fl["agenda"][-1] if fl["agenda"] else None
    kind = top.get("kind") if top else None
    if pick is None:
        return "declines"
    value = pick
    if isinstance(pick, str) and pick in C.CITIES:
        value = C.CITIES[pick]["name"]
    elif isinstance(pick, str) and (pick in C.PARTNERS or "#" in pick):
        value = C.partner(pick)["name"]
    elif kind == "disc_src" and isinstance(pick, int):
        value = pick + 1
    if kind in CHOICE_WORDS and top.get("opts") and pick in top["opts"]:
        return CHOICE_WORDS[kind].format(value)
    return f"chooses {value}"


def describe(state, seat, move, facts):
    kind = move.get("type")
    head = {
        "workshop": "takes a Workshop turn",
        "adjust": "pays 1 Coal to adjust a Workshop die",
        "actions": f"takes an Actions turn ({move.get('action')})",
        "pass": "cannot take a turn and passes",
        "play": "plays a Partner card",
        "skip": "skips",
        "advanced": "takes the Advanced action",
        "publish": "publishes",
        "build": "builds a gear",
        "end_turn": "ends the turn" + (" (keeping the Build for later)" if move.get("defer_build") else ""),
        "decline_build": "declines the deferred Build",
        "draft": f"drafts {C.partner(move['card'])['name'] if move.get('card') in C.PARTNERS else move.get('card')}",
        "choose": _pick_words(state, move.get("pick")) if kind == "choose" else "",
    }.get(kind, kind)
    details = [x for x in (_fact_text(f, seat) for f in facts) if x and not head.startswith(x)]
    sentence = f"Seat {seat} {head}"
    if details:
        sentence += ": " + "; ".join(details)
    return sentence + "."
