"""Lab phase: build (ABOM-BUILD-*), throw the switch (ABOM-SWITCH-*), preserve (ABOM-PRESERVE-*)."""

from __future__ import annotations

from domain.engine import IllegalMove

from .content import C, STAGES, TYPES
from .effects import items, run

RANK = {s: i for i, s in enumerate(STAGES)}


def requirement(part, side):
    return C.anatomy[part][side]


def muscle_targets(p, part):
    return [i for i, x in enumerate(p["parts"]) if x["type"] == part and x["side"] == "muscle"]


def check_build(st, seat, move):
    """Validate a build; returns (part_index|None, spent items, vp)."""
    p = st["p"][seat]
    part, side = move.get("part"), move.get("side")
    if part not in C.anatomy or side not in ("muscle", "skin"):
        raise IllegalMove("ABOM-BUILD-02", "part must be head/torso/arm/leg and side muscle/skin")
    index = None
    if side == "muscle":
        if sum(1 for x in p["parts"] if x["type"] == part) >= C.part_limits[part]:
            raise IllegalMove("ABOM-BUILD-01", f"your table already holds the most {part} parts allowed")
    else:
        targets = muscle_targets(p, part)
        index = move.get("target", targets[0] if targets else None)
        if index not in targets:
            raise IllegalMove("ABOM-BUILD-03", f"skin needs a muscle-side {part} on your table")
    req = requirement(part, side)
    if p["attr"]["expertise"] < req["expertiseRequirement"]:  # ABOM-BUILD-04, ABOM-BUILD-13
        raise IllegalMove("ABOM-BUILD-04", f"{part} {side} needs Expertise {req['expertiseRequirement']}, "
                                           f"you have {p['attr']['expertise']}")
    pay = move.get("pay")
    if not isinstance(pay, list):
        raise IllegalMove("ABOM-BUILD-05", "pay must list the materials spent")
    need = dict(req["materials"])
    used = {}
    animal = False
    stages = []
    for unit in pay:
        if not isinstance(unit, dict):
            raise IllegalMove("ABOM-BUILD-05", "each payment unit is {as, use, stage}")
        as_, use, stage = unit.get("as"), unit.get("use"), unit.get("stage")
        if need.get(as_, 0) < 1:
            raise IllegalMove("ABOM-BUILD-05", f"the requirement has no (more) {as_}")
        need[as_] -= 1
        if use == "animal":
            if as_ not in C.animal_substitutes:
                raise IllegalMove("ABOM-BUILD-07", f"animal cannot stand in for {as_}")
            if as_ == "blood" and stage in ("III", "IV"):
                raise IllegalMove("ABOM-BUILD-08", "animal at stage III or IV cannot stand in for blood")
            animal = True
        elif use != as_:
            raise IllegalMove("ABOM-BUILD-05", f"{use} cannot pay for {as_}")
        if use == "bone":
            stage = None
        elif stage == "P":
            if not C.preserved_usable:
                raise IllegalMove("ABOM-AMB-05", "preserved materials cannot pay for builds")
        elif stage not in STAGES:
            raise IllegalMove("ABOM-BUILD-05", "a staged material needs its stage I-IV")
        key = (use, stage)
        used[key] = used.get(key, 0) + 1
        if stage is not None:
            stages.append("I" if stage == "P" else stage)
    if any(v for v in need.values()):
        raise IllegalMove("ABOM-BUILD-05", f"the payment does not cover {req['materials']}")
    for (use, stage), k in used.items():
        have = p["bone"] if use == "bone" else (p["preserved"].get(use, 0) if stage == "P" else p["decay"][stage][use])
        if have < k:
            raise IllegalMove("ABOM-BUILD-05", f"you do not have {k} {use} at {stage or 'the bone space'}")
    if stages:  # ABOM-BUILD-06
        worst = max(stages, key=RANK.get)
        base = req["vpByStage"][worst]
    else:  # ABOM-AMB-06
        base = req.get("vpIfNoStagedMaterial", req["vpByStage"]["I"])
    vp = max(0, base - (req["animalPenalty"] if animal else 0))  # ABOM-BUILD-12, ABOM-AMB-08, ABOM-AMB-09
    spent = [{"type": u, "stage": s, "count": k} for (u, s), k in sorted(used.items(), key=str)]
    return index, spent, vp


def do_build(turn, seat, move):
    """ABOM-BUILD-14: muscle and skin builds alike go through the 5 steps (check, pay, place, Expertise, VP)."""
    index, spent, vp = check_build(turn.state, seat, move)
    turn.emit("MaterialsSpent", seat=seat, items=spent)
    turn.emit("PartBuilt", seat=seat, part=move["part"], side=move["side"], index=index)
    run(turn, [[seat, {"op": "attribute", "attr": "expertise", "n": 1}],  # ABOM-BUILD-11
               [seat, {"op": "_vp", "n": vp, "why": f"{move['part']} {move['side']}"}]])


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


def holding(p, use, stage):
    if use == "bone":
        return p["bone"]
    return p["preserved"].get(use, 0) if stage == "P" else p["decay"][stage][use]


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


# ---------------------------------------------------------------- switch
def blue_allowed(p):
    """ABOM-ATTR-10, ABOM-ATTR-11, ABOM-AMB-49: one upgrade per active BLUE_DIE icon, at most 2."""
    return min(2, p["blue"])


def check_switch(st, seat, move):
    p = st["p"][seat]
    if not any(x["side"] == "skin" for x in p["parts"]):
        raise IllegalMove("ABOM-SWITCH-01", "throwing the switch needs at least 1 skin-side part")
    jars = move.get("jars")
    charged = sum(1 for j in p["jars"] if j)
    if not isinstance(jars, int) or not 1 <= jars <= 3 or jars > charged:
        raise IllegalMove("ABOM-SWITCH-02", f"turn 1, 2 or 3 charged jars (you have {charged} charged)")
    blue = move.get("blue", 0)
    if not isinstance(blue, int) or blue < 0 or blue > blue_allowed(p):
        raise IllegalMove("ABOM-ATTR-10", f"you may upgrade at most {blue_allowed(p)} dice to blue")
    return jars, blue


def do_switch(turn, seat, move, rng):
    jars, blue = check_switch(turn.state, seat, move)
    dice = []
    for i in range(2 * jars):  # ABOM-SWITCH-03
        color = "blue" if i < blue else "grey"
        dice.append({"color": color, "face": C.dice[color][rng.die(6) - 1]})
    turn.emit("SwitchThrown", seat=seat, jars=jars, blue=blue, dice=dice, random=True)
    advance_roll(turn, seat)


def damage_options(p):
    """ABOM-SWITCH-06: a second damage only once every part has 1."""
    parts = p["parts"]
    if all(x["damage"] >= 1 for x in parts):
        return list(range(len(parts)))
    return [i for i, x in enumerate(parts) if x["damage"] == 0]


def alive_options(p):
    """ABOM-SWITCH-14: at most one alive marker per part; ABOM-SWITCH-13: asked only once all damage is placed."""
    return [i for i, x in enumerate(p["parts"]) if x["side"] == "skin" and not x["alive"]]


def count(roll, face):
    return sum(1 for d in roll["dice"] if d["face"] == face)


def advance_roll(turn, seat):
    """Move the throw forward until it needs the roller's choice (mitigate, damage, alive) or ends."""
    p = turn.state["p"][seat]
    roll = p["roll"]
    if roll["stage"] == "mitigate":
        if p["hands"]["research"]:
            return
        turn.emit("RollStage", seat=seat, stage="damage")
    if roll["stage"] == "damage":
        left = count(roll, "DAMAGE") - roll["damage"]
        if left > 0 and p["parts"]:
            return
        if left > 0:  # ABOM-AMB-12
            turn.emit("DamageIgnored", seat=seat, n=left)
        if count(roll, "SWITCH_EXTRA") and not roll["extra"]:  # ABOM-SWITCH-11
            turn.emit("SwitchExtra", seat=seat)
            run(turn, items(seat, C.switch_extra) + [[seat, {"op": "_advanceRoll"}]])
            return
        turn.emit("RollStage", seat=seat, stage="alive")
    if roll["stage"] == "alive":
        left = count(roll, "ALIVE") - roll["alive"]
        if left > 0 and alive_options(p):
            return
        if left > 0:
            turn.emit("AliveLost", seat=seat, n=left)
        turn.emit("RollFinished", seat=seat)


def place_damage(turn, seat, index):
    p = turn.state["p"][seat]
    if index not in range(len(p["parts"])):
        raise IllegalMove("ABOM-SWITCH-05", "choose a part on your operating table")
    if index not in damage_options(p):
        raise IllegalMove("ABOM-SWITCH-06", "a part may take a 2nd damage only when every part has 1")
    turn.emit("DamagePlaced", seat=seat, part=index)
    part = turn.state["p"][seat]["parts"][index]
    if part["damage"] >= 2:  # ABOM-SWITCH-07, ABOM-SWITCH-08, ABOM-SWITCH-09, ABOM-SWITCH-10
        result = "discarded" if part["side"] == "muscle" else ("alive" if part["alive"] else "muscle")
        turn.emit("PartDropped", seat=seat, part=index, result=result, partType=part["type"])
    advance_roll(turn, seat)


def place_alive(turn, seat, index):
    p = turn.state["p"][seat]
    if index not in alive_options(p):
        raise IllegalMove("ABOM-SWITCH-12", "an alive marker goes on a skin-side part without one")
    turn.emit("AlivePlaced", seat=seat, part=index)
    advance_roll(turn, seat)


# ---------------------------------------------------------------- preserve
def check_preserve(st, seat, move):
    p = st["p"][seat]
    mat, stage, k = move.get("material"), move.get("stage"), move.get("count", 1)
    if mat not in ("organ", "muscle"):
        raise IllegalMove("ABOM-PRESERVE-01", "only organ and muscle materials can be preserved")
    if stage not in STAGES:
        raise IllegalMove("ABOM-PRESERVE-02", "materials are preserved from a decay-track space I-IV")
    if not isinstance(k, int) or k < 1 or p["decay"][stage][mat] < k:
        raise IllegalMove("ABOM-PRESERVE-02", f"you do not have {k} {mat} at stage {stage}")
    if sum(p["preserved"].values()) + k > C.preservation_cap:
        raise IllegalMove("ABOM-PRESERVE-03", f"the preservation space holds at most {C.preservation_cap}")
    return mat, stage, k


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
