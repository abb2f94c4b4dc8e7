"""A store without room (issue 30.5 and 30.8): Redis's `maxmemory` with `noeviction`, /healthz
warning before the limit, and a full disk under the embedded Redis — logged once as "disk full",
reads served, writes refused with `503 store_full` until there is room, no restart loop.

Each test runs its own embedded Redis in a private folder (the shared Redis's settings are
never touched). The disk test mounts a real 3 MiB tmpfs (it needs root; skipped otherwise).
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from domain.eventstore.embedded import DISK_FULL_BELOW, embedded_server, free_bytes
from tests.support.api_client import make_app, make_settings

pytestmark = pytest.mark.slow


def embedded_app(folder: Path, prefix: str | None = None):
    return make_app(make_settings(None, prefix, data_dir=folder))


def embedded_client(folder: Path) -> redis.Redis:
    return redis.Redis(unix_socket_path=embedded_server(folder.resolve()).socket_file)


def create(client):
    return client.post("/games", json={"game": "api_count", "players": 2, "names": ["x" * 40, "y" * 40]})


def test_memory_limit_noeviction_health_warning_and_store_full(tmp_path):
    folder = tmp_path / "data"
    app = embedded_app(folder)
    with TestClient(app) as client:
        game = create(client).json()
        store = embedded_client(folder)
        assert store.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        assert int(store.config_get("maxmemory")["maxmemory"]) == 1024 ** 3  # the default, 1gb
        health = client.get("/healthz").json()
        assert health["status"] == "ok" and health["memory"]["max_bytes"] == 1024 ** 3 and not health["warnings"]

        used = int(store.info("memory")["used_memory"])
        store.config_set("maxmemory", int(used / 0.95))  # 95% used
        app.state.health_memory = None  # the health answer caches INFO for a few seconds
        warned = client.get("/healthz")
        assert warned.status_code == 200 and warned.json()["status"] == "memory_high"
        assert "maxmemory" in warned.json()["warnings"][0]

        store.config_set("maxmemory", used // 2)  # over the limit: writes refused, nothing evicted
        keys = store.dbsize()
        refused = create(client)
        assert refused.status_code == 503 and refused.json()["error"] == "store_full", refused.text
        move = client.post(f"/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                           headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
        assert move.status_code == 503 and move.json()["error"] == "store_full"
        with TestClient(embedded_app(folder, app.state.settings.key_prefix)) as fresh:  # nothing cached: the game is read from the store
            assert fresh.get(f"/games/{game['id']}").status_code == 200  # reads are served
            assert fresh.get(f"/games/{game['id']}/events").status_code == 200
            assert fresh.get("/games").status_code == 200
        assert store.dbsize() == keys  # nothing evicted, nothing half-written

        store.config_set("maxmemory", 0)
        assert create(client).status_code == 201


def mount_tmpfs(folder: Path, size: str) -> None:
    folder.mkdir(mode=0o700)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({result.stderr.strip()}): the full-disk test needs root")


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_is_logged_once_reads_go_on_writes_come_back(tmp_path, caplog):
    folder = tmp_path / "small"
    mount_tmpfs(folder, "3m")
    try:
        filler = folder / "filler"
        with filler.open("wb") as handle:  # leave about 700 KB for the store
            handle.write(b"\0" * max(0, free_bytes(folder) - 700 * 1024))
        caplog.set_level(logging.INFO)
        app = embedded_app(folder)
        with TestClient(app) as client:
            first = create(client).json()
            statuses: dict[int, int] = {}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and statuses.get(503, 0) < 30:
                answer = create(client)
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                if answer.status_code == 503:
                    assert answer.json()["error"] == "store_full", answer.text
                    time.sleep(0.05)
            assert statuses.get(201, 0) > 10 and statuses.get(503, 0) >= 30, statuses
            assert free_bytes(folder) < DISK_FULL_BELOW * 2
            server = embedded_server(folder.resolve())
            assert server.disk_full and server.restarts == 0  # no restart loop
            said = [r.getMessage() for r in caplog.records if "disk full" in r.getMessage()]
            assert len(said) == 1, said
            # reads are served (by a second app, which has nothing cached): a game, its events, the list
            with TestClient(embedded_app(folder, app.state.settings.key_prefix)) as fresh:
                assert fresh.get(f"/games/{first['id']}").status_code == 200
                assert fresh.get(f"/games/{first['id']}/events").status_code == 200
                assert fresh.get("/games").status_code == 200
            health = client.get("/healthz")
            assert health.status_code == 200 and health.json()["status"] == "store_full"

            filler.unlink()  # the operator makes room
            deadline = time.monotonic() + 10
            while create(client).status_code != 201:
                assert time.monotonic() < deadline, "writes did not come back once there was room"
                time.sleep(0.2)
            assert not server.disk_full and server.restarts == 0
            assert any("room again" in r.getMessage() for r in caplog.records)
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
