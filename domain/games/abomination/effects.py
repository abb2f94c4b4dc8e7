"""What the resolver (resolver.py) applies: the effects of content (francs, dials and their icons,
materials, cadavers, cards, jars, ice, meeples, choices) and a throw of the switch as it advances.
Rule IDs: ABOM-ATTR-*, ABOM-MATERIALS-*, ABOM-CADAVER-*, ABOM-CARDS-*, ABOM-EVENT-17.
"""

from __future__ import annotations

from .content import C, STAGES
from .resolver import cards_are_public, items, push, run  # noqa: F401  (re-exported: the effect verbs' queue)
from .state import alive_options

DISPLAY_OF = {"research": "academy", "humanity": "saintRoch", "scoundrel": "docks"}


# ---------------------------------------------------------------- effects
def apply(turn, seat, eff, queue):
    st = turn.state
    op = eff["op"]
    p = st["p"][seat]
    if op == "francs":
        n = max(eff["n"], -p["francs"])
        if n:
            turn.emit("Francs", seat=seat, n=n)
    elif op == "attribute":  # ABOM-ATTR-03: a HUMANITY_GAIN / HUMANITY_LOSS raises / lowers Humanity
        move_dial(turn, seat, eff["attr"], eff["n"], queue)
    elif op == "gainMaterials":
        gain_materials(turn, seat, eff["items"], queue)
    elif op == "takeCadaver":
        if eff["from"] == "display":
            cards = list(st["displays"][eff["deck"]])
            source = eff["deck"]
        elif eff["deck"] == "hospital":  # the face-up pile: only its top card (ABOM-AMB-39)
            cards = st["displays"]["hospital"][:1]
            source = "hospital"
        else:
            cards = st["decks"][eff["deck"]][:1]
            source = "deck"
        if cards:
            return push(turn, {"kind": "cadaver", "seat": seat, "deck": eff["deck"], "source": source,
                               "cards": cards}, queue)
        turn.emit("NothingHappens", seat=seat, why=f"no {eff['deck']} card to take")
    elif op == "drawCard":
        deck = eff["deck"]
        if eff["from"] == "display":
            cards, source = list(st["displays"][DISPLAY_OF[deck]]), DISPLAY_OF[deck]
        else:
            cards, source = st["decks"][deck][:1], "deck"
        if cards:
            return push(turn, {"kind": "draw", "seat": seat, "deck": deck, "source": source, "cards": cards}, queue)
        turn.emit("NothingHappens", seat=seat, why=f"no {deck} card to draw")
    elif op == "takeScoundrel":
        cards = [c for c in st["displays"]["docks"] if can_pay(p, C.scoundrels[c]["hireCost"])]
        if cards:
            return push(turn, {"kind": "scoundrel", "seat": seat, "cards": cards}, queue)
        turn.emit("NothingHappens", seat=seat, why="no scoundrel can be hired")
    elif op == "gainJar":
        if len(p["jars"]) < C.max_jars and jars_in_supply(st) > 0:
            turn.emit("JarGained", seat=seat, charged=st["storm"])  # ABOM-EVENT-20
        else:
            turn.emit("NothingHappens", seat=seat, why="no Leyden jar can be gained")
    elif op == "chargeJars":
        n = min(eff["n"], sum(1 for j in p["jars"] if not j))
        if n:
            turn.emit("JarsCharged", seat=seat, n=n)
    elif op == "gainIce":
        if ice_in_supply(st) > 0:
            turn.emit("IceGained", seat=seat)
        else:
            turn.emit("NothingHappens", seat=seat, why="the ice supply is empty")
    elif op == "meeple":
        if eff["kind"] == "gainAssistant":
            gain_assistant(turn, seat)
        elif eff["kind"] == "promote":
            return promote(turn, seat, queue)
        else:
            return lose_assistant(turn, seat, queue)
    elif op == "gotoEntry":
        queue[:0] = [[seat, {"op": "_entry", "entry": eff["entry"]}]]
    elif op == "choice":
        return push(turn, {"kind": "choice", "seat": seat, "options": eff["options"]}, queue)
    elif op == "each":
        n = st["n"]
        queue[:0] = [[(st["first"] + k) % n, e] for k in range(n) for e in eff["effects"]]
    elif op == "passCreature":
        turn.emit("CreaturePassed", to=(st["first"] + 1) % st["n"])
    elif op == "releaseSetAside":
        if st["setAside"]:
            turn.emit("SetAsideReleased", card=st["setAside"][0])
    return False


def can_pay(p, effects):
    need = -sum(e["n"] for e in effects if e["op"] == "francs" and e["n"] < 0)
    return p["francs"] >= need


def jars_in_supply(st):
    return 16 - sum(len(p["jars"]) for p in st["p"])


def ice_in_supply(st):
    return 4 - sum(len(p["ice"]) for p in st["p"])


# ---------------------------------------------------------------- materials
def stage_total(p, stage):
    return sum(p["decay"][stage].values())


def gain_materials(turn, seat, gained, queue=None):
    """ABOM-MATERIALS-06: from the general supply (spent and discarded ones go back to it, by evolve).
    ABOM-MATERIALS-02, ABOM-MATERIALS-03, ABOM-MATERIALS-05: staged cubes on their stage, bone in the bone space, cap 15 per stage.

    The owner picks the cubes discarded above 15 (ABOM-AMB-41), one at a time, when the stage holds several
    types; called without a queue (tests), the excess comes from the cubes just gained.
    """
    turn.emit("MaterialsGained", seat=seat, items=[dict(i) for i in gained])
    if queue is not None:
        queue[:0] = [[seat, {"op": "_cap"}]]
        return
    p = turn.state["p"][seat]
    for stage in STAGES:
        excess = stage_total(p, stage) - C.decay_cap
        if excess > 0:
            out = []
            for item in reversed(gained):
                if excess and item["type"] != "bone" and item["stage"] == stage:
                    k = min(excess, item["count"])
                    out.append({"type": item["type"], "stage": stage, "count": k})
                    excess -= k
            turn.emit("MaterialsDiscarded", seat=seat, items=out, why="cap")


def cap_step(turn, seat, queue):
    p = turn.state["p"][seat]
    for stage in STAGES:
        excess = stage_total(p, stage) - C.decay_cap
        if excess > 0:
            present = [t for t, k in p["decay"][stage].items() if k]
            if len(present) == 1:
                turn.emit("MaterialsDiscarded", seat=seat, why="cap",
                          items=[{"type": present[0], "stage": stage, "count": excess}])
                continue
            queue[:0] = [[seat, {"op": "_cap"}]]
            return push(turn, {"kind": "excess", "seat": seat, "stage": stage, "left": excess, "types": present},
                        queue)
    return False


# ---------------------------------------------------------------- meeples
def placed_of(st, seat, kind):
    zones = [f"space:{sid}" for sid, occ in st["spaces"].items() if occ["seat"] == seat and occ["kind"] == kind]
    zones += [f"bump:{i}" for i, occ in enumerate(st["bump"]) if occ and occ["seat"] == seat and occ["kind"] == kind]
    return zones


def finish_icon(turn, icon, ok, zone=None):
    if icon:
        turn.emit("IconResolved", **icon, ok=ok, zone=zone, undo=False)


def gain_assistant(turn, seat):
    """ABOM-ATTR-05; ABOM-CITY-09: onto the character card, so it may be placed later this City phase."""
    if turn.state["p"][seat]["reserve"]["assistant"] > 0:
        turn.emit("MeepleMoved", seat=seat, kind="assistant", src="reserve", dst="card")
        return True
    turn.emit("NothingHappens", seat=seat, why="no assistant in reserve")
    return False


def promote(turn, seat, queue=None, icon=None):
    """ABOM-ATTR-06, ABOM-AMB-47: the owner picks an assistant (card or placed); a reserve scientist takes its place."""
    st = turn.state
    p = st["p"][seat]
    zones = (["card"] if p["card"]["assistant"] else []) + placed_of(st, seat, "assistant")
    if not (p["reserve"]["scientist"] and zones):
        turn.emit("NothingHappens", seat=seat, why="no assistant to promote")
        finish_icon(turn, icon, False)
        return False
    if len(zones) > 1 and queue is not None:
        return push(turn, {"kind": "meeple", "seat": seat, "action": "promote", "meeple": "assistant",
                           "zones": zones, "icon": icon}, queue)
    do_meeple(turn, seat, "promote", "assistant", zones[0], icon)
    return False


def do_meeple(turn, seat, action, kind, zone, icon):
    if action == "promote":
        turn.emit("MeeplePromoted", seat=seat, zone=zone, **{"from": "assistant", "to": "scientist"})
    else:
        turn.emit("MeepleMoved", seat=seat, kind=kind, src=zone, dst="reserve")
    finish_icon(turn, icon, True, zone)


def demote(turn, seat, zone):
    """Undo of PROMOTE_ASSISTANT: that scientist becomes an assistant again."""
    st = turn.state
    p = st["p"][seat]
    zones = placed_of(st, seat, "scientist") + (["card"] if p["card"]["scientist"] else [])
    if zone in zones:
        zones.remove(zone)
        zones.insert(0, zone)
    elif "card" in zones:
        zones.remove("card")
        zones.insert(0, "card")
    if p["reserve"]["assistant"] and zones:
        turn.emit("MeeplePromoted", seat=seat, zone=zones[0], **{"from": "scientist", "to": "assistant"})
        return True
    return False


def lose_assistant(turn, seat, queue=None, icon=None):
    """ABOM-ATTR-09 / ABOM-AMB-53 / ABOM-AMB-47: an assistant on the card; else one placed (owner picks); else a scientist
    (card first, then a placed one the owner picks); else nothing."""
    st = turn.state
    p = st["p"][seat]
    for kind in ("assistant", "scientist"):
        zones = ["card"] if p["card"][kind] else placed_of(st, seat, kind)
        if zones:
            if len(zones) > 1 and queue is not None:
                return push(turn, {"kind": "meeple", "seat": seat, "action": "lose", "meeple": kind,
                                   "zones": zones, "icon": icon}, queue)
            do_meeple(turn, seat, "lose", kind, zones[0], icon)
            return False
    turn.emit("NothingHappens", seat=seat, why="no meeple to lose")
    finish_icon(turn, icon, False)
    return False


# ---------------------------------------------------------------- dials
def crossed(attr, old, new):
    """Icons whose active state changes moving old -> new, in the order the dial passes them.

    An icon at p above the start is active while value >= p; below the start while value <= p
    (ABOM-AMB-14). Returns [(icon, becomes_active)].
    """
    dial = C.dials[attr]
    start = dial["start"]
    out = []
    for icon in dial["icons"]:
        p = icon["at"]
        if p > start:
            was, now = old >= p, new >= p
        else:
            was, now = old <= p, new <= p
        if was != now:
            out.append((icon, now))
    out.sort(key=lambda x: x[0]["at"], reverse=new < old)
    return out


def move_dial(turn, seat, attr, n, queue=None):
    """ABOM-ATTR-02, ABOM-ATTR-04, ABOM-ATTR-13, ABOM-ATTR-14: move a dial (clamped, ABOM-AMB-16); the icons passed resolve or undo one at a time,
    each before the rest of the queue (a cascade resolves depth-first)."""
    p = turn.state["p"][seat]
    old = p["attr"][attr]
    dial = C.dials[attr]
    new = max(dial["min"], min(dial["max"], old + n))
    if new == old:
        return False
    turn.emit("DialMoved", seat=seat, attr=attr, **{"from": old, "to": new})
    steps = [[seat, {"op": "_icon", "attr": attr, "at": icon["at"], "icon": icon["icon"], "n": icon["n"],
                     "activate": activate}] for icon, activate in crossed(attr, old, new)]
    if queue is None:
        return run(turn, steps)
    queue[:0] = steps
    return False


def icon_step(turn, seat, eff, queue):
    kind, attr = eff["icon"], eff["attr"]
    icon = {"seat": seat, "attr": attr, "at": eff["at"], "icon": kind, "n": eff["n"]}
    if eff["activate"]:
        if kind == "PROMOTE_ASSISTANT":
            return promote(turn, seat, queue, icon)
        if kind == "LOSE_ASSISTANT":
            return lose_assistant(turn, seat, queue, icon)
        ok = True
        if kind == "GAIN_ASSISTANT":
            ok = gain_assistant(turn, seat)
        elif kind == "BLUE_DIE":
            turn.emit("BlueDie", seat=seat, n=1)
        turn.emit("IconResolved", **icon, ok=ok, zone=None, undo=False)
        if kind in ("GAIN_REPUTATION", "LOSE_REPUTATION"):  # ABOM-ATTR-07, ABOM-ATTR-08
            queue[:0] = [[seat, {"op": "attribute", "attr": "reputation", "n": 1 if kind == "GAIN_REPUTATION" else -1}]]
        # ABOM-ATTR-12: a VP(n) icon does nothing now; `reached` (evolve) keeps it for final scoring
        return False
    record = turn.state["p"][seat]["icons"][attr].get(str(eff["at"]))
    ok = bool(record and record["ok"])  # ABOM-AMB-15: an effect never resolved is not undone
    turn.emit("IconResolved", **icon, ok=ok, zone=None, undo=True)
    if not ok:
        return False
    if kind == "GAIN_ASSISTANT":
        return lose_assistant(turn, seat, queue)
    if kind == "PROMOTE_ASSISTANT":
        demote(turn, seat, record["zone"])
    elif kind in ("GAIN_REPUTATION", "LOSE_REPUTATION"):
        queue[:0] = [[seat, {"op": "attribute", "attr": "reputation", "n": -1 if kind == "GAIN_REPUTATION" else 1}]]
    elif kind == "LOSE_ASSISTANT":
        gain_assistant(turn, seat)
    elif kind == "BLUE_DIE":
        turn.emit("BlueDie", seat=seat, n=-1)
    return False


# ---------------------------------------------------------------- the lab: a throw of the switch (ABOM-SWITCH-*)

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
