"""Words for players: the label of each listed move and the prompt of the decision now.

In content names (Locations, Upgrade tiles, Experiments), never ids; a Town Location's costs and
rewards per performance are given with the placement. Players are "Seat N" (the service writes
in their names). The answer phrases of pending choices are shared with describe.py.
"""

from __future__ import annotations

from domain.engine.text import join, plural, upper_first

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
        return pay_plan_label(state, seat, pend, option)
    if kind == "buy" and option != "none":
        index = int(option[4:])
        name = C.tile(state["row"][index])["name"]
        twin = sum(1 for t in state["row"] if t is not None and C.tile(t)["name"] == name) > 1
        where = f" (space {index + 1} of the row)" if twin else ""   # two copies of one tile: say which
        return f"Buy {name}{where} for ${C.tile(state['row'][index])['price']}"
    if kind == "vanity":
        return f"Take the Vanity tile {option}"
    if kind == "retrieve":
        return f"Bring back your {PIECE_NAMES.get(option, 'piece')}"
    if kind == "lose_piece":
        return f"Send your {PIECE_NAMES.get(option, 'piece')}{piece_place(state, pend, option)} under the Insanity Track"
    return imperative(choice_label(state, pend, option))


def zone_words(zone: str) -> str:
    """Where a piece stands: 'in your Quarters', 'on Willowmere Commons', 'in Lost'."""
    head, _, rest = zone.partition(":")
    if head in ("town", "estate"):
        return f" on {_loc_name(rest)}"
    return {"quarters": " in your Quarters", "lost": " in Lost"}.get(head, "")


def piece_place(state, pend, option) -> str:
    """Where the piece stands, when another piece of its kind offered stands elsewhere."""
    where = state["players"][pend["seat"]]["pieces"]
    kind = PIECE_NAMES.get(option)
    others = {where[o] for o in pend["options"] if PIECE_NAMES.get(o) == kind}
    return zone_words(where[option]) if len(others) > 1 else ""


def pay_plan_label(state, seat, pend, plan) -> str:
    """What a way to pay an Experiment's Knowledge spends: the cubes, the Insanity, and which Knowledge
    the Occult stands in for (two plans that spend the same still differ in that)."""
    from . import state as Q
    cost = Q.plan_cost(state, seat, pend["card"], plan)
    cubes = [amount(k, n) for k, n in cost["cubes"].items() if n]
    text = "Pay " + (join(cubes) + " Knowledge" if cubes else "with your Journals alone")
    wild = [amount(k, n) for k, n in plan.items() if k in RES and n]
    if wild:
        text += f", Occult standing in for {join(wild)}"
    if "journal_occult" in plan:
        text += f", {plan['journal_occult']} free Occult from your Journal"
    if cost["insanity"]:
        text += f" (Insanity +{cost['insanity']})"
    return text


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


# ----------------------------------------------------------------------------- the glossary (issue 24.2)
# Every card, tile, location and token of the content, in plain words written here from its data.

LEVEL_WORDS = {"A": "Level A", "B": "Level B", "C": "Level C", "D": "Masterwork"}
CATEGORY_WORDS = {"ingredient": "an Ingredient shop", "knowledge": "a place of learning",
                  "laborers_union": "the Laborer's Union", "builders_office": "the Builder's Office",
                  "church": "a church", "town_hall": "the Town Hall", "special": "a special place"}
PIECE_WORDS = {"self": "your Self", "servant": "a Servant", "spouse": "your Spouse", "any": "any piece"}
WHEN_WORDS = {"start_of_generation": "At the start of each Generation", "start_of_round": "At the start of each round",
              "end_of_generation": "At the end of each Generation"}
SCORE_WORDS = {"journal_level": "for each level reached in your Journals", "stored": "for each stored Experiment",
               "upgrade": "for each Estate Upgrade you own", "maxed_journal": "for each Journal at its top level",
               "flat": ""}


def experiment_text(rec: dict) -> str:
    level = rec["level"]
    kind = "Masterwork" if level == "D" else f"Level {level} {RES[rec['type']]} Experiment"
    needs = join([f"{n} completed Level {lv} Experiment{'s' if n != 1 else ''}" for lv, n in rec["prerequisites"].items()])
    paid = join([amount(k, n) for k, n in rec["cost_ingredients"].items()] +
                [amount(k, n) + " Knowledge" for k, n in rec["cost_knowledge"].items()])
    text = f"A {kind}." if level != "D" else "A Masterwork Experiment, your life's great work."
    if needs:
        text += f" To perform it you need {needs}."
    text += f" Performing it costs {paid} and gives {effects(rec['rewards'])}."
    if rec.get("consult_app"):
        text += " Then the Storybook is consulted."
    return text


def condition_words(cond: dict) -> str:
    n, on = cond["n"], cond["on"]
    if on == "gain":
        return f"gain {'$' + str(n) if cond['kind'] == 'money' else amount(cond['kind'], n)}"
    if on == "complete":
        which = "" if cond["level"] == "any" else f" Level {cond['level']}"
        return f"complete {n}{which} Experiment{'s' if n != 1 else ''}"
    if on == "build":
        return f"build {n} Estate Upgrade{'s' if n != 1 else ''}"
    if on == "place":
        return f"place on {CATEGORY_WORDS[cond['category']]} {'once' if n == 1 else f'{n} times'}"
    return f"record Knowledge {'once' if n == 1 else f'{n} times'}"


def compulsion_entry(rec: dict) -> tuple[str, str]:
    goal = condition_words(rec["condition"])
    return (f"Compulsion: {goal}",
            f"A secret urge. Once it is in play, the first time you {goal} you score {rec['vp']} VP; "
            "then the card is discarded.")


def maladjustment_entry(rec: dict) -> tuple[str, str]:
    eff = rec["effect"]
    if eff.get("modifier") == "extra_cost":
        what = f"Every placement in the Town costs ${eff['money']} more."
    elif eff.get("modifier") == "income":
        what = f"Your income each round is ${-eff['money']} lower."
    else:
        what = f"{WHEN_WORDS[eff['trigger']]}: {effects(eff['effects'])}."
    name = rec["text"].partition(":")[0].strip() if ":" in rec["text"] else "Maladjustment"
    return f"Maladjustment: {name}", f"A lasting affliction, face up before you. {what}"


def ability_words(ab: dict) -> str:
    kind = ab["kind"]
    if kind in WHEN_WORDS:
        return f"{WHEN_WORDS[kind]}: {effects(ab['effects'])}."
    if kind == "passive":
        credit = ab["prerequisite_credit"]
        return f"Counts as {credit['n']} completed Level {credit['level']} Experiment for what Experiments need."
    if kind == "free_action":
        cost = effects(ab["cost"])
        uses = "once per round" if ab["uses"] == 1 else f"{ab['uses']} times per round"
        return f"Free action, {uses}: {(cost + ' to ') if cost else ''}{effects(ab['effects'])}."
    if kind == "estate_location":
        pieces = "2 pieces" if ab["servants_required"] == 2 else "1 piece"
        return f"A place on your Estate named {ab['name']}: place {pieces} here to {effects(ab['effects'])}."
    if kind == "end_game_score":
        return score_words(ab["score"]) + "."
    if kind == "on_place":
        where = _loc_name(ab["location"]) if ab["location"] in C.LOCATIONS else CATEGORY_WORDS.get(
            ab["location"], "that place")
        return f"Each time you place {PIECE_WORDS[ab['piece']]} on {where}: {effects(ab['effects'])}."
    return "A lasting ability."


def score_words(score: dict) -> str:
    per = SCORE_WORDS[score["per"]]
    return f"At the end of the game, {score['vp']} VP" + (f" {per}" if per else "")


def upgrade_text(rec: dict) -> str:
    price = f"Costs ${rec['price']}." if rec["price"] else "Free."
    kind = "A Storage Shed, one of the first tiles of an Estate." if rec["set"] == "storage_shed" else \
        f"An Estate Upgrade of Generation {'III' if rec['set'] == 'gen3' else 'I or II'}."
    text = f"{kind} {price} " + " ".join(ability_words(ab) for ab in rec["abilities"])
    if rec["penalties"]:
        text += f" Its cracked border means that building it costs {effects(rec['penalties'])}."
    return text.strip()


def vanity_text(rec: dict) -> str:
    text = f"A Vanity tile, built once a Journal reaches its top level. {score_words(rec['score'])}."
    if rec["penalties"]:
        text += f" Building it costs {effects(rec['penalties'])}."
    return text


def location_text(rec: dict) -> str:
    bits = [f"A Town Location, {CATEGORY_WORDS[rec['category']]}."]
    cost, gain = effects(rec["cost_per_use"]), effects(rec["reward_per_use"])
    bits.append(f"Each piece placed here {('pays ' + cost.replace('pay ', '') + ' and ') if cost else ''}"
                f"gets {gain or 'its effect'}.")
    if not rec["no_self_bonus"]:
        bits.append("Your Self gets it twice.")
    if rec["repeatable"]:
        bits.append("You may come back in the same round.")
    if rec["suspicious"]:
        bits.append(f"It is suspicious: going there means {effects(rec['penalties'])}.")
    for trig in rec["piece_triggers"]:
        bits.append(f"When {PIECE_WORDS[trig['piece']]} goes there: {effects(trig['effects'])}.")
    if rec.get("consult_app"):
        bits.append("Going there consults the Storybook.")
    return " ".join(bits)


ESTATE_SPACE_TEXT = {
    "estate_affairs": "On your Estate: place 1 piece to draw 3 Experiments and keep 1, or to take money.",
    "record_knowledge": "On your Estate: place 1 piece to record Knowledge in one of your four Journals, "
                        "paying that Journal's next level.",
    "perform_experiment": "On your Estate: place your Self, a Caretaker or 2 Servants to perform an Experiment "
                          "from your hand, paying its Ingredients and Knowledge.",
}


def glossary(content=C) -> list[dict]:
    """Every card, tile, location, Estate space and token of the content with what it does."""
    out = []

    def add(key, kind, name, text):
        out.append({"key": key, "kind": kind, "name": name, "text": text})

    for cid, rec in content.EXPERIMENTS.items():
        add(f"card:{cid}", "card", rec["title"], experiment_text(rec))
    for cid, rec in content.COMPULSIONS.items():
        add(f"card:{cid}", "card", *compulsion_entry(rec))
    for cid, rec in content.MALADJUSTMENTS.items():
        add(f"card:{cid}", "card", *maladjustment_entry(rec))
    for lid, rec in content.LOCATIONS.items():
        add(f"location:{lid}", "location", rec["name"], location_text(rec))
    for sid, rec in content.ESTATE_LOCATIONS.items():
        add(f"space:{sid}", "space", rec["name"], ESTATE_SPACE_TEXT.get(sid, "A space of your Estate."))
    for tid, rec in content.UPGRADES.items():
        add(f"tile:{tid}", "tile", rec["name"], upgrade_text(rec))
    for tid, rec in content.VANITY.items():
        add(f"tile:{tid}", "tile", rec["name"], vanity_text(rec))
    for tid, rec in content.TOKENS.items():
        add(f"token:{tid}", "token", rec["name"], "A Storybook token. " + ability_words(rec["ability"]))
    return out


# ----------------------------------------------------------------------------- the move tree (issue 24.3)
# Steps from the general to the particular: where the pieces go (the Town, an Estate Location), then
# which Location, card or Knowledge, then which pieces; the label keeps the whole sentence.

ESTATE_STEPS = {"estate_affairs": "Estate Affairs", "record_knowledge": "Record Knowledge",
                "perform_experiment": "Perform an Experiment"}


def pieces_step(pieces) -> str:
    """'Your Self', 'A Caretaker', '2 Servants', 'Your Spouse and a Servant'."""
    names = [PIECE_NAMES[p] for p in pieces]
    servants = names.count("Servant")
    bits = (["your Self"] if "Self" in names else []) + (["your Spouse"] if "Spouse" in names else []) + \
        (["a Caretaker"] if "Caretaker" in names else []) + \
        ([f"{servants} Servants" if servants > 1 else "a Servant"] if servants else [])
    return upper_first(join(bits))


def place_path(state, seat, move) -> list[str]:
    loc, who = move["loc"], pieces_step(move["pieces"])
    if loc in C.LOCATIONS:
        occupied = "self" not in move["pieces"] and any(
            z == "town:" + loc for pl in state["players"] for z in pl["pieces"].values())
        return ["Go to the Town", C.LOCATIONS[loc]["name"], who + (" ($1 fee: occupied)" if occupied else "")]
    if loc == "estate_affairs":
        return [ESTATE_STEPS[loc], "Draw 3 Experiments, keep 1" if move.get("mode") == "draw" else "Take money", who]
    if loc == "record_knowledge":
        return [ESTATE_STEPS[loc], f"{RES[move['track']]} Knowledge", who]
    if loc == "perform_experiment":
        return [ESTATE_STEPS[loc], experiment(move["card"]), who]
    return ["Use your Estate", C.tile(loc)["name"], who]


def path(state, seat, move) -> list[str]:
    k = move.get("type")
    if k == "place":
        return place_path(state, seat, move)
    if k == "free":
        return ["Free action", label(state, seat, move).removeprefix("Use the free action of ")]
    if k == "keep":
        return ["Keep an Experiment", experiment(move["card"])]
    if k == "pass":
        return ["Pass for the rest of the round"]
    if k == "end_turn":
        return ["End your turn"]
    pend = state["pending"] or {}
    if k == "choose" and pend.get("kind") == "cycle" and move["option"] != "skip":
        return [f"Cycle {plural(len(move['option']), 'card')}", join([experiment(c) for c in move["option"]])]
    return [label(state, seat, move)]


def paths(state, seat, moves) -> list[list[str]]:
    """The move tree of `moves` (API.md "Move tree"). A choice among many Experiment cards (a
    searched deck) is grouped by the cards' type first."""
    out = [path(state, seat, m) for m in moves]
    if len({p[0] for p in out}) > 12:
        for i, m in enumerate(moves):
            card = m.get("option")
            if isinstance(card, str) and card in C.EXPERIMENTS:
                out[i] = [f"{out[i][0].split(' ')[0]} a {RES[C.EXPERIMENTS[card]['type']]} Experiment",
                          experiment(card)]
    return out


def target(state, seat, move) -> list[str]:
    k = move.get("type")
    if k == "place":
        loc = move["loc"]
        if loc in C.LOCATIONS:
            return [f"location:{loc}"]
        keys = [f"space:{loc}"] if loc in C.ESTATE_LOCATIONS else [f"tile:{loc}"]
        return keys + ([f"card:{move['card']}"] if "card" in move else [])
    if k == "free":
        return [f"{'tile' if move['source'] in C.UPGRADES else 'token'}:{move['source']}"]
    if k == "keep":
        return [f"card:{move['card']}"]
    pend = state["pending"] or {}
    option = move.get("option")
    if k == "choose" and pend.get("kind") == "buy" and isinstance(option, str) and option.startswith("row:"):
        return [f"tile:{state['row'][int(option[4:])]}"]
    if k in ("choose", "commit") and isinstance(option, str) and option in C.EXPERIMENTS:
        return [f"card:{option}"]
    if k == "choose" and isinstance(option, list):
        return [f"card:{c}" for c in option if c in C.EXPERIMENTS]
    return []


def targets(state, seat, moves) -> list[list[str]]:
    """The board elements each move involves: glossary keys."""
    return [target(state, seat, m) for m in moves]
