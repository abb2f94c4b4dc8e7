"""`heirloom worker`: takes jobs from the queue (api/jobs/queue.py) and does them.

Any number of workers, on any machine that reaches the store. Each takes one job at a time:

- ``bot``: ONE bot decision in one game (`bot_job`), then, if a bot must act again (an all-bot
  game, or simultaneous bot seats), the game's next job is queued at the tail: games take turns.
- ``analysis``: about `SLICE_SECONDS` of an engine analysis, then its continuation
  (projections/analysis.py `analysis_job`).
- ``sim``: about `SLICE_SECONDS` of one simulation game (api/jobs/simulations.py).

Exactly once where it matters: a move is appended with the game's expected version, so a
job done twice (its worker was taken for dead while it was still running) cannot play a move
twice; analysis slices are deterministic and written by position; a simulation game is counted
once (a set, api/jobs/simulations.py). A job is acknowledged only after its follow-up is queued,
so a worker killed at any moment loses nothing: its job is taken over after `CLAIM_IDLE`.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

from api import bot_pacing
from api.jobs.queue import SLICE_SECONDS, Job, JobQueue

log = logging.getLogger("heirloom.worker")


def consumer_name() -> str:
    """This worker's name in the consumer group: host, process and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def bot_job(service: Any, queue: JobQueue, body: dict) -> bool:
    """One bot decision in game `body["game"]`; queue the game's next bot job if a bot must act
    again. A bot waits `HEIRLOOM_BOT_DELAY` after a person's move (TABLE-BOT-02, api/bot_pacing.py):
    the job is deferred to then, no worker sleeps. True when a move was played."""
    game_id = body["game"]
    game = service.game(game_id)
    if game.finished or getattr(game, "simulation", None) is not None:
        return False   # a simulation's games are played by its own jobs (`sims`), not the tables'
    all_bots = len(game.bots or {}) >= game.players
    seats = service.bots_to_act(game_id)     # TABLE-BOT-01: only where no person may act
    if not seats:
        return False
    wait = bot_pacing.wait_s(service, game_id)
    if wait > 0:
        queue.defer("autoplay" if all_bots else "bots", {"kind": "bot", "game": game_id}, wait,
                    dedupe=f"bot:{game_id}")
        return False
    played = service.play_bot(game_id, seats[0]) is not None
    if service.bots_to_act(game_id):
        queue.enqueue_bot(game_id, all_bots=all_bots)
    return played


class Worker:
    """Takes jobs one at a time until `stop` is set (see the module docstring)."""

    def __init__(self, service: Any, queue: JobQueue | None = None, *, name: str | None = None,
                 slice_seconds: float = SLICE_SECONDS) -> None:
        from api.jobs.simulations import Simulations
        from projections.analysis import AnalysisStore
        from projections.readside import redis_of

        client, prefix = redis_of(service)
        self.service = service
        self.queue = queue or JobQueue(client, prefix)
        self.name = name or consumer_name()
        self.slice_seconds = slice_seconds
        self.analysis = AnalysisStore(client, prefix)
        self.simulations = Simulations(self.queue, service)
        self.stop_event = threading.Event()
        self.current: Job | None = None
        self.done = {"bot": 0, "analysis": 0, "sim": 0}
        self.errors: dict[str, str] = {}
        self._beat: threading.Thread | None = None

    # ---- the loop

    def run(self) -> None:
        """Work until `stop()` (a SIGTERM to `heirloom worker`): the job in hand is finished first."""
        self.queue.ensure_groups()
        self._beat = threading.Thread(target=self._heartbeat, name="worker-heartbeat", daemon=True)
        self._beat.start()
        from api.jobs.clocks import ClockKeeper

        self.clocks = ClockKeeper(self.service, self.queue).start()   # the tables' clocks (issue 28)
        try:
            while not self.stop_event.is_set():
                try:
                    job = self.queue.take(self.name, block=1.0)
                    if job is not None:
                        self.work(job)
                except Exception as error:  # noqa: BLE001 - the worker must outlive a bad moment of the store
                    log.warning("worker %s: %s", self.name, error)
                    self.errors["worker"] = f"{type(error).__name__}: {error}"
                    self.stop_event.wait(1.0)
        finally:
            self.clocks.stop()
            try:
                self.queue.leave(self.name)
            except Exception:  # noqa: BLE001 - the store may be gone at shutdown
                pass

    def stop(self) -> None:
        self.stop_event.set()

    def work(self, job: Job) -> None:
        """Do one job, queue its follow-up, acknowledge it."""
        self.current = job
        try:
            self._do(job)
        except Exception as error:  # noqa: BLE001 - one job's trouble must not stop the others
            log.warning("job %s (%s) failed: %s", job.id, job.body, error)
            self.errors[job.body.get("game") or job.body.get("sim") or job.id] = f"{type(error).__name__}: {error}"
        finally:
            self.current = None
        self.queue.ack(job, self.name)
        self.done[job.kind] = self.done.get(job.kind, 0) + 1

    def _do(self, job: Job) -> None:
        body = {key: value for key, value in job.body.items() if key != "key"}
        if job.kind == "bot":
            bot_job(self.service, self.queue, body)
        elif job.kind == "analysis":
            from projections.analysis import analysis_job

            follow = analysis_job(self.service, self.analysis, body, self.slice_seconds)
            if follow is not None:
                self.queue.enqueue("analysis", follow, dedupe=job.body.get("key"))
        elif job.kind == "sim":
            self.simulations.play(body, self.slice_seconds)
        else:
            log.warning("job %s of unknown kind %r dropped", job.id, job.kind)

    def _heartbeat(self) -> None:
        """Say this worker is alive, and keep the job in hand from being taken over."""
        every = max(0.2, self.queue.claim_idle / 3)
        while not self.stop_event.is_set():
            try:
                self.queue.heartbeat(self.name)
                job = self.current
                if job is not None:
                    self.queue.touch(self.name, [job])
            except Exception as error:  # noqa: BLE001
                log.debug("heartbeat: %s", error)
            self.stop_event.wait(every)


class WorkerThread:
    """A worker in a thread of this process (the app's built-in worker in tests and library use)."""

    def __init__(self, service: Any, **options: Any) -> None:
        self.worker = Worker(service, **options)
        self._thread: threading.Thread | None = None

    def start(self) -> "WorkerThread":
        self._thread = threading.Thread(target=self.worker.run, name="worker", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self.worker.stop()
        if self._thread is not None:
            self._thread.join(timeout)
        self._thread = None
