"""legal_moves(): every move a seat may submit now (D-01..D-23 of the catalog)."""

from __future__ import annotations

from . import flow
from .content import C, STAGES, TYPES
from .state import alive_options, blue_allowed, damage_options, holding, muscle_targets, requirement


#: The two answers of the manualAnnounce decision (ABOM-EVENT-09, ABOM-EVENT-13).
ANNOUNCE = ("announce", "keep quiet")


#: A `choose` answer to these pending kinds, in the internal form decide's handlers (and the words) read.
CHOICE_FORMS = {"entry": lambda o: {"type": "entry_choice", "choice": o},
                "target": lambda o: {"type": "choose_target", "target": o},
                "reader": lambda o: {"type": "choose_reader", "reader": o},
                "meeple": lambda o: {"type": "meeple", "zone": o},
                "excess": lambda o: {"type": "discard", "material": o},
                "announce": lambda o: {"type": "announce" if o == "announce" else "not_announce"}}


#: The moves of earlier releases that answered a pending choice, by type: the field that held the option
#: (issue 18 gave every such answer the template's `choose` shape; RULINGS "Choice moves take the template's shape").
OLD_CHOICE_FIELDS = {"entry_choice": "choice", "choose_target": "target", "choose_reader": "reader",
                     "meeple": "zone", "discard": "material"}
OLD_ANNOUNCE = {"announce": "announce", "not_announce": "keep quiet"}


def upcast_move(move):
    """A stored move in today's shape (domain/engine/rules.py `stored_move`: record import, analysis).
    Two changes since the golden store's release (901149d): a pending choice's answer of an old type
    (`OLD_CHOICE_FIELDS`, `announce`, `not_announce`) is `{"type": "choose", "option": ...}` (issue 18), and
    a build's payment is spelled in the listed order (`canonical_pay`: issue 16.4 made the list binding,
    ABOM-BUILD-05; the same materials in another order were accepted before). Each is a function of the
    move alone, and the upcast move must still be listed and re-decide to the recorded facts."""
    if not isinstance(move, dict):
        return move
    kind = move.get("type")
    if kind in OLD_CHOICE_FIELDS and set(move) == {"type", OLD_CHOICE_FIELDS[kind]}:
        return {"type": "choose", "option": move[OLD_CHOICE_FIELDS[kind]]}
    if kind in OLD_ANNOUNCE and set(move) == {"type"}:
        return {"type": "choose", "option": OLD_ANNOUNCE[kind]}
    if kind == "build" and isinstance(move.get("pay"), list):
        return dict(move, pay=canonical_pay(move["pay"]))
    return move


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
        return [{"type": "damage", "part": i} for i in damage_options(p)]
    return [{"type": "alive", "part": i} for i in alive_options(p)]


def lab_moves(st, seat, builds=True):
    p = st["p"][seat]
    if p["done"]:
        return []
    if p["roll"] is not None:
        return roll_moves(p)
    out = []
    if p["labStep"] == 0 and builds:  # ABOM-LAB-03: any number of builds, each a move
        out += build_moves(p)
    if not p["thrown"] and p["labStep"] <= 1 and any(x["side"] == "skin" for x in p["parts"]):
        charged = sum(1 for j in p["jars"] if j)
        for jars in range(1, min(3, charged) + 1):
            for blue in range(0, blue_allowed(p) + 1):
                out.append({"type": "switch", "jars": jars, "blue": blue})
    if not p["abilityUsed"]:
        out.append({"type": "ability"})
    out += preserve_moves(p)  # ABOM-LAB-05: any number of preserves within the cap
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
            return build_moves(p, only=(move.get("part"), move.get("side")))
        return lab_moves(st, seat, builds=False)
    if kind == "place" and st["phase"] == "city" and not st["pending"] and st["active"] == seat:
        sid, meeple = move.get("space"), move.get("kind")
        if isinstance(sid, str) and flow.check_place(st, seat, meeple, sid)[0] is None:
            return [{"type": "place", "kind": meeple, "space": sid}]
    return legal_moves(st, seat)


# ---------------------------------------------------------------- the lab: builds and preserves (ABOM-BUILD-*, ABOM-PRESERVE-*)

def unit_options(as_):
    """Every (use, stage) that may pay one unit of `as_`, in a fixed order: the material itself
    (ABOM-BUILD-05), then an animal stand-in (ABOM-BUILD-07, ABOM-BUILD-08: not for blood at stage III or IV)."""
    out = [("bone", None)] if as_ == "bone" else [(as_, s) for s in STAGES]
    if as_ != "bone" and C.preserved_usable and as_ in ("organ", "muscle"):  # ABOM-AMB-05 (off in the base pack)
        out.append((as_, "P"))
    if as_ in C.animal_substitutes:
        out += [("animal", s) for s in STAGES if not (as_ == "blood" and s in ("III", "IV"))]
    return out


def canonical_pay(pay):
    """The listed spelling of a payment: units by material type, then in `unit_options` order."""
    def key(unit):
        as_ = unit.get("as") if isinstance(unit, dict) else None
        options = unit_options(as_) if as_ in TYPES else []
        at = (unit.get("use"), unit.get("stage"))
        return (str(as_), options.index(at) if at in options else len(options))
    return sorted(pay, key=key)


def payment_options(p, part, side):
    """Every payment the book allows for this part (issue 16.4: the list is complete), one per
    multiset of materials, units in the requirement's sorted order and each type's options in the
    order of `unit_options` (the one spelling `decide` accepts)."""
    from itertools import combinations_with_replacement, product
    req = requirement(part, side)
    per_type = [[(t, combo) for combo in combinations_with_replacement(
                    [o for o in unit_options(t) if holding(p, *o) > 0], k)]
                for t, k in sorted(req["materials"].items())]
    out = []
    for choice in product(*per_type):
        used = {}
        for _, combo in choice:
            for key in combo:
                used[key] = used.get(key, 0) + 1
        if all(holding(p, use, stage) >= k for (use, stage), k in used.items()):
            out.append([{"as": t, "use": use, "stage": stage} for t, combo in choice for use, stage in combo])
    return out


def build_moves(p, only=None):
    """Every build the book allows now (`only`: just this (part, side), for checking one move)."""
    out = []
    for part in C.anatomy:
        for side in ("muscle", "skin"):
            if only is not None and only != (part, side):
                continue
            req = requirement(part, side)
            if p["attr"]["expertise"] < req["expertiseRequirement"]:
                continue
            if side == "muscle" and sum(1 for x in p["parts"] if x["type"] == part) >= C.part_limits[part]:
                continue
            targets = muscle_targets(p, part) if side == "skin" else [None]
            if not targets:
                continue
            pays = payment_options(p, part, side)
            for target in targets:  # ABOM-BUILD-03: any muscle-side part of that type takes the skin
                for pay in pays:
                    move = {"type": "build", "part": part, "side": side, "pay": pay}
                    if side == "skin":
                        move["target"] = target
                    out.append(move)
    return out


def preserve_moves(p):
    room = C.preservation_cap - sum(p["preserved"].values())
    out = []
    if room < 1:
        return out
    for stage in STAGES:
        for mat in ("organ", "muscle"):
            for k in range(1, min(p["decay"][stage][mat], room) + 1):  # any count up to the cap (16.4)
                out.append({"type": "preserve", "material": mat, "stage": stage, "count": k})
    return out
