"""One plain sentence per move, using the facts for random or hidden outcomes."""

from __future__ import annotations

from .content import C


def _name(card):
    data = C.cards.get(card)
    return data.get("name", card) if data else str(card)


def _space(sid):
    if sid.startswith("lab"):
        return f"their lab ({sid.split('.', 1)[1]})"
    loc, _, spot = sid.partition(".")
    return f"{C.locations[loc]['name']} ({spot})" if loc in C.locations else sid


def _a(word):
    return ("an " if word[0] in "aeiou" else "a ") + word


def _consequences(facts, seat):
    bits = []
    for f in facts:
        t = f["type"]
        if t == "FrancsPaid":
            bits.append(f"pays {f['n']} francs to seat {f['to']} for the bump")
        elif t == "Francs" and f["seat"] == seat:
            bits.append(f"{'gains' if f['n'] > 0 else 'pays'} {abs(f['n'])} franc{'s' if abs(f['n']) != 1 else ''}")
        elif t == "DialMoved" and f["seat"] == seat:
            bits.append(f"{f['attr']} {f['from']}->{f['to']}")
        elif t == "MaterialsGained" and f["seat"] == seat:
            bits.append("gains " + ", ".join(f"{i['count']} {i['type']}" + (f" ({i['stage']})" if i.get("stage")
                                                                             else "") for i in f["items"]))
        elif t == "EncounterTriggered":
            bits.append(f"triggers seat {f['holder']}'s encounter (entry {f['entry']})")
        elif t == "Vp" and f["seat"] == seat:
            bits.append(f"scores {f['n']} VP")
        elif t == "ObjectiveClaimed":
            bits.append(f"seat {f['seat']} claims the objective {C.objectives[f['objective']]['name']}")
        elif t == "GameEnded":
            bits.append(f"the game ends ({'the Captain reached the skull' if f['reason'] == 'captain' else 'a monster lives'})")
        elif t == "PhaseStarted" and f["phase"] == "event":
            bits.append(f"round {f['round']} begins")
        elif t == "PhaseStarted" and f["phase"] == "lab":
            bits.append("the Lab phase begins")
        elif t == "EventDrawn":
            if f["kind"] == "event":
                bits.append(f"the event '{f['title']}' is revealed")
            elif f["kind"] == "now":
                bits.append("an encounter is drawn and must be resolved now")
            else:
                bits.append(f"seat {f['holder']} draws and keeps a secret location encounter")
        elif t == "PlacementAbandoned":
            bits.append(f"can no longer pay and takes the meeple back ({f['why']})")
    return bits


def describe(state, seat, move, facts):
    k = move.get("type")
    who = f"Seat {seat}"
    if k == "place":
        s = f"{who} places {_a(move['kind'])} on {_space(move['space'])}"
    elif k == "play":
        s = f"{who} plays {_name(move['card'])}"
    elif k == "cadaver":
        s = f"{who} takes the cadaver {_name(move['card'])} and chooses {move['option']}"
    elif k == "draw":
        drawn = [f for f in facts if f["type"] == "CardToHand"]
        card = _name(move["card"]) if drawn and drawn[0].get("source") != "deck" else "a card"
        s = f"{who} draws {card}" + (" after discarding a held card" if move.get("discard") else "")
    elif k == "decline":
        s = f"{who} declines the offer"
    elif k == "hire":
        s = f"{who} hires the scoundrel {_name(move['card'])}"
    elif k == "choose":
        s = f"{who} picks option {move['option'] + 1}"
    elif k == "entry_choice":
        labels = [f["label"] for f in facts if f["type"] == "EntryChosen"]
        s = f"{who} answers the story entry: {labels[0] if labels else move['choice']}"
    elif k == "choose_target":
        s = f"{who} targets seat {move['target']} with the encounter"
    elif k == "choose_reader":
        s = f"{who} names seat {move['reader']} as the reader"
    elif k == "announce":
        s = f"{who} announces their held encounter"
    elif k == "not_announce":
        s = f"{who} does not announce their encounter, which is discarded"
    elif k == "build":
        s = f"{who} builds a {move['part']} ({move['side']})"
    elif k == "switch":
        dice = [d["face"] for f in facts if f["type"] == "SwitchThrown" for d in f["dice"]]
        s = f"{who} throws the switch with {move['jars']} jar(s) and {move.get('blue', 0)} blue dice, rolling " \
            + ", ".join(dice)
    elif k == "mitigate":
        faces = [f["face"] for f in facts if f["type"] == "DieChanged"]
        s = f"{who} plays {_name(move['card'])} on die {move['die'] + 1}" + (f", now {faces[0]}" if faces else "")
    elif k == "mitigate_done":
        s = f"{who} keeps the dice as rolled"
    elif k == "damage":
        dropped = [f for f in facts if f["type"] == "PartDropped"]
        s = f"{who} places a damage marker on part {move['part'] + 1}" + (
            f", which drops a step ({dropped[0]['result']})" if dropped else "")
    elif k == "alive":
        s = f"{who} brings part {move['part'] + 1} to life"
    elif k == "preserve":
        s = f"{who} preserves {move.get('count', 1)} {move['material']} from stage {move['stage']}"
    elif k == "meeple":
        s = f"{who} picks the meeple at {move['zone']}"
    elif k == "discard":
        s = f"{who} discards 1 {move['material']} over the stage limit"
    elif k == "ability":
        s = f"{who} uses their character's ability"
    elif k == "done":
        s = f"{who} finishes the Lab phase"
    else:
        s = f"{who} plays {k}"
    bits = _consequences(facts, seat)
    return s + ("; " + "; ".join(bits[:8]) if bits else "") + "."
