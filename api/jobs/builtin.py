"""The worker `heirloom serve` runs of its own, as a child process (``HEIRLOOM_WORKER=process``).

So that the first README command works alone: bots move, analyses and simulations run, with
nothing else started. A child process rather than a thread: bots' thinking, analysis and
simulation games then never compete with the requests for the API process's interpreter.
It is started again if it exits, and dies with the server (``PR_SET_PDEATHSIG``, even on
``kill -9``). Its settings are the app's (the store, key prefix, extra games); on the embedded
Redis it connects to the server's unix socket. With external `heirloom worker` processes,
``HEIRLOOM_WORKER=off`` leaves it out.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from typing import Any

log = logging.getLogger("heirloom.worker")

RESTART_DELAY = 1.0


def _die_with_parent() -> None:
    from api.workers import _die_with_parent as die

    die()


def child_env(settings: Any, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a worker process serving the same store as `settings`."""
    env = dict(os.environ if base is None else base)
    if settings.embedded:
        from domain.eventstore.embedded import embedded_socket

        fsync = (os.environ.get("HEIRLOOM_REDIS_APPENDFSYNC") or "always").strip().lower()
        env["REDIS_URL"] = f"unix://{embedded_socket(settings.data_dir, fsync)}"
    elif settings.redis_url:
        env["REDIS_URL"] = settings.redis_url
    env["REDIS_KEY_PREFIX"] = settings.key_prefix
    env["PERSISTENCE_MODULE"] = settings.persistence_module
    env["HEIRLOOM_DATA_DIR"] = str(settings.data_dir)
    env["HEIRLOOM_STRICT_GAMES"] = "1" if settings.strict_games else "0"
    if settings.extra_games:
        env["HEIRLOOM_EXTRA_GAMES"] = ",".join(settings.extra_games)
    env.update({key: value for key, value in settings.extra_env.items() if key != "REDIS_URL" or value})
    env.pop("HEIRLOOM_WORKER_INDEX", None)
    return env


class WorkerChild:
    """One `heirloom worker` child process, started again whenever it exits until `stop()`."""

    def __init__(self, env_of: Any) -> None:
        self._env_of = env_of   # called at start: the embedded Redis runs by then
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def for_app(cls, app: Any) -> "WorkerChild":
        return cls(lambda: child_env(app.state.settings))

    def spawn(self) -> None:
        command = [sys.executable, "-m", "api.cli", "worker"]
        self.process = subprocess.Popen(command, env=self._env_of(), preexec_fn=_die_with_parent)
        log.info("built-in worker started (pid %d)", self.process.pid)

    def start(self) -> "WorkerChild":
        self._stop.clear()
        self.spawn()
        self._thread = threading.Thread(target=self._watch, name="worker-child", daemon=True)
        self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._stop.wait(0.5):
            process = self.process
            if process is not None and process.poll() is not None and not self._stop.is_set():
                log.warning("built-in worker (pid %d) exited with %s; starting it again", process.pid,
                            process.returncode)
                if self._stop.wait(RESTART_DELAY):
                    return
                self.restarts += 1
                self.spawn()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._thread is not None:
            self._thread.join(2)
