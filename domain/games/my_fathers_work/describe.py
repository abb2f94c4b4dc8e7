"""One plain sentence per move, built from the move and the facts it produced (never hidden details)."""

from __future__ import annotations

from domain.engine import visible_fact
from domain.engine.text import article, final_scores, join

from . import content as C
from .effects import scenario_event

PIECE_NAMES = {"self": "Self", "spouse": "Spouse", "servant1": "Servant", "servant2": "Servant",
               "caretaker1": "Caretaker", "caretaker2": "Caretaker"}


def _loc_name(loc: str) -> str:
    if loc in C.LOCATIONS:
        return "the " + C.LOCATIONS[loc]["name"]
    if loc in C.ESTATE_LOCATIONS:
        return C.ESTATE_LOCATIONS[loc]["name"]
    return C.tile(loc)["name"] if loc in C.UPGRADES else loc


def _pieces(pieces) -> str:
    """'their Self', '2 Servants', 'their Spouse and a Servant', 'a Caretaker'."""
    names = [PIECE_NAMES[p] for p in pieces]
    if len(names) == 2 and names[0] == names[1]:
        return f"2 {names[0]}s"
    words = [f"their {n}" if n in ("Self", "Spouse") else f"a {n}" for n in names]
    return " and ".join(words)


STEPS = {"shed": "the Storage Shed Resource", "round_draw": "the start-of-round draw", "keep": "the card to keep",
         "store": "the Experiment to store", "bio": "the Resources kept by the Biology Journal", "vote": "the vote"}
SECRET_CHOICES = {"cycle": "decides in secret which cards, if any, to cycle",
                  "ea_keep": "keeps one of the cards drawn at Estate Affairs",
                  "search_take": "takes a card from the searched deck",
                  "event_choice": "answers a secret Storybook choice"}
REASONS = {"end of game: tiles_abilities": "end of game: Vanity and tile abilities",
           "end of game: maladjustments": "end of game: Maladjustments", "end of game: upgrades": "end of game: Estate Upgrades"}


WORLD = "world"  # a clause with its own subject ("round 2 begins", "the Storybook says ...")


def _amount(res: str, n: int) -> str:
    return f"${n}" if res == "money" else f"{n} {res.capitalize()}"


def _clause(f: dict):
    """(subject, phrase) for one visible fact, or None when the fact adds nothing worth saying."""
    t = f["type"]
    seat = f.get("seat")
    if t == "Paid" and "res" in f:
        return seat, f"pays {_amount(f['res'], f['n'])}"
    if t == "Gained" and "res" in f:
        return seat, f"gains {_amount(f['res'], f['n'])}"
    if t == "Scored":
        reason = REASONS.get(f.get("reason", ""), f.get("reason", ""))
        return seat, f"{'scores' if f['n'] >= 0 else 'loses'} {abs(f['n'])} VP ({reason})"
    if t == "TrackMoved":
        if f["track"] == "mob":
            return WORLD, f"the Angry Mob moves to {f['to']}"
        if f["track"] == "suspicion":
            return WORLD, f"the Suspicion marker moves to {f['to']}"
        return seat, f"goes to {f['track'].capitalize()} {f['to']}"
    if t == "ExperimentCompleted":
        return seat, f"completes {f['title']} ({f['level']})"
    if t == "TileBuilt":
        return seat, f"builds {C.tile(f['tile'])['name']} on plot {f['plot'] + 1}"
    if t == "TileDiscarded":
        return seat, f"discards {C.tile(f['tile'])['name']}"
    if t == "JournalAdvanced":
        return seat, f"records {f['track']} to level {f['level']}"
    if t == "CardDrawn":
        return seat, f"draws {article(f['deck'])} card"
    if t == "CompulsionDrawn":
        return seat, "draws a Compulsion"
    if t == "CompulsionCompleted":
        return seat, f"completes the Compulsion \"{C.COMPULSIONS[f['card']]['text']}\""
    if t == "MaladjustmentDrawn":
        return seat, f"gains the Maladjustment \"{C.MALADJUSTMENTS[f['card']]['text']}\""
    if t == "PieceMoved" and f["zone"].startswith("ins:"):
        return seat, f"loses a {PIECE_NAMES[f['piece']]} to the Insanity Track"
    if t == "PieceMoved" and f["zone"] == "quarters" and f.get("retrieved"):
        return seat, f"brings a {PIECE_NAMES[f['piece']]} back from Lost"
    if t == "PlotOpened":
        return seat, f"opens plot {f['plot'] + 1}"
    if t == "Message" and not f.get("secret"):
        return WORLD, f"the Storybook says \"{f['text'].rstrip('.!?')}\""
    if t == "Message":
        return f["to"], "receives a secret Storybook message"
    if t == "Revealed":
        return WORLD, "the hidden choices are revealed"
    if t == "VoteResult":
        label = scenario_event(f["event"])["vote"][f["winner"]]["label"]
        return WORLD, f"the vote ({'-'.join(str(n) for n in f['tally'])}) chooses \"{label}\""
    if t == "RoundStarted":
        return WORLD, f"round {f['round']} begins"
    if t == "GenerationStarted":
        return WORLD, f"Generation {f['gen']} begins"
    if t == "GameEnded":
        return WORLD, "the game ends"
    return None


def _consequences(seat: int, facts: list[dict]) -> tuple[list[str], bool]:
    """One clause per public consequence; a clause names its seat whenever the subject changes."""
    clauses = [c for c in (_clause(visible_fact(x, "spectator")) for x in facts) if c is not None]
    merged: list[list] = []
    said = set()
    for subj, phrase in clauses:
        if [subj, phrase] in merged[-1:] and phrase.startswith("goes to"):
            continue  # a track that could not move further back
        if subj == WORLD and phrase == "the hidden choices are revealed":
            if phrase in said:
                continue
            said.add(phrase)
        words = phrase.split(" ")
        if merged and merged[-1][0] == subj and words[0] in ("gains", "pays"):
            prev = merged[-1][1].split(" ")
            if prev[0] == words[0] and len(prev) == len(words) == 3 and prev[2] == words[2] and prev[1].isdigit():
                merged[-1][1] = f"{words[0]} {int(prev[1]) + int(words[1])} {words[2]}"
                continue
            if prev[0] == words[0] and len(prev) == len(words) == 2 and prev[1][0] == words[1][0] == "$":
                merged[-1][1] = f"{words[0]} ${int(prev[1][1:]) + int(words[1][1:])}"
                continue
        merged.append([subj, phrase])
    out, current = [], seat
    continues = bool(merged) and merged[0][0] == seat  # the first clause continues the head's subject
    for subj, phrase in merged:
        if subj == WORLD or subj is None:
            out.append(phrase)
            current = WORLD
        elif subj == current:
            out.append(phrase)
        else:
            out.append(f"seat {subj} {phrase}")
            current = subj
    return out, continues


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
        return f"chooses the {option} deck"
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
        wild = sum(v for k, v in option.items() if k != "journal_occult")
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
        src = move["source"]
        name = C.tile(src)["name"] if src in C.UPGRADES else C.TOKENS[src]["name"] if src in C.TOKENS else src
        head = f"Seat {seat} uses the free action of {name}"
    elif kind == "keep":
        head = f"Seat {seat} keeps one of the cards drawn at Estate Affairs"
    elif kind == "end_turn":
        head = f"Seat {seat} ends the turn"
    elif kind == "commit":
        step = next((visible_fact(f, "spectator").get("step") for f in facts if f["type"] == "Committed"), None)
        head = f"Seat {seat} commits a hidden choice" + (f" for {STEPS[step]}" if step in STEPS else "")
        if any(f["type"] == "Revealed" for f in facts):
            head += ", the last one awaited"
    else:
        answer = next((f for f in facts if f["type"] in ("PendingResolved", "Answered")), {})
        if "private_to" in answer:
            head = f"Seat {seat} {SECRET_CHOICES.get(answer.get('kind'), 'makes a secret choice')}"
        else:
            head = f"Seat {seat} {answer.get('label', 'makes a choice')}"
    rest, continues = _consequences(seat, facts)
    text = head + "." if not rest else head + (", " if continues else "; then ") + join(rest) + "."
    return text + final_sentence(state, facts)


def final_sentence(state: dict, facts: list[dict]) -> str:
    """On the move that ends the game: ' Final scores: Seat 0 41, Seat 1 37. Seat 0 wins.'"""
    if not any(f["type"] == "GameEnded" for f in facts):
        return ""
    from domain.engine import copy_state
    from .evolve import evolve
    from .scoring import scores, winners
    after = copy_state(state)
    for f in facts:
        after = evolve(after, f)
    return " " + final_scores(scores(after), winners(after))
