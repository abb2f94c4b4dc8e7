"""What the generic bot (domain/bots) needs from My Father's Work: what a seat knows, and samples.

Hidden (catalog section 5, see view.py): every deck and discard pile (counts only, MFW-HIDDEN-03),
the other seats' Experiment cards (levels only, MFW-HIDDEN-01), their Estate Affairs draws and
Compulsions (counts, MFW-HIDDEN-02/05/16), their commitments (MFW-HIDDEN-12), secret pending
choices, messages and events (MFW-HIDDEN-13), and the op queue (it may name hidden cards).

`knowledge` keeps the state's shape, blanks every hidden card id wherever it appears (the queue
included: its public work stays, so a sampled game goes on as the real one would) and records
the public counts and levels; `sample` deals the unseen cards into the blanks at random.
"""

from __future__ import annotations

from domain.bots.blanks import UNKNOWN, blank, fill, strings_in, unseen_cards
from domain.engine import EVERYONE, copy_state

from . import content as C

SCORE_SCALE = 10

_POOLS = {"A": C.EXP_LEVEL_IDS["A"], "B": C.EXP_LEVEL_IDS["B"], "C": C.EXP_LEVEL_IDS["C"],
          "comp": sorted(C.COMPULSIONS), "mal": sorted(C.MALADJUSTMENTS),
          "tiles": sorted(i for i, r in C.UPGRADES.items() if r["set"] != "storage_shed")}
_CARD_IDS = {c for pool in _POOLS.values() for c in pool} | set(C.EXPERIMENTS) | set(C.SECRET_EVENTS)
_POOL_OF = {"A": "A", "B": "B", "C": "C", "comp": "comp", "comp_discard": "comp", "mal": "mal",
            "mal_discard": "mal", "tiles": "tiles", "gen3": "tiles"}


def knowledge(state: dict, viewer) -> dict:
    if viewer == EVERYONE or state["over"]:
        return copy_state(state)
    hidden = strings_in(state["decks"])
    others = [seat for seat in range(state["n"]) if seat != viewer]
    for seat in others:
        pl = state["players"][seat]
        hidden |= strings_in([pl["hand"], pl["ea"], [c["id"] for c in pl["comps"]]])
    hidden |= strings_in([m for m in state["messages"] if not (m["to"] is None or m["to"] == viewer)])
    hidden |= {e for e in state["fired"] if C.scenario_secret(e)}
    hidden &= _CARD_IDS
    k = blank(copy_state(state), hidden)
    blanks = {"decks": {name: len(cards) for name, cards in state["decks"].items()}, "hands": {}, "ea": {},
              "comps": {}}
    k["decks"] = {name: [] for name in state["decks"]}
    for seat in others:
        pl, kp = state["players"][seat], k["players"][seat]
        blanks["hands"][str(seat)] = [C.EXPERIMENTS[c]["level"] for c in pl["hand"]]      # MFW-HIDDEN-01
        blanks["ea"][str(seat)] = len(pl["ea"])
        blanks["comps"][str(seat)] = len(pl["comps"])
        kp["hand"], kp["ea"], kp["comps"] = [], [], []
    k["commits"] = {key: o for key, o in state["commits"].items() if key == str(viewer)}
    blanks["committed"] = sorted(int(key) for key in state["commits"] if key != str(viewer))
    k["messages"] = [m for m in k["messages"] if m["to"] is None or m["to"] == viewer]
    k["fired"] = [e for e in k["fired"] if e != UNKNOWN]
    pend = state["pending"]
    if pend is not None and pend["kind"] != "sim" and pend.get("secret") and pend["seat"] != viewer:
        k["pending"] = dict(k["pending"], options=[UNKNOWN])
    k["_bot"] = blanks
    return k


def sample(know: dict, viewer, rng) -> dict:
    s, blanks, unseen = unseen_cards(know, _POOLS, rng)
    if blanks is None:
        return s
    dealt: dict[str, list] = {}
    for key, levels in blanks["hands"].items():
        hand = [unseen[lv].pop() for lv in levels if unseen[lv]]
        s["players"][int(key)]["hand"] = hand
        dealt.setdefault(key, []).extend(hand)
    for key, count in blanks["ea"].items():
        pools = [lv for lv in ("A", "B", "C") if unseen[lv]]
        ea = [unseen[rng.choice(pools)].pop() for _ in range(count) if pools]
        s["players"][int(key)]["ea"] = ea
        dealt.setdefault(key, []).extend(ea)
    for key, count in blanks["comps"].items():
        s["players"][int(key)]["comps"] = [{"id": unseen["comp"].pop(), "armed": True, "progress": 0}
                                           for _ in range(count) if unseen["comp"]]
    for name, size in blanks["decks"].items():
        pool = unseen[_POOL_OF[name]] if name in _POOL_OF else []
        s["decks"][name] = [pool.pop() for _ in range(min(size, len(pool)))]
    pend = s["pending"]
    if pend is not None and pend["kind"] == "sim":
        # another seat's options (its hand) were blanked: they are the cards just dealt to it
        for key, options in pend["options"].items():
            if UNKNOWN in options and key in dealt:
                pend["options"][key] = fill(options, list(reversed(dealt[key])))
        for seat in blanks["committed"]:
            options = pend["options"].get(str(seat)) or []
            if options:
                s["commits"][str(seat)] = rng.choice(options)
    rest = [c for pool in unseen.values() for c in pool]
    s["queue"] = fill(s["queue"], rest)
    return s
