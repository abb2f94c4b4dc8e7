"""Round flow: Event -> City -> Lab -> Reset (ABOM-ROUND-01), as automatic steps.

Phases:   event  (first player draws; encounter decisions are pending records)
          city   (single active seat; forced passes are automatic)
          lab    (simultaneous; each seat ends with "done")
          over
Internal queue steps (ops starting with "_") are handled by `internal`.
"""

from __future__ import annotations

from .content import C, STAGES
from .effects import items, push, run
from .scoring import final_scores, tiebreak_key, alive_count

CONDITIONS = {
    "lowestHumanity": lambda p: -p["attr"]["humanity"],
    "highestReputation": lambda p: p["attr"]["reputation"],
    "highestExpertise": lambda p: p["attr"]["expertise"],
    "mostFrancs": lambda p: p["francs"],
    "fewestFrancs": lambda p: -p["francs"],
}

FILTERS = {
    "negativeHumanity": lambda p: p["attr"]["humanity"] < 0,
    "hasAlivePart": lambda p: any(x["alive"] for x in p["parts"]),
}


# ---------------------------------------------------------------- who acts
def decision(state):
    """Who acts now: the owner of the top pending decision, the active City player, or (ABOM-LAB-01)
    every seat not yet done with the Lab phase at once."""
    from domain.engine import Decision
    if state["phase"] == "over":
        return Decision.nobody()
    if state["pending"]:
        rec = state["pending"][-1]
        return Decision.single(rec["seat"], f"{rec['kind']} decision")
    if state["phase"] == "city":
        return Decision.single(state["active"], "place a meeple")
    if state["phase"] == "lab":
        return Decision.simultaneous([s for s in range(state["n"]) if not state["p"][s]["done"]],
                                     "lab: build, throw the switch, preserve, then done")
    return Decision.nobody("waiting")


# ---------------------------------------------------------------- spaces
_SPACE_DEFS: dict = {}  # space id -> (definition, owner): content is fixed, so each is looked up once
_ALL_SPACES: dict = {}  # seat -> the city's spaces and that seat's lab spaces, in order


def space_def(sid):
    if not isinstance(sid, str):
        return None, None
    found = _SPACE_DEFS.get(sid)
    if found is None:
        found = _space_def(sid)
        if found[0] is not None:  # only real spaces are kept (a move's bogus id is not)
            _SPACE_DEFS[sid] = found
    return found


def _space_def(sid):
    if sid.startswith("lab"):
        owner, local = sid[3:].split(".", 1)
        d = C.lab_spaces.get(local)
        return (d, int(owner)) if d and owner.isdigit() else (None, None)
    return C.spaces.get(sid), None


def all_spaces(st, seat):
    spaces = _ALL_SPACES.get(seat)
    if spaces is None:
        spaces = _ALL_SPACES[seat] = tuple(C.spaces) + tuple(f"lab{seat}.{k}" for k in C.lab_spaces)
    return list(spaces)


def location_mod(st, location, kind):
    return [m for m in st["mods"] if m["scope"] == location and m["kind"] == kind]


def place_context(st):
    """What every placement check of one state shares: the closed locations, the extra cost of each
    location (the events' modifiers) and the first free bump slot (None: the track is full)."""
    closed, extra = set(), {}
    for m in st["mods"]:
        if m["kind"] == "closed":
            closed.add(m["scope"])
        elif m["kind"] == "extraCost":
            extra[m["scope"]] = extra.get(m["scope"], 0) + m.get("value", 0)
    free = next((i for i, occ in enumerate(st["bump"]) if occ is None), None)
    return closed, extra, free


def check_place(st, seat, kind, sid, context=None):
    """ABOM-CITY-02, ABOM-CITY-03, ABOM-CITY-07, ABOM-PLACE-01, ABOM-PLACE-02, ABOM-PLACE-03, ABOM-BUMP-01, ABOM-BUMP-02, ABOM-BUMP-03, ABOM-BUMP-04, ABOM-BUMP-05. Returns (error|None, franc_cost, bump_slot, bump_cost).
    `context`: `place_context(st)`, when many spaces of one state are checked."""
    d, owner = space_def(sid)
    if d is None:
        return ("ABOM-CITY-02", f"there is no space {sid!r}"), 0, None, 0
    if owner is not None and owner != seat:
        return ("ABOM-CITY-03", "you may not place on another player's lab board"), 0, None, 0
    if kind not in ("scientist", "assistant") or st["p"][seat]["card"][kind] < 1:
        return ("ABOM-CITY-02", f"no {kind} on your character card"), 0, None, 0
    if d["scientistOnly"] and kind != "scientist":
        return ("ABOM-PLACE-01", f"{sid} is a scientist-only space"), 0, None, 0
    closed, extra, free = place_context(st) if context is None else context
    if d["location"] in closed:
        return ("ABOM-EVENT-04", f"an event closes {d['location']} this round"), 0, None, 0
    cost = max(0, d["francCost"] + extra.get(d["location"], 0))
    slot, bump_cost = None, 0
    if sid in st["spaces"]:  # ABOM-PLACE-06: one meeple per space, so an occupied space means a bump
        # ABOM-BUMP-06: slots and costs from the track of this player count; ABOM-BUMP-07: a bumped meeple
        # stays on its slot (not on the card) until Reset
        if free is None:
            return ("ABOM-BUMP-04", "the bump track is full: the occupied space cannot be taken"), cost, None, 0
        slot = free
        bump_cost = C.bump[st["n"]][slot]
    if st["p"][seat]["francs"] < cost + bump_cost:
        rule = "ABOM-BUMP-05" if slot is not None else "ABOM-PLACE-03"
        return (rule, f"{sid} costs {cost + bump_cost} francs, you have {st['p'][seat]['francs']}"), cost, slot, bump_cost
    return None, cost, slot, bump_cost


def placements(st, seat):
    out = []
    context = place_context(st)
    for kind in ("scientist", "assistant"):
        if st["p"][seat]["card"][kind] < 1:
            continue
        for sid in all_spaces(st, seat):
            if check_place(st, seat, kind, sid, context)[0] is None:
                out.append({"type": "place", "kind": kind, "space": sid})
    return out


def can_place(st, seat):
    p = st["p"][seat]
    if p["card"]["scientist"] + p["card"]["assistant"] == 0:
        return False
    context = place_context(st)
    for kind in ("scientist", "assistant"):
        if p["card"][kind]:
            for sid in all_spaces(st, seat):
                if check_place(st, seat, kind, sid, context)[0] is None:
                    return True
    return False


# ---------------------------------------------------------------- internal steps
def internal(turn, seat, eff, queue):
    st = turn.state
    op = eff["op"]
    if op == "_startCity":
        turn.emit("PhaseStarted", phase="city", round=st["round"])
        next_city_turn(turn, st["first"], include_start=True)
    elif op == "_endTurn":
        next_city_turn(turn, seat, include_start=False)
    elif op == "_bottom":  # ABOM-CARDS-01: no discard piles; a used card goes under its deck
        turn.emit("CardToBottom", deck=eff["deck"], card=eff["card"])
    elif op == "_entry":
        entry = C.entries[eff["entry"]]
        turn.emit("EntryRead", seat=seat, entry=eff["entry"], prompt=entry["prompt"])
        if entry.get("choices"):
            return push(turn, {"kind": "entry", "seat": seat, "entry": eff["entry"],
                               "labels": [c["label"] for c in entry["choices"]]}, queue)
        queue[:0] = items(seat, entry.get("effects", []))
    elif op == "_target":
        return target_step(turn, eff, queue)
    elif op == "_afterTarget":
        return after_target(turn, eff["target"], eff["card"], eff["entry"], queue)
    elif op == "_encounter":
        if st["opts"]["manualAnnounce"]:
            return push(turn, {"kind": "announce", "seat": eff["holder"], "card": eff["card"], "placer": seat,
                               "entry": eff["entry"]}, queue)
        trigger_encounter(turn, eff["card"], eff["holder"], seat, eff["entry"], queue)
    elif op == "_placeCost":
        return place_cost(turn, seat, eff, queue)
    elif op == "_cadaver":
        card = C.cadavers[eff["card"]]
        if eff["option"] == "expertise":  # ABOM-CADAVER-04
            queue[:0] = [[seat, {"op": "attribute", "attr": "expertise", "n": card["expertiseValue"]}]]
        else:  # ABOM-CADAVER-05
            queue[:0] = [[seat, {"op": "gainMaterials", "items": card["materials"]}]]
    else:
        raise ValueError(f"unknown internal step {op}")
    return False


def trigger_encounter(turn, card, holder, placer, entry, queue):
    """ABOM-EVENT-09, ABOM-EVENT-12: announced and resolved for the placer, then to the bottom of the event deck."""
    turn.emit("EncounterTriggered", card=card, holder=holder, placer=placer, entry=entry)
    queue[:0] = [[placer, {"op": "_entry", "entry": entry}], [placer, {"op": "_bottom", "deck": "event", "card": card}]]


def place_cost(turn, seat, eff, queue):
    """ABOM-PLACE-05 / ABOM-AMB-25: after any encounter, pay the bump, then the franc cost, then place."""
    st = turn.state
    sid, kind = eff["space"], eff["kind"]
    err, cost, slot, bump_cost = check_place(st, seat, kind, sid)
    if err:
        turn.emit("PlacementAbandoned", seat=seat, space=sid, why=err[1])
        queue.clear()
        if not can_place(turn.state, seat):
            next_city_turn(turn, seat, include_start=False)
        return False
    if slot is not None:
        occ = st["spaces"][sid]
        turn.emit("MeepleMoved", seat=occ["seat"], kind=occ["kind"], src=f"space:{sid}", dst=f"bump:{slot}",
                  bumpedBy=seat)
        if bump_cost:
            turn.emit("FrancsPaid", **{"from": seat, "to": occ["seat"], "n": bump_cost})
    if cost:
        turn.emit("Francs", seat=seat, n=-cost, why="space cost")
    turn.emit("MeepleMoved", seat=seat, kind=kind, src="card", dst=f"space:{sid}")
    return False


# ---------------------------------------------------------------- event phase
def face_of(card, rnd):
    for i, face in enumerate(card["faces"]):
        if face["rounds"][0] <= rnd <= face["rounds"][1]:
            return i, face
    raise ValueError("no face for round")


def start_round(turn):
    """ABOM-EVENT-01, ABOM-EVENT-02, ABOM-EVENT-03, ABOM-EVENT-04, ABOM-EVENT-05, ABOM-EVENT-06, ABOM-EVENT-07, ABOM-EVENT-08, 18..20: the first player draws the top event card."""
    st = turn.state
    rnd = st["captain"]
    turn.emit("PhaseStarted", phase="event", round=rnd)
    first = st["first"]
    queue = []
    if st["decks"]["event"]:
        cid = st["decks"]["event"][0]
        if cid in C.events:
            i, face = face_of(C.events[cid], rnd)
            turn.emit("EventDrawn", card=cid, face=i, kind="event", title=face["title"], modifiers=face["modifiers"])
            if face["lightningStorm"]:
                turn.emit("StormStruck")  # ABOM-EVENT-19: every jar turns charged (evolve)
            if face["execution"]:
                k = 1 if st["n"] == 2 else 2
                turn.emit("Execution", cards=st["decks"]["publicSquare"][:k])  # ABOM-EVENT-18
            queue += items(first, face["immediate"])
        else:
            i, face = face_of(C.encounters[cid], rnd)
            if face["trigger"]["kind"] == "now":
                turn.emit("EventDrawn", card=cid, face=i, kind="now", entry=face["entry"])
                queue.append([first, {"op": "_target", "card": cid, "face": i}])
            else:
                turn.emit("EventDrawn", card=cid, face=i, kind="location", holder=first,
                          location=face["trigger"]["locationId"], entry=face["entry"], private_to=[first],
                          public={"kind": "location", "holder": first})
    queue.append([first, {"op": "_startCity"}])
    run(turn, queue)


def target_candidates(st, face):
    seats = list(range(st["n"]))
    target = face["target"]
    if target["kind"] == "chosen":
        return seats  # ABOM-EVENT-14
    if target["condition"] in FILTERS:
        return [s for s in seats if FILTERS[target["condition"]](st["p"][s])]
    key = CONDITIONS[target["condition"]]
    best = max(key(st["p"][s]) for s in seats)
    return [s for s in seats if key(st["p"][s]) == best]  # ABOM-EVENT-15


def target_step(turn, eff, queue):
    st = turn.state
    card = eff["card"]
    face = C.encounters[card]["faces"][eff["face"]]
    candidates = target_candidates(st, face)
    if not candidates:  # ABOM-AMB-28
        turn.emit("NothingHappens", seat=st["first"], why="nobody meets the encounter's condition")
        turn.emit("CardToBottom", deck="event", card=card)
        return False
    if len(candidates) == 1:
        return after_target(turn, candidates[0], card, face["entry"], queue)
    return push(turn, {"kind": "target", "seat": st["first"], "card": card, "entry": face["entry"],
                       "candidates": candidates}, queue)


def after_target(turn, target, card, entry, queue):
    st = turn.state
    turn.emit("TargetChosen", seat=st["first"], target=target, card=card)
    if target == st["first"]:  # ABOM-EVENT-16
        return push(turn, {"kind": "reader", "seat": st["first"], "card": card, "entry": entry, "target": target,
                           "candidates": [s for s in range(st["n"]) if s != target]}, queue)
    queue[:0] = [[target, {"op": "_entry", "entry": entry}], [target, {"op": "_bottom", "deck": "event", "card": card}]]
    return False


# ---------------------------------------------------------------- city phase
def next_city_turn(turn, start, include_start):
    """ABOM-CITY-01, ABOM-CITY-05, ABOM-CITY-06, ABOM-CITY-08, ABOM-AMB-22: next seat clockwise that can place; else the Lab phase."""
    st = turn.state
    n = st["n"]
    order = [(start + k) % n for k in (range(n) if include_start else range(1, n + 1))]
    for seat in order:
        if can_place(turn.state, seat):
            turn.emit("CityTurn", seat=seat)
            return
        p = turn.state["p"][seat]
        why = "no meeples on the character card" if not (p["card"]["scientist"] + p["card"]["assistant"]) \
            else "no valid space"
        turn.emit("TurnPassed", seat=seat, why=why)
    turn.emit("PhaseStarted", phase="lab", round=st["round"])


# ---------------------------------------------------------------- lab end, reset, end
def end_lab(turn):
    """ABOM-LAB-07, ABOM-ENDGAME-02, ABOM-ENDGAME-03: objectives, then the alive-monster check, then Reset."""
    check_objectives(turn, only_in_game=True)
    st = turn.state
    if any(full_monster(p) for p in st["p"]):
        end_game(turn, "monster")
        return
    reset(turn)


def full_monster(p):
    need = dict(C.part_limits)
    for part in p["parts"]:
        if part["alive"] and part["side"] == "skin":
            need[part["type"]] -= 1
    return all(v <= 0 for v in need.values())


def decayed_track(track):
    """ABOM-DECAY-02, ABOM-DECAY-03, ABOM-DECAY-04: stage IV and blood at II discarded, then I-III move one stage
    right; ABOM-DECAY-05: the discards come first, so what moves into IV (or blood into II) stays a round."""
    new = {s: {t: 0 for t in track[s]} for s in STAGES}
    discarded = {t: track["IV"][t] for t in track["IV"]}
    discarded["blood"] += track["II"]["blood"]
    for i, s in enumerate(STAGES[:3]):
        for t, k in track[s].items():
            if s == "II" and t == "blood":
                continue
            new[STAGES[i + 1]][t] += k
    return new, {t: k for t, k in discarded.items() if k}


def reset(turn):
    """ABOM-RESET-01, ABOM-RESET-02, ABOM-RESET-03, ABOM-RESET-04, ABOM-RESET-05, ABOM-RESET-06, ABOM-RESET-07,
    ABOM-RESET-08, ABOM-RESET-09. ABOM-DECAY-01 (only players without ice decay), ABOM-DECAY-07 (ice: no decay at
    all), ABOM-PRESERVE-05 (nothing here moves preserved materials back), ABOM-EVENT-11 (held encounters stay),
    ABOM-SWITCH-15 (damage and alive markers stay), ABOM-SWITCH-16 (uncharged jars stay uncharged),
    ABOM-BUMP-08 (the bump track empties only here, with the meeples), ABOM-CITY-10 (placed meeples stay until
    step 3), ABOM-ROUND-03 (the round follows the Captain), ABOM-ROUND-04 (straight into the next Event phase),
    ABOM-ENDGAME-04 (12 rounds at most)."""
    st = turn.state
    turn.emit("PhaseStarted", phase="reset", round=st["round"])
    for seat, p in enumerate(st["p"]):  # step 1 decay
        if p["ice"]:
            turn.emit("IceAged", seat=seat)
        else:
            track, discarded = decayed_track(p["decay"])
            turn.emit("Decayed", seat=seat, track=track, discarded=discarded)
    for display, deck, size in (("hospital", "hospital", st["n"]), ("docks", "scoundrel", 3),
                                ("academy", "research", 2), ("saintRoch", "humanity", 2)):
        hidden = {} if display != "hospital" else {"private_to": []}  # H-04: the pile shows its top only
        old = list(turn.state["displays"][display])
        turn.emit("DisplayDiscarded", display=display, deck=deck, cards=old, **hidden,
                  public={"display": display, "deck": deck, "count": len(old)})
        new = turn.state["decks"][deck][:size]  # ABOM-RESET-03: drawn after the discard
        turn.emit("DisplayRefilled", display=display, deck=deck, cards=new, **hidden,
                  public={"display": display, "deck": deck, "top": new[:1], "count": len(new)})
    turn.emit("DisplayDiscarded", display="publicSquare", deck="publicSquare",
              cards=list(turn.state["displays"]["publicSquare"]))
    turn.emit("EventsDiscarded", cards=list(turn.state["inPlay"]))
    turn.emit("MeeplesReturned")
    turn.emit("CaptainAdvanced", to=st["captain"] + 1)
    if turn.state["captain"] > C.rounds:
        end_game(turn, "captain")
    else:
        start_round(turn)


def end_game(turn, reason):
    """ABOM-ENDGAME-01, ABOM-ENDGAME-02, ABOM-ENDGAME-05 and final scoring (ABOM-SCORE, ABOM-OBJECTIVE-04)."""
    turn.emit("GameEnded", reason=reason)
    check_objectives(turn, only_in_game=False)
    final, winners = final_scores(turn.state)
    turn.emit("FinalScored", final=final, winners=winners)


# ---------------------------------------------------------------- objectives
def stat(st, seat, name):
    p = st["p"][seat]
    if name in ("humanity", "reputation", "expertise"):
        return p["attr"][name]
    if name == "francs":
        return p["francs"]
    if name == "alive":
        return alive_count(p)
    if name == "preserved":
        return sum(p["preserved"].values())
    raise ValueError(name)


def meeting(st, oid):
    """The seats that meet an in-game objective's condition now."""
    cond = C.objectives[oid]["condition"]
    return [s for s in range(st["n"]) if stat(st, s, cond["stat"]) >= cond["atLeast"]]


def after_effect(turn):
    """ABOM-OBJECTIVE-02, ABOM-AMB-45: "primero en alcanzar" (first to reach). Outside the Lab phase the first
    to meet an in-game objective claims it at once; in the simultaneous Lab phase every seat that meets
    it at any moment is noted (ObjectiveReached) and the claim is settled at the phase's end, so a
    player who reaches the mark and drops below it again before the end keeps their claim."""
    st = turn.state
    if st["phase"] in ("event", "city"):
        check_objectives(turn, only_in_game=True)
    elif st["phase"] == "lab":
        for oid in st["objectives"]:
            if oid in st["claimed"] or C.objectives[oid]["kind"] != "inGame":
                continue
            noted = st.get("labReached", {}).get(oid, [])
            for seat in meeting(st, oid):
                if seat not in noted:
                    turn.emit("ObjectiveReached", seat=seat, objective=oid)


def check_objectives(turn, only_in_game):
    """ABOM-OBJECTIVE-01, -03, -04, ABOM-AMB-45: one holder each; ties settled by the final tie-breakers."""
    st = turn.state
    for oid in st["objectives"]:
        if oid in st["claimed"]:
            continue
        obj = C.objectives[oid]
        cond = obj["condition"]
        seats = range(st["n"])
        if obj["kind"] == "inGame":  # ABOM-OBJECTIVE-02: met now, or reached earlier in this Lab phase
            noted = st.get("labReached", {}).get(oid, []) if st["phase"] == "lab" else []
            meet = sorted(set(meeting(st, oid)) | set(noted))
        elif only_in_game:
            continue
        else:
            best = max(stat(st, s, cond["stat"]) for s in seats)
            meet = [s for s in seats if stat(st, s, cond["stat"]) == best] if best > 0 else []
        if meet:
            winner = max(meet, key=lambda s: tiebreak_key(st, s))
            turn.emit("ObjectiveClaimed", seat=winner, objective=oid)  # ABOM-OBJECTIVE-03: one holder, for good
