"""A bot never looks at what its seat cannot see (issue 15.1).

For each game: positions from seeded random play; for each, a second state that differs only in
hidden information (tests/bots/hidden_variants.py). The seat's view is the same in both (checked,
so the variant is a fair one), what the bot knows is the same, and so is the move it chooses for
the same seed.
"""

from __future__ import annotations

import random

import pytest

from domain.bots import bot_move
from domain.bots.hooks import hooks_for
from domain.engine import get_rules

from .hidden_variants import VARIANTS
from .positions import GAMES, positions


@pytest.mark.parametrize("game", GAMES)
def test_states_differing_only_in_hidden_information_get_the_same_move(game):
    rules = get_rules(game)
    hooks = hooks_for(rules)
    checked = changed = 0
    for seed in (3,):
        for state, seat in positions(game, seed, 6, skip=9):
            variant = VARIANTS[game](state, seat, random.Random(seed))
            assert rules.view(variant, seat) == rules.view(state, seat), "the variant must look the same to the seat"
            assert rules.legal_moves(variant, seat) == rules.legal_moves(state, seat)
            changed += variant != state
            assert hooks.knowledge(variant, seat) == hooks.knowledge(state, seat)
            assert bot_move(rules, variant, seat, "easy", seed) == bot_move(rules, state, seat, "easy", seed)
            checked += 1
    assert checked >= 4
    if rules.meta.hidden_information:
        assert changed, "no position had hidden information to vary"


def card_ids(game: str) -> set:
    """The content's card ids (strings) of each game: what a leak would name."""
    if game == "my_fathers_work":
        from domain.games.my_fathers_work import content as C
        return set(C.EXPERIMENTS) | set(C.COMPULSIONS) | set(C.MALADJUSTMENTS) | set(C.UPGRADES) | set(C.SECRET_EVENTS)
    if game == "abomination":
        from domain.games.abomination.content import C
        return (set(C.cadavers) | set(C.scoundrels) | set(C.research) | set(C.humanity) | set(C.events)
                | set(C.encounters) | set(C.objectives))
    if game == "adas_dream":
        from domain.games.adas_dream import content as C
        return set(C.TIER1) | set(C.TIER2) | set(C.PROGRAMS) | set(C.ASSIGNMENTS) | set(C.MULTIPLIERS)
    return set()                                   # Heredity names cards by number: the variant test covers it


@pytest.mark.parametrize("game", [g for g in GAMES if g != "heredity"])
def test_knowledge_names_none_of_the_hidden_cards(game):
    """No card id the seat cannot see survives in what the bot knows, wherever the state keeps it."""
    from domain.bots.blanks import strings_in

    rules = get_rules(game)
    hooks = hooks_for(rules)
    ids = card_ids(game)
    for state, seat in positions(game, 5, 8, skip=5):
        public = strings_in(rules.view(state, seat))
        if game == "adas_dream":   # Partner cards whose identity is public (5.1/5.3; the running score counts them)
            public |= strings_in([p["known_partners"] for p in state["players"]])
            if state["flow"]["seat"] == seat:   # its own turn's pending work: cards it took face up
                zones = [state["stacks"], state.get("unused_tier1")] + [p["deck"] for p in state["players"]]
                public |= strings_in(state["flow"]) - strings_in(zones)
        hidden = (strings_in(state) - public) & ids
        leaked = strings_in(hooks.knowledge(state, seat)) & hidden
        assert not leaked, f"{game}: the bot's knowledge names what seat {seat} cannot see: {sorted(leaked)[:5]}"
