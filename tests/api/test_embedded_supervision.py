"""`heirloom serve` with its embedded Redis, as real processes (issue 17.1):

- kill -9 of the redis-server: /healthz says degraded, then ok within seconds, and the same
  server process plays on with every game intact;
- kill -9 of `heirloom serve`: its redis-server exits too (no orphan);
- the data folder is 0700 and its files 0600; an existing folder readable by others is
  warned about at start.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from domain.eventstore.embedded import _gone
from tests.support.api_server import ROOT, RunningServer, cli_command, free_port, server_env

pytestmark = pytest.mark.slow


def redis_pid(data_dir: Path) -> int:
    recorded = json.loads((data_dir / "heirloom.rdb.settings").read_text())
    return int(Path(recorded["pidfile"]).read_text().strip())


def play_a_game(http: httpx.Client) -> tuple[str, list[str]]:
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "seed": 3}).json()
    tokens = [seat["token"] for seat in created["seats"]]
    response = http.post(f"/games/{created['id']}/moves", json={"move": {"type": "roll"}},
                         headers={"Authorization": f"Bearer {tokens[0]}"})
    assert response.status_code == 201, response.text
    return created["id"], tokens


def test_a_killed_embedded_redis_is_restarted_and_serve_carries_on(tmp_path):
    data = tmp_path / "data"
    with RunningServer(server_env(HEIRLOOM_DATA_DIR=str(data))) as server, \
            httpx.Client(base_url=server.url, timeout=10) as http:
        game_id, tokens = play_a_game(http)
        first = redis_pid(data)
        os.kill(first, signal.SIGKILL)
        seen = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            answer = http.get("/healthz")
            seen.append((answer.status_code, answer.json().get("status")))
            if answer.status_code == 200 and any(status == "degraded" for _, status in seen):
                break
            time.sleep(0.01)
        assert (503, "degraded") in seen and seen[-1] == (200, "ok"), seen[-5:]
        assert redis_pid(data) != first and not _gone(redis_pid(data))
        game = http.get(f"/games/{game_id}").json()
        assert game["move_count"] == 1
        response = http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}, "expected_version": 2},
                             headers={"Authorization": f"Bearer {tokens[1]}"})
        assert response.status_code == 201, response.text
        log = http.get(f"/games/{game_id}/moves-log")
        assert log.status_code == 200 and len(log.json()) == 2


def test_kill_9_of_serve_takes_its_redis_with_it(tmp_path):
    data = tmp_path / "data"
    server = RunningServer(server_env(HEIRLOOM_DATA_DIR=str(data))).__enter__()
    try:
        pid = redis_pid(data)
        assert not _gone(pid)
        server.process.kill()
        server.process.wait()
        deadline = time.monotonic() + 10
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(pid), "the embedded redis-server outlived its kill -9'd parent"
    finally:
        server.__exit__(None, None, None)


def test_data_folder_and_files_are_private(tmp_path):
    data = tmp_path / "data"
    with RunningServer(server_env(HEIRLOOM_DATA_DIR=str(data))) as server, \
            httpx.Client(base_url=server.url, timeout=10) as http:
        play_a_game(http)
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        files = [item for item in data.iterdir() if item.is_file()]
        assert {"heirloom.aof", "heirloom.rdb.settings", "redis.log"} <= {item.name for item in files}
        for item in files:
            assert stat.S_IMODE(item.stat().st_mode) & 0o077 == 0, (item.name, oct(item.stat().st_mode))
        recorded = json.loads((data / "heirloom.rdb.settings").read_text())
        assert stat.S_IMODE(Path(recorded["unixsocket"]).parent.stat().st_mode) == 0o700


def test_a_data_folder_readable_by_others_is_warned_about(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o755)
    (data / "heirloom.aof").write_bytes(b"")
    (data / "heirloom.aof").chmod(0o644)
    port = free_port()
    process = subprocess.Popen(cli_command("serve", "--port", str(port), "--log-level", "warning"), cwd=ROOT,
                               env=server_env(HEIRLOOM_DATA_DIR=str(data)), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    assert "readable by other users" in output and "heirloom.aof" in output, output
    assert "chmod -R go-rwx" in output
