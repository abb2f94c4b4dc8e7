"""The re-deal of a fork, on many positions of random games (pure: no store): what each seat sees,
knows and may play is unchanged, the cards stay the same cards, the fork plays on, and a replay of
its facts is the live state (domain/bots/redeal.py, domain/engine/redeal.py)."""

from __future__ import annotations

import random

import pytest

from domain.app.application import forked_facts
from domain.bots.hooks import hooks_for
from domain.bots.redeal import pile_at
from domain.engine import SPECTATOR, copy_state, fold, get_rules, new_game, play
from domain.engine.redeal import REDEALT
from domain.games import load_all

load_all()


def random_game(rules, seed: int, moves: int):
    """The facts of a random game, and the (facts so far, state) after each move."""
    state, facts = new_game(rules, 2, {}, seed)
    facts = list(facts)
    chooser = random.Random(seed)
    positions = [(list(facts), copy_state(state))]
    for move_no in range(1, moves + 1):
        if rules.is_over(state):
            break
        seat = chooser.choice(list(rules.decision(state).seats))
        state, played = play(rules, state, seat, chooser.choice(rules.legal_moves(state, seat)), seed, move_no)
        facts += played
        positions.append((list(facts), copy_state(state)))
    return positions


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("game_type", ["my_fathers_work", "abomination", "adas_dream", "heredity"])
def test_the_redeal_changes_nothing_a_seat_sees_knows_or_may_play(game_type, seed):
    rules = get_rules(game_type)
    hooks = hooks_for(rules)
    redealt_positions = 0
    for index, (facts, state) in enumerate(random_game(rules, seed=seed, moves=250)):
        forked = forked_facts(rules, 2, {}, facts, seed=1000 + index)
        live = fold(rules.evolve, rules.initial_state(2, {}), copy_state(forked))
        if len(forked) == len(facts):
            assert live == state
            continue
        redealt_positions += 1
        record = forked[-1]
        assert record["type"] == REDEALT and "piles" not in record["public"]
        for path, cards in record["piles"]:
            assert sorted(map(str, cards)) == sorted(map(str, pile_at(state, path)))
        for viewer in (0, 1, SPECTATOR):
            assert rules.view(live, viewer) == rules.view(state, viewer), (index, viewer)
        for seat in (0, 1):
            assert hooks.knowledge(live, seat) == hooks.knowledge(state, seat), (index, seat)
            assert rules.legal_moves(live, seat) == rules.legal_moves(state, seat), (index, seat)
        assert rules.decision(live).seats == rules.decision(state).seats
        # the fork plays on from its position with its own seed
        chooser = random.Random(index)
        for move_no in range(1, 6):
            if rules.is_over(live):
                break
            seat = chooser.choice(list(rules.decision(live).seats))
            live, played = play(rules, live, seat, chooser.choice(rules.legal_moves(live, seat)), 1000 + index, move_no)
            forked += played
        assert live == fold(rules.evolve, rules.initial_state(2, {}), copy_state(forked))
    assert redealt_positions >= 30
