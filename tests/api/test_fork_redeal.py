"""A fork deals again what no seat has seen (issue 15 item 5, "Forks": fresh randomness from the fork
on), with the fork's own seed, and keeps what any seat has seen; the re-deal is one generic fact,
`Redealt` (domain/engine/redeal.py, domain/bots/redeal.py), hidden like a shuffled deck."""

from __future__ import annotations


import orjson
import pytest

from domain.bots.hooks import hooks_for
from domain.bots.redeal import pile_at
from domain.engine import Rng, SPECTATOR, copy_state, fold, get_rules
from domain.engine.redeal import REDEALT
from domain.games import load_all
from tests.support.api_client import TestGame, bearer, replay_from_store

load_all()

HIDDEN_GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]


def fork_of(client, game: TestGame, step: int) -> TestGame:
    response = client.post(f"/games/{game.id}/fork", json={"step": step}, headers=bearer(game.referee_token))
    assert response.status_code == 201, response.text
    fork = response.json()
    return TestGame(client, fork["id"], [s["token"] for s in fork["seats"]], fork["referee_token"], fork)


def position(service, game_id: str, facts: list) -> dict:
    game = service.game(game_id)
    rules = get_rules(game.game_type)
    return fold(rules.evolve, rules.initial_state(game.players, game.options), copy_state(facts))


@pytest.mark.parametrize("game_type", HIDDEN_GAMES)
def test_a_fork_deals_again_what_no_seat_has_seen_and_keeps_what_any_seat_has_seen(client, service, game_type):
    rules = get_rules(game_type)
    assert rules.meta.hidden_information
    source = TestGame.create(client, game_type, 2, seed=21)
    source.play_randomly(12, seed=4)
    step = source.get()["move_count"]
    source.play_randomly(3, seed=5)                       # the source goes on; the fork is of `step`
    source_setup = list(service.game(source.id).setup_facts)
    source_moves = [event.facts for event in service._effective_moves(service.game(source.id), step)]
    expected_prefix = source_setup + [f for facts in source_moves for f in facts]
    at_step = position(service, source.id, expected_prefix)

    forks = [fork_of(client, source, step) for _ in range(3)]
    dealt = []
    for fork in forks:
        setup = list(service.game(fork.id).setup_facts)
        assert setup[:-1] == expected_prefix                  # the source's setup and moves, unchanged
        redealt = setup[-1]
        assert redealt["type"] == REDEALT and redealt["private_to"] == []
        live = service.game(fork.id).state
        assert live == replay_from_store(service, fork.id)
        for path, cards in redealt["piles"]:                  # same cards, same places, a new order
            assert sorted(map(str, cards)) == sorted(map(str, pile_at(at_step, path)))
            assert pile_at(live, path) == cards
        for viewer in (0, 1, SPECTATOR):                      # every seat's hand and the table: as they were
            assert rules.view(live, viewer) == rules.view(at_step, viewer), viewer
        for seat in (0, 1):
            assert hooks_for(rules).knowledge(live, seat) == hooks_for(rules).knowledge(at_step, seat)
            shown = fork.get(seat)["state"]
            assert shown == orjson.loads(orjson.dumps(rules.view(at_step, seat)))
        dealt.append(orjson.dumps(redealt["piles"]))
    assert len(set(dealt)) > 1                                # the forks' seeds deal different orders
    assert any(orjson.dumps(pile_at(at_step, path)) != orjson.dumps(cards)
               for path, cards in orjson.loads(dealt[0]))     # and not the source's order


@pytest.mark.parametrize("game_type", HIDDEN_GAMES)
def test_a_forks_moves_play_and_its_replay_equals_the_live_game(client, service, game_type):
    source = TestGame.create(client, game_type, 2, seed=33)
    source.play_randomly(8, seed=6)
    fork = fork_of(client, source, source.get()["move_count"])
    rules = get_rules(game_type)
    start = copy_state(service.game(fork.id).state)
    fork.play_randomly(8, seed=7)
    for seat in (0, 1):                                        # the replay projection folds Redealt too
        shown = client.get(f"/games/{fork.id}/replay", params={"step": 0}, headers=bearer(fork.token(seat)))
        assert shown.status_code == 200, shown.text
        assert shown.json()["state"] == orjson.loads(orjson.dumps(rules.view(start, seat)))
    assert fork.get()["move_count"] > 0
    assert service.game(fork.id).state == replay_from_store(service, fork.id)
    assert service.rebuilt(fork.id).state == service.game(fork.id).state
    assert client.get(f"/games/{fork.id}/audit/verify").json()["ok"] is True


@pytest.mark.parametrize("game_type", HIDDEN_GAMES)
def test_nobody_sees_the_redealt_order_while_the_fork_runs(client, service, game_type):
    source = TestGame.create(client, game_type, 2, seed=21)
    source.play_randomly(6, seed=4)
    fork = fork_of(client, source, source.get()["move_count"])
    redealt = service.game(fork.id).setup_facts[-1]
    secret = {orjson.dumps(cards) for _, cards in redealt["piles"]}
    for who in (0, 1, None):
        created = fork.events(who)[0]
        shown = created["facts"][-1]
        assert shown["type"] == REDEALT and "piles" not in shown
        assert shown["sizes"] == [[path, len(cards)] for path, cards in redealt["piles"]]
        record = client.get(f"/games/{fork.id}/record", headers=bearer(fork.token(who))).json()
        assert record["setup_facts"][-1] == shown and "seed" not in record
        for answer in (orjson.dumps(created), orjson.dumps(record), orjson.dumps(fork.get(who))):
            assert not any(order[1:-1] in answer for order in secret if len(orjson.loads(order)) > 1)


def test_the_redeal_follows_the_forks_seed_alone(service):
    """The same position and seed deal the same order (a replay never needs the seed: it is a fact)."""
    from domain.app.application import FORK_STREAM, forked_facts
    rules = get_rules("heredity")
    from domain.engine import new_game
    _, setup = new_game(rules, 2, {}, 5)
    first = forked_facts(rules, 2, {}, list(setup), 77)
    assert first == forked_facts(rules, 2, {}, list(setup), 77)
    assert first[-1] != forked_facts(rules, 2, {}, list(setup), 78)[-1]
    assert FORK_STREAM not in (0, 1)
    assert Rng(77, FORK_STREAM).random() != Rng(77, 0).random()


def test_a_fork_of_a_game_without_hidden_parts_is_unchanged(client, service):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 100})
    for seat, amount in [(0, 1), (1, 2)]:
        game.move(seat, {"type": "add", "amount": amount})
    fork = fork_of(client, game, 2)
    facts = list(service.game(game.id).setup_facts)
    for event in service._effective_moves(service.game(game.id), 2):
        facts.extend(event.facts)
    assert service.game(fork.id).setup_facts == facts
    assert all(f["type"] != REDEALT for f in facts)
