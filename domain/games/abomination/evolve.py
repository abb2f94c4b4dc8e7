"""Apply one fact to the state. Dull on purpose: one branch per fact type, no rules, no randomness."""

from __future__ import annotations

from domain.engine import copy_state


def _zone_take(state, seat, kind, zone):
    p = state["p"][seat]
    if zone in ("card", "reserve"):
        p[zone][kind] -= 1
    elif zone.startswith("space:"):
        del state["spaces"][zone[6:]]
    elif zone.startswith("bump:"):
        state["bump"][int(zone[5:])] = None


def _zone_put(state, seat, kind, zone):
    p = state["p"][seat]
    if zone in ("card", "reserve"):
        p[zone][kind] += 1
    elif zone.startswith("space:"):
        state["spaces"][zone[6:]] = {"seat": seat, "kind": kind}
    elif zone.startswith("bump:"):
        state["bump"][int(zone[5:])] = {"seat": seat, "kind": kind}


def _take_card(state, deck, card, source):
    if source == "deck":
        state["decks"][deck].remove(card)
    else:
        state["displays"][source].remove(card)


#: Fact names of earlier releases, read under their current name (stored games are forever; the
#: template's pending-decision facts are PendingPushed / PendingResolved).
RENAMED = {"PendingPopped": "PendingResolved"}


def evolve(state, f):
    t = RENAMED.get(f["type"], f["type"])
    P = state.get("p")
    if t == "DecksShuffled":
        state["decks"] = copy_state(f["decks"])
        state["removedObjectives"] = list(f["removedObjectives"])
    elif t == "TableDealt":
        for display, deck in (("hospital", "hospital"), ("docks", "scoundrel"), ("academy", "research"),
                              ("saintRoch", "humanity")):
            cards = f["displays"][display]
            state["displays"][display] = list(cards)
            del state["decks"][deck][:len(cards)]
        state["setAside"] = list(f["setAside"])
        state["objectives"] = list(f["objectives"])
        state["first"] = f["first"]
        for seat, ch in enumerate(f["characters"]):
            P[seat]["character"] = ch
    elif t == "PhaseStarted":
        state["phase"] = f["phase"]
        state["round"] = f["round"]
        if f["phase"] == "lab":
            state["labReached"] = {}
            for p in P:
                p["labStep"] = 0
                p["thrown"] = False
                p["done"] = False
                p["abilityUsed"] = False
        if f["phase"] == "city":
            state["active"] = None
    elif t == "CityTurn":
        state["active"] = f["seat"]
    elif t in ("TurnPassed", "PlacementDeclared", "PlacementAbandoned", "EntryRead", "TargetChosen",
               "ReaderChosen", "EntryChosen", "NothingHappens", "CardPlayed", "IconResolved"):
        if t == "IconResolved":
            icons = P[f["seat"]]["icons"][f["attr"]]
            if f["undo"]:
                icons.pop(str(f["at"]), None)
            else:
                icons[str(f["at"])] = {"ok": f["ok"], "zone": f.get("zone")}
    elif t == "EventDrawn":
        state["decks"]["event"].pop(0)
        if f["kind"] == "event":
            state["inPlay"].append(f["card"])
            state["mods"].extend(copy_state(f["modifiers"]))
        elif f["kind"] == "location":
            state["held"].append({"card": f["card"], "face": f["face"], "holder": f["holder"],
                                  "location": f["location"], "entry": f["entry"]})
    elif t == "StormStruck":
        state["storm"] = True
        for p in P:
            p["jars"] = [True for _ in p["jars"]]
    elif t == "Execution":
        cards = f["cards"]
        del state["decks"]["publicSquare"][:len(cards)]
        state["displays"]["publicSquare"].extend(cards)
    elif t == "SetAsideReleased":
        state["setAside"].remove(f["card"])
        state["displays"]["publicSquare"].append(f["card"])
    elif t == "CreaturePassed":
        state["first"] = f["to"]
    elif t == "EncounterTriggered" or t == "EncounterNotAnnounced":
        state["held"] = [h for h in state["held"] if h["card"] != f["card"]]
    elif t == "CardToBottom":
        state["decks"][f["deck"]].append(f["card"])
    elif t == "CardTaken":
        _take_card(state, f["deck"], f["card"], f["source"])
    elif t == "CardToHand":
        _take_card(state, f["deck"], f["card"], f["source"])
        P[f["seat"]]["hands"][f["deck"]].append(f["card"])
    elif t == "CardFromHand":
        P[f["seat"]]["hands"][f["deck"]].remove(f["card"])
        state["decks"][f["deck"]].append(f["card"])
    elif t == "PendingPushed":
        state["pending"].append(copy_state(f["record"]))
    elif t == "PendingResolved":
        state["pending"].pop()
    elif t == "Francs":
        P[f["seat"]]["francs"] += f["n"]
    elif t == "FrancsPaid":
        P[f["from"]]["francs"] -= f["n"]
        P[f["to"]]["francs"] += f["n"]
    elif t == "DialMoved":
        p = P[f["seat"]]
        p["attr"][f["attr"]] = f["to"]
        lo, hi = p["reached"][f["attr"]]
        p["reached"][f["attr"]] = [min(lo, f["to"]), max(hi, f["to"])]
    elif t == "AbilityUsed":
        P[f["seat"]]["abilityUsed"] = True
    elif t == "BlueDie":
        P[f["seat"]]["blue"] += f["n"]
    elif t == "MeepleMoved":
        _zone_take(state, f["seat"], f["kind"], f["src"])
        _zone_put(state, f["seat"], f["kind"], f["dst"])
    elif t == "MeeplePromoted":
        p = P[f["seat"]]
        _zone_take(state, f["seat"], f["from"], f["zone"])
        _zone_put(state, f["seat"], f["to"], f["zone"])
        p["reserve"][f["to"]] -= 1
        p["reserve"][f["from"]] += 1
    elif t == "MaterialsGained":
        p = P[f["seat"]]
        for item in f["items"]:
            if item["type"] == "bone":
                p["bone"] += item["count"]
            else:
                p["decay"][item["stage"]][item["type"]] += item["count"]
    elif t == "MaterialsDiscarded" or t == "MaterialsSpent":
        p = P[f["seat"]]
        for item in f["items"]:
            if item["type"] == "bone":
                p["bone"] -= item["count"]
            elif item["stage"] == "P":
                p["preserved"][item["type"]] -= item["count"]
            else:
                p["decay"][item["stage"]][item["type"]] -= item["count"]
    elif t == "MaterialsPreserved":
        p = P[f["seat"]]
        p["decay"][f["stage"]][f["material"]] -= f["count"]
        p["preserved"][f["material"]] += f["count"]
        p["labStep"] = 2
    elif t == "Decayed":  # ABOM-DECAY-06, ABOM-PRESERVE-04: bone and preserved materials are not on the track
        P[f["seat"]]["decay"] = copy_state(f["track"])
    elif t == "JarGained":
        P[f["seat"]]["jars"].append(f["charged"])
    elif t == "JarsCharged":
        jars = P[f["seat"]]["jars"]
        todo = f["n"]
        for i, charged in enumerate(jars):
            if not charged and todo:
                jars[i] = True
                todo -= 1
    elif t == "IceGained":
        P[f["seat"]]["ice"].append("solid")
    elif t == "IceAged":  # ABOM-DECAY-08: solid -> half-melted, half-melted -> back to the supply
        P[f["seat"]]["ice"] = ["half" for b in P[f["seat"]]["ice"] if b == "solid"]
    elif t == "PartBuilt":  # ABOM-BUILD-09: a new muscle-side part; ABOM-BUILD-10: turned to skin, damage kept
        p = P[f["seat"]]
        if f["side"] == "muscle":
            p["parts"].append({"type": f["part"], "side": "muscle", "damage": 0, "alive": False})
        else:
            p["parts"][f["index"]]["side"] = "skin"
    elif t == "Vp":
        P[f["seat"]]["vp"] += f["n"]
    elif t == "SwitchThrown":
        p = P[f["seat"]]
        todo = f["jars"]
        for i, charged in enumerate(p["jars"]):
            if charged and todo:
                p["jars"][i] = False
                todo -= 1
        p["thrown"] = True
        p["labStep"] = 1
        p["roll"] = {"dice": f["dice"], "stage": "mitigate", "damage": 0, "alive": 0, "extra": False}
    elif t == "RollStage":
        P[f["seat"]]["roll"]["stage"] = f["stage"]
    elif t == "DieChanged":
        P[f["seat"]]["roll"]["dice"][f["index"]]["face"] = f["face"]
    elif t == "DamagePlaced":
        p = P[f["seat"]]
        p["roll"]["damage"] += 1
        p["parts"][f["part"]]["damage"] += 1
    elif t == "DamageIgnored":
        P[f["seat"]]["roll"]["damage"] += f["n"]
    elif t == "PartDropped":
        p = P[f["seat"]]
        part = p["parts"][f["part"]]
        part["damage"] = 0
        if f["result"] == "discarded":
            p["parts"].pop(f["part"])
        elif f["result"] == "muscle":
            part["side"] = "muscle"
        else:
            part["alive"] = False
    elif t == "SwitchExtra":
        P[f["seat"]]["roll"]["extra"] = True
    elif t == "AlivePlaced":
        p = P[f["seat"]]
        p["roll"]["alive"] += 1
        p["parts"][f["part"]]["alive"] = True
    elif t == "AliveLost":
        P[f["seat"]]["roll"]["alive"] += f["n"]
    elif t == "RollFinished":
        P[f["seat"]]["roll"] = None
    elif t == "LabDone":
        P[f["seat"]]["done"] = True
        P[f["seat"]]["labStep"] = 3
    elif t == "DisplayDiscarded":
        state["displays"][f["display"]] = []
        state["decks"][f["deck"]].extend(f["cards"])
    elif t == "DisplayRefilled":
        del state["decks"][f["deck"]][:len(f["cards"])]
        state["displays"][f["display"]] = list(f["cards"])
    elif t == "EventsDiscarded":
        state["decks"]["event"].extend(f["cards"])
        state["inPlay"] = []
        state["mods"] = []
        state["storm"] = False
    elif t == "MeeplesReturned":
        for sid, occ in state["spaces"].items():
            P[occ["seat"]]["card"][occ["kind"]] += 1
        for occ in state["bump"]:
            if occ:
                P[occ["seat"]]["card"][occ["kind"]] += 1
        state["spaces"] = {}
        state["bump"] = [None for _ in state["bump"]]
    elif t == "CaptainAdvanced":
        state["captain"] = f["to"]
    elif t == "ObjectiveClaimed":
        state["claimed"][f["objective"]] = f["seat"]
        state.get("labReached", {}).pop(f["objective"], None)
    elif t == "ObjectiveReached":  # ABOM-AMB-45(b): met during the Lab phase, claimed at its end
        reached = state.setdefault("labReached", {}).setdefault(f["objective"], [])
        if f["seat"] not in reached:
            reached.append(f["seat"])
    elif t == "GameEnded":
        state["phase"] = "over"
        state["end"] = f["reason"]
    elif t == "FinalScored":
        state["final"] = copy_state(f["final"])
        state["winners"] = list(f["winners"])
    else:
        raise ValueError(f"abomination: unknown fact type {t!r}")
    return state
