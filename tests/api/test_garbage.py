"""No endpoint ever answers 500 to bad input, and every error has the common shape."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from tests.support.api_client import TestGame

GARBAGE_BODIES = [
    b"", b"{", b"null", b"[]", b"42", b'"text"', b"\xff\xfe\x00", b'{"move": 1}', b'{"move": []}',
    b'{"move": {"type": "roll"}, "expected_version": "x"}', b'{"move": {"type": "roll"}, "expected_version": -1}',
    b'{"move": {"type": 1e400}}', b'{"move": {"type": "play", "card": 123456789012345678901234567890}}',
    b'{"move": ' + b'{"a":' * 300 + b"1" + b"}" * 301,
    b'{"game": null, "players": "many"}', b'{"game": "dice_duel", "players": 2, "seed": 99999999999999999999999}',
    b'{"game": "dice_duel", "players": 2, "options": {"x": 123456789012345678901234567890}}',
    b'{"game": "dice_duel", "players": 2, "names": [1, 2]}', b'{"game": "' + b"x" * 5000 + b'", "players": 2}',
    b'{"to_move": "one"}', b'{"to_move": 0}', b'{"to_move": 99999999999999999999999}', b'{"approve": "maybe"}',
    b'{"approve": true}', b'{"to_move": 1, "reason": 5}',
]
BAD_HEADERS = [
    {}, {"Authorization": "Bearer"}, {"Authorization": "Bearer " + "x" * 5000}, {"Authorization": "Token abc"},
    {"Authorization": "Bearer not-a-token"}, {"Idempotency-Key": "k" * 1000},
]


@pytest.fixture
def raw_client(app):
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def concrete_paths(template: str, game_id: str) -> list[str]:
    """The path with real and bogus values for every parameter ({game_id}, {request_id}, {game}, ...),
    each distinct path once (a path without parameters is the same for every value)."""
    paths = []
    for value in (game_id, "not-a-game", str(uuid.uuid4()), "%00", "x" * 300):
        path = template.replace("{game_id}", value)
        while "{" in path:
            start = path.index("{")
            path = path[:start] + value + path[path.index("}", start) + 1:]
        paths.append(path)
    return list(dict.fromkeys(paths))


def check(response) -> None:
    assert response.status_code < 500, (response.request.method, response.request.url, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and isinstance(body.get("detail"), str), body


def test_garbage_to_every_endpoint_is_never_500(raw_client, app):
    game = TestGame.create(raw_client, "dice_duel", 2, seed=1)
    token = {"Authorization": f"Bearer {game.seat_tokens[0]}"}
    operations = [(path, method.upper()) for path, item in app.openapi()["paths"].items() for method in item
                  if "/stream" not in path]  # an SSE stream never ends; its parameters are checked elsewhere
    assert len(operations) >= 9
    for template, method in operations:
        # An action that takes no body (leave, pass) is a real action with a valid token:
        # garbage cannot reach it, so it is sent only with the bad headers.
        bodiless = method == "POST" and "requestBody" not in app.openapi()["paths"][template]["post"]
        for path in concrete_paths(template, game.id):
            for headers in BAD_HEADERS + ([] if bodiless else [token]):
                if method in ("GET", "DELETE", "HEAD"):
                    check(raw_client.request(method, path, headers=headers,
                                             params={"after": "x", "limit": "-5", "status": "??"}))
                    check(raw_client.request(method, path, headers=headers))
                    continue
                for body in GARBAGE_BODIES:
                    check(raw_client.request(method, path, content=body,
                                             headers={**headers, "Content-Type": "application/json"}))
    assert raw_client.get(f"/games/{game.id}").json()["version"] == 1


def test_unknown_paths_and_methods_have_the_error_shape(raw_client):
    check(raw_client.get("/nowhere"))
    response = raw_client.delete("/games")
    assert response.status_code == 405 and response.json()["error"] == "method_not_allowed"
