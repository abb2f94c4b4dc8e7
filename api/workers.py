"""`heirloom serve --workers N`: N API processes serving one port, under one supervisor.

Why a supervisor of our own rather than uvicorn's ``workers=``: the processes are not all
alike. What lives in a server process besides the request handlers:

- **the projection runner** (a thread following the notification log, api/projections_deps.py)
  and **the bot runner** (api/bot_runner.py). Both would be *safe* in every worker: the
  projections commit each page with its tracking position in one script, so a second runner's
  commit of the same page is refused (``IntegrityError``) and it catches up instead of
  double-applying; a bot's move is appended with the game's expected version, so when two
  runners choose the same move only one append goes through and the other gets a version
  conflict and looks again (no move is played twice). But every worker would then read every
  page, think every bot move and lose most commits: N times the work for nothing. So **worker
  0 runs the followers** and workers 1..N-1 run with ``HEIRLOOM_PROJECTIONS=external`` and
  ``HEIRLOOM_BOTS=off``: they serve requests only, and their read-your-writes waits on the
  positions worker 0 commits to Redis (as with a separate ``heirloom projections run``). An
  operator who set ``HEIRLOOM_PROJECTIONS=external`` (projections in a process of their own)
  keeps that setting in worker 0 too. A worker that dies is started again with the same
  index, so the followers always come back. Worker 0's bot runner only *queues* the bots'
  moves (api/bot_runner.py); they are played by job workers (api/jobs/worker.py).
- **the job worker**: no API process runs one (``HEIRLOOM_WORKER=off`` in each); the
  supervisor runs one `heirloom worker` child of its own (api/jobs/builtin.py), started again
  if it exits, unless the operator set ``HEIRLOOM_WORKER=off`` (external workers).
- **the embedded Redis** (no ``REDIS_URL``): the supervisor starts it once, supervises it (it
  restarts it on the same socket if it dies) and hands its unix socket to the workers as
  ``REDIS_URL``, so no worker owns it and a worker's restart does not stop it; it is stopped
  when the supervisor stops.
- **the in-process game cache**: each worker caches aggregates; a write made by another
  worker makes the cached copy's append fail its version check, and the command runs again on
  the game as stored (domain/app/application.py `_command`): caches stay correct.

The supervisor binds the listening socket once and passes it to every worker (one accept
queue, the kernel hands each new connection to one worker). SIGTERM/SIGINT stop the workers
gracefully (uvicorn drains), then the embedded Redis. Each worker dies with the supervisor
(``PR_SET_PDEATHSIG``), even on ``kill -9``.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

log = logging.getLogger("heirloom.workers")

#: The index of this worker (set by the supervisor in each worker's environment).
WORKER_ENV = "HEIRLOOM_WORKER_INDEX"
RESTART_DELAY = 1.0


def worker_index() -> int | None:
    raw = os.environ.get(WORKER_ENV, "").strip()
    return int(raw) if raw.isdigit() else None


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def worker_env(index: int, base: dict[str, str], redis_url: str | None) -> dict[str, str]:
    """The environment of worker `index` (see the module docstring for who follows the log)."""
    env = dict(base, **{WORKER_ENV: str(index)})
    if redis_url:
        env["REDIS_URL"] = redis_url
    env["HEIRLOOM_WORKER"] = "off"   # the supervisor's own job worker does the work (module docstring)
    if index > 0:
        env["HEIRLOOM_PROJECTIONS"] = "external"
        env["HEIRLOOM_BOTS"] = "off"
    return env


def _die_with_parent() -> None:
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:  # pragma: no cover - not Linux
        pass


class Supervisor:
    """Starts N workers on one socket and starts again any that exits (see module docstring)."""

    def __init__(self, workers: int, sock: socket.socket, worker_args: list[str], env: dict[str, str],
                 job_worker: Any = None) -> None:
        self.job_worker = job_worker
        self.count = workers
        self.sock = sock
        self.worker_args = worker_args
        self.env = env
        self.processes: dict[int, subprocess.Popen] = {}
        self.stopping = False

    def spawn(self, index: int) -> None:
        command = [sys.executable, "-m", "api.cli", "serve", "--fd", str(self.sock.fileno()), *self.worker_args]
        self.processes[index] = subprocess.Popen(command, env=worker_env(index, self.env, None),
                                                 pass_fds=(self.sock.fileno(),), preexec_fn=_die_with_parent)
        log.info("worker %d started (pid %d)", index, self.processes[index].pid)

    def _stop(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        for index in range(self.count):
            self.spawn(index)
        if self.job_worker is not None:
            self.job_worker.start()
        while not self.stopping:
            for index, process in list(self.processes.items()):
                if process.poll() is not None and not self.stopping:
                    log.warning("worker %d (pid %d) exited with %s; starting it again",
                                index, process.pid, process.returncode)
                    time.sleep(RESTART_DELAY)
                    if not self.stopping:
                        self.spawn(index)
            time.sleep(0.2)
        return self.shutdown()

    def shutdown(self, timeout: float = 20.0) -> int:
        if self.job_worker is not None:
            self.job_worker.stop()
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.sock.close()
        return 0


def serve_workers(args: Any, settings: Any) -> int:
    """Run `args.workers` API processes on args.host:args.port (called by `heirloom serve`)."""
    env = dict(os.environ)
    if settings.embedded:  # start it once, here; the workers connect to its socket
        from domain.eventstore.embedded import embedded_socket

        socket_file = embedded_socket(settings.data_dir,
                                     (os.environ.get("HEIRLOOM_REDIS_APPENDFSYNC") or "always").strip().lower())
        env["REDIS_URL"] = f"unix://{socket_file}"
    sock = bind(args.host, args.port)
    worker_args = ["--log-level", args.log_level, "--log-format", args.log_format]
    log.info("serving on %s:%d with %d workers", args.host, args.port, args.workers)
    job_worker = None
    if (env.get("HEIRLOOM_WORKER") or "process").strip().lower() in ("process", "thread"):
        from api.jobs.builtin import WorkerChild, child_env

        job_env = child_env(settings, env)
        job_env["REDIS_URL"] = env.get("REDIS_URL", "")
        job_worker = WorkerChild(lambda: job_env)
    try:
        return Supervisor(args.workers, sock, worker_args, env, job_worker).run()
    finally:
        if settings.embedded:
            from domain.eventstore.embedded import shutdown_embedded

            shutdown_embedded(settings.data_dir)
