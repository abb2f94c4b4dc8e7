"""The OpenAPI document tells the truth (issue 17.2): real answers of every endpoint validate
against the schema it declares for them; a bearer scheme, optional where spectators may
read; every game has an example move that its fresh game accepts; errors are documented."""

from __future__ import annotations

import jsonschema_rs
import pytest

from tests.support.api_client import TestGame, bearer


def response_schema(document: dict, method: str, path: str, status: int) -> dict:
    operation = document["paths"][path][method]
    assert str(status) in operation["responses"], f"{method.upper()} {path} does not document {status}"
    schema = operation["responses"][str(status)]["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


def check(client, document, method: str, template: str, path: str, status: int = 200, **kwargs):
    response = client.request(method.upper(), path, **kwargs)
    assert response.status_code == status, (path, response.text)
    schema = response_schema(document, method, template, status)
    jsonschema_rs.Draft202012Validator(schema).validate(response.json())
    return response.json()


def test_every_answer_validates_against_its_declared_schema(client, app):
    document = app.openapi()
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 3})
    g = f"/games/{game.id}"
    check(client, document, "get", "/healthz", "/healthz")
    check(client, document, "get", "/game-types", "/game-types")
    check(client, document, "post", "/games", "/games", 201, json={"game": "api_count", "players": 2, "names": ["a", "b"]})
    check(client, document, "get", "/games", "/games")
    check(client, document, "get", "/games/{game_id}/replay", f"{g}/replay?step=0")
    legal = check(client, document, "get", "/games/{game_id}/legal-moves", f"{g}/legal-moves", headers=bearer(game.token(0)))
    check(client, document, "post", "/games/{game_id}/moves", f"{g}/moves", 201,
          json={"move": legal["moves"][0], "expected_version": legal["version"]}, headers=bearer(game.token(0)))
    game.move(1, {"type": "add", "amount": 1})
    pending = check(client, document, "post", "/games/{game_id}/undo", f"{g}/undo", 201,
                    json={"to_move": 1}, headers=bearer(game.token(0)))
    check(client, document, "get", "/games/{game_id}", g, headers=bearer(game.token(0)))  # with a pending request
    for step in (0, 1, 2):  # a picture of a past step (a 500 schemathesis found)
        picture = client.get(f"{g}/board.svg?step={step}")
        assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    check(client, document, "post", "/games/{game_id}/undo/{request_id}/votes",
          f"{g}/undo/{pending['request_id']}/votes", json={"approve": True}, headers=bearer(game.token(1)))
    while game.get()["status"] != "finished":
        seat = game.get()["to_act"][0]
        game.move(seat, {"type": "add", "amount": 2})
    for template in ("/games/{game_id}", "/games/{game_id}/events", "/games/{game_id}/replay",
                     "/games/{game_id}/moves-log", "/games/{game_id}/history", "/games/{game_id}/scores",
                     "/games/{game_id}/analytics", "/games/{game_id}/audit/verify"):
        check(client, document, "get", template, template.replace("{game_id}", game.id))
    check(client, document, "get", "/scoreboard/{game}", "/scoreboard/api_count")
    check(client, document, "get", "/analytics/{game}", "/analytics/api_count")
    check(client, document, "get", "/projections", "/projections")
    fork = check(client, document, "post", "/games/{game_id}/fork", f"/games/{game.id}/fork", 201, json={"step": 1})
    assert fork["forked_from"] == {"id": game.id, "step": 1}
    record = check(client, document, "get", "/games/{game_id}/record", f"/games/{game.id}/record")
    check(client, document, "post", "/games/import", "/games/import", 201, json=record)
    invited = client.post("/games", json={"game": "api_count", "players": 2, "seating": "invite"}).json()
    check(client, document, "post", "/games/{game_id}/join", f"/games/{invited['id']}/join", 201,
          json={"invite": invited["invites"][0]["invite"], "name": "ann"})
    # Errors have the documented shape too.
    check(client, document, "get", "/games/{game_id}", "/games/not-a-game", 404)
    check(client, document, "post", "/games/{game_id}/moves", f"{g}/moves", 401, json={"move": {"type": "roll"}})
    check(client, document, "post", "/games", "/games", 422, json={"game": "api_count", "players": "2"})


def test_bearer_scheme_is_declared_and_optional_for_spectators(app):
    document = app.openapi()
    assert document["components"]["securitySchemes"]["bearer"] == {
        **document["components"]["securitySchemes"]["bearer"], "type": "http", "scheme": "bearer"}
    assert document["paths"]["/games/{game_id}"]["get"]["security"] == [{"bearer": []}, {}]
    assert document["paths"]["/games/{game_id}/moves"]["post"]["security"] == [{"bearer": []}]
    parameters = document["paths"]["/games/{game_id}"]["get"].get("parameters", [])
    assert not any(p["name"].lower() == "authorization" for p in parameters)


def test_no_success_answer_is_declared_a_string(app):
    for path, item in app.openapi()["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                schema = response.get("content", {}).get("application/json", {}).get("schema", {})
                assert schema.get("type") != "string", (method, path, status)
                assert "503" in operation["responses"] or path == "/metrics", (method, path)
                if "requestBody" in operation:
                    assert "413" in operation["responses"] and "422" in operation["responses"], (method, path)


def test_every_game_has_an_example_move_its_fresh_game_accepts(client, app):
    from domain.engine import game_types

    body = app.openapi()["paths"]["/games/{game_id}/moves"]["post"]["requestBody"]["content"]["application/json"]
    examples = body["examples"]
    assert {"my_fathers_work", "abomination", "adas_dream", "heredity"} <= set(examples) or \
        set(examples) == {rules.meta.name for rules in game_types()}
    for name, example in examples.items():
        rules = next(rules for rules in game_types() if rules.meta.name == name)
        game = TestGame.create(client, name, rules.meta.min_players, seed=1)
        to_act = game.get()["to_act"]
        accepted = [seat for seat in to_act
                    if game.post_move(seat, example["value"]["move"], expected_version=1).status_code == 201]
        assert accepted, (name, example)


@pytest.mark.parametrize("path", ["/scoreboard/{game}", "/analytics/{game}"])
def test_game_type_parameters_list_the_registered_games(app, path):
    from domain.engine import game_types

    parameter = next(p for p in app.openapi()["paths"][path]["get"]["parameters"] if p["name"] == "game")
    assert parameter["schema"]["enum"] == sorted(rules.meta.name for rules in game_types())
