"""The empty table (initial_state), the random setup facts (setup) and the read-only queries on a
state (the lab's requirements, holdings and the parts a roll may mark)."""

from __future__ import annotations

from domain.engine import IllegalMove

from .content import C, STAGED, STAGES

OPTIONS = {"firstTwoPlayerGame": bool, "manualAnnounce": bool}


def empty_track():
    return {s: {t: 0 for t in STAGED} for s in STAGES}


def new_player():
    """ABOM-SETUP-20 (lab board, three dials), ABOM-SETUP-22 (4 scientists, 3 assistants), ABOM-SETUP-23
    (Humanity 0, Reputation 1, Expertise 1), ABOM-SETUP-24 (1 scientist and 2 assistants on the card),
    ABOM-SETUP-25 (0 VP), ABOM-SETUP-27 (nothing else: no materials, jars, ice or cards)."""
    return {
        "character": None, "francs": 0,
        "attr": {a: C.dials[a]["start"] for a in ("humanity", "reputation", "expertise")},  # ABOM-ATTR-01
        "reached": {a: [C.dials[a]["start"], C.dials[a]["start"]] for a in ("humanity", "reputation", "expertise")},
        "icons": {"humanity": {}, "reputation": {}, "expertise": {}},
        "vp": 0,
        "card": {"scientist": 1, "assistant": 2}, "reserve": {"scientist": 3, "assistant": 1},
        "decay": empty_track(), "bone": 0, "preserved": {"organ": 0, "muscle": 0},
        "jars": [], "ice": [], "parts": [],
        "hands": {"humanity": [], "research": []},
        "blue": 0, "abilityUsed": False, "labStep": 0, "thrown": False, "done": False, "roll": None,
    }


def initial_state(players, options):
    """ABOM-SETUP-01, -20..-25, -27: the empty table for 2-4 players."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise IllegalMove("ABOM-SETUP-01", f"Abomination takes 2 to 4 players, not {players}")
    options = dict(options or {})
    for key, value in options.items():
        if key not in OPTIONS:
            raise IllegalMove("ABOM-SETUP-19", f"unknown option {key!r}; known: {sorted(OPTIONS)}")
        if not isinstance(value, OPTIONS[key]):
            raise IllegalMove("ABOM-SETUP-19", f"option {key!r} must be {OPTIONS[key].__name__}")
    players_list = [new_player() for _ in range(players)]
    for p in players_list:
        p["francs"] = players  # ABOM-SETUP-21
    return {
        "n": players, "opts": {k: options.get(k, False) for k in OPTIONS},
        "phase": "setup", "round": 0, "captain": 1, "first": 0, "active": None,
        "decks": {}, "displays": {"hospital": [], "docks": [], "academy": [], "saintRoch": [], "publicSquare": []},
        "setAside": [], "objectives": [], "removedObjectives": [], "claimed": {},
        "bump": [None for _ in C.bump[players]], "spaces": {},
        "inPlay": [], "storm": False, "mods": [], "held": [], "pending": [],
        "p": players_list, "end": None, "final": None, "winners": None,
    }


def setup_facts(state, rng):
    """Shuffles and deals, recorded as facts: ABOM-SETUP-02, ABOM-SETUP-03 (cadavers by type into 4 decks),
    ABOM-SETUP-04 (the Morgue's top is face up: view), ABOM-SETUP-05 (the Cemetery face down),
    ABOM-SETUP-06 (Hospital and Public Square off the board), ABOM-SETUP-07 (one Hospital card per player
    into the face-up pile), ABOM-SETUP-08 (3 scoundrels at the Docks), ABOM-SETUP-09 (2 research cards at
    the Academy), ABOM-SETUP-10 (2 Humanity cards at Saint-Roch), ABOM-SETUP-11, ABOM-SETUP-12 (two events
    on top: rounds 1 and 2 draw events), ABOM-SETUP-13 (the cover card hides the top face: view),
    ABOM-SETUP-15 (the bump track by player count, content.bump), ABOM-SETUP-16 (4 of 6 objectives),
    ABOM-SETUP-17 (the general supply is unlimited but for jars and ice, effects.py), ABOM-SETUP-18 (one
    character each, all different), ABOM-SETUP-26 (a random first player holds the Creature)."""
    n = state["n"]
    decks = {}
    for deck in ("cemetery", "morgue", "hospital", "publicSquare"):
        cards = sorted(cid for cid, c in C.cadavers.items() if c["deck"] == deck and not c.get("setAsideAtSetup"))
        decks[deck] = rng.fork(deck).shuffled(cards)
    decks["scoundrel"] = rng.fork("scoundrel").shuffled(sorted(C.scoundrels))
    decks["research"] = rng.fork("research").shuffled(sorted(C.research))
    decks["humanity"] = rng.fork("humanity").shuffled(sorted(C.humanity))
    ev = rng.fork("events")
    events = ev.sample(sorted(C.events), 8)
    encounters = ev.sample(sorted(C.encounters), 4)
    decks["event"] = events[6:8] + ev.shuffled(events[:6] + encounters)  # ABOM-SETUP-11
    objectives = rng.fork("objectives").sample(sorted(C.objectives), 4)
    removed = sorted(set(C.objectives) - set(objectives))
    pool = sorted(C.characters)
    if state["opts"]["firstTwoPlayerGame"] and n == 2:
        pool = [c for c in pool if not C.characters[c]["notForFirstTwoPlayerGames"]]
    characters = rng.fork("characters").sample(pool, n)
    first = rng.fork("first").randint(0, n - 1)
    public_decks = {k: len(v) for k, v in decks.items()}
    displays = {"hospital": decks["hospital"][:n], "docks": decks["scoundrel"][:3],
                "academy": decks["research"][:2], "saintRoch": decks["humanity"][:2]}
    public_displays = dict(displays, hospital=displays["hospital"][:1])  # H-04: top of the face-up pile
    facts = [
        {"type": "DecksShuffled", "decks": decks, "removedObjectives": removed, "private_to": [],
         "public": {"type": "DecksShuffled", "sizes": public_decks}, "random": True},
        {"type": "TableDealt", "random": True, "displays": displays,
         "setAside": [C.set_aside], "objectives": objectives, "characters": characters, "first": first,
         "private_to": [], "public": {"type": "TableDealt", "displays": public_displays, "hospitalPile": n,
                                      "setAside": [C.set_aside], "objectives": objectives,
                                      "characters": characters, "first": first}},
    ]
    return facts


def setup(state, rng):
    """ABOM-SETUP-14: the setup facts, then round 1 begins (its Event phase and the first City turn)."""
    from domain.engine import Turn
    from . import flow
    from .decide import FOLD
    turn = Turn(FOLD, state)
    for f in setup_facts(state, rng):
        turn.add(f)
    flow.start_round(turn)
    return turn.facts


# ---------------------------------------------------------------- the lab: read-only queries

def requirement(part, side):
    return C.anatomy[part][side]


def muscle_targets(p, part):
    return [i for i, x in enumerate(p["parts"]) if x["type"] == part and x["side"] == "muscle"]


def holding(p, use, stage):
    if use == "bone":
        return p["bone"]
    return p["preserved"].get(use, 0) if stage == "P" else p["decay"][stage][use]


def blue_allowed(p):
    """ABOM-ATTR-10, ABOM-ATTR-11, ABOM-AMB-49: one upgrade per active BLUE_DIE icon, at most 2."""
    return min(2, p["blue"])


def damage_options(p):
    """ABOM-SWITCH-06: a second damage only once every part has 1."""
    parts = p["parts"]
    if all(x["damage"] >= 1 for x in parts):
        return list(range(len(parts)))
    return [i for i, x in enumerate(parts) if x["damage"] == 0]


def alive_options(p):
    """ABOM-SWITCH-14: at most one alive marker per part; ABOM-SWITCH-13: asked only once all damage is placed."""
    return [i for i, x in enumerate(p["parts"]) if x["side"] == "skin" and not x["alive"]]
