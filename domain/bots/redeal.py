"""What a fork deals again: the cards in places no seat has seen, in a new random order.

A fork keeps everything any seat has seen (hands, public cards, discards, a card a seat put at
the bottom of a deck) and deals again what nobody has seen (draw-pile orders, face-down cards),
with the fork's own seed. Which places hold what nobody has seen is each game's to say, in its
`bot.py` (where the game already says what each seat knows):

- `redeal_places(state, seen) -> groups`: a list of groups; a group is a list of
  ``(path, indices)`` (a pile, as the path of keys and list indices into the state, and the
  indices in it whose card no seat has seen); the cards of one group may trade places (same kind
  of card, same rules for where it may lie). `seen` is every string some seat has seen so far
  (`seen_by_a_seat`); a game uses it where a pile mixes seen and unseen cards (a card put at the
  bottom of a deck), and ignores it for a pile whose whole order is hidden (a shuffled pile).

`redeal` shuffles each group's cards among its places and returns the generic `Redealt` fact
(domain/engine/redeal.py) that every game's evolve folds; None when nothing is hidden from every
seat (a game without the hook, or with nothing unseen), so such forks are unchanged.
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.engine import Fact, Rng, visible_facts
from domain.engine.redeal import redealt_fact

from .hooks import hooks_for

Path = tuple
Group = list  # [(path, [index, ...]), ...]


def names_in(value: Any, out: set | None = None) -> set:
    """Every string anywhere in a JSON-like value, dict keys included."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            names_in(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            names_in(item, out)
    return out


def seen_by_a_seat(rules: Any, players: int, state: dict, facts: Iterable[Fact]) -> set:
    """Every string some seat has seen: in a fact of the history as that seat saw it, or in that
    seat's view of the position now (what is public, and what the seat holds)."""
    facts = list(facts)
    seen: set = set()
    for seat in range(players):
        names_in(visible_facts(facts, seat), seen)
        names_in(rules.view(state, seat), seen)
    return seen


def pile_at(state: dict, path: Iterable) -> list:
    holder: Any = state
    for key in path:
        holder = holder[key]
    return holder


def redeal(rules: Any, players: int, state: dict, facts: Iterable[Fact], rng: Rng) -> Fact | None:
    """The `Redealt` fact of a fork at `state` (reached by `facts`), or None: nothing to deal."""
    try:
        places_of = hooks_for(rules).redeal_places
    except LookupError:          # a game without bot.py (test games): nothing it could re-deal
        return None
    if places_of is None:
        return None
    groups = places_of(state, seen_by_a_seat(rules, players, state, facts))
    new_piles: dict[Path, list] = {}
    for group in groups:
        places = [(tuple(path), index) for path, indices in group for index in indices]
        if len(places) < 2:
            continue
        for path, _ in places:
            new_piles.setdefault(path, list(pile_at(state, path)))
        cards = rng.shuffled([new_piles[path][index] for path, index in places])
        for (path, index), card in zip(places, cards):
            new_piles[path][index] = card
    if not new_piles:
        return None
    return redealt_fact(sorted(new_piles.items(), key=lambda item: [str(k) for k in item[0]]))


def unseen_indices(pile: list, keep: set) -> list[int]:
    """The indices of `pile` whose card is not in `keep` (seen by a seat, or named elsewhere)."""
    return [index for index, card in enumerate(pile) if card not in keep]
