"""Playing moves: illegal moves, stale versions, idempotent retries, whose seat."""

from __future__ import annotations

import pytest

from tests.support.api_client import TestGame


@pytest.fixture
def duel(client):
    return TestGame.create(client, "dice_duel", 2, seed=11)


def test_a_legal_move_appends_one_event(duel):
    answer = duel.move(0, {"type": "roll"}, expected_version=1)
    assert answer["version"] == 2 and answer["move_no"] == 1
    assert [f["type"] for f in answer["facts"]] == ["DieRolled", "Scored", "TurnEnded"]
    view = duel.get()
    assert view["version"] == 2 and view["move_count"] == 1 and view["to_act"] == [1]
    assert view["scores"]["0"] == answer["facts"][0]["value"]


@pytest.mark.rule("DUEL-PLAY-01")
def test_illegal_move_is_422_with_rule_and_stores_nothing(duel):
    before = duel.events("referee")
    response = duel.post_move(0, {"type": "play", "card": 99}, expected_version=1)
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "illegal_move" and body["rule"] == "DUEL-PLAY-01" and "99" in body["detail"]
    assert duel.events("referee") == before
    assert duel.get()["version"] == 1


def test_malformed_move_is_422_not_500(duel):
    for move in ({"type": "play", "card": [1, 2]}, {"type": "play", "card": {"a": 1}}, {"type": 5},
                 {"no_type": True}, {"type": "bid", "points": None}):
        response = duel.post_move(0, move)
        assert response.status_code == 422, (move, response.text)
        assert response.json()["error"] in ("illegal_move", "invalid_request")
    assert duel.get()["version"] == 1


def test_stale_expected_version_is_409(duel):
    duel.move(0, {"type": "roll"}, expected_version=1)
    response = duel.post_move(1, {"type": "roll"}, expected_version=1)
    assert response.status_code == 409
    assert response.json()["error"] == "version_conflict" and response.json()["current_version"] == 2
    assert duel.get()["version"] == 2


def test_retried_idempotency_key_appends_once(duel):
    first = duel.post_move(0, {"type": "roll"}, expected_version=1, key="move-1")
    again = duel.post_move(0, {"type": "roll"}, expected_version=1, key="move-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and "replayed" not in again.json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert duel.get()["version"] == 2
    assert [e["type"] for e in duel.events("referee")] == ["Created", "MovePlayed"]


def test_idempotency_key_reused_for_another_move_is_refused(duel):
    duel.move(0, {"type": "roll"}, key="k")
    response = duel.post_move(1, {"type": "roll"}, key="k")
    assert response.status_code == 422 and response.json()["error"] == "idempotency_key_reused"
    assert duel.get()["version"] == 2


@pytest.mark.rule("ENGINE-TURN-01")
def test_not_your_seat_is_403(duel):
    response = duel.post_move(1, {"type": "roll"})
    assert response.status_code == 403 and response.json()["error"] == "not_your_seat"
    response = duel.post_move("referee", {"type": "roll"})
    assert response.status_code == 403
    assert duel.get()["version"] == 1


def test_spectator_cannot_move_or_list_moves(duel):
    response = duel.post_move(None, {"type": "roll"})
    assert response.status_code == 401 and response.json()["error"] == "token_required"
    assert duel.client.get(f"/games/{duel.id}/legal-moves").status_code == 401


def test_legal_moves_are_empty_when_not_your_decision(duel):
    assert duel.legal(1) == {"version": 1, "moves": [], "labels": [], "paths": [], "targets": []}
    moves = duel.legal(0)["moves"]
    assert {"type": "roll"} in moves and all(m["type"] in ("play", "roll") for m in moves)


@pytest.mark.rule("ENGINE-OVER-01")
def test_no_move_after_the_end(client):
    game = TestGame.create(client, "api_count", 1, options={"target": 1})
    game.move(0, {"type": "add", "amount": 1})
    response = game.post_move(0, {"type": "add", "amount": 1})
    assert response.status_code == 422 and response.json()["rule"] == "ENGINE-OVER-01"
    assert game.get()["winners"] == [0] and game.get()["status"] == "finished"


def race(client, settings, game: TestGame, other_process_acts) -> None:
    """Make another process (a second service on the same store) act between this
    request's load and its append, once."""
    from domain.service import GameService

    other = GameService(env=settings.service_env())
    mine = client.app.state.service
    original_save = mine.save

    def save_after_the_other_process(*aggregates, **kwargs):
        mine.save = original_save
        other_process_acts(other)
        return original_save(*aggregates, **kwargs)

    mine.save = save_after_the_other_process


def test_a_lost_race_is_409_and_stores_nothing(settings, client):
    """Two processes on one game: the second append fails its version check (optimistic concurrency)."""
    game = TestGame.create(client, "api_count", 2, options={"target": 50})
    race(client, settings, game, lambda other: other.play(game.id, game.seat_tokens[0], {"type": "add", "amount": 2}))
    response = game.post_move(0, {"type": "add", "amount": 1})
    assert response.status_code == 409
    assert response.json() == {**response.json(), "error": "version_conflict", "current_version": 2}
    view = game.get()
    assert view["version"] == 2 and view["state"]["count"] == 2


def test_a_retry_that_lost_the_race_to_its_first_attempt_gets_the_first_answer(settings, client):
    game = TestGame.create(client, "api_count", 2, options={"target": 50})
    race(client, settings, game, lambda other: other.play(game.id, game.seat_tokens[0], {"type": "add", "amount": 1},
                                                          idempotency_key="same"))
    response = game.post_move(0, {"type": "add", "amount": 1}, key="same")
    assert response.status_code == 201 and response.headers["Idempotent-Replayed"] == "true"
    assert game.get()["version"] == 2


def test_descriptions_use_the_player_names_given_at_creation(client):
    named = TestGame.create(client, "dice_duel", 2, seed=11, names=["annette", "john"])
    named.move(0, {"type": "roll"}, expected_version=1)
    [entry] = client.get(f"/games/{named.id}/moves-log").json()
    assert entry["description"].startswith("annette rolls a ")



def test_a_retry_after_the_game_moved_on_repeats_the_first_body_exactly(client):
    """The replayed answer is the first one byte for byte: the status then, not now."""
    game = TestGame.create(client, "api_count", 2, seed=1, options={"target": 3})
    opening = game.post_move(0, {"type": "add", "amount": 2}, key="opening")
    first = game.post_move(1, {"type": "add", "amount": 1}, key="last")  # reaches the target: finished
    assert first.json()["status"] == "finished"
    game.undo("referee", 2)  # the game runs again
    assert game.get()["status"] == "active"
    again = game.post_move(1, {"type": "add", "amount": 1}, key="last")
    assert again.status_code == 201 and again.content == first.content
    assert again.headers["Idempotent-Replayed"] == "true"
    assert game.post_move(0, {"type": "add", "amount": 2}, key="opening").content == opening.content
    assert [e["type"] for e in game.events()].count("MovePlayed") == 2
@pytest.mark.rule("ENGINE-MOVE-02")
def test_a_move_that_is_not_listed_is_refused_and_nothing_is_stored(client):
    game = TestGame.create(client, "api_count", 2, seed=1, options={"target": 100})
    before = game.events()
    response = game.post_move(0, {"type": "add", "amount": 1, "note": "smuggled"})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "illegal_move" and response.json()["rule"] == "ENGINE-MOVE-02"
    assert game.events() == before
