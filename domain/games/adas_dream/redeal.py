"""What a fork deals again (domain/engine/redeal.py), from what the forker could see.

Hidden from a viewer (view.py, catalog section 5): every deck's and stack's order (5.2), another
seat's hand (5.1), the face-down tier-1 card each seat was dealt and the tier-1 cards left out of
the game (ADA-SETUP-16). So a fork deals again:

- the identities of the tier-1, then of the tier-2 Partner cards the forker has not seen and
  whose identity is not public (`known_partners`, 5.1/5.3): in the Meeting deck, among the unused
  tier-1 cards, and in the players' decks and the hands the forker does not see;
- then each player's deck, with its hand when the forker does not see it (which of its cards are
  in hand is hidden, how many is not);
- the Program, Assignment and Multiplier stacks, and the Meeting deck, tier-1 and tier-2 cards
  apart (ADA-SETUP-17: the tier-1 cards lie on top).

Dealing a pile's order again moves the same cards (rename=False: `known_partners` names a seat's
cards wherever they lie). A card the turn's flow names (a pending choice may list it) or the tier-1 draft holds keeps its
place and its name.
"""

from __future__ import annotations

from domain.engine.redeal import Group, names_in, places_in

from . import content as C

_TIERS = (set(C.TIER1), set(C.TIER2))


def redeal_places(state: dict, seen: set, viewers: list) -> list[Group]:
    if state["over"]:
        return []
    flow_named = names_in([state.get("flow"), state.get("draft")])
    public = seen | flow_named | names_in([p["known_partners"] for p in state["players"]])
    hidden = [seat for seat in range(len(state["players"])) if seat not in viewers]

    def free(path, test=lambda card: True):
        return places_in(path, [i for i, card in enumerate(pile_of(path)) if card not in flow_named and test(card)])

    def pile_of(path):
        holder = state
        for key in path:
            holder = holder[key]
        return holder

    # Each seat's deck and hidden hand side by side: their cards are dealt again among them next, so
    # the identities dealt here do not depend on which of them the source's card lay in.
    piles = [("stacks", "meet")] + ([("unused_tier1",)] if "unused_tier1" in state else [])
    for seat in range(len(state["players"])):
        piles += [("players", seat, "deck")] + ([("players", seat, "hand")] if seat in hidden else [])
    groups = [Group([place for path in piles for place in free(path, lambda card: card in tier and card not in public)])
              for tier in _TIERS]
    for seat in range(len(state["players"])):
        places = free(("players", seat, "deck"))
        if seat in hidden:
            places += free(("players", seat, "hand"))
        groups.append(Group(places, rename=False))      # the same cards: `known_partners` still holds them
    for name in ("prog", "assign", "mult"):
        groups.append(Group(free(("stacks", name)), rename=False))
    groups.append(Group(free(("stacks", "meet"), lambda card: C.partner(card)["tier"] == "1"), rename=False))
    groups.append(Group(free(("stacks", "meet"), lambda card: C.partner(card)["tier"] != "1"), rename=False))
    return groups
