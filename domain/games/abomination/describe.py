"""One plain sentence per played move, using the facts for random or hidden outcomes.

Content names only (words.py holds the shared phrases); the move that ends the game states the
final scores and the winners. Stored descriptions of old moves stay as they were recorded.
"""

from __future__ import annotations

from domain.engine.text import final_scores

from .content import C
from .words import ATTR, article, card_name, effects, materials, plural, space_name

FACE = {"ALIVE": "alive", "DAMAGE": "damage", "BLANK": "blank", "SWITCH_EXTRA": "extra"}


def _consequences(facts, seat):
    bits = []
    for f in facts:
        t = f["type"]
        if t == "FrancsPaid":
            bits.append(f"pays {plural(f['n'], 'franc')} to Seat {f['to']} for the bump")
        elif t == "Francs" and f["seat"] == seat:
            bits.append(f"{'gains' if f['n'] > 0 else 'pays'} {plural(abs(f['n']), 'franc')}")
        elif t == "DialMoved" and f["seat"] == seat:
            bits.append(f"{ATTR.get(f['attr'], f['attr'])} {f['from']} to {f['to']}")
        elif t == "MaterialsGained" and f["seat"] == seat:
            bits.append("gains " + materials(f["items"]))
        elif t == "EncounterTriggered":
            bits.append(f"sets off Seat {f['holder']}'s encounter")
        elif t == "Vp" and f["seat"] == seat:
            bits.append(f"scores {f['n']} VP")
        elif t == "ObjectiveClaimed":
            bits.append(f"Seat {f['seat']} claims the objective {C.objectives[f['objective']]['name']}")
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
                bits.append(f"Seat {f['holder']} draws and keeps a secret location encounter")
        elif t == "PlacementAbandoned":
            bits.append("can no longer pay and takes the meeple back")
    return bits


def final_sentence(facts) -> str:
    """'Final scores: Seat 0 41, Seat 1 37. Seat 0 wins.' from the FinalScored fact, if any."""
    for f in facts:
        if f["type"] == "FinalScored":
            return " " + final_scores({s: v["total"] for s, v in f["final"].items()}, f["winners"])
    return ""


def describe(state, seat, move, facts):
    from .moves import internal_choice
    move = internal_choice(state["pending"][-1] if state.get("pending") else None, move)
    k = move.get("type")
    who = f"Seat {seat}"
    before = state  # describe is given the state the move was played in
    if k == "place":
        s = f"{who} places {article(move['kind'])} on {space_name(move['space'])}".replace(" of your lab",
                                                                                         " of their lab")
    elif k == "play":
        s = f"{who} plays {card_name(move['card'])}"
    elif k == "cadaver":
        option = "its Expertise" if move["option"] == "expertise" else "its materials"
        s = f"{who} takes the cadaver {card_name(move['card'])} for {option}"
    elif k == "draw":
        drawn = [f for f in facts if f["type"] == "CardToHand"]
        card = card_name(move["card"]) if "card" in move and drawn and drawn[0].get("source") != "deck" else "a card"
        s = f"{who} draws {card}" + (" after discarding a held card" if move.get("discard") else "")
    elif k == "decline":
        s = f"{who} declines the offer"
    elif k == "hire":
        s = f"{who} hires the scoundrel {card_name(move['card'])}"
    elif k == "choose":
        rec = state["pending"][-1] if state.get("pending") else None
        options = rec.get("options", []) if rec and rec["kind"] == "choice" else []
        i = move["option"]
        s = f"{who} chooses: {effects(options[i])}" if isinstance(i, int) and i < len(options) else \
            f"{who} makes a choice"  # (given a state other than the one the move was played in)
    elif k == "entry_choice":
        labels = [f["label"] for f in facts if f["type"] == "EntryChosen"]
        s = f"{who} answers the story entry: {labels[0] if labels else 'an answer'}"
    elif k == "choose_target":
        s = f"{who} targets Seat {move['target']} with the encounter"
    elif k == "choose_reader":
        s = f"{who} names Seat {move['reader']} as the reader"
    elif k == "announce":
        s = f"{who} announces their held encounter"
    elif k == "not_announce":
        s = f"{who} does not announce their encounter, which is discarded"
    elif k == "build":
        side = "skin side" if move["side"] == "skin" else "muscle side"
        s = f"{who} builds {article(move['part'])} ({side})"
    elif k == "switch":
        dice = [FACE.get(d["face"], d["face"].lower()) for f in facts if f["type"] == "SwitchThrown" for d in f["dice"]]
        blue = f" ({plural(move['blue'], 'blue die', 'blue dice')})" if move.get("blue") else ""
        s = f"{who} throws the switch with {plural(move['jars'], 'jar')}{blue}, rolling " + ", ".join(dice)
    elif k == "mitigate":
        faces = [FACE.get(f["face"], f["face"]) for f in facts if f["type"] == "DieChanged"]
        s = f"{who} plays {card_name(move['card'])} on die {move['die'] + 1}" + (f", now {faces[0]}" if faces else "")
    elif k == "mitigate_done":
        s = f"{who} keeps the dice as rolled"
    elif k == "damage":
        dropped = [f for f in facts if f["type"] == "PartDropped"]
        what = {"discarded": "which is discarded", "muscle": "which drops to its muscle side",
                "alive": "which loses its alive marker"}
        part = dropped[0]["partType"] if dropped else _part_type(before, seat, move["part"])
        s = f"{who} places a damage marker on their {part}" + (f", {what[dropped[0]['result']]}" if dropped else "")
    elif k == "alive":
        s = f"{who} brings their {_part_type(before, seat, move['part'])} to life"
    elif k == "preserve":
        s = f"{who} preserves {move['count']} {move['material']} from stage {move['stage']}"
    elif k == "meeple":
        zone = move["zone"]
        rec = state["pending"][-1] if state.get("pending") else {}
        verb = "loses" if rec.get("action") == "lose" else "promotes"
        where = "from their character card" if zone == "card" else "on " + space_name(zone.partition(":")[2])
        s = f"{who} {verb} the {rec.get('meeple', 'assistant')} {where}"
    elif k == "discard":
        s = f"{who} discards 1 {move['material']} over the limit of 15"
    elif k == "ability":
        ch = C.characters.get(state["p"][seat]["character"], {})
        s = f"{who} uses {ch.get('name', 'their character')}'s ability ({effects(ch.get('ability', {}).get('effects', []))})"
    elif k == "done":
        s = f"{who} finishes the Lab phase"
    else:
        s = f"{who} plays {k}"
    bits = _consequences(facts, seat)
    return s + ("; " + "; ".join(bits[:8]) if bits else "") + "." + final_sentence(facts)


def _part_type(state, seat, index) -> str:
    parts = state["p"][seat]["parts"]
    return parts[index]["type"] if isinstance(index, int) and 0 <= index < len(parts) else "part"

