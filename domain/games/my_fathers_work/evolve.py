"""Applying facts: one dull branch per fact type. No rules, no randomness."""

from __future__ import annotations

from domain.engine import copy_state

from . import content as C


def _p(state, f):
    return state["players"][f["seat"]]


def _remove(lst, item):
    if item in lst:
        lst.remove(item)


# MFW-SAVE-01 (a game resumes from its facts alone: the state is rebuilt by folding them)
def decks_shuffled(s, f):
    for k, order in f["decks"].items():
        s["decks"][k] = list(order)


def row_changed(s, f):
    s["row"] = list(f["row"])
    s["decks"]["tiles"] = s["decks"]["tiles"][f.get("drawn", 0):]


def masterwork(s, f):
    _p(s, f)["masterwork"] = f["card"]


def start_player(s, f):
    s["start_player"] = f["seat"]


def gained(s, f):
    pl = _p(s, f)
    if f["res"] == "money":
        pl["money"] += f["n"]
    else:
        pl["res"][f["res"]] += f["n"]


def paid(s, f):
    pl = _p(s, f)
    if f["res"] == "money":
        pl["money"] -= f["n"]
    else:
        pl["res"][f["res"]] -= f["n"]


def scored(s, f):
    _p(s, f)["score"] += f["n"]


def track_moved(s, f):
    if f["track"] in ("mob", "suspicion"):
        s[f["track"]] = f["to"]
    else:
        _p(s, f)[f["track"]] = f["to"]


def board_tracks(s, f):
    s["mob"], s["suspicion"] = f["mob"], f["suspicion"]


def piece_moved(s, f):
    _p(s, f)["pieces"][f["piece"]] = f["zone"]


def placed(s, f):
    pl = _p(s, f)
    for piece in f["pieces"]:
        pl["pieces"][piece] = f["zone"]
    s["turn"]["placed"] = True


def card_drawn(s, f):
    _remove(s["decks"][f["deck"]], f["card"])
    _p(s, f)["ea" if f.get("dest") == "ea" else "hand"].append(f["card"])


def card_to_bottom(s, f):
    pl = _p(s, f)
    for zone in ("hand", "ea", "completed"):
        if f["card"] in pl[zone]:
            pl[zone].remove(f["card"])
            break
    s["decks"][C.EXPERIMENTS[f["card"]]["level"]].append(f["card"])


def ea_kept(s, f):
    pl = _p(s, f)
    pl["ea"].remove(f["card"])
    pl["hand"].append(f["card"])


def deck_shuffled(s, f):
    s["decks"][f["deck"]] = list(f["order"])
    if f.get("from_discard"):
        s["decks"][f["from_discard"]] = []


def exp_completed(s, f):
    pl = _p(s, f)
    if f["card"] == pl["masterwork"]:
        pl["mw_done"] = True
    else:
        _remove(pl["hand"], f["card"])
    pl["completed"].append(f["card"])


def compulsion_drawn(s, f):
    _remove(s["decks"]["comp"], f["card"])
    _p(s, f)["comps"].append({"id": f["card"], "armed": False, "progress": 0})


def compulsions_armed(s, f):
    for pl in s["players"]:
        for c in pl["comps"]:
            c["armed"] = True


def compulsion_progress(s, f):
    for c in _p(s, f)["comps"]:
        if c["id"] == f["card"]:
            c["progress"] = f["progress"]


def compulsion_completed(s, f):
    pl = _p(s, f)
    pl["comps"] = [c for c in pl["comps"] if c["id"] != f["card"]]
    s["decks"]["comp_discard"].append(f["card"])


def compulsions_discarded(s, f):
    pl = _p(s, f)
    s["decks"]["comp_discard"].extend(c["id"] for c in pl["comps"])
    pl["comps"] = []


def maladjustment_drawn(s, f):
    _remove(s["decks"]["mal"], f["card"])
    _p(s, f)["mals"].append(f["card"])


def maladjustments_discarded(s, f):
    pl = _p(s, f)
    s["decks"]["mal_discard"].extend(pl["mals"])
    pl["mals"] = []


def final_maladjustments(s, f):
    _p(s, f)["final_mals"] = f["n"]


def tile_built(s, f):
    pl = _p(s, f)
    pl["plots"][f["plot"]] = f["tile"]
    if f.get("source") == "vanity":
        s["vanity"][C.VANITY[f["tile"]]["name"]] -= 1


def plot_opened(s, f):
    _p(s, f)["open"] = f["plot"] + 1


def tile_discarded(s, f):
    _p(s, f)["plots"][f["plot"]] = None


def journal_advanced(s, f):
    _p(s, f)["journal"][f["track"]] = f["level"]


def passed(s, f):
    s["passed"][f["seat"]] = True


def turn_ended(s, f):
    s["active"] = f["next"] if f["next"] is not None else s["active"]
    s["turn"] = {"placed": False, "free_used": []}


def free_used(s, f):
    s["turn"]["free_used"].append(f["source"])


def asked(s, f):
    s["pending"] = copy_state(f["pending"])  # never share mutable parts with the fact itself


def queue_saved(s, f):
    s["queue"] = copy_state(f["queue"])


def answered(s, f):
    s["pending"] = None
    s["queue"] = []


def committed(s, f):
    pend = s["pending"]
    pend["waiting"] = [w for w in pend["waiting"] if w != f["seat"]]
    s["commits"][str(f["seat"])] = f["option"]


def revealed(s, f):
    s["pending"] = None
    s["queue"] = []
    s["commits"] = {}


def generation_started(s, f):
    s["gen"], s["round"], s["phase"] = f["gen"], 1, "start_of_generation"


def round_started(s, f):
    s["round"], s["phase"] = f["round"], "start_of_round"


def turns_began(s, f):
    s["phase"] = "turns"
    s["active"] = f["active"]
    s["passed"] = [False] * s["n"]
    s["turn"] = {"placed": False, "free_used": []}


def phase(s, f):
    s["phase"] = f["phase"]


def town_changed(s, f):
    s["page"], s["town"], s["added"], s["replaced"] = f["page"], list(f["town"]), list(f["added"]), dict(f["replaced"])


def modifier_set(s, f):
    s["modifiers"][f["rule"]] = dict(f["params"])


def event_fired(s, f):
    s["fired"].append(f["event"])


def message(s, f):
    s["messages"].append({"to": f.get("to"), "event": f["event"], "text": f["text"]})


def token_given(s, f):
    _p(s, f)["tokens"].append(f["token"])


def resources_reset(s, f):
    pl = _p(s, f)
    keep = f["keep"]
    pl["money"] = keep.get("money", 0)
    pl["res"] = {k: keep.get(k, 0) for k in C.RESOURCES}


def hand_kept(s, f):
    pl = _p(s, f)
    pl["hand"] = [f["card"]] if f["card"] else []


def stored(s, f):
    pl = _p(s, f)
    pl["completed"].remove(f["card"])
    pl["stored"].append(f["card"])


def completed_cleared(s, f):
    _p(s, f)["completed"] = []


def tiles_swapped(s, f):
    s["decks"]["tiles"] = list(f["stack"])
    s["decks"]["gen3"] = []
    s["row"] = [None, None, None, None]


def insanity_side(s, f):
    s["insanity_side"] = f["side"]


def game_ended(s, f):
    s["over"] = True
    s["phase"] = "over"
    s["final"] = f["final"]


HANDLERS = {
    "DecksShuffled": decks_shuffled, "RowChanged": row_changed, "MasterworkDealt": masterwork,
    "MasterworkPicked": masterwork, "StartPlayerSet": start_player, "StartPlayerPassed": start_player,
    "Gained": gained, "Paid": paid, "Scored": scored, "TrackMoved": track_moved, "BoardTracksSet": board_tracks,
    "PieceMoved": piece_moved, "Placed": placed, "CardDrawn": card_drawn, "CardToBottom": card_to_bottom,
    "EstateAffairsKept": ea_kept, "DeckShuffled": deck_shuffled, "ExperimentCompleted": exp_completed,
    "CompulsionDrawn": compulsion_drawn, "CompulsionsArmed": compulsions_armed,
    "CompulsionProgress": compulsion_progress, "CompulsionCompleted": compulsion_completed,
    "CompulsionsDiscarded": compulsions_discarded, "MaladjustmentDrawn": maladjustment_drawn,
    "MaladjustmentsDiscarded": maladjustments_discarded, "FinalMaladjustments": final_maladjustments,
    "TileBuilt": tile_built, "PlotOpened": plot_opened, "TileDiscarded": tile_discarded,
    "JournalAdvanced": journal_advanced, "Passed": passed, "TurnEnded": turn_ended, "FreeActionUsed": free_used,
    "PendingPushed": asked, "ResolverSaved": queue_saved, "PendingResolved": answered,
    "Committed": committed, "Revealed": revealed,
    "GenerationStarted": generation_started, "RoundStarted": round_started, "TurnsBegan": turns_began,
    "PhaseSet": phase, "TownChanged": town_changed, "ModifierSet": modifier_set, "EventFired": event_fired,
    "Message": message, "TokenGiven": token_given, "ResourcesReset": resources_reset, "HandKept": hand_kept,
    "ExperimentStored": stored, "CompletedCleared": completed_cleared, "TilesSwapped": tiles_swapped,
    "InsanitySideSet": insanity_side, "GameEnded": game_ended,
}
# Facts that only inform (the state already holds their consequence through other facts).
INFO_ONLY = {"PlacementInfo", "Searched", "VoteResult", "Note", "ChoiceMade"}


#: Fact names of earlier releases, read under their current name (stored games are forever; the
#: template's pending-decision facts are PendingPushed / PendingResolved / ResolverSaved, issue 18).
RENAMED = {"Asked": "PendingPushed", "Answered": "PendingResolved", "QueueSaved": "ResolverSaved"}


def evolve(state: dict, f: dict) -> dict:
    handler = HANDLERS.get(RENAMED.get(f["type"], f["type"]))
    if handler is not None:
        handler(state, f)
    elif f["type"] not in INFO_ONLY:
        raise ValueError(f"my_fathers_work: unknown fact type {f['type']!r}")
    return state
