"""What the generic bot (domain/bots) needs from Ada's Dream: what a seat knows, and samples of it.

Hidden (catalog section 5): every deck's order, the other seats' hands, the face-down tier-1
card each seat was dealt (its owner does not know it either until it is drawn), the order of
the Program, Assignment, Meeting and Multiplier stacks and the unused tier-1 cards. Everything
else (displays, discards, Mills, the known Partner cards of each supply) is public.

`knowledge` blanks the hidden parts and keeps, per supply, the public identities of the cards in
deck + unseen hand; `sample` deals what nobody has seen at random into the blanks: tier-1 cards
for the face-down ones and the tier-1 part of the Meeting deck (its count is public), tier-2 for
the rest of the Meeting deck.
"""

from __future__ import annotations

from domain.bots.blanks import blank, strings_in
from domain.engine import EVERYONE, copy_state

from . import content as C

_STACK_POOLS = {"prog": sorted(C.PROGRAMS), "assign": sorted(C.ASSIGNMENTS), "mult": sorted(C.MULTIPLIERS)}

SCORE_SCALE = 8


def knowledge(state: dict, viewer) -> dict:
    k = copy_state(state)
    if viewer == EVERYONE or state["over"]:
        return k
    blanks = {"supplies": [], "stacks": {name: len(cards) for name, cards in state["stacks"].items()},
              "meet_tier1": sum(1 for c in state["stacks"]["meet"] if C.partner(c)["tier"] == "1"),
              "unused_tier1": len(state.get("unused_tier1", []))}
    for seat, p in enumerate(k["players"]):
        mine = viewer == seat
        hidden_hand = [] if mine else p["hand"]
        hidden = p["deck"] + hidden_hand
        public = list(p["known_partners"])
        for card in p["discard"] + (p["hand"] if mine else []):
            if card in public:
                public.remove(card)
        identified = sorted(public)[:len(hidden)]
        blanks["supplies"].append({"deck": len(p["deck"]), "hand": None if mine else len(p["hand"]),
                                   "identified": identified})
        p["deck"] = []
        if not mine:
            p["hand"] = []
    for name in k["stacks"]:
        k["stacks"][name] = []
    k["unused_tier1"] = []
    hidden = strings_in([state["stacks"], state.get("unused_tier1", [])] +
                        [p["deck"] + ([] if viewer == seat else p["hand"]) for seat, p in enumerate(state["players"])])
    k["flow"] = blank(k["flow"], hidden)       # a pending choice of another seat may list its hand
    k["_bot"] = blanks
    return k


def sample(know: dict, viewer, rng) -> dict:
    s = copy_state(know)
    blanks = s.pop("_bot", None)
    if blanks is None:
        return s
    seen = strings_in(s)
    for supply in blanks["supplies"]:
        seen.update(supply["identified"])
    tier1 = rng.shuffled([c for c in C.TIER1 if c not in seen])
    tier2 = rng.shuffled([c for c in C.TIER2 if c not in seen])
    for seat, supply in enumerate(blanks["supplies"]):
        p = s["players"][seat]
        count = supply["deck"] + (supply["hand"] or 0)
        cards = list(supply["identified"])
        while len(cards) < count:
            cards.append(tier1.pop() if tier1 else tier2.pop())
        cards = rng.shuffled(cards)
        if supply["hand"] is not None:
            p["hand"] = cards[:supply["hand"]]
            cards = cards[supply["hand"]:]
        p["deck"] = cards
    meet_t1 = blanks["meet_tier1"]
    meet = [tier1.pop() for _ in range(min(meet_t1, len(tier1)))]
    meet += [tier2.pop() for _ in range(min(blanks["stacks"]["meet"] - len(meet), len(tier2)))]
    s["stacks"]["meet"] = meet
    s["unused_tier1"] = tier1[:blanks["unused_tier1"]]
    for name, pool in _STACK_POOLS.items():
        s["stacks"][name] = rng.shuffled([c for c in pool if c not in seen])[:blanks["stacks"][name]]
    return s
