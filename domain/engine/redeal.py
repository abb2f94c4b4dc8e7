"""A fork's position, dealt again from the forker's knowledge (issue 30 item 1).

A fork (POST /games/{id}/fork) starts a new game from a position of another one, with a new
seed. The fork must not carry the source's hidden information: whoever forks sees its whole
position (every seat's token is theirs), and its record is public once it finishes. So
everything the forker could not see of the source (another seat's hand, a deck's order, a
face-down card, which cards of a box are in the game at all) is dealt again with the fork's seed
(`deal_again`), and the fork stores one setup fact, `ForkedPosition`, holding the position AFTER
that deal: the source's facts never reach the fork's store.

What is hidden where is each game's to say, in its `redeal.py` (the same module in every package,
wired into the rules by domain/games/adapter.py):

- `redeal_places(state, seen, viewers) -> [Group, ...]`: groups of places (paths to card ids in the
  state) whose cards the forker has not seen and that may trade places (same kind of card, same
  public traits), plus `spare` cards of the box that are not in the game and could be there
  instead. `viewers` are the viewers whose knowledge the fork keeps (a seat forking keeps its
  own; a referee or spectator the spectator's; a fork of a finished game every seat's, as it was
  at that step); `seen` is every string they saw (`seen_by`).
- `after_redeal(state, viewers, rng) -> state` (optional): what the game derives from the cards
  dealt again, or forgets because the forker could not see it and nothing depends on it.

Each group is dealt from its cards SORTED (then shuffled with the fork's seed), so the deal
depends only on what the forker knows, never on where the source's hidden cards lay; and a card
dealt to a new place is renamed wherever else the state names it (a blind draw pending holds the
deck's top; a secret commitment names a card in hand), so the position stays consistent.

`ForkedPosition` is folded by `domain.engine.state.fold` for every game. `Redealt` (the generic
fact of forks stored before issue 30: the source's facts, then the piles
no seat had seen, in a new order) is still folded, so old forks load and replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .facts import Fact, Viewer, visible_facts
from .rng import Rng
from .state import FORKED_POSITION, State, copy_state

REDEALT = "Redealt"

Path = tuple


@dataclass
class Group:
    """Places (paths to card ids) whose cards may trade places, and spare cards that may take them."""

    places: list = field(default_factory=list)
    spare: list = field(default_factory=list)
    #: False: only the places change (a pile of cards nothing else names, with repeated names).
    rename: bool = True


def places_in(path: Sequence, indices: Iterable[int]) -> list[Path]:
    """The places of `indices` in the pile at `path`."""
    return [(*path, index) for index in indices]


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


def seen_by(rules: Any, state: State, facts: Iterable[Fact], viewers: Iterable[Viewer]) -> set:
    """Every string `viewers` have seen: in a fact of the history as they saw it, or in their view
    of the position now."""
    facts = list(facts)
    seen: set = set()
    for viewer in viewers:
        names_in(visible_facts(facts, viewer), seen)
        names_in(rules.view(state, viewer), seen)
    return seen


def pile_at(state: Any, path: Iterable) -> Any:
    holder: Any = state
    for key in path:
        holder = holder[key]
    return holder


def _put(state: Any, path: Sequence, value: Any) -> None:
    pile_at(state, path[:-1])[path[-1]] = value


def unseen_indices(pile: list, keep: set) -> list[int]:
    """The indices of `pile` whose card is not in `keep` (seen, or named elsewhere)."""
    return [index for index, card in enumerate(pile) if card not in keep]


def _renamed(value: Any, names: dict, skip: set, path: tuple = ()) -> Any:
    """`value` with every string in `names` renamed (dict keys too), except at the paths in `skip`."""
    if path in skip:
        return value
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {names.get(key, key): _renamed(item, names, skip, (*path, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, names, skip, (*path, index)) for index, item in enumerate(value)]
    return value


def deal_group(state: State, group: Group, rng: Rng) -> State:
    """Deal the cards of `group` (and its spares) again among its places, renaming elsewhere."""
    places = [tuple(path) for path in group.places]
    if not places or (len(places) < 2 and not group.spare):
        return state
    old = [pile_at(state, path) for path in places]
    new = rng.shuffled(sorted(list(old) + list(group.spare), key=str))[:len(places)]
    for path, card in zip(places, new):
        _put(state, path, card)
    if group.rename and len(set(map(str, old))) == len(old):
        names = {card: dealt for card, dealt in zip(old, new) if isinstance(card, str) and card != dealt}
        if names:
            # Where the state names a card dealt away (a pending draw, a commitment), it now names the
            # card dealt to that place; the places themselves already hold their new cards.
            state = _renamed(state, names, set(places))
    return state


def deal_again(rules: Any, state: State, facts: Iterable[Fact], viewers: Sequence[Viewer], rng: Rng) -> State:
    """The position `state` (reached by `facts`) with everything `viewers` did not see dealt again.

    A game without `redeal_places` (test games, no hidden parts) keeps its position as it is."""
    state = copy_state(state)
    places_of = getattr(rules, "redeal_places", None)
    if places_of is None:
        return state
    seen = seen_by(rules, state, facts, viewers)
    for index, group in enumerate(places_of(state, seen, list(viewers))):
        state = deal_group(state, group, rng.fork(f"group-{index}"))
    after = getattr(rules, "after_redeal", None)
    if after is not None:
        state = after(state, list(viewers), rng.fork("after"))
    return state


def forked_position_fact(state: State, source: dict) -> Fact:
    """The one setup fact of a fork: its whole position (`source`: {"id", "step"} it came from).

    Hidden like a shuffled deck while the fork runs (each viewer reads the position through the
    game's view); shown whole once it is finished, when it holds nothing of the source's secrets."""
    return {"type": FORKED_POSITION, "state": copy_state(state), "from": dict(source),
            "private_to": [], "random": True, "public": {"type": FORKED_POSITION, "from": dict(source)}}


def redealt_fact(piles: list[tuple[list, list]]) -> Fact:
    """The fact of forks stored before issue 30: each pile (a path into the state) gets its new cards."""
    return {"type": REDEALT, "piles": [[list(path), list(cards)] for path, cards in piles],
            "private_to": [], "random": True,
            "public": {"type": REDEALT, "sizes": [[list(path), len(cards)] for path, cards in piles]}}


def apply_redealt(state: State, record: Fact) -> State:
    """Put each pile's new cards in place (the pile keeps its path and its size)."""
    for path, cards in record["piles"]:
        _put(state, path, list(cards))
    return state


def with_redeal(evolve: Callable[[State, Fact], State]) -> Callable[[State, Fact], State]:
    """A game's evolve that also folds `Redealt` (every game the same way; `ForkedPosition` is
    folded by `fold` itself, for every rules, test games included)."""
    def evolve_with_redeal(state: State, record: Fact) -> State:
        if record.get("type") == REDEALT:
            return apply_redealt(state, record)
        return evolve(state, record)
    evolve_with_redeal.__wrapped__ = evolve
    evolve_with_redeal.__doc__ = evolve.__doc__
    return evolve_with_redeal
