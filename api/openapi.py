"""The OpenAPI document, made truthful where FastAPI cannot know on its own.

`install(app)` replaces ``app.openapi`` by a function that takes FastAPI's document and:

- **auth**: every operation using the bearer scheme accepts no token too (spectators),
  except `TOKEN_REQUIRED`, which answer 401 without one;
- **game types**: `CreateGame.game` and the ``{game}`` path parameters list the registered
  game types (an unknown one is a documented 404/422, not a valid request);
- **examples**: one real move of every game, taken from that game's legal-move list at the
  start of a game, for ``POST /games/{id}/moves``; one game of every type for ``POST /games``;
- **errors**: a 422 is always our `ErrorBody` (FastAPI would document its own
  `HTTPValidationError`, which is never sent).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI

from domain.engine import game_types, new_game

log = logging.getLogger("heirloom.api")

BEARER = "bearer"
EXAMPLE_SEED = 1

#: (method, path) of the operations that refuse a caller without a token.
TOKEN_REQUIRED = {
    ("get", "/games/{game_id}/legal-moves"),
    ("post", "/games/{game_id}/moves"),
    ("post", "/games/{game_id}/undo"),
    ("post", "/games/{game_id}/undo/{request_id}/votes"),
}

GAME_TYPE_PARAMETERS = {"/scoreboard/{game}", "/analytics/{game}", "/game-types/{game}/glossary"}


def example_move(rules: Any) -> dict[str, Any] | None:
    """The first legal move of the first seat to act in a fresh game of `rules`."""
    players = rules.meta.min_players
    try:
        state, _ = new_game(rules, players, {}, EXAMPLE_SEED)
        decision = rules.decision(state)
        for seat in decision.seats:
            moves = rules.legal_moves(state, seat)
            if moves:
                return moves[0]
    except Exception as error:  # noqa: BLE001 - a game that cannot say stays without example
        log.warning("no example move for %s: %s", rules.meta.name, error)
    return None


def move_examples() -> dict[str, dict[str, Any]]:
    examples = {}
    for rules in game_types():
        move = example_move(rules)
        if move is not None:
            examples[rules.meta.name] = {
                "summary": f"a first move of {rules.meta.title}",
                "value": {"move": move, "expected_version": 1},
            }
    return examples


def create_examples() -> dict[str, dict[str, Any]]:
    return {rules.meta.name: {"summary": rules.meta.title,
                              "value": {"game": rules.meta.name, "players": rules.meta.min_players}}
            for rules in game_types()}


def _operations(document: dict[str, Any]):
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method, operation


def refine(document: dict[str, Any]) -> dict[str, Any]:
    names = sorted(rules.meta.name for rules in game_types())
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    create = schemas.get("CreateGame", {}).get("properties", {}).get("game")
    if create is not None:
        create["enum"] = names
    for path, method, operation in _operations(document):
        if "security" in operation:
            operation["security"] = [{BEARER: []}] if (method, path) in TOKEN_REQUIRED else [{BEARER: []}, {}]
        if path in GAME_TYPE_PARAMETERS:
            for parameter in operation.get("parameters", []):
                if parameter.get("name") == "game" and parameter.get("in") == "path":
                    parameter["schema"] = {**parameter.get("schema", {}), "enum": names}
        for response in operation["responses"].values():
            content = response.get("content", {}).get("application/json")
            if content and "$ref" in content.get("schema", {}):
                # FastAPI merges the declared model into its default `{"type": "string"}`
                content["schema"] = {"$ref": content["schema"]["$ref"]}
            elif content and content.get("schema") == {"type": "string"}:
                # A route that declares no answer model (with our orjson response class FastAPI
                # writes "string"): say "some JSON", which is true, until it declares one.
                log.warning("%s %s declares no answer model", method.upper(), path)
                content["schema"] = {}
        unprocessable = operation["responses"].get("422")
        if unprocessable is not None:
            unprocessable["content"] = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None and (method, path) == ("post", "/games/{game_id}/moves"):
            body["examples"] = move_examples()
        if body is not None and (method, path) == ("post", "/games"):
            body["examples"] = create_examples()
    for unused in ("HTTPValidationError", "ValidationError"):
        if f'"#/components/schemas/{unused}"' not in str(document).replace("'", '"'):
            schemas.pop(unused, None)
    return document


def install(app: FastAPI) -> None:
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = refine(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
