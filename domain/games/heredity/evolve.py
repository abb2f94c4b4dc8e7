"""Apply one fact to the state. Dull on purpose: one branch per fact type, no rules."""

from __future__ import annotations

from domain.engine import copy_state
from domain.engine.legacy import RuleFix


def _card(state: dict, number: int) -> dict:
    return state["cards"].setdefault(str(number), {"zone": "deck", "face": "front", "tokens": {}})


def _unslot(state: dict, number: int) -> None:
    for pos in state["timeline"]:
        if pos["card"] == number:
            pos["card"] = None
            pos["below"] = []
        pos["below"] = [b for b in pos["below"] if b["card"] != number] + \
            [{"colour": b["colour"], "card": None} for b in pos["below"] if b["card"] == number]


def _set_slot(state: dict, ref: str, key: str, value) -> None:
    slot = state["slots"].setdefault(ref, {"t": None, "d": 0})
    slot[key] = value
    if slot["t"] is None and not slot["d"]:
        del state["slots"][ref]


#: Fact names of earlier releases, read under their current name (stored games are forever; the
#: template's pending-decision facts are PendingPushed / PendingResolved and Resolver*, issue 18).
RENAMED = {"Pending": "PendingPushed", "PendingCleared": "PendingResolved", "StackPush": "ResolverPushed",
           "StackPop": "ResolverPopped", "StackStep": "ResolverStepped", "FrameVar": "ResolverVarSet"}


#: Rules fixed since records carried no `rules_release` (domain/engine/legacy.py; RULINGS "Records of earlier
#: releases"). Issue 16.2 (INJURY-05/06): a forced severe injury notes the card it revealed
#: (`ResolverVarSet` "revealed"), so one free heart slot there takes the remaining Damage at once (HER-INJURY-03).
#: Records of earlier releases lack exactly those facts at such a move. Issue 16.5 (AMB-40 ruled again): the Family
#: card's Defeat condition is checked only at its own CHECK_DEFEAT; earlier releases also checked it after every
#: other card's Event, ending the chapter in defeat where today's rules play on (HER-TIMELINE-14, HER-AMB-40).
FAMILY_DEFEAT = "the Family card's Defeat condition is fulfilled"


def _ended_by_the_family_check(recorded: list, decided: list) -> bool:
    """The earlier release ended the chapter by the Family card's condition here; today's rules do not."""
    def ended(facts):
        return any(isinstance(f, dict) and f.get("type") == "GameEnded" and f.get("reason") == FAMILY_DEFEAT
                   for f in facts)
    return ended(recorded) and not ended(decided)


FIXES = (
    RuleFix(rule="HER-INJURY-03", issue="16.2", release=2,
            summary="a forced severe injury notes the card it revealed (ResolverVarSet 'revealed')",
            added=lambda fact: fact.get("type") == "ResolverVarSet" and fact.get("key") == "revealed"),
    RuleFix(rule="HER-AMB-40", issue="16.5", release=2,
            summary="the Family card's Defeat condition is checked only where the Family card's Event concludes; "
                    "earlier releases ended the chapter after another card's Event, today's rules play on",
            matches=_ended_by_the_family_check),
)


def evolve(state: dict, fact: dict) -> dict:
    t = RENAMED.get(fact["type"], fact["type"])
    if t == "ResolverPushed":
        state["stack"].append(copy_state(fact["frame"]))
    elif t == "ResolverPopped":
        state["stack"].pop()
    elif t == "ResolverStepped":
        state["stack"][-1]["i"] += 1
    elif t == "ResolverVarSet":
        state["stack"][fact["depth"]]["vars"][fact["key"]] = copy_state({"v": fact["value"]})["v"]
    elif t == "PendingPushed":
        state["pending"] = copy_state(fact["pending"])
    elif t == "PendingResolved":
        state["pending"] = None
    elif t == "WindowOpened":
        state["window"] = fact["depth"]
        state["declined"] = []
    elif t == "WindowClosed":
        state["window"] = None
    elif t == "TokensRetrieved":
        for name, pc in state["pcs"].items():
            pc["tokens"] = ["avail"] * (4 if state.get("purple") == name else 3)
        for ref in list(state["slots"]):
            _set_slot(state, ref, "t", None)
    elif t == "TokenPlaced":
        state["pcs"][fact["pc"]]["tokens"][fact["token"]] = fact["slot"]
        _set_slot(state, fact["slot"], "t", fact["pc"])
    elif t == "TokenToMiddle":
        tokens = state["pcs"][fact["pc"]]["tokens"]
        if tokens[fact["token"]] not in ("avail", "middle"):
            _set_slot(state, tokens[fact["token"]], "t", None)
        tokens[fact["token"]] = "middle"
    elif t == "CardTaken":
        card = _card(state, fact["card"])
        card.update({"zone": fact.get("zone", "table"), "face": "front"})
        state["revealed"].setdefault(str(fact["card"]), [])
        if "front" not in state["revealed"][str(fact["card"])]:
            state["revealed"][str(fact["card"])].append("front")
    elif t == "CardFlipped":
        card = _card(state, fact["card"])
        card["face"] = fact["face"]
        seen = state["revealed"].setdefault(str(fact["card"]), [])
        if fact["face"] not in seen:
            seen.append(fact["face"])
    elif t == "CardBurned":
        _unslot(state, fact["card"])
        card = _card(state, fact["card"])
        card["zone"] = "burned"
        state["actions"] = [a for a in state["actions"] if a["card"] != fact["card"]]
        state["mods"] = [m for m in state["mods"] if m["card"] != fact["card"]]
    elif t == "CardUnanchored":
        _unslot(state, fact["card"])
        _card(state, fact["card"])["zone"] = fact.get("zone", "table")
    elif t == "CardAnchored":
        pos = state["timeline"][fact["pos"]]
        if fact["below"] is None:
            pos["card"] = fact["card"]
            pos["below"] = [{"colour": c, "card": None} for c in fact["stack"]]
            if fact.get("new_end"):
                state["timeline"].append({"colour": fact["new_end"], "card": None, "below": []})
        else:
            pos["below"][fact["below"]]["card"] = fact["card"]
        _card(state, fact["card"])["zone"] = "timeline"
    elif t == "TimelineStarted":
        state["timeline"] = copy_state(fact["timeline"])
        state["hourglass"] = 0
    elif t == "KarmaBurnedBefore":
        state["karma"]["burned"].append(fact["card"])
    elif t == "HourglassMoved":
        state["hourglass"] = fact["pos"]
    elif t == "TimelineRestored":
        state["timeline"] = copy_state(fact["timeline"])
        state["hourglass"] = fact["hourglass"]
    elif t == "CardTokens":
        tokens = _card(state, fact["card"])["tokens"]
        tokens[fact["kind"]] = tokens.get(fact["kind"], 0) + fact["delta"]
        if not tokens[fact["kind"]]:
            del tokens[fact["kind"]]
    elif t == "AreaMaterials":
        mats = state["area_materials"]
        mats[fact["area"]] = mats.get(fact["area"], 0) + fact["delta"]
        if not mats[fact["area"]]:
            del mats[fact["area"]]
    elif t == "PcMaterials":
        state["pcs"][fact["pc"]]["materials"] += fact["delta"]
    elif t == "PcMoved":
        state["pcs"][fact["pc"]]["area"] = fact["area"]
    elif t == "DamagePlaced":
        _set_slot(state, fact["slot"], "d", 1)
    elif t == "DamageRemoved":
        _set_slot(state, fact["slot"], "d", 0)
    elif t == "SevereInjury":
        prefix = f"{fact['card']}."
        for ref in [r for r in state["slots"] if r.startswith(prefix)]:
            del state["slots"][ref]
        _card(state, fact["card"])["face"] = "back"
        seen = state["revealed"].setdefault(str(fact["card"]), ["front"])
        if "back" not in seen:
            seen.append("back")
    elif t == "NpcPlaced":
        standees = state["npcs"].setdefault(str(fact["npc"]), [])
        while len(standees) <= fact["standee"]:
            standees.append({"area": None, "damage": 0})
        standees[fact["standee"]] = {"area": fact["area"], "damage": 0}
    elif t == "NpcMoved":
        state["npcs"][str(fact["npc"])][fact["standee"]]["area"] = fact["area"]
    elif t == "NpcDamaged":
        state["npcs"][str(fact["npc"])][fact["standee"]]["damage"] += fact["amount"]
    elif t == "NpcStandeeRemoved":
        state["npcs"][str(fact["npc"])][fact["standee"]]["area"] = None
    elif t == "TerrainPlaced":
        state["terrains"][str(fact["terrain"])] = {"x": fact["x"], "y": fact["y"], "level": fact["level"]}
        if fact.get("replaces") is not None:
            state["terrains"].pop(str(fact["replaces"]), None)
    elif t == "MarkersSet":
        prefix = f"{fact['terrain']}/"
        state["markers"] = [m for m in state["markers"] if not m.startswith(prefix)] + fact["markers"]
    elif t == "MarkerRemoved":
        state["markers"].remove(fact["marker"])
    elif t == "ItemEquipped":
        card = _card(state, fact["item"])
        card.update({"zone": "inventory", "pc": fact["pc"], "anchor": fact["anchor"], "area": None})
    elif t == "ItemDropped":
        card = _card(state, fact["item"])
        card.update({"zone": "area", "pc": None, "anchor": None, "area": fact["area"]})
    elif t == "KarmaShuffled":
        state["karma"]["deck"] = list(fact["order"])
        state["karma"]["discard"] = []
    elif t == "KarmaDrawn":
        state["karma"]["deck"].remove(fact["card"])
        state["karma"]["discard"].append(fact["card"])
    elif t == "KarmaEvolved":
        state["karma"]["burned"].append(fact["old"])
        state["karma"]["deck"] = list(fact["order"])
        state["karma"]["discard"] = []
    elif t == "Bound":
        state["bind"][fact["var"]] = fact["card"]
    elif t == "ActionMade":
        state["actions"].append({"card": fact["card"], "action": fact["action"]})
    elif t == "ModifierAdded":
        state["mods"].append({"card": fact["card"], "face": fact["face"], "modifier": fact["modifier"]})
    elif t == "Initialised":
        state["initialised"].append(fact["item"])
    elif t == "PurpleAssigned":
        old = state.get("purple")
        if old is not None and len(state["pcs"][old]["tokens"]) == 4:
            where = state["pcs"][old]["tokens"].pop()
            if where not in ("avail", "middle") and where in state["slots"]:
                _set_slot(state, where, "t", None)
        state["purple"] = fact["pc"]
        state["pcs"][fact["pc"]]["tokens"].append("avail")
    elif t == "TradeDeclined":
        state["declined"].append(fact["key"])
    elif t == "NpcSlain":
        state["slain"] += 1
    elif t == "GameEnded":
        state["over"] = fact["outcome"]
        state["reason"] = fact.get("reason", "")
    # Descriptive facts (Warning, Attack, Narrated, CardRead, ...) change nothing.
    return state
