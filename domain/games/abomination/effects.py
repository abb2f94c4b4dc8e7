"""The effect interpreter: content effects (and a few internal steps) run from a queue.

A queue item is ``[seat, effect]``. When an effect needs a player's choice, a pending-decision
record is pushed (as a fact) holding the rest of the queue; the matching move resumes it.
Rule IDs: ABOM-ATTR-*, ABOM-MATERIALS-*, ABOM-CADAVER-*, ABOM-CARDS-*, ABOM-EVENT-17.
"""

from __future__ import annotations

from .content import C, STAGES

DISPLAY_OF = {"research": "academy", "humanity": "saintRoch", "scoundrel": "docks"}


# ---------------------------------------------------------------- queue
def run(turn, queue):
    """Run queue items until empty or suspended on a pending decision. Returns True if suspended."""
    from . import flow  # internal steps of the round live in flow
    while queue:
        seat, eff = queue.pop(0)
        op = eff["op"]
        if op.startswith("_"):
            if flow.internal(turn, seat, eff, queue):
                return True
        elif apply(turn, seat, eff, queue):
            return True
        if turn.state["phase"] in ("event", "city"):  # AMB-45(a): the first to meet an objective claims it
            flow.check_objectives(turn, only_in_game=True)
    return False


def push(turn, record, queue):
    record["rest"] = list(queue)
    queue.clear()
    public = {k: v for k, v in record.items() if k not in ("rest", "cards", "card", "entry")}
    turn.emit("PendingPushed", record=record, private_to=[], public={"record": public})
    return True


def items(seat, effects):
    return [[seat, e] for e in effects]


# ---------------------------------------------------------------- effects
def apply(turn, seat, eff, queue):
    st = turn.state
    op = eff["op"]
    p = st["p"][seat]
    if op == "francs":
        n = max(eff["n"], -p["francs"])
        if n:
            turn.emit("Francs", seat=seat, n=n)
    elif op == "attribute":
        move_dial(turn, seat, eff["attr"], eff["n"])
    elif op == "gainMaterials":
        gain_materials(turn, seat, eff["items"])
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
        {"gainAssistant": gain_assistant, "promote": promote, "loseAssistant": lose_assistant}[eff["kind"]](turn, seat)
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


def gain_materials(turn, seat, gained):
    """ABOM-MATERIALS-02/03/05: staged cubes on their stage, bone in the bone space, cap 15 per stage."""
    turn.emit("MaterialsGained", seat=seat, items=[dict(i) for i in gained])
    p = turn.state["p"][seat]
    for stage in STAGES:
        excess = stage_total(p, stage) - C.decay_cap
        if excess > 0:
            out = []
            for item in reversed(gained):  # the excess is taken from the cubes just gained (RULINGS)
                if excess and item["type"] != "bone" and item["stage"] == stage:
                    k = min(excess, item["count"])
                    out.append({"type": item["type"], "stage": stage, "count": k})
                    excess -= k
            turn.emit("MaterialsDiscarded", seat=seat, items=out, why="cap")


# ---------------------------------------------------------------- meeples
def placed_of(st, seat, kind):
    zones = [f"space:{sid}" for sid, occ in st["spaces"].items() if occ["seat"] == seat and occ["kind"] == kind]
    zones += [f"bump:{i}" for i, occ in enumerate(st["bump"]) if occ and occ["seat"] == seat and occ["kind"] == kind]
    return zones


def gain_assistant(turn, seat):
    """ABOM-ATTR-05."""
    if turn.state["p"][seat]["reserve"]["assistant"] > 0:
        turn.emit("MeepleMoved", seat=seat, kind="assistant", src="reserve", dst="card")
        return True
    turn.emit("NothingHappens", seat=seat, why="no assistant in reserve")
    return False


def promote(turn, seat):
    """ABOM-ATTR-06: an assistant (card first, else placed) becomes a reserve scientist in place."""
    st = turn.state
    p = st["p"][seat]
    zones = (["card"] if p["card"]["assistant"] else []) + placed_of(st, seat, "assistant")
    if p["reserve"]["scientist"] and zones:
        turn.emit("MeeplePromoted", seat=seat, zone=zones[0], **{"from": "assistant", "to": "scientist"})
        return zones[0]
    turn.emit("NothingHappens", seat=seat, why="no assistant to promote")
    return None


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


def lose_assistant(turn, seat):
    """ABOM-ATTR-09 / AMB-53: card assistant, else a placed one, else a scientist (card, then placed)."""
    st = turn.state
    p = st["p"][seat]
    for kind in ("assistant", "scientist"):
        zones = (["card"] if p["card"][kind] else []) + placed_of(st, seat, kind)
        if zones:
            turn.emit("MeepleMoved", seat=seat, kind=kind, src=zones[0], dst="reserve")
            return True
    turn.emit("NothingHappens", seat=seat, why="no meeple to lose")
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


def move_dial(turn, seat, attr, n):
    """ABOM-ATTR-02/04/13/14: move a dial (clamped, AMB-16), resolving or undoing icons passed."""
    p = turn.state["p"][seat]
    old = p["attr"][attr]
    dial = C.dials[attr]
    new = max(dial["min"], min(dial["max"], old + n))
    if new == old:
        return
    turn.emit("DialMoved", seat=seat, attr=attr, **{"from": old, "to": new})
    for icon, activate in crossed(attr, old, new):
        if activate:
            resolve_icon(turn, seat, attr, icon)
        else:
            undo_icon(turn, seat, attr, icon)


def resolve_icon(turn, seat, attr, icon):
    kind = icon["icon"]
    ok, zone = True, None
    if kind == "GAIN_ASSISTANT":
        ok = gain_assistant(turn, seat)
    elif kind == "PROMOTE_ASSISTANT":
        zone = promote(turn, seat)
        ok = zone is not None
    elif kind == "GAIN_REPUTATION":
        move_dial(turn, seat, "reputation", 1)
    elif kind == "LOSE_REPUTATION":
        move_dial(turn, seat, "reputation", -1)
    elif kind == "LOSE_ASSISTANT":
        ok = lose_assistant(turn, seat)
    elif kind == "BLUE_DIE":
        turn.emit("BlueDie", seat=seat, n=1)
    turn.emit("IconResolved", seat=seat, attr=attr, at=icon["at"], icon=kind, n=icon["n"], ok=ok, zone=zone,
              undo=False)


def undo_icon(turn, seat, attr, icon):
    kind = icon["icon"]
    record = turn.state["p"][seat]["icons"][attr].get(str(icon["at"]))
    if record and record["ok"]:  # AMB-15: an effect never resolved is not undone
        if kind == "GAIN_ASSISTANT":
            lose_assistant(turn, seat)
        elif kind == "PROMOTE_ASSISTANT":
            demote(turn, seat, record["zone"])
        elif kind == "GAIN_REPUTATION":
            move_dial(turn, seat, "reputation", -1)
        elif kind == "LOSE_REPUTATION":
            move_dial(turn, seat, "reputation", 1)
        elif kind == "LOSE_ASSISTANT":
            gain_assistant(turn, seat)
        elif kind == "BLUE_DIE":
            turn.emit("BlueDie", seat=seat, n=-1)
    turn.emit("IconResolved", seat=seat, attr=attr, at=icon["at"], icon=kind, n=icon["n"], ok=bool(record and
              record["ok"]), zone=None, undo=True)
