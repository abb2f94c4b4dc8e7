"""What a fork deals again (domain/engine/redeal.py), from what the forker could see.

Hidden from a viewer (view.py, catalog section 5): every deck's order (H-02, H-05, H-06; the
Morgue's top is public, H-03), which events and encounters of the box are in the event deck at
all (ABOM-SETUP-11 deals 8 of the events and 4 of the encounters), the Hospital's face-up pile
under its top card (H-04), and another seat's hand (H-08: counts per kind). So a fork deals again:

- the identities of the events, then of the encounters, the forker has not seen: the event deck's
  and the box's spare ones (so the fork does not tell which were in the source's game);
- then the event deck's order below the cards that must be events (the top cards of rounds 1
  and 2 are events, ABOM-SETUP-11);
- each cadaver deck with its cards not seen (the Hospital's with the face-up pile under its top);
- the scoundrel deck; the research and the Humanity decks with the hands of those kinds of the
  seats the forker does not see (a card keeps its kind, which is public).

A card a viewer has seen keeps its place (a used card goes to the bottom of its deck, seen,
ABOM-CARDS-01); one the state names elsewhere (a blind draw pending holds the deck's top) is
renamed with it. Not dealt again: an encounter a seat holds face down (H-01): its face, location
and entry follow from the round it was drawn in, which the state does not keep.
"""

from __future__ import annotations

from domain.engine.redeal import Group, names_in, places_in, unseen_indices

from .content import C

_HANDS = ("research", "humanity")


def redeal_places(state: dict, seen: set, viewers: list) -> list[Group]:
    if state.get("winners") is not None:
        return []
    decks = state["decks"]
    in_game = names_in(state)
    hidden = [seat for seat in range(state["n"]) if seat not in viewers]
    groups = []
    event_deck = decks.get("event", [])
    for kind in (C.events, C.encounters):
        places = places_in(("decks", "event"), [i for i, card in enumerate(event_deck)
                                                if card in kind and card not in seen])
        spare = sorted(card for card in kind if card not in in_game and card not in seen)
        groups.append(Group(places, spare=spare))
    forced = max(0, 2 - int(state.get("round") or 0))            # ABOM-SETUP-11: events on top
    groups.append(Group(places_in(("decks", "event"),
                                  [i for i in unseen_indices(event_deck, seen) if i >= forced])))
    for name in ("cemetery", "morgue", "publicSquare", "scoundrel"):
        groups.append(Group(places_in(("decks", name), unseen_indices(decks.get(name, []), seen))))
    hospital = places_in(("decks", "hospital"), unseen_indices(decks.get("hospital", []), seen))
    pile = state["displays"]["hospital"]
    hospital += places_in(("displays", "hospital"), [i for i in unseen_indices(pile, seen) if i > 0])
    groups.append(Group(hospital))
    for kind in _HANDS:
        places = places_in(("decks", kind), unseen_indices(decks.get(kind, []), seen))
        for seat in hidden:
            places += places_in(("p", seat, "hands", kind), unseen_indices(state["p"][seat]["hands"][kind], seen))
        groups.append(Group(places))
    return groups
