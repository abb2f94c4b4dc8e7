"""What a fork deals again (domain/engine/redeal.py): the Karma deck's order.

Heredity is cooperative: every seat and every spectator sees the same table, so a fork keeps
the forker's knowledge whoever forks. What is hidden from everyone is the Karma deck's order
(HER-HIDDEN-08; its composition is public, so every card of it may trade places); the Adventure
and Secrets decks and the faces not yet revealed are the chapter's content, the same in every
game of it, not dealt. Drawn Karma cards go to the discard pile, public, and stay.
"""

from __future__ import annotations

from domain.engine.redeal import Group, places_in


def redeal_places(state: dict, seen: set, viewers: list) -> list[Group]:
    if state["over"] is not None:
        return []
    deck = state["karma"]["deck"]
    return [Group(places_in(("karma", "deck"), range(len(deck))), rename=False)]
