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
        where = "on your character card" if zone == "card" else \
            f"slot {int(zone.partition(':')[2]) + 1} of the bump track" if zone.startswith("bump:") else \
            space_name(zone.partition(":")[2])
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


# ----------------------------------------------------------------------------- the glossary (issue 24.2)
# Every card, character, location and space of the content, in plain words written here from its data.
# An encounter's story is never told here (H-07): only when and to whom it happens.

TIMING_WORDS = {"cityTurn": "on your turn in the City phase", "lab": "in the Lab phase", "setup": "at the start"}
MITIGATION_WORDS = {"reroll": "reroll", "ignore": "cancel", "setAlive": "turn to ALIVE"}
TARGET_WORDS = {"chosen": "a player its drawer chooses", "placer": "the player who placed there",
                "lowestHumanity": "the player with the lowest Humanity",
                "highestReputation": "the player with the highest Reputation",
                "mostFrancs": "the player with the most francs", "fewestFrancs": "the player with the fewest francs",
                "highestExpertise": "the player with the highest Expertise",
                "negativeHumanity": "each player whose Humanity is below zero",
                "hasAlivePart": "each player with a part brought to life"}
STAT_WORDS = {"expertise": "Expertise", "reputation": "Reputation", "humanity": "Humanity", "francs": "francs",
              "alive": "parts brought to life", "preserved": "preserved materials"}


def rounds(face) -> str:
    lo, hi = face["rounds"]
    return f"Rounds {lo} to {hi}"


def location_entry(loc: dict) -> tuple[str, str]:
    spaces = [f"{space_name(s['id']).removeprefix('the ').split(' of ')[0]} ({effects(s['effects'])})"
              for s in loc["spaces"]]
    return loc["name"], f"A place in Paris with {plural(len(spaces), 'space')}: {'; '.join(spaces)}."


def space_entry(space: dict, where: str) -> tuple[str, str]:
    who = "a scientist only" if space["scientistOnly"] else "a scientist or an assistant"
    cost = f" Placing here costs {plural(space['francCost'], 'franc')}." if space["francCost"] else ""
    name = space_name(space["id"]) if where != "lab" else f"the {space['id'].title()} of your lab"
    text = (f"A space for {who}{' in your own lab' if where == 'lab' else ''}.{cost} "
            f"It gives: {effects(space['effects'])}.")
    if where != "lab":
        text += " A space already taken can be taken over by paying the bump cost."
    return upper_first(name), text


def cost_words(items) -> str:
    """A cost as what is given up: '1 franc', '1 Humanity'."""
    out = []
    for e in items:
        if e.get("op") == "francs" and e["n"] < 0:
            out.append(plural(-e["n"], "franc"))
        elif e.get("op") == "attribute" and e["n"] < 0:
            out.append(f"{-e['n']} {ATTR[e['attr']]}")
        else:
            out.append(effect(e))
    return join(out) or "nothing"


def cadaver_text(card: dict) -> str:
    cost = cost_words(card.get("cost", []))
    deck = DECK.get(card["deck"], card["deck"])
    return (f"A {deck} cadaver. Taking it costs {cost}; its taker gains either {materials(card['materials'])}, "
            f"or +{card['expertiseValue']} Expertise.")


def played_card_text(card: dict, kind: str) -> str:
    text = f"A {kind} card, played {TIMING_WORDS[card['timing']]}: {effects(card['effects'])}."
    if card.get("icons"):
        text += f" Its icons add: {effects(card['icons'])}."
    mit = card.get("diceMitigation")
    if mit:
        dice = plural(mit["n"], "shock die", "shock dice")
        how = f"turn {dice} to ALIVE" if mit["kind"] == "setAlive" else f"{MITIGATION_WORDS[mit['kind']]} {dice}"
        text += f" Instead, after a throw of the switch, it can {how}."
    return text


def event_entry(card: dict) -> tuple[str, str]:
    faces = []
    for face in card["faces"]:
        bits = []
        if face["lightningStorm"]:
            bits.append("a lightning storm charges every Leyden jar")
        if face["execution"]:
            bits.append("an execution lays new cadavers on the Place de la Lame")
        if face["immediate"]:
            bits.append(effects(face["immediate"]))
        for mod in face["modifiers"]:
            where = location_name(mod["scope"])
            value = mod.get("value", 1)
            bits.append(f"{where} is closed" if mod["kind"] == "closed" else
                        f"placing at {where} costs {plural(abs(value), 'franc')} {'more' if value > 0 else 'less'}")
        faces.append(f"{rounds(face)}: {face['title']}" + (f", {join(bits)}" if bits else ", nothing more") + ".")
    return " / ".join(f["title"] for f in card["faces"]), "An event card of the story deck. " + " ".join(faces)


def encounter_entry(card: dict) -> tuple[str, str]:
    faces, places = [], []
    for face in card["faces"]:
        trig = face["trigger"]
        target = face["target"]
        whom = TARGET_WORDS.get(target.get("condition", target["kind"]), "a player")
        place = f"at {location_name(trig['locationId'])}" if trig["kind"] == "location" else "at once"
        if place not in places:
            places.append(place)
        if trig["kind"] == "location":
            when = f"held until someone places at {location_name(trig['locationId'])}, then it befalls {whom}"
        else:
            when = f"it befalls {whom} at once"
        faces.append(f"{rounds(face)}: {when}.")
    return (f"Encounter: {join(places, 'or')}",
            "An encounter card; a story entry tells what happens, chosen by its target. " + " ".join(faces))


def objective_text(obj: dict) -> str:
    cond = obj["condition"]
    stat = STAT_WORDS.get(cond["stat"], cond["stat"])
    if "atLeast" in cond:
        return f"A bonus objective: the first player to reach {cond['atLeast']} {stat} claims it, worth 10 VP at the end."
    return f"A bonus objective: at the end of the game, the player with the most {stat} claims it, worth 10 VP."


def character_text(ch: dict) -> str:
    text = f"A scientist you play. Once per Lab phase: {effects(ch['ability']['effects'])}."
    if ch.get("notForFirstTwoPlayerGames"):
        text += " Left out of a first two-player game."
    return text


def glossary(content=C) -> list[dict]:
    """Every card, character, location and space of the content with what it does."""
    out = []

    def add(key, kind, name, text):
        out.append({"key": key, "kind": kind, "name": name, "text": text})

    for lid, loc in content.locations.items():
        add(f"location:{lid}", "location", *location_entry(loc))
        for space in loc["spaces"]:
            add(f"space:{space['id']}", "space", *space_entry(space, lid))
    for sid, space in content.lab_spaces.items():
        add(f"space:lab.{sid}", "space", *space_entry(space, "lab"))
    for cid, card in content.cadavers.items():
        add(f"card:{cid}", "card", card["name"], cadaver_text(card))
    for cid, card in content.scoundrels.items():
        hire = cost_words(card["hireCost"])
        add(f"card:{cid}", "card", card["name"],
            f"A scoundrel for hire at the docks. Hiring costs {hire}; then: {effects(card['effects'])}.")
    for cid, card in content.research.items():
        add(f"card:{cid}", "card", card["name"], played_card_text(card, "research"))
    for cid, card in content.humanity.items():
        add(f"card:{cid}", "card", card["name"], played_card_text(card, "humanity"))
    for cid, card in content.events.items():
        add(f"card:{cid}", "card", *event_entry(card))
    for cid, card in content.encounters.items():
        add(f"card:{cid}", "card", *encounter_entry(card))
    for oid, obj in content.objectives.items():
        add(f"card:{oid}", "card", obj["name"], objective_text(obj))
    for cid, ch in content.characters.items():
        add(f"pc:{cid}", "character", ch["name"], character_text(ch))
    return out


# ----------------------------------------------------------------------------- the move tree (issue 24.3)
# Steps from the general to the particular: the kind of action, then what, then where, then how it
# is paid. A leaf says what the label says, in a few words; the label keeps the whole sentence.

MEEPLE = {"scientist": "Your scientist", "assistant": "Your assistant"}


def _spot(sid: str) -> tuple[str, str]:
    """(where, which space): ('Quai Morgue', 'Slab'), ('Your lab', 'Study')."""
    head, _, spot = sid.partition(".")
    name = spot.replace("_", " ").title() or "Space"
    return ("Your lab" if head.startswith("lab") else location_name(head)), name


def place_path(state, seat, move) -> list[str]:
    from .flow import check_place
    where, spot = _spot(move["space"])
    _, cost, slot, bump_cost = check_place(state, seat, move["kind"], move["space"])
    paid = cost + (bump_cost or 0)
    bumped = state["spaces"][move["space"]]["seat"] if slot is not None else None
    how = spot + (f" (bump Seat {bumped}, {plural(paid, 'franc')})" if slot is not None else
                  f" ({plural(paid, 'franc')})" if paid else "")
    return ["Place in the city" if where != "Your lab" else "Place in your lab", MEEPLE[move["kind"]],
            *([where] if where != "Your lab" else []), how]


def on_part(state, seat, i) -> str:
    """'On your head', 'On your second arm (1 damage marker)': the muscle-side part a skin goes on."""
    parts = state["p"][seat]["parts"]
    x = parts[i]
    same = [j for j, y in enumerate(parts) if y["type"] == x["type"]]
    which = f"{ORDINAL[same.index(i)]} " if len(same) > 1 else ""
    damage = f" ({plural(x['damage'], 'damage marker')})" if x["damage"] else ""
    return f"On your {which}{x['type']}{damage}"


def _pay_groups(pay) -> str:
    return upper_first(join([unit(u) for u in pay]))


def path(state, seat, move) -> list[str]:
    from .moves import internal_choice
    rec = state["pending"][-1] if state["pending"] else None
    move = internal_choice(rec, move)
    k = move.get("type")
    if k == "place":
        return place_path(state, seat, move)
    if k == "play":
        return ["Play a card", card_name(move["card"])]
    if k == "cadaver":
        return [f"Take {card_name(move['card'])}",
                "Its Expertise" if move["option"] == "expertise" else "Its materials"]
    if k == "draw":
        what = card_name(move["card"]) if "card" in move else "The top card, unseen"
        return ["Draw", what, *([f"Discard {card_name(move['discard'])}"] if "discard" in move else [])]
    if k == "hire":
        return ["Hire", card_name(move["card"])]
    if k == "decline":
        return ["Take nothing"]
    if k == "build":
        head = ["Build", upper_first(part_name(move["part"], move["side"]))]
        if "target" in move:
            head.append(on_part(state, seat, move["target"]))
        return head + [_pay_groups(move["pay"])]
    if k == "switch":
        return ["Throw the switch", plural(move["jars"], "jar"),
                "No blue die" if not move["blue"] else plural(move["blue"], "blue die", "blue dice")]
    if k == "ability":
        return ["Use your character's ability"]
    if k == "preserve":
        return ["Preserve", f"{upper_first(move['material'])} at stage {move['stage']}", str(move["count"])]
    if k == "mitigate":
        return ["Use a research card", card_name(move["card"]), upper_first(roll_die(state, seat, move["die"]))]
    if k == "mitigate_done":
        return ["Keep the dice as rolled"]
    if k == "damage":
        return ["Damage", upper_first(table_part(state, seat, move["part"]).removeprefix("your "))]
    if k == "alive":
        return ["Bring to life", upper_first(table_part(state, seat, move["part"]).removeprefix("your "))]
    if k == "done":
        return ["Finish your Lab phase"]
    return [label(state, seat, move)]


#: More ways to pay one build than this, and the payment is chosen one material at a time.
PAY_AT_ONCE = 12


def paths(state, seat, moves) -> list[list[str]]:
    """The move tree of `moves` (API.md "Move tree"). A build with many ways to pay (a part of
    three materials, each from four stages or an animal) is paid one material after the other."""
    out = [path(state, seat, m) for m in moves]
    ways: dict = {}
    for i, m in enumerate(moves):
        if m.get("type") == "build":
            ways.setdefault((m["part"], m["side"], m.get("target")), []).append(i)
    for members in ways.values():
        if len(members) > PAY_AT_ONCE:
            for i in members:
                by_type: dict = {}
                for u in moves[i]["pay"]:
                    by_type.setdefault(u["as"], []).append(unit(u))
                out[i] = out[i][:-1] + [upper_first(f"{kind}: {join(units)}") for kind, units in by_type.items()]
    return out


def space_key(sid: str) -> str:
    """The glossary key of a space: a lab space is `space:lab.<id>` whoever's lab it is."""
    head, _, spot = sid.partition(".")
    return f"space:lab.{spot}" if head.startswith("lab") else f"space:{sid}"


def target(state, seat, move) -> list[str]:
    from .moves import internal_choice
    rec = state["pending"][-1] if state["pending"] else None
    move = internal_choice(rec, move)
    k = move.get("type")
    if k == "place":
        return [space_key(move["space"])]
    if k in ("play", "cadaver", "hire", "mitigate"):
        return [f"card:{move['card']}"]
    if k == "draw":
        return [f"card:{move[f]}" for f in ("card", "discard") if f in move]
    if k == "choose_target":
        return [f"seat:{move['target']}"]
    if k == "choose_reader":
        return [f"seat:{move['reader']}"]
    if k == "meeple" and move["zone"].startswith("space:"):
        return [space_key(move["zone"].partition(":")[2])]
    if k == "ability":
        return [f"pc:{state['p'][seat]['character']}"]
    return []


def targets(state, seat, moves) -> list[list[str]]:
    """The board elements each move involves: glossary keys, or `seat:N`."""
    return [target(state, seat, m) for m in moves]
