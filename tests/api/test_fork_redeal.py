"""A fork deals from the forker's knowledge (issue 30 item 1, findings 1 and 2): a referee's fork of
a running game deals every card the spectator could not see again with the fork's seed, and the
fork stores ONE setup fact, `ForkedPosition` (the position after that deal), never the source's
facts; so neither its seats, nor its events, record or replay, running or finished, show anything
of the source the forker did not see (domain/engine/redeal.py, each game's redeal.py)."""

from __future__ import annotations

import orjson
import pytest

from domain.engine import SPECTATOR, copy_state, fold, get_rules
from domain.engine.redeal import FORKED_POSITION, REDEALT
from domain.games import load_all
from tests.support.api_client import TestGame, bearer, replay_from_store

load_all()

HIDDEN_GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]


def fork_of(client, game: TestGame, step: int, token: str | None = None) -> TestGame:
    response = client.post(f"/games/{game.id}/fork", json={"step": step},
                           headers=bearer(token if token is not None else game.referee_token))
    assert response.status_code == 201, response.text
    fork = response.json()
    return TestGame(client, fork["id"], [s["token"] for s in fork["seats"]], fork["referee_token"], fork)


def source_at(service, game_id: str, step: int) -> tuple[list, dict]:
    """The source's facts up to `step` (its setup and effective moves) and the position they give."""
    game = service.game(game_id)
    facts = list(game.setup_facts)
    for event in service._effective_moves(game, step):
        facts.extend(event.facts)
    rules = get_rules(game.game_type)
    return facts, fold(rules.evolve, rules.initial_state(game.players, game.options), copy_state(facts))


def hands(game_type: str, state: dict) -> list:
    """Every seat's hidden hand in a full state (Heredity has none: the table is shared)."""
    if game_type == "my_fathers_work":
        return [sorted(p["hand"]) for p in state["players"]]
    if game_type == "abomination":
        return [{kind: sorted(cards) for kind, cards in p["hands"].items()} for p in state["p"]]
    if game_type == "adas_dream":
        return [sorted(p["hand"]) for p in state["players"]]
    return []


@pytest.mark.parametrize("game_type", HIDDEN_GAMES)
def test_a_referees_fork_of_a_running_game_keeps_none_of_its_hidden_facts(client, service, game_type):
    rules = get_rules(game_type)
    source = TestGame.create(client, game_type, 2, seed=21)
    source.play_randomly(12, seed=4)
    step = source.get()["move_count"]
    source.play_randomly(3, seed=5)                       # the source goes on; the fork is of `step`
    facts, at_step = source_at(service, source.id, step)
    secrets = [orjson.dumps({k: v for k, v in f.items() if k not in ("private_to", "public")})
               for f in facts if f.get("private_to") is not None]

    forks = [fork_of(client, source, step) for _ in range(3)]
    for fork in forks:
        stored = service.game(fork.id)
        assert [f["type"] for f in stored.setup_facts] == [FORKED_POSITION]     # not the source's facts
        assert stored.setup_facts[0]["from"] == {"id": source.id, "step": step}
        created = orjson.dumps(next(iter(service.events.get(stored.id, lte=1))).setup_facts)
        assert not [s for s in secrets if s in created]   # no hidden fact of the source, whole, in the store
        live = stored.state
        assert live == replay_from_store(service, fork.id)
        assert rules.view(live, SPECTATOR) == rules.view(at_step, SPECTATOR)   # the forker's knowledge, kept
        assert fork.get()["state"] == orjson.loads(orjson.dumps(rules.view(at_step, SPECTATOR)))
        assert fork.get()["forked_from"] == {"id": source.id, "step": step}
        assert fork.get()["move_count"] == 0
    if game_type in ("my_fathers_work", "adas_dream"):   # finding 1: the fork's seats held the source's hands
        # (Abomination's hands come from face-up displays, public; Heredity's table is shared)
        assert any(hands(game_type, service.game(f.id).state) != hands(game_type, at_step) for f in forks)
    orders = {orjson.dumps(service.game(f.id).state) for f in forks}
    assert len(orders) > 1                                # each fork's seed deals its own


@pytest.mark.parametrize("game_type", HIDDEN_GAMES)
def test_a_forks_record_and_replay_start_at_the_position_and_reveal_nothing_of_the_source(client, service, game_type):
    """Finding 2: a finished fork's record held the source's setup facts (decks, hands)."""
    rules = get_rules(game_type)
    source = TestGame.create(client, game_type, 2, seed=33)
    source.play_randomly(8, seed=6)
    step = source.get()["move_count"]
    facts, at_step = source_at(service, source.id, step)
    fork = fork_of(client, source, step)
    start = copy_state(service.game(fork.id).state)
    fork.play_randomly(8, seed=7)
    for who in (0, 1, None):                              # the replay starts at the forked position
        shown = client.get(f"/games/{fork.id}/replay", params={"step": 0}, headers=bearer(fork.token(who)))
        assert shown.status_code == 200, shown.text
        viewer = SPECTATOR if who is None else who
        assert shown.json()["state"] == orjson.loads(orjson.dumps(rules.view(start, viewer)))
        created = fork.events(who)[0]
        assert [f["type"] for f in created["facts"]] == [FORKED_POSITION] and "state" not in created["facts"][0]
        record = client.get(f"/games/{fork.id}/record", headers=bearer(fork.token(who))).json()
        assert record["setup_facts"] == created["facts"] and "seed" not in record
    # the complete record (what a finished fork publishes) holds the fork's position, not the source's
    from domain.app.records import build_record
    game = service.game(fork.id)
    complete = build_record(game, service._effective_moves(game), "all")
    assert [f["type"] for f in complete["setup_facts"]] == [FORKED_POSITION]
    assert complete["setup_facts"][0]["state"] == orjson.loads(orjson.dumps(start))
    assert rules.view(start, SPECTATOR) == rules.view(at_step, SPECTATOR)
    assert service.game(fork.id).state == replay_from_store(service, fork.id)
    assert service.rebuilt(fork.id).state == service.game(fork.id).state
    assert client.get(f"/games/{fork.id}/audit/verify").json()["ok"] is True


def test_a_fork_keeps_the_bot_seats_and_the_players_names(client, service):
    source = TestGame.create(client, "heredity", 2, seed=3, names=["annette", "john"], bots={"1": "easy"})
    fork = fork_of(client, source, 0)
    shown = fork.get()
    assert shown["bots"] == {"1": "easy"} and shown["names"] == ["annette", "john"]
    assert shown["forked_from"] == {"id": source.id, "step": 0}
    assert source.get()["forked_from"] is None


@pytest.mark.slow
def test_a_fork_of_a_finished_game_keeps_every_seats_hand(client, service):
    """A finished game is public: its fork deals again only what no seat had seen at the step (so
    "what if I had played this" keeps the hands), with the fork's seed."""
    rules = get_rules("adas_dream")
    source = TestGame.create(client, "adas_dream", 2, seed=5)
    source.play_randomly(6, seed=1)
    step = source.get()["move_count"]
    source.play_randomly(4000, seed=2)
    assert source.get()["status"] == "finished"
    _, at_step = source_at(service, source.id, step)
    fork = fork_of(client, source, step, token="")
    live = service.game(fork.id).state
    for seat in (0, 1):
        assert rules.view(live, seat) == rules.view(at_step, seat)
    assert live != at_step                                # the decks' orders are dealt again


def test_a_fork_of_a_game_without_hidden_parts_is_its_position(client, service):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 100})
    for seat, amount in [(0, 1), (1, 2)]:
        game.move(seat, {"type": "add", "amount": amount})
    fork = fork_of(client, game, 2)
    _, at_step = source_at(service, game.id, 2)
    assert service.game(fork.id).state == at_step


def test_forks_stored_before_issue_30_still_fold_their_redealt_fact():
    from domain.engine.redeal import redealt_fact
    rules = get_rules("heredity")
    from domain.engine import new_game
    state, setup = new_game(rules, 2, {}, 5)
    deck = list(reversed(state["karma"]["deck"]))
    folded = fold(rules.evolve, rules.initial_state(2, {}), copy_state(setup) + [redealt_fact([(["karma", "deck"], deck)])])
    assert folded["karma"]["deck"] == deck and REDEALT == "Redealt"
