"""Workers on a real Redis Cluster with a partitioned log (HEIRLOOM_LOG_PARTITIONS=3): the job
queue's keys share one hash tag (its scripts touch several), the bot scheduler reads every
partition, and a simulation's games, spread over the partitions, are each played once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.jobs.simulations import game_id_of
from tests.support.api_client import make_app, make_settings
from tests.support.redis_cluster import start_cluster
from tests.support.waiting import eventually

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster_url() -> Any:
    local = start_cluster()
    yield local.url
    local.stop()


def test_bots_and_a_simulation_on_a_partitioned_cluster(cluster_url: str, monkeypatch) -> None:
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.setenv("HEIRLOOM_LOG_PARTITIONS", "3")
    monkeypatch.setenv("REDIS_WAIT_TIMEOUT_MS", "10000")
    monkeypatch.setenv("HEIRLOOM_WORKER", "thread")
    with TestClient(make_app(make_settings(cluster_url))) as client:
        bots = client.post("/games", json={"game": "api_count", "players": 2, "seed": 3, "options": {"target": 12},
                                           "bots": {"0": "random", "1": "random"}})
        assert bots.status_code == 201, bots.text
        started = client.post("/simulations", json={"game": "api_count", "players": 2, "bots": ["random"],
                                                    "games": 6, "seed": 2})
        assert started.status_code == 202, started.text
        simulation_id = started.json()["id"]
        deadline = time.monotonic() + 120
        while client.get(f"/simulations/{simulation_id}").json()["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, client.get(f"/simulations/{simulation_id}").json()
            time.sleep(0.3)
        done = client.get(f"/simulations/{simulation_id}").json()
        assert done["status"] == "done" and done["games_done"] == 6 and done["report"]["games"] == 6
        service = client.app.state.service
        for index in range(6):
            game = service.game(str(game_id_of(simulation_id, index)))
            assert game.finished and game.simulation == {"id": simulation_id, "index": index}
        finished = eventually(lambda: (lambda g: g if g["status"] == "finished" else None)(
            client.get(f"/games/{bots.json()['id']}").json()), timeout=60)
        assert finished and finished["move_count"] >= 6
