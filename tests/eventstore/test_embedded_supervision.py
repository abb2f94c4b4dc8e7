"""The embedded Redis is supervised (issue 17.1): a killed server is started again on the
same data and socket and the same clients carry on; a server forked from a short-lived
thread outlives that thread (the death signal belongs to the launcher thread)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from domain.eventstore.embedded import _gone, embedded_server, embedded_socket, shutdown_embedded


class Tally(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Added")
    def add(self) -> None:
        self.n += 1


def env_for(data_dir: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": "", "HEIRLOOM_DATA_DIR": str(data_dir),
            "HEIRLOOM_REDIS_APPENDFSYNC": "always", "REDIS_KEY_PREFIX": "heirloom"}


def server_pid(app: Application) -> int:
    return int(app.factory.datastore.client.info("server")["process_id"])


def eventually(check, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            result = check()
        except Exception:  # noqa: BLE001 - the store is down meanwhile
            result = None
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError("not within the time limit")


def test_a_killed_server_is_restarted_and_the_same_app_carries_on(tmp_path: Path) -> None:
    app = Application(env=env_for(tmp_path))
    try:
        tally = Tally()
        tally.add()
        app.save(tally)
        first = server_pid(app)
        os.kill(first, signal.SIGKILL)
        second = eventually(lambda: server_pid(app) != first and server_pid(app))
        assert not _gone(second)
        eventually(lambda: embedded_server(tmp_path).restarts >= 1)
        again = app.repository.get(tally.id)  # the same client, reconnected to the new server
        assert again.n == 1
        again.add()
        app.save(again)
        assert app.repository.get(tally.id).n == 2
    finally:
        app.close()
        shutdown_embedded(tmp_path)


def test_a_server_started_from_a_thread_that_ends_keeps_running(tmp_path: Path) -> None:
    sockets: list[str] = []
    thread = threading.Thread(target=lambda: sockets.append(embedded_socket(tmp_path)))
    thread.start()
    thread.join()
    try:
        server = embedded_server(tmp_path)
        pid = server.process.pid
        time.sleep(0.5)
        assert not _gone(pid) and server.running()
    finally:
        shutdown_embedded(tmp_path)
    assert _gone(pid)


def test_shutdown_stops_supervision_and_the_server(tmp_path: Path) -> None:
    embedded_socket(tmp_path)
    server = embedded_server(tmp_path)
    pid = server.process.pid
    shutdown_embedded(tmp_path)
    assert _gone(pid)
    time.sleep(3 * 0.25)
    assert embedded_server(tmp_path) is None and not server.supervisor.is_alive()
    assert not (tmp_path / "heirloom.rdb.settings").exists()
