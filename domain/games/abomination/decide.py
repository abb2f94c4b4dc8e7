"""decide(): one small function per move kind, each naming the rules it enforces."""

from __future__ import annotations

from types import SimpleNamespace

from domain.engine import IllegalMove, Turn

from . import flow
from .content import C, STAGES
from .effects import advance_roll, do_meeple, items, run
from .evolve import evolve
from .moves import ANNOUNCE, CHOICE_FORMS, canonical_pay, internal_choice
from .state import alive_options, blue_allowed, damage_options, muscle_targets, requirement

#: What `Turn` needs of the rules: the fold of one fact (evolve), so facts chain within one decision.
FOLD = SimpleNamespace(evolve=evolve)

LAB_MOVES = {"ability", "build", "switch", "preserve", "done", "mitigate", "mitigate_done", "damage", "alive"}
PENDING_MOVES = {"cadaver": {"cadaver"}, "draw": {"draw", "decline"}, "scoundrel": {"hire", "decline"},
                 "choice": {"choose"}, "entry": {"entry_choice"}, "target": {"choose_target"},
                 "reader": {"choose_reader"}, "announce": {"announce", "not_announce"},
                 "meeple": {"meeple"}, "excess": {"discard"}}  # the internal forms (CHOICE_FORMS)


def resume(turn, rest, front):
    run(turn, front + rest)


# ---------------------------------------------------------------- pending decisions
def d_pending(turn, seat, move, rec):
    if move.get("type") == "choose" and rec["kind"] in CHOICE_FORMS:
        if rec["kind"] == "announce" and move.get("option") not in ANNOUNCE:
            raise IllegalMove("ABOM-EVENT-09", f"option must be one of {list(ANNOUNCE)}")
        move = internal_choice(rec, move, listed_only=False)
    kind = move["type"]
    if kind not in PENDING_MOVES[rec["kind"]]:
        raise IllegalMove("ABOM-ROUND-02", f"waiting for a {rec['kind']} decision, not {kind!r}")
    st = turn.state
    p = st["p"][seat]
    rest = rec["rest"]
    if kind == "cadaver":  # ABOM-CADAVER-01, ABOM-CADAVER-02, ABOM-CADAVER-03, ABOM-CADAVER-04, ABOM-CADAVER-05, ABOM-CADAVER-06
        card, option = move.get("card"), move.get("option")
        if card not in rec["cards"]:
            raise IllegalMove("ABOM-CADAVER-01", f"card must be one of {rec['cards']}")
        if option not in ("expertise", "materials"):
            raise IllegalMove("ABOM-CADAVER-03", "choose exactly one option: expertise or materials")
        turn.emit("PendingResolved")
        turn.emit("CardTaken", seat=seat, deck=rec["deck"], card=card, source=rec["source"], option=option)
        front = items(seat, C.cadavers[card]["cost"]) + [
            [seat, {"op": "_cadaver", "card": card, "option": option}],
            [seat, {"op": "_bottom", "deck": rec["deck"], "card": card}]]
        return resume(turn, rest, front)
    if kind == "meeple":  # D-22/D-23, ABOM-AMB-47: the owner picks which meeple is promoted or lost
        zone = move.get("zone")
        if zone not in rec["zones"]:
            raise IllegalMove("ABOM-ATTR-09" if rec["action"] == "lose" else "ABOM-ATTR-06",
                              f"zone must be one of {rec['zones']}")
        turn.emit("PendingResolved")
        do_meeple(turn, seat, rec["action"], rec["meeple"], zone, rec["icon"])
        return resume(turn, rest, [])
    if kind == "discard":  # D-21, ABOM-AMB-41: the owner picks the cubes discarded above 15
        material = move.get("material")
        if material not in rec["types"]:
            raise IllegalMove("ABOM-MATERIALS-05", f"discard one of {rec['types']} from stage {rec['stage']}")
        turn.emit("PendingResolved")
        turn.emit("MaterialsDiscarded", seat=seat, why="cap",
                  items=[{"type": material, "stage": rec["stage"], "count": 1}])
        return resume(turn, rest, [])
    if kind == "decline":  # ABOM-CARDS-03
        turn.emit("PendingResolved")
        turn.emit("NothingHappens", seat=seat, why="declined")
        return resume(turn, rest, [])
    if kind == "draw":  # ABOM-CARDS-02, ABOM-CARDS-03, ABOM-CARDS-04
        card = move.get("card")
        if rec["source"] == "deck":  # H-02: drawn blind; naming a card would probe the deck order
            if card is not None:
                raise IllegalMove("ABOM-CARDS-03", "a card from the top of a face-down deck is drawn blind: "
                                                   "send the draw without a card")
            card = rec["cards"][0]
        elif card not in rec["cards"]:
            raise IllegalMove("ABOM-CARDS-03", f"card must be one of {rec['cards']}")
        hand = p["hands"][rec["deck"]]
        discard = move.get("discard")
        if len(hand) >= 3 and discard not in hand:
            raise IllegalMove("ABOM-CARDS-04", "you hold 3: discard one of them before drawing a 4th")
        if len(hand) < 3 and discard is not None:
            raise IllegalMove("ABOM-CARDS-04", "a discard is only needed when you already hold 3")
        turn.emit("PendingResolved")
        if discard is not None:  # a discarded (unplayed) card stays secret from the others
            turn.emit("CardFromHand", seat=seat, deck=rec["deck"], card=discard, private_to=[seat],
                      public={"seat": seat, "deck": rec["deck"]})
        turn.emit("CardToHand", seat=seat, deck=rec["deck"], card=card, source=rec["source"],
                  private_to=[seat] if rec["source"] == "deck" else None,
                  public={"seat": seat, "deck": rec["deck"], "source": rec["source"]})
        return resume(turn, rest, [])
    if kind == "hire":  # ABOM-AMB-37
        card = move.get("card")
        if card not in rec["cards"]:
            raise IllegalMove("ABOM-CARDS-05", f"card must be one of {rec['cards']}")
        turn.emit("PendingResolved")
        turn.emit("CardTaken", seat=seat, deck="scoundrel", card=card, source="docks")
        sc = C.scoundrels[card]
        front = items(seat, sc["hireCost"] + sc["effects"]) + [[seat, {"op": "_bottom", "deck": "scoundrel",
                                                                       "card": card}]]
        return resume(turn, rest, front)
    if kind == "choose":
        i = move.get("option")
        if not isinstance(i, int) or not 0 <= i < len(rec["options"]):
            raise IllegalMove("ABOM-PLACE-04", f"option must be 0..{len(rec['options']) - 1}")
        turn.emit("PendingResolved")
        turn.emit("EntryChosen", seat=seat, choice=i, label=f"option {i + 1}")
        return resume(turn, rest, items(seat, rec["options"][i]))
    if kind == "entry_choice":  # ABOM-EVENT-17
        i = move.get("choice")
        choices = C.entries[rec["entry"]]["choices"]
        if not isinstance(i, int) or not 0 <= i < len(choices):
            raise IllegalMove("ABOM-EVENT-17", f"choice must be 0..{len(choices) - 1}")
        turn.emit("PendingResolved")
        turn.emit("EntryChosen", seat=seat, choice=i, label=choices[i]["label"])
        return resume(turn, rest, [[seat, {"op": "_entry", "entry": choices[i]["next"]}]])
    if kind == "choose_target":  # ABOM-EVENT-14, ABOM-EVENT-15
        target = move.get("target")
        if target not in rec["candidates"]:
            raise IllegalMove("ABOM-EVENT-15", f"the target must be one of {rec['candidates']}")
        turn.emit("PendingResolved")
        return resume(turn, rest, [[seat, {"op": "_afterTarget", "target": target, "card": rec["card"],
                                           "entry": rec["entry"]}]])
    if kind == "choose_reader":  # ABOM-EVENT-16
        reader = move.get("reader")
        if reader not in rec["candidates"]:
            raise IllegalMove("ABOM-EVENT-16", "the reader must be another player than the target")
        turn.emit("PendingResolved")
        turn.emit("ReaderChosen", seat=seat, reader=reader, target=rec["target"])
        target = rec["target"]
        return resume(turn, rest, [[target, {"op": "_entry", "entry": rec["entry"]}],
                                   [target, {"op": "_bottom", "deck": "event", "card": rec["card"]}]])
    if kind == "announce":  # ABOM-EVENT-09
        turn.emit("PendingResolved")
        front = []
        flow.trigger_encounter(turn, rec["card"], seat, rec["placer"], rec["entry"], front)
        return resume(turn, rest, front)
    if kind == "not_announce":  # ABOM-EVENT-13
        turn.emit("PendingResolved")
        turn.emit("EncounterNotAnnounced", card=rec["card"], holder=seat, placer=rec["placer"], private_to=[seat],
                  public={"holder": seat, "placer": rec["placer"]})
        turn.emit("CardToBottom", deck="event", card=rec["card"], private_to=[seat], public={"deck": "event"})
        return resume(turn, rest, [])


# ---------------------------------------------------------------- city
def d_place(turn, seat, move):
    """ABOM-CITY-02, ABOM-CITY-03, ABOM-CITY-04, ABOM-CITY-05, ABOM-CITY-06, ABOM-CITY-07, PLACE-*, BUMP-*, ABOM-EVENT-09, ABOM-EVENT-10, ABOM-PLACE-05."""
    st = turn.state
    kind, sid = move.get("kind"), move.get("space")
    err = flow.check_place(st, seat, kind, sid)[0]
    if err:
        raise IllegalMove(*err)
    turn.emit("PlacementDeclared", seat=seat, kind=kind, space=sid)
    queue = []
    d, owner = flow.space_def(sid)
    if owner is None:
        for h in st["held"]:
            if h["location"] == d["location"] and h["holder"] != seat:
                queue.append([seat, {"op": "_encounter", "card": h["card"], "holder": h["holder"],
                                     "entry": h["entry"]}])
    queue.append([seat, {"op": "_placeCost", "space": sid, "kind": kind}])
    queue += items(seat, d["effects"])
    queue.append([seat, {"op": "_endTurn"}])
    run(turn, queue)


def d_play(turn, seat, move):
    """ABOM-CARDS-05, ABOM-CARDS-06, ABOM-AMB-54: a held card at its timing; effect + icons, then to the bottom."""
    st = turn.state
    p = st["p"][seat]
    card = move.get("card")
    deck = "research" if card in p["hands"]["research"] else "humanity" if card in p["hands"]["humanity"] else None
    if deck is None:
        raise IllegalMove("ABOM-CARDS-05", "you do not hold that card")
    data = C.research[card] if deck == "research" else C.humanity[card]
    ok = (data["timing"] == "cityTurn" and st["phase"] == "city" and st["active"] == seat and not st["pending"]) or \
         (data["timing"] == "lab" and st["phase"] == "lab" and not p["done"] and not p["roll"])
    if not ok:
        raise IllegalMove("ABOM-CARDS-05", f"{data['name']} may be played only at its timing ({data['timing']})")
    turn.emit("CardPlayed", seat=seat, card=card, deck=deck)
    turn.emit("CardFromHand", seat=seat, deck=deck, card=card)
    run(turn, items(seat, data["effects"] + data["icons"]))


# ---------------------------------------------------------------- lab
def d_lab(turn, seat, move, rng):
    st = turn.state
    p = st["p"][seat]
    kind = move["type"]
    if p["done"]:
        raise IllegalMove("ABOM-LAB-06", "you have already finished this Lab phase")
    if p["roll"] is not None:
        return d_roll(turn, seat, move, rng)
    if kind in ("mitigate", "mitigate_done", "damage", "alive"):
        raise IllegalMove("ABOM-SWITCH-04", "no shock dice roll is waiting")
    if kind == "build":
        if p["labStep"] > 0:
            raise IllegalMove("ABOM-LAB-02", "builds come before throwing the switch and preserving")
        do_build(turn, seat, move)
    elif kind == "switch":
        if p["thrown"]:
            raise IllegalMove("ABOM-LAB-04", "the switch may be thrown once per Lab phase")
        if p["labStep"] > 1:
            raise IllegalMove("ABOM-LAB-02", "the switch comes before preserving")
        do_switch(turn, seat, move, rng)
    elif kind == "ability":  # character ability: once per Lab phase (sample-pack content)
        if p["abilityUsed"]:
            raise IllegalMove("ABOM-CARDS-05", "your character ability is used once per Lab phase")
        turn.emit("AbilityUsed", seat=seat, character=p["character"])
        run(turn, items(seat, C.characters[p["character"]]["ability"]["effects"]))
    elif kind == "preserve":
        mat, stage, k = check_preserve(st, seat, move)
        turn.emit("MaterialsPreserved", seat=seat, material=mat, stage=stage, count=k)
    elif kind == "done":
        turn.emit("LabDone", seat=seat)
        if all(x["done"] for x in turn.state["p"]):
            flow.end_lab(turn)


def d_roll(turn, seat, move, rng):
    p = turn.state["p"][seat]
    roll = p["roll"]
    kind = move["type"]
    stage = roll["stage"]
    if kind == "mitigate" and stage == "mitigate":  # ABOM-CARDS-07, ABOM-CARDS-08
        card, die = move.get("card"), move.get("die")
        if card not in p["hands"]["research"]:
            raise IllegalMove("ABOM-CARDS-07", "play a research card you hold")
        if not isinstance(die, int) or not 0 <= die < len(roll["dice"]):
            raise IllegalMove("ABOM-CARDS-07", "choose one of the rolled dice")
        mit = C.research[card]["diceMitigation"]
        d = roll["dice"][die]
        if mit["kind"] == "reroll":
            face = C.dice[d["color"]][rng.die(6) - 1]
        elif mit["kind"] == "ignore":
            if d["face"] != "DAMAGE":
                raise IllegalMove("ABOM-CARDS-07", "this card cancels a DAMAGE result")
            face = "BLANK"
        else:
            if d["face"] == "ALIVE":
                raise IllegalMove("ABOM-CARDS-07", "that die already shows ALIVE")
            face = "ALIVE"
        turn.emit("CardPlayed", seat=seat, card=card, deck="research", mitigation=mit["kind"])
        turn.emit("CardFromHand", seat=seat, deck="research", card=card)
        turn.emit("DieChanged", seat=seat, index=die, face=face, random=mit["kind"] == "reroll")
        advance_roll(turn, seat)
    elif kind == "mitigate_done" and stage == "mitigate":
        turn.emit("RollStage", seat=seat, stage="damage")
        advance_roll(turn, seat)
    elif kind == "damage" and stage == "damage":
        place_damage(turn, seat, move.get("part"))
    elif kind == "alive" and stage == "alive":
        place_alive(turn, seat, move.get("part"))
    else:
        raise IllegalMove("ABOM-SWITCH-05", f"the shock roll waits for a {stage} step, not {kind!r}")


# ---------------------------------------------------------------- entry point
#: The rule a well-formed but unlisted move of each kind breaks (issue 16.4: the list is binding).
UNLISTED_RULE = {"build": "ABOM-BUILD-05", "preserve": "ABOM-PRESERVE-02", "switch": "ABOM-SWITCH-02",
                 "place": "ABOM-CITY-02", "play": "ABOM-CARDS-05"}


def refuse_unlisted(move, listed):
    """`decide` accepts only a move equal to one of `legal_moves` (extra or missing keys, another
    spelling of a payment): the list is the whole contract, and what is stored is exactly a listed move."""
    kind = move.get("type")
    same = [m for m in listed if m.get("type") == kind]
    shapes = {frozenset(m) for m in same}
    extra = sorted(set(move) - set().union(*shapes)) if shapes else []
    detail = (f"unknown key(s) {extra} for a {kind!r} move" if extra else
              f"this {kind!r} move is not one of the {len(same)} listed; post one of GET /legal-moves as it is")
    if kind == "build" and not extra and isinstance(move.get("pay"), list):
        spelled = dict(move, pay=canonical_pay(move["pay"]))
        if spelled in same:
            detail = f"list the payment in the order of the requirement: {spelled['pay']}"
    raise IllegalMove(UNLISTED_RULE.get(kind, "ABOM-ROUND-02"), detail)


def decide(state, seat, move, rng):
    """The facts of `move` by `seat`; raises IllegalMove naming the rule broken."""
    from .moves import listed_like
    facts = decide_move(state, seat, move, rng)  # works on a copy: `state` is unchanged
    listed = listed_like(state, seat, move)
    if move not in listed:  # the specific rule checks explain most refusals; this catches the rest
        refuse_unlisted(move, listed)
    return facts


def decide_move(state, seat, move, rng):
    turn = Turn(FOLD, state)
    st = turn.state
    kind = move.get("type")
    if st["phase"] == "over":
        raise IllegalMove("ABOM-ENDGAME-05", "the game is over")
    if st["pending"]:
        rec = st["pending"][-1]
        if rec["seat"] != seat:
            raise IllegalMove("ABOM-ROUND-02", f"waiting for seat {rec['seat']}")
        d_pending(turn, seat, move, rec)
    elif kind == "pass":
        raise IllegalMove("ABOM-CITY-04", "a player with a legal placement must place; passing is automatic")
    elif kind == "play":
        d_play(turn, seat, move)
    elif st["phase"] == "city":
        if kind != "place":
            raise IllegalMove("ABOM-ROUND-02", f"{kind!r} is not a City phase move")
        if st["active"] != seat:
            raise IllegalMove("ABOM-CITY-01", f"it is seat {st['active']}'s City turn")
        d_place(turn, seat, move)
    elif st["phase"] == "lab":
        if kind not in LAB_MOVES:
            raise IllegalMove("ABOM-ROUND-02", f"{kind!r} is not a Lab phase move")
        d_lab(turn, seat, move, rng)
    else:
        raise IllegalMove("ABOM-ROUND-02", f"no move is expected in the {st['phase']} phase")
    flow.after_effect(turn)
    return turn.facts


# ---------------------------------------------------------------- the lab: build (ABOM-BUILD-*), throw the switch
# (ABOM-SWITCH-*), preserve (ABOM-PRESERVE-*)

RANK = {s: i for i, s in enumerate(STAGES)}


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
