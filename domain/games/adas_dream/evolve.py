"""evolve: apply one fact to the state. Dull on purpose: one branch per fact type, no rules."""

from __future__ import annotations

import orjson

from .state import HAND_SOURCES


def _copy(value):
    return orjson.loads(orjson.dumps(value))


def _loc_list(state, loc):
    kind = loc[0]
    if kind == "univ":
        return state["univ"].setdefault(loc[1], [])
    if kind == "room":
        return state["rooms"][loc[1]][loc[2]]
    if kind == "lect":
        return state["lect"][loc[1]][loc[2] - 2]
    raise KeyError(loc)


def _die_ref(state, seat, where):
    """A die position: ["store", k] / ["mill", k] (of seat) or ["ws", space, index]."""
    if where[0] == "ws":
        return state["workshop"][where[1]], where[2]
    return state["players"][seat][where[0]], where[1]


def evolve(state: dict, f: dict) -> dict:
    t = f["type"]
    p = state["players"][f["seat"]] if "seat" in f and isinstance(f.get("seat"), int) else None
    if t == "TableSet" or t == "HiddenSet":
        for key, value in _copy(f["set"]).items():
            state[key] = value
    elif t == "PlayerSet":
        state["players"][f["seat"]].update(_copy(f["set"]))
    elif t == "Flow":                  # games stored before issue 18: the whole flow record, owed choice included
        state["flow"] = _copy(f["flow"])
    elif t == "ResolverSaved":         # the flow record without the owed choice (kept on top if keeps_pending)
        kept = state["flow"]["agenda"][-1:] if f.get("keeps_pending") else []
        state["flow"] = _copy(f["flow"])
        state["flow"]["agenda"] += _copy(kept)
    elif t == "PendingPushed":
        state["flow"]["agenda"].append(_copy(f["pending"]))
    elif t == "PendingResolved":
        state["flow"]["agenda"].pop()
    elif t == "Resources":
        for key, delta in f["delta"].items():
            p[key] += delta
    elif t == "ResearchMoved":
        p["research"][f["colour"]] = f["to"]
    elif t == "SteamMoved":
        p["steam"] = f["to"]
        p["coal"] -= f["coal"]
    elif t == "WsAdjusted":
        state["workshop"][f["space"]][f["index"]]["v"] = f["to"]
    elif t == "WsDieMoved":
        die = state["workshop"][f["space"]].pop(f["index"])
        state["workshop"][f["to"]].append(die)
    elif t == "WsDiePushed":
        state["bonus_die"] = state["workshop"][f["space"]].pop(f["index"])
    elif t == "WsRefilled":
        state["workshop"][f["space"]] = _copy(f["dice"])
        for die in f["dice"]:
            state["bag"][die["c"]] -= 1
    elif t == "DieStored":
        p["store"][f["slot"]] = state["bonus_die"]
        state["bonus_die"] = None
    elif t == "DieToMill":
        p["mill"][f["slot"]] = p["store"][f["store"]]
        p["store"][f["store"]] = None
    elif t == "DieValue":
        dice, k = _die_ref(state, f["seat"], f["where"])
        dice[k]["v"] = f["to"]
    elif t == "DieSwapped":
        own, k = _die_ref(state, f["seat"], f["own"])
        ws, j = _die_ref(state, f["seat"], f["ws"])
        own[k], ws[j] = ws[j], own[k]
    elif t == "Reshuffled":
        p["deck"] = list(f["deck"])
        p["discard"] = []
    elif t == "CardsDrawn":
        for card in f["cards"]:
            p["deck"].remove(card)
            p["hand"].append(card)
    elif t in ("CardPlayed", "CardDiscarded"):
        p["hand"].remove(f["card"])
        p["discard"].append(f["card"])
        if f["card"] not in p["known_partners"]:     # a face-down card is revealed (catalog 5.3)
            p["known_partners"].append(f["card"])
    elif t == "PartnerGained":
        p["hand"].append(f["card"])
        p["known_partners"].append(f["card"])        # taken from a face-up display
    elif t == "PartnerRemoved":
        p[f["source"]].remove(f["card"])
        state["removed"].append(f["card"])
        if f["card"] in p["known_partners"]:
            p["known_partners"].remove(f["card"])
    elif t == "DisplaySet":
        state["displays"][f["display"]] = list(f["slots"])
        if f.get("drawn"):
            del state["stacks"][f["display"]][:f["drawn"]]
        state["removed"].extend(f.get("removed", []))
    elif t == "AssignmentFiled":
        p["columns"][f["colour"]].append(f["card"])
    elif t == "ProgramPlaced":
        p["programs"][f["line"]] = f["tile"]
    elif t == "DiscPlaced":
        loc = f["loc"]
        if f.get("gear") is not None:
            p["covered"][f["gear"]] = False
        if f.get("src") is not None:
            _loc_list(state, f["src"]).remove(f["seat"])
        if loc[0] == "obj":
            state["obj"][loc[1]].append({"seat": f["seat"], "space": loc[2], "round": f["round"]})
        else:
            _loc_list(state, loc).append(f["seat"])
    elif t == "DiscBoxed":
        p["covered"][f["gear"]] = False
        p["boxed"] += 1
    elif t == "GearGained":
        p["gear_supply"].append(f["gear"])
    elif t == "GearBuilt":
        p["gear_supply"].remove(f["gear"])
        p["gears"][f["space"]] = f["gear"]
        for key, amount in f["paid"].items():
            p[key] -= amount
    elif t == "GearSwapped":
        p["gears"][f["space"]] = "add"
    elif t == "Travelled":
        p["city"] = f["to"]
        p["money"] -= f["cost"]
    elif t == "TokenTaken":
        if f["kind"] == "assign":
            p["atokens"][f["colour"]] = f["value"]
            state["atokens_taken"][f["colour"]] += 1
        else:
            p["stokens"].append({"science": f["science"], "value": f["value"]})
    elif t == "Drafted":
        state["draft"]["pool"].remove(f["card"])
        state["draft"]["picks"].append([f["seat"], f["card"]])
    elif t == "DraftDone":
        state["stacks"]["meet"] = list(f["deck"]) + state["stacks"]["meet"]
        state["unused_tier1"] = list(f["removed"])
        state["draft"] = None
    elif t == "EndTriggered":
        state["end_triggered"] = True
    elif t == "TurnEnded":
        state["turns"][f["seat"]] += 1
        state["active"] = f["next"]
        state["round"] = f["round"]
    elif t == "GameOver":
        state["over"] = True
        state["final"] = _copy(f["scores"])
    return state


#: Today's resolver bookkeeping (issue 18, RULINGS R-17), replaced in records written before by one `Flow` fact.
BOOKKEEPING = ("PendingResolved", "ResolverSaved", "PendingPushed")


def legacy_facts(recorded: list, decided: list, state_after: dict) -> list:
    """Today's facts of one move written as the release of `recorded` wrote them (record import,
    domain/engine/legacy.py; RULINGS R-18). Before issue 18 the resolver wrote no `PendingResolved`,
    `ResolverSaved` or `PendingPushed` but one public `Flow` fact last, holding the whole flow record
    after the move (the owed choice on top of its agenda, a choice among hand cards with its options
    listed as `opts`). A function of today's facts and state only: the record is compared with it exactly."""
    if not any(isinstance(f, dict) and f.get("type") == "Flow" for f in recorded):
        return decided
    if not any(f["type"] == "ResolverSaved" for f in decided):
        return decided
    flow = _copy(state_after["flow"])
    for item in flow["agenda"]:
        if "from" in item:
            item["opts"] = HAND_SOURCES[item.pop("from")](state_after["players"][item["s"]])
    kept = [f for f in decided if f["type"] not in BOOKKEEPING]
    return kept + [{"type": "Flow", "flow": flow, "private_to": [], "public": {"type": "Flow"}}]
