"""Bot seats at the table: a background thread that plays a bot's move whenever it is its turn.

It follows the notification log (the same log the projections follow), so it sees every game
with bot seats (`Created.bots`) and every change to them, whichever process made it. Started
with the app; on start it reads the log from the beginning, so after a restart every game whose
bot must act is found and played on. Bots think off the request path (here), through the same
play path as people (`GameService.play_bot`, actor ``bot:<level>``). Several servers on one store
may each run one: the game's optimistic concurrency lets one move through, the others look again.

When the read side's follower runs in the same process (`attach`), the runner takes the pages
of events that follower read instead of reading the log itself (no Redis command of its own per
move), and reads the log only every `SAFETY_SECONDS` as a safety net.

On a partitioned cluster log (``HEIRLOOM_LOG_PARTITIONS`` > 1) it reads every partition, each
from its own position, polling every `poll_interval` instead of blocking on one log.

`HEIRLOOM_BOTS=off` disables it (a process that only serves reads, or tests that drive bots).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import asynccontextmanager
from typing import Any

from starlette.concurrency import run_in_threadpool

from api import bot_pacing

GAME_TOPIC = ":Game."
CREATED = "Game.Created"

log = logging.getLogger("heirloom.bots")

SAFETY_SECONDS = 5.0


class BotRunner:
    """Follows the notification log and plays the bot seats' moves (see the module docstring)."""

    def __init__(self, service: Any, *, poll_interval: float = 0.2, batch_size: int = 500,
                 max_moves_per_wake: int = 2000) -> None:
        self.service = service
        self.poll_interval = poll_interval
        self.batch_size = batch_size
        self.max_moves_per_wake = max_moves_per_wake
        self.positions: dict[int, int] = {}  # log partition -> last notification id read
        self._logs: list[Any] | None = None
        self.games: dict[str, dict] = {}       # game id -> bot seats, for games with bots
        self.moves_played = 0
        self.errors: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._waiter: Any = None
        self._feed: Any = None  # the projections' runner in this process, when attached
        self._fed = threading.Event()
        self._fed_dirty: dict[str, None] = {}
        self._fed_lock = threading.Lock()
        self._read_at = 0.0

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
                if type(event).__name__ == "Created" and getattr(event, "bots", None):
                    self.games[game_id] = dict(event.bots)
                if game_id in self.games:
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
        self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
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
                    self.act(game_id)
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
                    event = self.service.mapper.to_domain_event(note)
                    if getattr(event, "bots", None):
                        self.games[game_id] = dict(event.bots)
                if game_id in self.games:
                    dirty[game_id] = None
            if len(notes) < self.batch_size:
                return

    def act(self, game_id: str) -> int:
        """Play every bot move due in this game now; how many were played."""
        played = 0
        try:
            while played < self.max_moves_per_wake and not self._stop.is_set():
                seats = self.service.bots_to_act(game_id)
                if not seats:
                    if self.service.game(game_id).finished:
                        self.games.pop(game_id, None)
                    break
                self._stop.wait(bot_pacing.wait_s(self.service, game_id))  # TABLE-BOT-02, before thinking
                moved = [self.service.play_bot(game_id, seat) for seat in seats]
                played += sum(1 for m in moved if m is not None)
            self.errors.pop(game_id, None)
        except Exception as error:  # noqa: BLE001 - one game's trouble must not stop the others
            log.warning("bot move in game %s failed: %s", game_id, error)
            self.errors[game_id] = f"{type(error).__name__}: {error}"
        self.moves_played += played
        return played


def install_bots(app: Any) -> BotRunner | None:
    """Run a BotRunner with the app's lifespan (unless HEIRLOOM_BOTS=off)."""
    if os.environ.get("HEIRLOOM_BOTS", "on").strip().lower() in ("off", "0", "false", "no"):
        return None
    runner = BotRunner(app.state.service)
    app.state.bots = runner
    read_side = getattr(app.state, "projections", None)
    if read_side is not None and not getattr(read_side, "external", False):
        runner.attach(read_side.runner)
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: Any):
        runner.start()
        try:
            async with previous(application) as state:
                yield state
        finally:
            await run_in_threadpool(runner.stop)

    app.router.lifespan_context = lifespan
    return runner
