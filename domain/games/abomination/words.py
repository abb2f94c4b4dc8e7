"""Words for players: the label of each listed move and the prompt of the decision now.

Everything is said in content names (locations, spaces, cards, characters, parts), never in ids;
costs and gains are given when they are known before the move. Players are "Seat N" (the service
writes in their names). Shared with describe.py (effect phrases, space and card names).
"""

from __future__ import annotations

from domain.engine.text import article, join, plural, upper_first  # noqa: F401  (describe and picture use them too)

from .content import C

ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")
ATTR = {"humanity": "Humanity", "reputation": "Reputation", "expertise": "Expertise"}


def card_name(card) -> str:
    data = C.cards.get(card) if isinstance(card, str) else None
    return data.get("name", "a card") if data else "a card"


def location_name(loc: str) -> str:
    return C.locations[loc]["name"] if loc in C.locations else "the city"


def space_name(sid: str) -> str:
    """'the Crypt of Pere-Sombre Cemetery', 'the Study of your lab'."""
    if not isinstance(sid, str):
        return "a space"
    head, _, spot = sid.partition(".")
    spot_name = spot.replace("_", " ").title() if spot else "space"
    if head.startswith("lab"):
        return f"the {spot_name} of your lab"
    return f"the {spot_name} of {location_name(head)}"


def materials(items) -> str:
    out = []
    for i in items:
        word = {"blood": "blood", "bone": "bone", "organ": "organ", "muscle": "muscle", "animal": "animal"}[i["type"]]
        stage = f" at stage {i['stage']}" if i.get("stage") else ""
        out.append(f"{i['count']} {word}{stage}")
    return join(out)


DECK = {"cemetery": "Cemetery", "morgue": "Morgue", "hospital": "Hospital", "publicSquare": "Public Square",
        "research": "research", "humanity": "Humanity", "scoundrel": "scoundrel"}


def effect(e) -> str:
    """One effect of content in a few words ('gain 2 francs', 'take the top Morgue cadaver')."""
    op = e.get("op")
    if op == "francs":
        return f"gain {plural(e['n'], 'franc')}" if e["n"] >= 0 else f"pay {plural(-e['n'], 'franc')}"
    if op == "attribute":
        sign = "+" if e["n"] >= 0 else "-"
        return f"{sign}{abs(e['n'])} {ATTR[e['attr']]}"
    if op == "gainMaterials":
        return "gain " + materials(e["items"])
    if op == "takeCadaver":
        where = "from the display" if e.get("from") == "display" else "from the top of the deck"
        return f"take a {DECK.get(e['deck'], e['deck'])} cadaver {where}"
    if op == "drawCard":
        where = "from the display" if e.get("from") == "display" else "from the top of the deck"
        return f"draw a {DECK.get(e['deck'], e['deck'])} card {where}"
    if op == "takeScoundrel":
        return "hire a scoundrel at the docks"
    if op == "gainJar":
        return "gain a Leyden jar"
    if op == "chargeJars":
        return f"charge {plural(e['n'], 'Leyden jar')}"
    if op == "gainIce":
        return "gain a block of ice"
    if op == "meeple":
        return {"gainAssistant": "gain an assistant", "promote": "promote an assistant"}.get(e["kind"],
                                                                                            "lose an assistant")
    if op == "choice":
        return "choose: " + " or ".join(effects(o) for o in e["options"])
    if op == "each":
        return "each player: " + effects(e["effects"])
    if op == "passCreature":
        return "the Creature passes to the next player"
    if op == "releaseSetAside":
        return "the set-aside cadaver is released"
    if op == "gotoEntry":
        return "read a story entry"
    return "an effect"


def effects(items) -> str:
    return join([effect(e) for e in items]) or "nothing"


def part_name(part: str, side: str) -> str:
    return f"{part} ({'skin' if side == 'skin' else 'muscle'} side)"


def unit(u) -> str:
    if u["use"] == "bone":
        return "bone"
    if u["use"] == "animal":
        return f"animal {u['stage']} as {u['as']}"
    return f"{u['use']} {u['stage']}"


def place_label(state, seat, move) -> str:
    from .flow import check_place, space_def
    sid, kind = move["space"], move["kind"]
    d, _ = space_def(sid)
    _, cost, slot, bump_cost = check_place(state, seat, kind, sid)
    bits = []
    if slot is not None:
        occ = state["spaces"][sid]
        bits.append(f"bump Seat {occ['seat']}'s {occ['kind']}" + (f" for {plural(bump_cost, 'franc')}"
                                                                  if bump_cost else ""))
    if cost:
        bits.append(f"pay {plural(cost, 'franc')}")
    bits.append(effects(d["effects"]) if d else "")
    return f"Place your {kind} on {space_name(sid)}: " + ", ".join(b for b in bits if b)


def roll_die(state, seat, i) -> str:
    roll = state["p"][seat]["roll"]
    face = roll["dice"][i]["face"] if roll and i < len(roll["dice"]) else "?"
    return f"die {i + 1} ({face.replace('_', ' ').lower()})"


def table_part(state, seat, i) -> str:
    parts = state["p"][seat]["parts"]
    if not 0 <= i < len(parts):
        return "a part"
    x = parts[i]
    state_word = "alive" if x["alive"] else x["side"]
    damage = "no damage" if not x["damage"] else plural(x["damage"], "damage marker")
    return f"your {ORDINAL[i] if i < len(ORDINAL) else str(i + 1)} part, the {x['type']} ({state_word}, {damage})"


def label(state, seat, move) -> str:
    """One plain sentence for a listed move."""
    from .moves import internal_choice
    rec = state["pending"][-1] if state["pending"] else None
    move = internal_choice(rec, move)
    k = move.get("type")
    p = state["p"][seat]
    if k == "place":
        return place_label(state, seat, move)
    if k == "play":
        data = C.cards.get(move["card"], {})
        what = effects(data.get("effects", []) + data.get("icons", []))
        return f"Play {card_name(move['card'])}: {what}"
    if k == "cadaver":
        data = C.cadavers.get(move["card"], {})
        gain = (f"+{data.get('expertiseValue', 0)} Expertise" if move["option"] == "expertise"
                else "gain " + materials(data.get("materials", [])))
        cost = effects(data.get("cost", [])) if data.get("cost") else ""
        return f"Take the cadaver {card_name(move['card'])}: {gain}" + (f" ({cost})" if cost else "")
    if k == "draw":
        deck = DECK.get(rec["deck"], "a") if rec else "a"
        what = card_name(move["card"]) if "card" in move else f"the top {deck} card (unseen)"
        extra = f", discarding {card_name(move['discard'])}" if "discard" in move else ""
        return f"Draw {what}{extra}"
    if k == "decline":
        return "Take nothing"
    if k == "hire":
        data = C.scoundrels.get(move["card"], {})
        return f"Hire {card_name(move['card'])}: {effects(data.get('hireCost', []) + data.get('effects', []))}"
    if k == "choose":
        options = rec["options"] if rec and rec["kind"] == "choice" else []
        i = move["option"]
        return upper_first(effects(options[i])) if i < len(options) else f"Option {i + 1}"
    if k == "entry_choice":
        labels = rec.get("labels", []) if rec else []
        return labels[move["choice"]] if move["choice"] < len(labels) else f"Answer {move['choice'] + 1}"
    if k == "choose_target":
        return f"Target Seat {move['target']} with the encounter"
    if k == "choose_reader":
        return f"Let Seat {move['reader']} read the encounter aloud"
    if k == "meeple":
        zone = move["zone"]
        where = "on your character card" if zone == "card" else space_name(zone.partition(":")[2])
        verb = "Lose" if rec and rec.get("action") == "lose" else "Promote"
        kind = rec.get("meeple", "assistant") if rec else "assistant"
        return f"{verb} the {kind} {where}" if zone == "card" else f"{verb} the {kind} on {where}"
    if k == "discard":
        return f"Discard 1 {move['material']} at stage {rec['stage'] if rec else ''} (over the limit of 15)".replace(
            " at stage  ", " ")
    if k == "announce":
        return "Announce your encounter card now"
    if k == "not_announce":
        return "Keep quiet: the encounter card is discarded unresolved"
    if k == "build":
        pay = join([unit(u) for u in move["pay"]])
        target = f" on {table_part(state, seat, move['target'])}" if "target" in move else ""
        return f"Build the {part_name(move['part'], move['side'])}{target}, paying {pay}"
    if k == "switch":
        dice = plural(2 * move["jars"], "die", "dice")
        blue = f", {move['blue']} of them blue" if move["blue"] else ""
        return f"Throw the switch: turn {plural(move['jars'], 'charged jar')}, roll {dice}{blue}"
    if k == "ability":
        ch = C.characters.get(p["character"], {})
        return f"Use {ch.get('name', 'your character')}'s ability: {effects(ch.get('ability', {}).get('effects', []))}"
    if k == "preserve":
        return f"Preserve {move['count']} {move['material']} from stage {move['stage']}"
    if k == "mitigate":
        mit = C.research.get(move["card"], {}).get("diceMitigation", {}).get("kind", "")
        how = {"reroll": "reroll", "ignore": "cancel", "setAlive": "turn to ALIVE"}.get(mit, "change")
        return f"Play {card_name(move['card'])} to {how} {roll_die(state, seat, move['die'])}"
    if k == "mitigate_done":
        return "Keep the dice as rolled"
    if k == "damage":
        return f"Put a damage marker on {table_part(state, seat, move['part'])}"
    if k == "alive":
        return f"Bring {table_part(state, seat, move['part'])} to life"
    if k == "done":
        return "Finish your Lab phase"
    return k.replace("_", " ").capitalize()


PENDING_PROMPT = {
    "cadaver": "choose a cadaver and whether to take its Expertise or its materials",
    "draw": "draw a card or take nothing",
    "scoundrel": "hire a scoundrel or take nothing",
    "choice": "choose one option",
    "entry": "answer the story entry",
    "target": "choose who the encounter targets",
    "reader": "choose who reads the encounter aloud",
    "meeple": "choose which meeple",
    "excess": "choose which material to discard over the limit",
    "announce": "announce your encounter card or keep quiet",
}


def prompt(state) -> str:
    """What is being decided now, and by whom."""
    if state["phase"] == "over":
        return "The game is over"
    if state["pending"]:
        rec = state["pending"][-1]
        what = PENDING_PROMPT.get(rec["kind"], "decide")
        if rec["kind"] == "choice":
            what += ": " + " or ".join(effects(o) for o in rec["options"])
        elif rec["kind"] == "entry" and rec.get("labels"):
            what += ": " + " or ".join(rec["labels"])
        elif rec["kind"] == "meeple":
            what = f"choose which {rec.get('meeple', 'assistant')} to {'lose' if rec.get('action') == 'lose' else 'promote'}"
        elif rec["kind"] in ("cadaver", "scoundrel") and isinstance(rec.get("cards"), list):
            what += " (" + join([card_name(c) for c in rec["cards"]]) + ")"
        return f"Seat {rec['seat']}: {what}"
    if state["phase"] == "city":
        return f"Seat {state['active']}: place a scientist or an assistant in the city or your lab (round {state['round']})"
    if state["phase"] == "lab":
        seats = [f"Seat {s}" for s in range(state["n"]) if not state["p"][s]["done"]]
        rolling = [f"Seat {s}" for s in range(state["n"]) if state["p"][s]["roll"] is not None]
        text = join(seats) + ": in your lab, build parts, throw the switch once, preserve materials, then finish"
        if rolling:
            text += f" ({join(rolling)}: resolve your shock dice first)"
        return text
    return "Waiting"
