"""HTTP edges of the contract (issue 17.2): 413 before parsing, Allow on 405, unparseable
bodies are 422 like any other invalid body."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from tests.support.api_client import TestGame, bearer
from tests.support.api_server import RunningServer, server_env


def test_a_body_over_the_limit_is_413_before_parsing(client, app):
    limit = app.state.settings.max_body_bytes
    big = b'{"game": "api_count", "players": 2, "options": {"pad": "' + b"x" * (limit + 10) + b'"}}'
    response = client.post("/games", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "body_too_large"
    # Not even valid JSON: a parser would have answered 422, the limit answers first.
    response = client.post("/games", content=b"{" * (limit + 1), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_a_streamed_body_over_the_limit_is_413(client, app):
    limit = app.state.settings.max_body_bytes

    def chunks():
        for _ in range(limit // 4096 + 2):
            yield b" " * 4096

    response = client.post("/games", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["error"] == "body_too_large"


def test_declared_length_over_the_limit_is_answered_without_reading_the_body(tmp_path):
    """On a real socket: only the headers are sent; the server answers 413 at once."""
    with RunningServer(server_env(HEIRLOOM_DATA_DIR=str(tmp_path / "data"), HEIRLOOM_MAX_BODY_BYTES="1000")) as server:
        host, port = urlsplit(server.url).hostname, urlsplit(server.url).port
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                         b"content-length: 10000000\r\n\r\n")
            answer = b""
            while chunk := sock.recv(4096):  # the server closes after its answer
                answer += chunk
            answer = answer.decode()
        assert answer.startswith("HTTP/1.1 413"), answer
        assert "body_too_large" in answer


def test_405_names_every_allowed_method(client):
    response = client.put("/games")
    assert response.status_code == 405 and response.json()["error"] == "method_not_allowed"
    assert response.headers["allow"] == "GET, POST"
    game = TestGame.create(client, "api_count", 2, seed=1)
    response = client.delete(f"/games/{game.id}/moves", headers=bearer(game.token(0)))
    assert response.status_code == 405 and response.headers["allow"] == "POST"


def test_unparseable_bodies_are_422_naming_the_body(client):
    for content in (b"{not json", b"\xff\xfe\x00{", b'{"game": "api_count", "players": 2'):
        response = client.post("/games", content=content, headers={"content-type": "application/json"})
        assert response.status_code == 422, (content, response.text)
        body = response.json()
        assert body["error"] == "invalid_request" and body["detail"].startswith("The body is not valid JSON")
