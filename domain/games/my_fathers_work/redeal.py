"""What a fork deals again (domain/engine/redeal.py), from what the forker could see.

Hidden from a viewer (view.py, catalog section 5): the order and contents of every draw pile
(MFW-HIDDEN-03) and of the Compulsion discards (MFW-HIDDEN-15), another seat's Experiment cards
(its hand: levels only, MFW-HIDDEN-01; its Estate Affairs draws, MFW-HIDDEN-05/16) and its
Compulsions (MFW-HIDDEN-02), its hidden commitments (MFW-HIDDEN-12) and secret messages
(MFW-HIDDEN-13). So a fork deals again, one group per kind of card:

- each level's Experiments not seen (in the level's deck, and in the hands and Estate Affairs of
  seats the forker does not see: a card keeps its level, which is public);
- the Compulsions not seen (the deck, the discards, the other seats' Compulsions);
- each other draw pile's cards not seen (Maladjustments, the Upgrade tiles of each set).

A card a viewer has seen keeps its place (an Experiment put at the bottom of its deck is known to
the seat that put it there, MFW-HIDDEN-03); one the state names elsewhere (the op queue, a secret
choice pending, a commitment) is renamed with it (domain/engine/redeal.py). Then `after_redeal`
forgets the other seats' commitments (they choose again in the fork: a commitment is a choice,
not a card) and the secret messages the forker could not read.
"""

from __future__ import annotations

from domain.engine.redeal import Group, places_in, unseen_indices

from . import content as C

_LEVELS = ("A", "B", "C")
_OWN_PILES = ("mal", "tiles", "gen3")


def _hidden_seats(state: dict, viewers: list) -> list[int]:
    return [seat for seat in range(state["n"]) if seat not in viewers]


def redeal_places(state: dict, seen: set, viewers: list) -> list[Group]:
    if state["over"]:
        return []
    decks = state["decks"]
    hidden = _hidden_seats(state, viewers)
    groups = []
    for level in _LEVELS:
        places = places_in(("decks", level), unseen_indices(decks[level], seen))
        for seat in hidden:
            player = state["players"][seat]
            for key in ("hand", "ea"):
                places += [("players", seat, key, index) for index, card in enumerate(player[key])
                           if card not in seen and C.EXPERIMENTS[card]["level"] == level]
        groups.append(Group(places))
    comps = places_in(("decks", "comp"), unseen_indices(decks["comp"], seen))
    comps += places_in(("decks", "comp_discard"), unseen_indices(decks["comp_discard"], seen))
    for seat in hidden:
        comps += [("players", seat, "comps", index, "id") for index, comp in enumerate(state["players"][seat]["comps"])
                  if comp["id"] not in seen]
    groups.append(Group(comps))
    for name in _OWN_PILES:
        groups.append(Group(places_in(("decks", name), unseen_indices(decks.get(name, []), seen))))
    return groups


def after_redeal(state: dict, viewers: list, rng) -> dict:
    hidden = {str(seat) for seat in _hidden_seats(state, viewers)}
    state["commits"] = {seat: option for seat, option in state["commits"].items() if seat not in hidden}
    state["messages"] = [m for m in state["messages"] if m["to"] is None or str(m["to"]) not in hidden]
    return state
