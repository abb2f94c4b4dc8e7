"""`heirloom serve --workers 2` as a real process: two API processes on one port (api/workers.py).

One keep-alive connection is always served by the same worker, so the test opens connections
until it holds one to each worker (``/healthz`` names the worker), then plays through both:
every move goes to the other process than the one before, whose cached copy of the game is
then stale; both accept every move in turn and refuse a stale version. Worker 1 runs neither
projections nor bots: its reads wait on what worker 0's projections committed, and a bot seat
is played by worker 0's bot runner exactly once per turn, while people play through worker 1.
"""

from __future__ import annotations

import time

import httpx
import pytest

import tests.support.api_count  # noqa: F401 - the test game, for the final check in this process
from api.workers import worker_env
from domain.app import GameService
from tests.support.api_client import bearer
from tests.support.api_server import RunningServer, server_env
from tests.support.redis_fixtures import application_env
from tests.support.waiting import eventually


def test_only_worker_0_follows_the_log():
    base = {"HEIRLOOM_PROJECTIONS": "inline", "X": "1"}
    first, second = worker_env(0, base, None), worker_env(1, base, "redis://h:1")
    assert first["HEIRLOOM_PROJECTIONS"] == "inline" and "HEIRLOOM_BOTS" not in first
    assert second["HEIRLOOM_PROJECTIONS"] == "external" and second["HEIRLOOM_BOTS"] == "off"
    assert (first["HEIRLOOM_WORKER_INDEX"], second["HEIRLOOM_WORKER_INDEX"]) == ("0", "1")
    assert second["REDIS_URL"] == "redis://h:1" and second["X"] == "1"




def one_client_per_worker(url: str, workers: int, timeout: float = 60.0) -> dict[int, httpx.Client]:
    """Open one-connection clients until each worker serves one of them."""
    found: dict[int, httpx.Client] = {}
    deadline = time.monotonic() + timeout
    while len(found) < workers and time.monotonic() < deadline:
        client = httpx.Client(base_url=url, timeout=20, limits=httpx.Limits(max_connections=1))
        health = client.get("/healthz")
        assert health.status_code == 200, health.text
        if health.json()["worker"] in found:
            client.close()
        else:
            found[health.json()["worker"]] = client
    assert sorted(found) == list(range(workers)), f"workers seen: {sorted(found)}"
    pids = {client.get("/healthz").json()["pid"] for client in found.values()}
    assert len(pids) == workers  # and each client still talks to its own process
    return found


@pytest.mark.slow
def test_two_worker_processes_play_games_on_one_port(redis_url, key_prefix):
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix)
    with RunningServer(env, extra_args=("--workers", "2")) as server:
        clients = one_client_per_worker(server.url, 2)
        try:
            a, b = clients[0], clients[1]
            created = b.post("/games", json={"game": "api_count", "players": 2, "seed": 3,
                                             "options": {"target": 10}})
            assert created.status_code == 201, created.text
            game = created.json()
            game_id, tokens, version = game["id"], [s["token"] for s in game["seats"]], game["version"]
            moves, status = 0, "active"
            while status == "active":
                here, there = (a, b) if moves % 2 == 0 else (b, a)
                seat = here.get(f"/games/{game_id}").json()["to_act"][0]
                answer = here.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                                   json={"move": {"type": "add", "amount": 1}, "expected_version": version})
                assert answer.status_code == 201, answer.text
                moves, version = moves + 1, answer.json()["version"]
                stale = there.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                                   json={"move": {"type": "add", "amount": 1}, "expected_version": version - 1})
                assert stale.status_code == 409, stale.text
                status = there.get(f"/games/{game_id}").json()["status"]
            assert moves == 10
            for client in (a, b):  # worker 1's read side is worker 0's projections, read-your-writes
                final = client.get(f"/games/{game_id}").json()
                assert final["version"] == version and final["move_count"] == 10
                listed = [g for g in client.get("/games").json() if g["id"] == game_id]
                assert listed and listed[0]["status"] == "finished", listed
                replay = client.get(f"/games/{game_id}/replay")
                assert replay.status_code == 200 and replay.json()["steps"] == 10, replay.text

            # A bot seat: people play through worker 1 (no bot runner), worker 0's runner answers.
            bot_game = b.post("/games", json={"game": "api_count", "players": 2, "seed": 4,
                                              "options": {"target": 16}, "bots": {"1": "random"}})
            assert bot_game.status_code == 201, bot_game.text
            bot_id, token = bot_game.json()["id"], bot_game.json()["seats"][0]["token"]
            while True:
                view = eventually(lambda: (lambda v: v if v["status"] == "finished" or v["to_act"] == [0]
                                           else None)(b.get(f"/games/{bot_id}").json()))
                assert view, "the bot did not move"
                if view["status"] == "finished":
                    break
                moved = b.post(f"/games/{bot_id}/moves", headers=bearer(token),
                               json={"move": {"type": "add", "amount": 1}, "expected_version": view["version"]})
                assert moved.status_code == 201, moved.text
        finally:
            for client in clients.values():
                client.close()
    service = GameService(env=application_env(redis_url, key_prefix))
    try:
        played = service.game(bot_id)
        assert played.finished
        events = [service.mapper.to_domain_event(e) for e in service.recorder.select_events(service.parse_id(bot_id))]
        assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
        moves = [e for e in events if type(e).__name__ == "MovePlayed"]
        assert [m.move_no for m in moves] == list(range(1, played.last_move_no + 1))  # each turn once
        assert [m.seat for m in moves] == [n % 2 for n in range(len(moves))]
        assert {m.actor for m in moves[1::2]} == {"bot:random"} and len(moves) >= 6
    finally:
        service.close()
