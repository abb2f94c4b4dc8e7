"""Words for players: the label of each listed move and the prompt of the decision now.

In content names (Locations, Upgrade tiles, Experiments), never ids; a Town Location's costs and
rewards per performance are given with the placement. Players are "Seat N" (the service writes
in their names). The answer phrases of pending choices are shared with describe.py.
"""

from __future__ import annotations

from domain.engine.text import join

from . import content as C
from .describe import PIECE_NAMES, _loc_name, _pieces, choice_label

RES = {"chemical": "Chemical", "animal": "Animal", "gear": "Gear", "body": "Body", "chemistry": "Chemistry",
       "biology": "Biology", "engineering": "Engineering", "occult": "Occult", "money": "$"}
TRACK = {"creepy": "Creepy", "insanity": "Insanity", "mob": "Angry Mob", "suspicion": "Suspicion"}
VERBS = {"buys": "Buy", "takes": "Take", "declines": "Decline", "chooses": "Choose", "brings": "Bring",
         "sends": "Send", "picks": "Pick", "discards": "Discard", "searches": "Search", "pays": "Pay",
         "answers": "Answer", "expands": "Expand", "builds": "Build", "replaces": "Replace"}


def amount(kind, n) -> str:
    return f"${n}" if kind == "money" else f"{n} {RES.get(kind, kind)}"


def effect(e) -> str:
    """One content effect in a few words."""
    if "gain" in e:
        kind = e["gain"]
        if kind == "vp":
            return f"{e['n']} VP"
        if kind == "money":
            return f"${e['n']}"
        if kind == "resource":
            return "a Resource of your choice"
        if e.get("kind") == "any":
            return f"{e['n']} Knowledge of your choice"
        return amount(e.get("kind"), e.get("n", 1))
    if "pay" in e:
        return "pay " + amount("money" if e["pay"] == "money" else e.get("kind"), e["n"])
    if "move" in e:
        steps = e["steps"]
        return f"{TRACK.get(e['move'], e['move'])} {'+' if steps >= 0 else '-'}{abs(steps)}"
    if "retrieve" in e:
        return "bring a piece back from Lost"
    if "draw" in e:
        what = {"experiment": "Experiment", "compulsion": "Compulsion"}.get(e["draw"], "Maladjustment")
        return f"draw {e.get('n', 1)} {what}{'s' if e.get('n', 1) != 1 else ''}"
    if "search" in e:
        return "search an Experiment deck"
    if "upgrade" in e:
        return {"buy": "buy an Estate Upgrade", "vanity": "take a Vanity tile"}.get(e["upgrade"], "discard a tile")
    if "choice" in e:
        return " or ".join(join([effect(x) for x in option]) for option in e["choice"])
    if "consult" in e:
        return "consult the Storybook"
    if "visit" in e:
        return f"visit {_loc_name(e['visit'])}"
    if "lose_piece" in e:
        return "lose a piece"
    return "an effect"


def effects(items) -> str:
    return join([effect(e) for e in items])


def imperative(phrase: str) -> str:
    """'buys the Gallery' -> 'Buy the Gallery' (answer phrases are written for describe)."""
    verb, _, rest = phrase.partition(" ")
    return (VERBS.get(verb, verb[:1].upper() + verb[1:]) + (" " + rest if rest else "")).replace(
        " the Estate", " your Estate")


def experiment(card) -> str:
    data = C.EXPERIMENTS.get(card) if isinstance(card, str) else None
    return f"{data['title']} ({data['level']})" if data else "an Experiment"


def place_label(state, seat, move) -> str:
    loc = move["loc"]
    head = f"Place {_pieces(move['pieces']).replace('their ', 'your ')} on {_loc_name(loc)}"
    if loc in C.LOCATIONS:
        rec = C.LOCATIONS[loc]
        cost = effects(rec["cost_per_use"])
        gain = effects(rec["reward_per_use"])
        head += f": {('pay ' + cost.replace('pay ', '') + ' for ') if cost else ''}{gain or 'its effect'}"
        if "self" in move["pieces"] and not rec["no_self_bonus"]:
            head += " (twice with your Self)"
        if any(z == "town:" + loc for pl in state["players"] for z in pl["pieces"].values()) and \
                "self" not in move["pieces"]:
            head += ", $1 fee: occupied"
    if move.get("mode") == "draw":
        head += " to draw 3 Experiments and keep 1"
    elif move.get("mode") == "money":
        head += " to take money"
    if "track" in move:
        head += f" to record {RES[move['track']]} Knowledge"
    if "card" in move:
        head += f" to perform {experiment(move['card'])}"
    return head


def commit_label(state, seat, step, option) -> str:
    if step == "shed":
        return f"Take {amount(option, 1)} from the Storage Shed"
    if step == "round_draw":
        return f"Draw from the {option} Experiment deck"
    if step in ("keep", "store"):
        return f"{'Keep' if step == 'keep' else 'Store'} {experiment(option)}"
    if step == "bio":
        return "Keep nothing extra" if not option else "Keep " + join([RES.get(r, r) for r in option])
    if step == "vote":
        pend = state["pending"] or {}
        from .effects import scenario_event
        try:
            return "Vote for " + scenario_event(pend["event"])["vote"][option]["label"]
        except (KeyError, IndexError, TypeError):
            return f"Vote for option {option + 1}"
    return f"Choose {option}"


def choose_label(state, seat, pend, option) -> str:
    kind = pend["kind"]
    if kind == "cycle":
        return "Keep your hand" if option == "skip" else "Cycle " + join([experiment(c) for c in option])
    if kind == "knowledge" or kind == "resource":
        return f"Take {amount(option, 1)}"
    if kind == "slash":
        effs = pend.get("effects", [])
        return f"Take {effects(effs[option])}" if option < len(effs) else f"Take option {option + 1}"
    if kind == "ea_keep" or kind == "search_take":
        return f"Keep {experiment(option)}"
    if kind == "event_choice":
        from .effects import scenario_event
        try:
            return scenario_event(pend["event"])["choice"][option]["label"]
        except (KeyError, IndexError, TypeError):
            return f"Answer {option + 1}"
    if kind == "pay_plan":
        occult = sum(v for k, v in option.items() if k != "journal_occult")
        journal = " (Occult from your Journal)" if option.get("journal_occult") else ""
        return "Pay the Experiment's costs" + (f", using Occult for {occult} Knowledge{journal}" if occult else "")
    if kind == "buy" and option != "none":
        tile = state["row"][int(option[4:])]
        return f"Buy {C.tile(tile)['name']} for ${C.tile(tile)['price']}"
    if kind == "vanity":
        return f"Take the Vanity tile {option}"
    if kind in ("retrieve", "lose_piece"):
        verb = "Bring back" if kind == "retrieve" else "Send under the Insanity Track"
        return f"{verb} your {PIECE_NAMES.get(option, 'piece')}"
    return imperative(choice_label(state, pend, option))


def label(state, seat, move) -> str:
    k = move.get("type")
    if k == "place":
        return place_label(state, seat, move)
    if k == "pass":
        return "Pass for the rest of the round"
    if k == "end_turn":
        return "End your turn"
    if k == "keep":
        return f"Keep {experiment(move['card'])} from Estate Affairs"
    if k == "free":
        src = move["source"]
        name = C.tile(src)["name"] if src in C.UPGRADES else C.TOKENS[src]["name"] if src in C.TOKENS else "a tile"
        return f"Use the free action of {name}"
    pend = state["pending"] or {}
    if k == "commit":
        return commit_label(state, seat, pend.get("step"), move["option"])
    if k == "choose":
        return choose_label(state, seat, pend, move["option"])
    return k.replace("_", " ").capitalize()


STEP_PROMPTS = {"shed": "choose in secret the Resource the Storage Shed gives",
                "round_draw": "choose in secret the deck to draw an Experiment from",
                "keep": "choose in secret which Experiment card to keep",
                "store": "choose which completed Experiment to store",
                "bio": "choose in secret which Resources the Biology Journal keeps",
                "vote": "vote in secret"}
KIND_PROMPTS = {"knowledge": "choose a Knowledge cube", "resource": "choose a Resource",
                "draw_deck": "choose the Experiment deck to draw from", "cycle": "choose which cards to cycle, if any",
                "event_choice": "answer the Storybook", "slash": "choose one of the rewards",
                "yes_no": "decide", "masterwork": "choose your Masterwork", "lose_piece": "choose the piece to lose",
                "buy": "choose an Estate Upgrade to buy, or none", "plot": "choose where the tile goes",
                "retrieve": "choose the piece to bring back from Lost", "pay_plan": "choose how to pay the Experiment",
                "vanity": "choose a Vanity tile", "discard_tile": "choose the tile to discard",
                "search_deck": "choose the deck to search", "search_take": "choose the card to take",
                "ea_keep": "choose the card to keep from Estate Affairs"}


def prompt(state) -> str:
    if state["over"]:
        return "The game is over"
    pend = state["pending"]
    if pend is not None and pend["kind"] == "sim":
        who = join([f"Seat {s}" for s in pend["waiting"]])
        return f"{who}: {STEP_PROMPTS.get(pend['step'], 'choose in secret')}"
    if pend is not None:
        what = KIND_PROMPTS.get(pend["kind"], "choose")
        if pend["kind"] == "yes_no":
            what = f"take the {pend.get('what', 'offer')} or not"
        options = pend.get("options")
        if isinstance(options, list) and 1 < len(options) <= 6 and not pend.get("secret") and \
                pend["kind"] not in ("pay_plan", "cycle"):
            what += " (" + " or ".join(choose_label(state, pend["seat"], pend, o) for o in options) + ")"
        return f"Seat {pend['seat']}: {what}"
    placed = state["turn"]["placed"]
    rnd = f"Generation {state['gen']}, round {state['round']}"
    if placed:
        return f"Seat {state['active']}: use free actions or end your turn ({rnd})"
    return f"Seat {state['active']}: place pieces on a Location or pass ({rnd})"
