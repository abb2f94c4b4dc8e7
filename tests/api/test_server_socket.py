"""A running `heirloom serve` over a real socket, on Redis both ways (REDIS_URL and embedded):
play over HTTP, stop the server, start it again, and every game is still there."""

from __future__ import annotations

import signal

import httpx
import pytest

from tests.support.api_server import RunningServer, embedded_redis_answers, server_env, stop_embedded_redis

pytestmark = pytest.mark.slow


@pytest.fixture
def server_environment(store_mode, redis_url, key_prefix, tmp_path):
    if store_mode == "url":
        yield server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix)
        return
    yield server_env(REDIS_URL="", HEIRLOOM_DATA_DIR=str(tmp_path / "data"), REDIS_KEY_PREFIX=key_prefix,
                     HEIRLOOM_REDIS_APPENDFSYNC="always")
    stop_embedded_redis(tmp_path / "data")


def test_stop_and_restart_keeps_every_game(server_environment):
    with RunningServer(server_environment) as server:
        http = httpx.Client(base_url=server.url, timeout=10)
        assert {"dice_duel", "api_count"} <= {t["name"] for t in http.get("/game-types").json()}
        created = http.post("/games", json={"game": "dice_duel", "players": 2, "seed": 5}).json()
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        first = http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}, "expected_version": 1},
                          headers={**auth[0], "Idempotency-Key": "first"})
        assert first.status_code == 201
        http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}}, headers=auth[1])
        other = http.post("/games", json={"game": "api_count", "players": 1, "options": {"target": 1}}).json()
        http.post(f"/games/{other['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                  headers={"Authorization": f"Bearer {other['seats'][0]['token']}"})
        before = http.get(f"/games/{game_id}", headers=auth[0]).json()
        events_before = http.get(f"/games/{game_id}/events", headers=auth[0]).json()
        http.close()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
        if server_environment.get("HEIRLOOM_DATA_DIR"):  # SIGTERM stops the embedded Redis too: no orphan
            assert not embedded_redis_answers(server_environment["HEIRLOOM_DATA_DIR"])

    with RunningServer(server_environment) as server:
        http = httpx.Client(base_url=server.url, timeout=10)
        assert http.get(f"/games/{game_id}", headers=auth[0]).json() == before
        assert http.get(f"/games/{game_id}/events", headers=auth[0]).json() == events_before
        assert {g["id"]: g["status"] for g in http.get("/games").json()} == {game_id: "active",
                                                                               other["id"]: "finished"}
        retried = http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}, "expected_version": 1},
                            headers={**auth[0], "Idempotency-Key": "first"})
        assert retried.status_code == 201 and retried.json()["version"] == first.json()["version"]
        third = http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}, "expected_version": 3},
                          headers=auth[0])
        assert third.status_code == 201 and third.json()["move_no"] == 3
        undo = http.post(f"/games/{game_id}/undo", json={"to_move": 2}, headers=auth[0])
        assert undo.status_code == 201 and undo.json()["status"] == "pending"
        http.close()
