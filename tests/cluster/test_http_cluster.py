"""Heirloom over HTTP on a real Redis Cluster (REDIS_CLUSTER=1, one log partition).

Two app instances (two GameServices with their own caches and read sides, in one test
process) share one local cluster of 3 masters and 3 replicas. Moves of a game alternate
between them, so each one's cached aggregate is stale half the time; both must accept
every move in turn, refuse a stale version, and their read sides (listing, game, replay,
all written under the {proj} hash tag on the cluster) must show the finished game.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.api_client import bearer, make_app, make_settings
from tests.support.redis_cluster import start_cluster

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster_url() -> Any:
    local = start_cluster()
    yield local.url
    local.stop()


def eventually(check, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.1)


def test_a_game_played_through_two_apps_on_the_cluster(cluster_url: str, monkeypatch) -> None:
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.setenv("REDIS_WAIT_TIMEOUT_MS", "10000")  # replication latency is not under test here
    settings = make_settings(cluster_url)
    with TestClient(make_app(settings)) as a, TestClient(make_app(settings)) as b:
        created = a.post("/games", json={"game": "api_count", "players": 2, "seed": 5,
                                         "options": {"target": 12}})
        assert created.status_code == 201, created.text
        game = created.json()
        game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
        version, moves = game["version"], 0
        status = "active"
        while status == "active":
            server = (a, b)[moves % 2]
            seen = server.get(f"/games/{game_id}")
            assert seen.status_code == 200, seen.text
            seat = seen.json()["to_act"][0]
            answer = server.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                                 json={"move": {"type": "add", "amount": 1}, "expected_version": version})
            assert answer.status_code == 201, answer.text
            moves += 1
            version = answer.json()["version"]
            stale = (b, a)[moves % 2].post(
                f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                json={"move": {"type": "add", "amount": 1}, "expected_version": version - 1})
            assert stale.status_code == 409, stale.text
            status = answer.json().get("status") or server.get(f"/games/{game_id}").json()["status"]
        assert moves == 12
        for server in (a, b):
            final = eventually(lambda: (lambda r: r.json() if r.status_code == 200
                                        and r.json()["status"] == "finished" else None)(
                server.get(f"/games/{game_id}")))
            assert final and final["version"] == version and final["move_count"] == 12
            listed = eventually(lambda: [g for g in server.get("/games").json()
                                         if g["id"] == game_id and g["status"] == "finished"])
            assert listed, server.get("/games").text
            replay = eventually(lambda: (lambda r: r.json() if r.status_code == 200 else None)(
                server.get(f"/games/{game_id}/replay")))
            assert replay and replay["steps"] == 12 and replay["state"]["count"] == 12
