"""One plain sentence per move, built from the move and the facts it produced (never hidden details)."""

from __future__ import annotations

from domain.engine import visible_fact

from . import content as C

PIECE_NAMES = {"self": "Self", "spouse": "Spouse", "servant1": "Servant", "servant2": "Servant",
               "caretaker1": "Caretaker", "caretaker2": "Caretaker"}


def _loc_name(loc: str) -> str:
    if loc in C.LOCATIONS:
        return "the " + C.LOCATIONS[loc]["name"]
    if loc in C.ESTATE_LOCATIONS:
        return C.ESTATE_LOCATIONS[loc]["name"]
    return C.tile(loc)["name"] if loc in C.UPGRADES else loc


def _pieces(pieces) -> str:
    names = [PIECE_NAMES[p] for p in pieces]
    if len(names) == 2 and names[0] == names[1]:
        return f"2 {names[0]}s"
    return " and ".join(names)


def _consequences(seat: int, facts: list[dict]) -> list[str]:
    out = []
    for f in (visible_fact(x, "spectator") for x in facts):
        t = f["type"]
        who = "" if f.get("seat") in (seat, None) else f"seat {f.get('seat')} "
        if t == "Paid" and "res" in f:
            out.append(f"{who}pays {'$' + str(f['n']) if f['res'] == 'money' else str(f['n']) + ' ' + f['res']}")
        elif t == "Gained" and "res" in f:
            out.append(f"{who}gains {'$' + str(f['n']) if f['res'] == 'money' else str(f['n']) + ' ' + f['res']}")
        elif t == "Scored":
            out.append(f"{who}{'scores' if f['n'] >= 0 else 'loses'} {abs(f['n'])} VP ({f.get('reason', '')})")
        elif t == "TrackMoved":
            target = "the Angry Mob" if f["track"] == "mob" else "the Suspicion marker" if f["track"] == "suspicion" \
                else f"{who or ''}{f['track']}".strip()
            out.append(f"moves {target} to {f['to']}")
        elif t == "ExperimentCompleted":
            out.append(f"{who}completes {f['title']} ({f['level']})")
        elif t == "TileBuilt":
            out.append(f"{who}builds {C.tile(f['tile'])['name']} on plot {f['plot'] + 1}")
        elif t == "TileDiscarded":
            out.append(f"{who}discards {C.tile(f['tile'])['name']}")
        elif t == "JournalAdvanced":
            out.append(f"{who}records {f['track']} to level {f['level']}")
        elif t == "CardDrawn":
            out.append(f"{who}draws a {f['deck']} card")
        elif t == "CompulsionDrawn":
            out.append(f"{who}draws a Compulsion")
        elif t == "CompulsionCompleted":
            out.append(f"{who}completes the Compulsion \"{C.COMPULSIONS[f['card']]['text']}\"")
        elif t == "MaladjustmentDrawn":
            out.append(f"{who}gains the Maladjustment \"{C.MALADJUSTMENTS[f['card']]['text']}\"")
        elif t == "PieceMoved" and f["zone"].startswith("ins:"):
            out.append(f"{who}loses a {PIECE_NAMES[f['piece']]} to the Insanity Track")
        elif t == "PieceMoved" and f["zone"] == "quarters" and f.get("retrieved"):
            out.append(f"{who}brings a {PIECE_NAMES[f['piece']]} back from Lost")
        elif t == "RowChanged" and f.get("bought"):
            pass
        elif t == "PlotOpened":
            out.append(f"{who}opens plot {f['plot'] + 1}")
        elif t == "Message" and not f.get("secret"):
            out.append(f"the Storybook says: \"{f['text']}\"")
        elif t == "Message":
            out.append(f"seat {f['to']} receives a secret Storybook message")
        elif t == "RoundStarted":
            out.append(f"round {f['round']} begins")
        elif t == "GenerationStarted":
            out.append(f"Generation {f['gen']} begins")
        elif t == "GameEnded":
            out.append("the game ends")
    return _merge(out)


def _merge(parts: list[str]) -> list[str]:
    """'gains 1 occult, gains 1 occult' -> 'gains 2 occult'."""
    merged: list[str] = []
    for part in parts:
        words = part.split(" ")
        if merged and len(words) == 3 and words[0] in ("gains", "pays") and words[1].isdigit():
            prev = merged[-1].split(" ")
            if len(prev) == 3 and prev[0] == words[0] and prev[2] == words[2] and prev[1].isdigit():
                merged[-1] = f"{words[0]} {int(prev[1]) + int(words[1])} {words[2]}"
                continue
        if merged and len(words) == 2 and words[0] in ("gains", "pays") and words[1].startswith("$"):
            prev = merged[-1].split(" ")
            if len(prev) == 2 and prev[0] == words[0] and prev[1].startswith("$"):
                merged[-1] = f"{words[0]} ${int(prev[1][1:]) + int(words[1][1:])}"
                continue
        merged.append(part)
    return merged


def choice_label(state: dict, pend: dict, option) -> str:
    """Plain words for an answer, computed at decide time (the state before the answer)."""
    kind = pend.get("kind")
    if kind == "buy":
        return "buys nothing" if option == "none" else f"buys {C.tile(state['row'][int(option[4:])])['name']}"
    if kind == "plot":
        return "expands the Estate" if option == "expand" else f"builds on plot {int(option.split(':')[1]) + 1}" \
            if option.startswith("plot") else f"replaces the tile on plot {int(option.split(':')[1]) + 1}"
    if kind == "slash":
        return f"takes option {option + 1} of the slash"
    if kind == "yes_no":
        return f"{'takes' if option == 'yes' else 'declines'} the {pend.get('what', 'offer')}"
    if kind in ("knowledge", "resource"):
        return f"takes {option}"
    if kind == "draw_deck":
        return f"draws from the {option} deck"
    if kind == "retrieve":
        return f"brings back the {PIECE_NAMES[option]}"
    if kind == "lose_piece":
        return f"sends the {PIECE_NAMES[option]} under the Insanity Track"
    if kind == "vanity":
        return f"picks the Vanity tile {option}"
    if kind == "discard_tile":
        return f"discards the tile on plot {int(option[5:]) + 1}"
    if kind == "masterwork":
        return f"takes the Masterwork {C.EXPERIMENTS[option]['title']}"
    if kind == "search_deck":
        return f"searches the {option} deck"
    if kind == "pay_plan":
        wild = sum(option.values())
        return f"pays for the Experiment{f' using Occult for {wild} Knowledge' if wild else ''}"
    if kind == "event_choice":
        return f"answers the Storybook with option {option + 1}"
    return f"chooses {option!r} ({kind})"


def describe(state: dict, seat: int, move: dict, facts: list[dict]) -> str:
    kind = move.get("type")
    if kind == "place":
        head = f"Seat {seat} places {_pieces(move['pieces'])} on {_loc_name(move['loc'])}"
        if "track" in move:
            head += f" for {move['track']}"
        if move.get("mode") == "draw":
            head += " to draw 3 Experiments"
        if "card" in move:
            head += f" to perform {C.EXPERIMENTS[move['card']]['title']}"
    elif kind == "pass":
        head = f"Seat {seat} passes"
    elif kind == "free":
        head = f"Seat {seat} uses the free action of {C.tile(move['source'])['name'] if move['source'] in C.UPGRADES else move['source']}"
    elif kind == "keep":
        head = f"Seat {seat} keeps one of the cards drawn at Estate Affairs"
    elif kind == "end_turn":
        head = f"Seat {seat} ends the turn"
    elif kind == "commit":
        head = f"Seat {seat} commits a hidden choice"
    else:
        answer = next((f for f in facts if f["type"] == "Answered"), {})
        if "private_to" in answer:
            head = f"Seat {seat} makes a secret choice ({answer.get('kind', 'choice')})"
        else:
            head = f"Seat {seat} {answer.get('label', 'makes a choice')}"
    rest = _consequences(seat, facts)
    return head + (": " + ", ".join(rest) if rest else "") + "."
