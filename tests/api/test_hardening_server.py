"""Issue 30.8 on a real `heirloom serve` socket: which WebSockets are let in (Origin), the frame
cap of uvicorn itself, and what the log shows of a WebSocket's query string."""

from __future__ import annotations

import json
import secrets

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.support.api_server import RunningServer, server_env

pytestmark = pytest.mark.slow

ALLOWED = "https://tables.example"


class LoggedServer(RunningServer):
    """A server at log level info whose output is kept once it stops."""

    output = ""

    def __exit__(self, *exc) -> None:
        stdout = self.process.stdout if self.process is not None else None
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        if stdout is not None and not stdout.closed:
            self.output = stdout.read().decode(errors="replace")
            stdout.close()


@pytest.fixture(scope="module")
def server(redis_url):
    from tests.support.redis_fixtures import delete_prefix, new_prefix
    import redis

    prefix = new_prefix()
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefix, HEIRLOOM_ALLOWED_ORIGINS=ALLOWED)
    running = LoggedServer(env, extra_args=("--log-level", "info"))
    with running:
        yield running
    client = redis.Redis.from_url(redis_url)
    delete_prefix(client, prefix)
    client.close()


def new_game(server) -> dict:
    response = httpx.post(f"{server.url}/games", json={"game": "api_count", "players": 2})
    assert response.status_code == 201, response.text
    return response.json()


def ws_url(server, game_id: str, query: str = "") -> str:
    return server.url.replace("http://", "ws://") + f"/games/{game_id}/ws" + (f"?{query}" if query else "")


def test_origin_same_configured_or_none_is_let_in_another_is_refused(server):
    game = new_game(server)
    host = server.url.removeprefix("http://")
    for origin in (None, f"http://{host}", ALLOWED):
        headers = {"Origin": origin} if origin else {}
        with connect(ws_url(server, game["id"]), additional_headers=headers, open_timeout=10,
                     origin=None) as ws:
            ws.send(json.dumps({"token": game["seats"][0]["token"]}))
            ws.send(json.dumps({"move": {"type": "add", "amount": 1}, "expected_version": 99}))
            assert json.loads(ws.recv(timeout=10))["error"] == "version_conflict", origin
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(server, game["id"]), additional_headers={"Origin": "https://evil.example"}, open_timeout=10)
    assert refused.value.response.status_code == 403


def test_uvicorn_refuses_a_frame_over_a_mebibyte(server):
    game = new_game(server)
    with connect(ws_url(server, game["id"]), open_timeout=10, max_size=None) as ws:
        ws.send(json.dumps({"token": game["seats"][0]["token"]}))
        ws.send(json.dumps({"move": {"type": "add", "amount": 1, "pad": "x" * (2 * 1024 * 1024)},
                            "expected_version": game["version"]}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert httpx.get(f"{server.url}/games/{game['id']}").json()["version"] == game["version"]


def test_the_log_masks_websocket_query_strings_and_secrets(redis_url):
    """uvicorn logs each handshake with its path and query ('"WebSocket /games/<id>/ws?..."'):
    a token or invitation code put there must not reach the log."""
    from tests.support.redis_fixtures import delete_prefix, new_prefix
    import redis

    prefix = new_prefix()
    running = LoggedServer(server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefix), extra_args=("--log-level", "info"))
    secret_token, secret_invite = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    with running:
        game = new_game(running)
        with connect(ws_url(running, game["id"], f"token={secret_token}&invite={secret_invite}&after=0"),
                     open_timeout=10) as ws:
            ws.send(json.dumps({"token": None}))
        with connect(ws_url(running, game["id"], f"x={secret_invite}"), open_timeout=10) as ws:
            ws.send(json.dumps({"token": None}))
    client = redis.Redis.from_url(redis_url)
    delete_prefix(client, prefix)
    client.close()
    assert "WebSocket /games/" in running.output, running.output[-2000:]  # uvicorn did log the handshakes
    assert secret_token not in running.output and secret_invite not in running.output
    assert "after=0" not in running.output
