"""Bot seats at the table: the scheduler that queues a bot's move whenever a game with bots changes.

The moves themselves are played by the workers (api/jobs/worker.py: `heirloom worker`, or the
one `heirloom serve` runs of its own, `install_bots`), one decision per job, never in the API
process. This scheduler follows the notification log (the same log the projections follow),
so it sees every game with bot seats (`Created.bots`) and every change to them, whichever
process made it, and queues one `bot` job per game that changed (at most one queued per game:
api/jobs/queue.py). It costs the move path nothing: a person's move is appended as before and
the scheduler, off the request path, notices it. On start it reads the log from the beginning,
so after a restart every game whose bot must act is queued again. Several schedulers on one
store (several servers) are harmless: the queue keeps one job per game.

When the read side's follower runs in the same process (`attach`), the scheduler takes the
pages of events that follower read instead of reading the log itself (no Redis command of its
own per move), and reads the log only every `SAFETY_SECONDS` as a safety net.

On a partitioned cluster log (``HEIRLOOM_LOG_PARTITIONS`` > 1) it reads every partition, each
from its own position, polling every `poll_interval` instead of blocking on one log.

Games of a simulation (`Simulated`) are left out: their own jobs play them (api/jobs/simulations.py).

Settings: ``HEIRLOOM_BOTS=off`` disables the scheduler (a process that only serves reads, or
tests that drive bots). ``HEIRLOOM_WORKER`` is the worker this process runs of its own:
``process`` (a child `heirloom worker`, what `heirloom serve` runs), ``thread`` (a thread of
this process, the default of `create_app`, for tests and library use) or ``off`` (external
`heirloom worker` processes do the work).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import asynccontextmanager
from typing import Any

from starlette.concurrency import run_in_threadpool

GAME_TOPIC = ":Game."
CREATED = "Game.Created"
SIMULATED = "Game.Simulated"
#: Events after which a seat may be played by a bot although the game was created without one.
TAKEOVERS = ("Game.SeatTakenOver", "Game.ClockExpired", "SeatTakenOver", "ClockExpired")

log = logging.getLogger("heirloom.bots")

SAFETY_SECONDS = 5.0


class BotScheduler:
    """Follows the notification log and queues the bot seats' moves (see the module docstring)."""

    def __init__(self, service: Any, queue: Any = None, *, poll_interval: float = 0.2, batch_size: int = 500) -> None:
        if queue is None:
            from api.jobs.queue import JobQueue
            from projections.readside import redis_of

            queue = JobQueue(*redis_of(service))
        self.service = service
        self.queue = queue
        self.poll_interval = poll_interval
        self.batch_size = batch_size
        self.positions: dict[int, int] = {}  # log partition -> last notification id read
        self._logs: list[Any] | None = None
        self.games: dict[str, dict] = {}       # game id -> {"bots", "players"}, for games with bots
        self.queued = 0
        self.errors: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._waiter: Any = None
        self._feed: Any = None  # the projections' runner in this process, when attached
        self._fed = threading.Event()
        self._fed_dirty: dict[str, None] = {}
        self._fed_lock = threading.Lock()
        self._read_at = 0.0
        self.clock_games: set[str] = set()      # games whose table has a clock (their deadlines are set here)
        self._deadlines: Any = None

    @property
    def position(self) -> int:
        """The last notification id read (the sum over partitions; 0: nothing read yet)."""
        return sum(self.positions.values())

    def logs(self) -> list[Any]:
        if self._logs is None:
            from projections.partitions import logs_of

            self._logs = logs_of(self.service)
        return self._logs

    def attach(self, projections_runner: Any) -> None:
        """Take the pages of events the read side's follower reads (see the module docstring)."""
        self._feed = projections_runner
        projections_runner.listeners.append(self._on_page)

    def _on_page(self, events: list[Any]) -> None:
        with self._fed_lock:
            for event in events:
                game_id = str(event.originator_id)
                kind = type(event).__name__
                if kind == "Created":
                    self._note_created(game_id, event)
                elif kind in TAKEOVERS:
                    self.games.setdefault(game_id, {"bots": {}, "players": 0})
                elif kind == "Simulated" or (kind == "MovePlayed" and getattr(event, "finished", False)):
                    self.games.pop(game_id, None)
                    self._fed_dirty.pop(game_id, None)
                if game_id in self.games or game_id in self.clock_games:
                    self._fed_dirty[game_id] = None
            dirty = bool(self._fed_dirty)
        if dirty:  # a page without bot games wakes nobody (a thread switch per page otherwise)
            self._fed.set()

    def _next_dirty(self) -> list[str]:
        """The games to look at: from the follower's pages when it runs here, else the log."""
        feed = self._feed
        if feed is None or not feed.running or self.position == 0:
            return self.read_log()
        if not self._fed.wait(SAFETY_SECONDS) or time.monotonic() - self._read_at > SAFETY_SECONDS:
            self._fed.clear()
            return self.read_log()  # the safety net (pages the follower handled one by one)
        self._fed.clear()
        with self._fed_lock:
            dirty, self._fed_dirty = list(self._fed_dirty), {}
        return dirty

    def start(self) -> "BotRunner":
        make_waiter = getattr(self.service.recorder, "log_waiter", None) if len(self.logs()) == 1 else None
        self._waiter = make_waiter() if make_waiter is not None else None
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bot-scheduler", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._fed.set()  # wake a thread waiting for the follower's next page (else it sleeps SAFETY_SECONDS)
        thread = self._thread
        while thread is not None and thread.is_alive() and timeout > 0:
            if self._waiter is not None:
                self._waiter.unblock()
            thread.join(0.05)
            timeout -= 0.05
        if self._waiter is not None:
            self._waiter.close()
            self._waiter = None
        self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                dirty = self._next_dirty()
                for game_id in dirty:
                    if self._stop.is_set():
                        break
                    self.schedule(game_id)
                if not dirty and (self._feed is None or not self._feed.running or self.position == 0):
                    self._idle()
            except Exception as error:  # noqa: BLE001 - the thread must outlive a bad moment of the store
                log.warning("bot runner: %s", error)
                self.errors["runner"] = str(error)
                self._stop.wait(1.0)

    def _idle(self) -> None:
        if self._waiter is not None:
            self._waiter.wait_after(self.position, 5.0)
        else:
            self._stop.wait(self.poll_interval)

    def read_log(self) -> list[str]:
        """Read the notifications after `position`; the ids of games with bots that changed."""
        dirty: dict[str, None] = {}
        self._read_at = time.monotonic()
        for partition in self.logs():
            self._read_partition(partition, dirty)
        return list(dirty)

    def _read_partition(self, partition: Any, dirty: dict[str, None]) -> None:
        while True:
            notes = partition.recorder.select_notifications(self.positions.get(partition.k, 0), self.batch_size,
                                                            inclusive_of_start=False)
            for note in notes:
                self.positions[partition.k] = note.id
                if GAME_TOPIC not in note.topic:
                    continue
                game_id = str(note.originator_id)
                if note.topic.endswith(CREATED):
                    self._note_created(game_id, self.service.mapper.to_domain_event(note))
                elif note.topic.endswith(TAKEOVERS):
                    self.games.setdefault(game_id, {"bots": {}, "players": 0})
                elif note.topic.endswith(SIMULATED):
                    self.games.pop(game_id, None)
                    dirty.pop(game_id, None)
                if game_id in self.games or game_id in self.clock_games:
                    dirty[game_id] = None
            if len(notes) < self.batch_size:
                return

    def _note_created(self, game_id: str, event: Any) -> None:
        if getattr(event, "bots", None):
            self.games[game_id] = {"bots": dict(event.bots), "players": event.players}
        if (getattr(event, "table", None) or {}).get("clock"):
            self.clock_games.add(game_id)

    def set_deadline(self, game_id: str) -> None:
        """Keep the game's next clock deadline in the book the workers serve (api/jobs/clocks.py)."""
        if self._deadlines is None:
            from api.jobs.clocks import DeadlineBook
            from projections.readside import redis_of

            self._deadlines = DeadlineBook(*redis_of(self.service))
        try:
            self._deadlines.set(game_id, self.service.next_deadline(game_id))
        except Exception as error:  # noqa: BLE001 - one game's trouble must not stop the others
            log.warning("the clock deadline of game %s: %s", game_id, error)

    def schedule(self, game_id: str) -> bool:
        """Queue a bot job for this game (unless one is queued already); keep its clock's deadline."""
        if game_id in self.clock_games:
            self.set_deadline(game_id)
            if game_id not in self.games:
                return False
        seats = self.games.get(game_id) or {}
        try:
            queued = self.queue.enqueue_bot(game_id, all_bots=len(seats.get("bots", {})) >= seats.get("players", 0) > 0)
            self.errors.pop(game_id, None)
        except Exception as error:  # noqa: BLE001 - one game's trouble must not stop the others
            log.warning("queueing a bot move of game %s failed: %s", game_id, error)
            self.errors[game_id] = f"{type(error).__name__}: {error}"
            return False
        self.queued += int(queued)
        return queued


#: The former name (a runner that played the moves itself).
BotRunner = BotScheduler


def builtin_worker_mode() -> str:
    """``HEIRLOOM_WORKER``: process, thread (default) or off (see the module docstring)."""
    mode = (os.environ.get("HEIRLOOM_WORKER") or "thread").strip().lower()
    if mode in ("0", "no", "false", "none", "external"):
        return "off"
    if mode not in ("process", "thread", "off"):
        log.warning("HEIRLOOM_WORKER=%r is not process, thread or off; using thread", mode)
        return "thread"
    return mode


def install_bots(app: Any) -> BotScheduler | None:
    """Run the bot scheduler (unless HEIRLOOM_BOTS=off) and the built-in worker (unless
    HEIRLOOM_WORKER=off) with the app's lifespan."""
    scheduler = None
    if os.environ.get("HEIRLOOM_BOTS", "on").strip().lower() not in ("off", "0", "false", "no"):
        scheduler = BotScheduler(app.state.service)
        app.state.bots = scheduler
        read_side = getattr(app.state, "projections", None)
        if read_side is not None and not getattr(read_side, "external", False):
            scheduler.attach(read_side.runner)
    mode = builtin_worker_mode()
    worker: Any = None
    if mode == "thread":
        from api.jobs.worker import WorkerThread

        worker = WorkerThread(app.state.service)
    elif mode == "process":
        from api.jobs.builtin import WorkerChild

        worker = WorkerChild.for_app(app)
    app.state.worker = worker
    if scheduler is None and worker is None:
        return None
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: Any):
        if worker is not None:
            worker.start()
        if scheduler is not None:
            scheduler.start()
        try:
            async with previous(application) as state:
                yield state
        finally:
            if scheduler is not None:
                await run_in_threadpool(scheduler.stop)
            if worker is not None:
                await run_in_threadpool(worker.stop)

    app.router.lifespan_context = lifespan
    return scheduler
