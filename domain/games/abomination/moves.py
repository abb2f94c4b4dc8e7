"""legal_moves(): every move a seat may submit now (D-01..D-23 of the catalog)."""

from __future__ import annotations

from . import flow, lab
from .content import C


#: The two answers of the manualAnnounce decision (ABOM-EVENT-09, ABOM-EVENT-13).
ANNOUNCE = ("announce", "keep quiet")


#: A `choose` answer to these pending kinds, in the internal form decide's handlers (and the words) read.
CHOICE_FORMS = {"entry": lambda o: {"type": "entry_choice", "choice": o},
                "target": lambda o: {"type": "choose_target", "target": o},
                "reader": lambda o: {"type": "choose_reader", "reader": o},
                "meeple": lambda o: {"type": "meeple", "zone": o},
                "excess": lambda o: {"type": "discard", "material": o},
                "announce": lambda o: {"type": "announce" if o == "announce" else "not_announce"}}


def internal_choice(rec, move, *, listed_only=True):
    """The internal form of a `choose` move answering `rec` (unchanged for a plain option choice, and,
    with `listed_only`, for an option `rec` does not offer: words never guess)."""
    if move.get("type") != "choose" or not rec or rec["kind"] not in CHOICE_FORMS:
        return move
    if listed_only and move not in pending_moves(None, rec):
        return move
    return CHOICE_FORMS[rec["kind"]](move.get("option"))


def pending_moves(st, rec):
    p = st["p"][rec["seat"]] if st is not None else None  # (the choice kinds need no state)
    k = rec["kind"]
    if k == "cadaver":
        return [{"type": "cadaver", "card": c, "option": o} for c in rec["cards"] for o in ("expertise", "materials")]
    if k == "draw":
        hand = p["hands"][rec["deck"]]
        out = [{"type": "decline"}]
        if rec["source"] == "deck":  # H-02: the top of a face-down deck is drawn blind
            if len(hand) < 3:
                return out + [{"type": "draw"}]
            return out + [{"type": "draw", "discard": d} for d in hand]
        for c in rec["cards"]:
            if len(hand) < 3:
                out.append({"type": "draw", "card": c})
            else:
                out += [{"type": "draw", "card": c, "discard": d} for d in hand]
        return out
    if k == "scoundrel":
        return [{"type": "decline"}] + [{"type": "hire", "card": c} for c in rec["cards"]]
    if k == "choice":
        return [{"type": "choose", "option": i} for i in range(len(rec["options"]))]
    # the template's choice move: {"type": "choose", "option": <one of the listed options>}
    if k == "entry":
        return [{"type": "choose", "option": i} for i in range(len(rec["labels"]))]
    if k in ("target", "reader"):
        return [{"type": "choose", "option": s} for s in rec["candidates"]]
    if k == "meeple":
        return [{"type": "choose", "option": z} for z in rec["zones"]]
    if k == "excess":
        return [{"type": "choose", "option": t} for t in rec["types"]]
    if k == "announce":
        return [{"type": "choose", "option": o} for o in ANNOUNCE]
    return []


def playable(p, timing):
    out = []
    for deck, table in (("research", C.research), ("humanity", C.humanity)):
        for c in p["hands"][deck]:
            if table[c]["timing"] == timing:
                out.append({"type": "play", "card": c})
    return out


def roll_moves(p):
    roll = p["roll"]
    if roll["stage"] == "mitigate":
        out = [{"type": "mitigate_done"}]
        for c in p["hands"]["research"]:
            kind = C.research[c]["diceMitigation"]["kind"]
            for i, d in enumerate(roll["dice"]):
                if kind == "reroll" or (kind == "ignore" and d["face"] == "DAMAGE") \
                        or (kind == "setAlive" and d["face"] != "ALIVE"):  # ABOM-CARDS-07: any die rerolls
                    out.append({"type": "mitigate", "card": c, "die": i})
        return out
    if roll["stage"] == "damage":
        return [{"type": "damage", "part": i} for i in lab.damage_options(p)]
    return [{"type": "alive", "part": i} for i in lab.alive_options(p)]


def lab_moves(st, seat, builds=True):
    p = st["p"][seat]
    if p["done"]:
        return []
    if p["roll"] is not None:
        return roll_moves(p)
    out = []
    if p["labStep"] == 0 and builds:  # ABOM-LAB-03: any number of builds, each a move
        out += lab.build_moves(p)
    if not p["thrown"] and p["labStep"] <= 1 and any(x["side"] == "skin" for x in p["parts"]):
        charged = sum(1 for j in p["jars"] if j)
        for jars in range(1, min(3, charged) + 1):
            for blue in range(0, lab.blue_allowed(p) + 1):
                out.append({"type": "switch", "jars": jars, "blue": blue})
    if not p["abilityUsed"]:
        out.append({"type": "ability"})
    out += lab.preserve_moves(p)  # ABOM-LAB-05: any number of preserves within the cap
    out += playable(p, "lab")
    out.append({"type": "done"})
    return out


def legal_moves(st, seat):
    if st["phase"] == "over":
        return []
    if st["pending"]:
        rec = st["pending"][-1]
        return pending_moves(st, rec) if rec["seat"] == seat else []
    if st["phase"] == "city":
        if st["active"] != seat:
            return []
        return flow.placements(st, seat) + playable(st["p"][seat], "cityTurn")
    if st["phase"] == "lab":
        return lab_moves(st, seat)
    return []


def listed_like(st, seat, move):
    """The listed moves that `move` must be one of: only those of its own kind where that is cheaper
    (one build's payments, one placement), else the whole list. Same answer as `legal_moves`."""
    kind = move.get("type")
    if st["phase"] == "lab" and not st["pending"]:
        p = st["p"][seat]
        if kind == "build":
            if p["done"] or p["roll"] is not None or p["labStep"] != 0:
                return []
            return lab.build_moves(p, only=(move.get("part"), move.get("side")))
        return lab_moves(st, seat, builds=False)
    if kind == "place" and st["phase"] == "city" and not st["pending"] and st["active"] == seat:
        sid, meeple = move.get("space"), move.get("kind")
        if isinstance(sid, str) and flow.check_place(st, seat, meeple, sid)[0] is None:
            return [{"type": "place", "kind": meeple, "space": sid}]
    return legal_moves(st, seat)
