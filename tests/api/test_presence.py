"""Presence (issue 28.3): `seats[].online` from the seat's open live connections (SSE and
WebSocket), kept in Redis so every API process agrees, with a grace period after the last one
closes. A real `heirloom serve` on the real Redis; the streams are real HTTP connections."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
import redis

from api.presence import GRACE_S, Presence
from domain.eventstore.admin import delete_prefix
from tests.support.api_server import RunningServer, server_env
from tests.support.redis_fixtures import find_redis_url, new_prefix


def test_presence_lasts_the_grace_period_and_no_longer():
    client = redis.Redis.from_url(find_redis_url(), decode_responses=True)
    book = Presence(client, new_prefix())
    try:
        book.mark("g", 1, 1000.0 + GRACE_S)
        assert book.online("g", 1000.0) == {1} and book.online("g", 1000.0 + GRACE_S + 0.1) == set()
        assert book.online("nobody", 1000.0) == set()
    finally:
        client.delete(book.key("g"))
        client.close()


@pytest.fixture(scope="module")
def server():
    url, prefix = find_redis_url(), new_prefix()
    with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as running:
        yield running
    client = redis.Redis.from_url(url)
    try:
        delete_prefix(client, prefix)
    finally:
        client.close()


def online(http: httpx.Client, game_id: str) -> list:
    return [seat["online"] for seat in http.get(f"/games/{game_id}").json()["seats"]]


def wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow
def test_a_seat_is_online_while_its_stream_is_open_and_a_grace_period_after(server):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/games", json={"game": "api_count", "players": 2, "names": ["ann", "bo"]}).json()
        game_id, token = created["id"], created["seats"][1]["token"]
        assert online(http, game_id) == [False, False]
        opened, done = threading.Event(), threading.Event()

        def watch() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as streamer:
                with streamer.stream("GET", f"/games/{game_id}/stream",
                                     headers={"Authorization": f"Bearer {token}"}) as answer:
                    for _ in answer.iter_bytes():
                        opened.set()
                        if done.wait(0.05):
                            return
        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        assert opened.wait(10)
        assert wait_until(lambda: online(http, game_id) == [False, True], 5)
        with httpx.Client(base_url=server.url, timeout=30) as spectator:   # a spectator's stream: nobody
            with spectator.stream("GET", f"/games/{game_id}/stream", params={"follow": "false"}) as answer:
                answer.read()
        done.set()
        thread.join(10)
        closed = time.monotonic()
        time.sleep(1.0)
        assert online(http, game_id) == [False, True]                     # the grace period
        # offline once the server has seen the close (SSE: at its next write, within its 15 s
        # keep-alive) and the grace period has run
        assert wait_until(lambda: online(http, game_id) == [False, False], GRACE_S + 15 + 5)
        assert time.monotonic() - closed >= GRACE_S - 1.5
