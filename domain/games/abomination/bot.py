"""What the generic bot (domain/bots) needs from Abomination: what a seat knows, and samples of it.

Hidden (catalog section 5, H-01..H-11, see view.py): every deck's order (only the Morgue's top
is public), the face-up Hospital pile under its top card, the removed Objectives, the other
seats' hands and held encounter cards, and the parts of pending decisions view.py removes (the
continuation, cards drawn blind, another seat's announce, another seat's Cemetery choice).

`knowledge` keeps the state's shape and blanks every hidden card id wherever it appears; `sample`
deals the unseen cards of each kind into the blanks at random (a held encounter gets a random
unseen encounter on one of its location faces).
"""

from __future__ import annotations

from domain.bots.blanks import UNKNOWN, blank, fill, strings_in, unseen_cards
from domain.engine import EVERYONE, copy_state

from domain.bots.evaluate import lead_probabilities

from .content import C
from .scoring import final_scores
from .state import blue_allowed

SCORE_SCALE = 6


#: How much of a throw's expected alive points a held jar is worth before it is thrown (damage and
#: the dice's spread take the rest); an uncharged jar counts as this share of a charged one.
PROSPECT_SHARE = 0.75
UNCHARGED_SHARE = 0.5


def _alive_chance(color: str) -> float:
    faces = C.dice[color]
    return faces.count("ALIVE") / len(faces)


def monster_prospect(state: dict, seat: int) -> float:
    """The alive points (ABOM-SCORE-02) the seat's Leyden jars can still bring: one throw's expected
    ALIVE results (ABOM-SWITCH-02/03, blue dice per ABOM-ATTR-10) spread over its skin parts without a
    marker, best first. Without it a jar is worth nothing to the search: it pays only after a charge,
    a Lab throw and the dice, beyond the search's horizon, so the bots never bought one."""
    p = state["p"][seat]
    throw_left = state["round"] < C.rounds or (state["phase"] in ("event", "city")
                                               or (state["phase"] == "lab" and not p["thrown"]))
    if not throw_left or state["phase"] == "over" or not p["jars"]:
        return 0.0
    charged = sum(1 for j in p["jars"] if j)
    jars = min(3.0, charged + UNCHARGED_SHARE * (len(p["jars"]) - charged))
    dice = 2 * jars
    blue = min(float(blue_allowed(p)), dice)
    markers = blue * _alive_chance("blue") + (dice - blue) * _alive_chance("grey")
    targets = sorted((C.anatomy[x["type"]]["alivePoints"] for x in p["parts"] if x["side"] == "skin" and not x["alive"]),
                     reverse=True)
    value = 0.0
    for points in targets:
        if markers <= 0:
            break
        value += points * min(1.0, markers)
        markers -= 1.0
    return PROSPECT_SHARE * value


def evaluate(state: dict) -> tuple[list[float], list[float]]:
    """A position valued by the totals if the game were scored now (ABOM-SCORE-01..09: the track
    plus alive parts, objectives and the dials), not the track alone, so building pays before the end,
    plus what the held jars can still bring to life (`monster_prospect`)."""
    final, _ = final_scores(state)
    totals = [float(final[str(seat)]["total"]) + monster_prospect(state, seat) for seat in range(state["n"])]
    return lead_probabilities(totals, SCORE_SCALE), totals


def _pools() -> dict[str, list[str]]:
    pools: dict[str, list[str]] = {}
    for cid, card in sorted(C.cadavers.items()):
        pools.setdefault(card["deck"], []).append(cid)
    pools["scoundrel"] = sorted(C.scoundrels)
    pools["research"] = sorted(C.research)
    pools["humanity"] = sorted(C.humanity)
    pools["event"] = sorted(C.events) + sorted(C.encounters)
    pools["objective"] = sorted(C.objectives)
    return pools


_POOLS = _pools()
_CARD_IDS = {c for pool in _POOLS.values() for c in pool}


def knowledge(state: dict, viewer) -> dict:
    if viewer == EVERYONE or state.get("winners") is not None:
        return copy_state(state)
    decks = state["decks"]
    hidden = strings_in(decks) | strings_in(state["displays"]["hospital"][1:]) | set(state["removedObjectives"])
    for seat, p in enumerate(state["p"]):
        if seat != viewer:
            hidden |= strings_in(p["hands"])                                        # H-08
    hidden |= {h["card"] for h in state["held"] if h["holder"] != viewer}          # H-01
    for rec in state["pending"]:
        hidden |= strings_in(rec.get("rest"))
        if rec["kind"] == "draw" and rec.get("source") == "deck":                   # H-02: blind
            hidden |= strings_in(rec.get("cards"))
        if rec["kind"] in ("announce", "cadaver") and rec.get("seat") != viewer:
            hidden |= strings_in(rec.get("card")) | (strings_in(rec.get("cards")) if rec["kind"] == "cadaver" else set())
    hidden &= _CARD_IDS
    morgue = decks.get("morgue") or []
    if morgue:
        hidden.discard(morgue[0])                                                   # H-03: the top is public
    k = blank(copy_state(state), hidden)
    k["decks"] = {name: [] for name in decks}
    k["removedObjectives"] = []
    k["held"] = [h if h["holder"] == viewer else {"holder": h["holder"], "card": UNKNOWN, "face": None,
                                                    "location": None, "entry": None} for h in k["held"]]
    for rec in k["pending"]:
        if rec["kind"] == "announce" and rec.get("seat") != viewer:
            rec["entry"] = None
    k["_bot"] = {"decks": {name: len(cards) for name, cards in decks.items()},
                 "morgue_top": morgue[0] if morgue else None, "removed": len(state["removedObjectives"])}
    return k


def sample(know: dict, viewer, rng) -> dict:
    s, blanks, unseen = unseen_cards(know, _POOLS, rng)
    if blanks is None:
        return s
    hospital = s["displays"]["hospital"]
    s["displays"]["hospital"] = fill(hospital, unseen.get("hospital", []))
    for p in s["p"]:
        for kind in p["hands"]:
            p["hands"][kind] = fill(p["hands"][kind], unseen.get(kind, []))
    encounters = [c for c in unseen["event"] if c in C.encounters]
    for h in s["held"]:
        if h["card"] == UNKNOWN and encounters:
            card = encounters.pop()
            unseen["event"].remove(card)
            faces = [(i, f) for i, f in enumerate(C.encounters[card]["faces"]) if f["trigger"]["kind"] == "location"]
            i, face = rng.choice(faces) if faces else (0, C.encounters[card]["faces"][0])
            h.update(card=card, face=i, location=face["trigger"].get("locationId"), entry=face["entry"])
    for name, size in blanks["decks"].items():
        pool = unseen.get(name, [])
        top = [blanks["morgue_top"]] if name == "morgue" and blanks["morgue_top"] else []
        s["decks"][name] = top + [pool.pop() for _ in range(min(size - len(top), len(pool)))]
    s["removedObjectives"] = unseen["objective"][:blanks["removed"]]
    for rec in s["pending"]:
        if rec.get("source") == "deck" and rec["kind"] in ("draw", "cadaver") and UNKNOWN in rec["cards"]:
            rec["cards"] = s["decks"][rec["deck"]][:len(rec["cards"])]     # drawn blind: the deck's top
    rest = [c for pool in unseen.values() for c in pool]
    s["pending"] = fill(s["pending"], rest)
    return s
