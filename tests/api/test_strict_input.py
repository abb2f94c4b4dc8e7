"""Strict input (issue 17.3): integers are integers, booleans booleans, names are clean and
unique; each refusal is a 422 naming the field, and nothing is stored."""

from __future__ import annotations

import pytest

from tests.support.api_client import TestGame, bearer


def refused_field(response, field: str) -> str:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    assert any(problem["loc"] == field for problem in body["errors"]), body
    # The detail is a sentence for people (issue 25.8): it names the field in words, not as a path.
    assert field.removeprefix("body.").rstrip("s") in body["detail"], body
    assert "body." not in body["detail"] and body["detail"].endswith("."), body
    return body["detail"]


def test_a_string_expected_version_is_refused_and_nothing_is_stored(client):
    game = TestGame.create(client, "api_count", 2, seed=1)
    response = client.post(f"/games/{game.id}/moves", headers=bearer(game.token(0)),
                           json={"move": {"type": "add", "amount": 1}, "expected_version": "1"})
    refused_field(response, "body.expected_version")
    assert game.get()["version"] == 1


@pytest.mark.parametrize("field, value", [("seed", False), ("seed", "7"), ("players", True),
                                          ("players", "2"), ("players", 2.5)])
def test_create_takes_only_real_integers(client, field, value):
    body = {"game": "api_count", "players": 2, field: value}
    refused_field(client.post("/games", json=body), f"body.{field}")


def test_a_vote_must_be_a_boolean_and_yes_applies_nothing(client):
    game = TestGame.create(client, "api_count", 3, seed=5, options={"target": 100})
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(0, 1).json()["request_id"]
    before = game.get()["version"]
    for value in ("yes", 1, "true"):
        response = client.post(f"/games/{game.id}/undo/{request_id}/votes", json={"approve": value},
                               headers=bearer(game.token(1)))
        refused_field(response, "body.approve")
    assert game.get()["version"] == before and game.get()["state"]["count"] == 3


def test_undo_to_move_must_be_an_integer(client):
    game = TestGame.create(client, "api_count", 2, seed=1)
    game.move(0, {"type": "add", "amount": 1})
    response = client.post(f"/games/{game.id}/undo", json={"to_move": "1"}, headers=bearer(game.referee_token))
    refused_field(response, "body.to_move")


@pytest.mark.parametrize("names, says", [
    (["annette", "Annette"], "unique"),
    (["annette", " annette "], "unique"),
    (["ann\nette", "john"], "printable"),
    (["ann\x00", "john"], "printable"),
    (["<b>ann</b>", "john"], "'<'"),
    (["x" * 41, "john"], "at most 40"),
    (["   ", "john"], "empty"),
])
def test_bad_names_are_refused_saying_why(client, names, says):
    detail = refused_field(client.post("/games", json={"game": "api_count", "players": 2, "names": names}),
                           "body.names")
    assert says in detail
    assert "Player 1's name" in detail or "Player 2's name" in detail  # which name


def test_names_are_trimmed(client):
    response = client.post("/games", json={"game": "api_count", "players": 2, "names": ["  annette ", "x" * 40]})
    assert response.status_code == 201, response.text
    assert [seat["name"] for seat in response.json()["seats"]] == ["annette", "x" * 40]
