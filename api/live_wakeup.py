"""What wakes the live streams of a process, and how many one client may hold open.

**Doorbells** (`GameBells`): an event stream (SSE, api/routers/stream.py) sleeps until its game
has news, instead of looking at the store ten times a second (1,000 idle streams polling made
``/healthz`` p99 900 ms). One notifier per process rings the streams of the games concerned:

- when the read side's follower runs in this process (the default), it hands over every
  committed page of events (the same pages that feed the WebSockets, ws.py `LiveGames`);
- otherwise (``HEIRLOOM_PROJECTIONS=external``, the workers 1..N-1 of ``--workers N``) one
  thread of this process follows the notification log itself: it blocks in ``XREAD BLOCK``
  on the log stream (`LogWaiter`: an append in any process wakes it at once), reads the new
  notifications once and rings their games (a partitioned cluster log: a look every second).

Either way, the work per append is one read for the whole process, not one per stream. A
stream also looks at its listing on each heartbeat (15 s), as a safety net.

**Caps** (`OpenStreams`): at most ``HEIRLOOM_MAX_STREAMS_PER_CLIENT`` (default 20) event streams
and WebSockets open at once per client address and process; one more is ``429
too_many_streams`` (a WebSocket: closed with 1008 before the handshake).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from typing import Any

log = logging.getLogger("heirloom.live")

#: Without a blocking wait on the log (a partitioned log), look this often.
LOG_LOOK_SECONDS = 1.0
#: The longest one blocking wait lasts before the follower looks again anyway.
LOG_BLOCK_SECONDS = 5.0

Entry = tuple[asyncio.AbstractEventLoop, asyncio.Event]


class GameBells:
    """Per game, the streams waiting for news; `ring` wakes them (from any thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[Entry]] = defaultdict(set)
        self._follower: threading.Thread | None = None
        self._stop = threading.Event()

    def subscribe(self, game_id: str) -> Entry:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiting[game_id].add(entry)
        return entry

    def unsubscribe(self, game_id: str, entry: Entry) -> None:
        with self._lock:
            waiting = self._waiting.get(game_id)
            if waiting is not None:
                waiting.discard(entry)
                if not waiting:
                    del self._waiting[game_id]

    def ring(self, game_ids: set[str]) -> None:
        with self._lock:
            entries = [entry for game_id in game_ids for entry in self._waiting.get(game_id, ())]
        for loop, event in entries:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop is closed: the stream is gone
                pass

    def ring_events(self, events: list[Any]) -> None:
        """A page of domain events committed by the read side's follower."""
        self.ring({str(event.originator_id) for event in events})

    # ---- following the log ourselves (no follower in this process)

    def follow_log(self, service: Any) -> None:
        """Start the log-following thread once (see the module docstring)."""
        with self._lock:
            if self._follower is not None and self._follower.is_alive():
                return
            self._stop.clear()
            self._follower = threading.Thread(target=self._follow, args=(service,), daemon=True,
                                              name="live-stream-bells")
            self._follower.start()

    def stop(self) -> None:
        self._stop.set()

    def _follow(self, service: Any) -> None:
        from projections.partitions import logs_of

        logs = logs_of(service)
        positions = {log_.k: log_.recorder.max_notification_id() or 0 for log_ in logs}
        waiter = None
        if len(logs) == 1:
            try:
                from domain.eventstore.subscription import LogWaiter

                waiter = LogWaiter(logs[0].recorder)
            except Exception:  # noqa: BLE001 - a store without a log stream: look every second
                waiter = None
        while not self._stop.is_set():
            try:
                if waiter is not None:
                    waiter.wait_after(positions[logs[0].k], LOG_BLOCK_SECONDS)
                else:
                    self._stop.wait(LOG_LOOK_SECONDS)
                games: set[str] = set()
                for log_ in logs:
                    while True:
                        page = log_.recorder.select_notifications(positions[log_.k], 500, inclusive_of_start=False)
                        for notification in page:
                            positions[log_.k] = notification.id
                            games.add(str(notification.originator_id))
                        if len(page) < 500:
                            break
                if games:
                    self.ring(games)
            except Exception as error:  # noqa: BLE001 - the store away: streams keep their heartbeat
                log.debug("live bells: following the log failed (%s)", error)
                self._stop.wait(LOG_LOOK_SECONDS)


def bells_of(app: Any) -> GameBells:
    """The app's bells, fed by the follower of this process or by their own log thread."""
    bells = getattr(app.state, "game_bells", None)
    if bells is None:
        bells = app.state.game_bells = GameBells()
        read_side = getattr(app.state, "projections", None)
        if read_side is not None and not read_side.external:
            read_side.runner.listeners.append(bells.ring_events)
        else:
            bells.follow_log(app.state.service)
            app.router.on_shutdown.append(bells.stop)
    return bells


class TooManyStreams(Exception):
    pass


class OpenStreams:
    """Open live streams per client address in this process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._open: dict[str, int] = defaultdict(int)

    def acquire(self, client: str) -> None:
        with self._lock:
            if self._open[client] >= self.limit:
                raise TooManyStreams(client)
            self._open[client] += 1

    def release(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]


def open_streams_of(app: Any) -> OpenStreams:
    streams = getattr(app.state, "open_streams", None)
    if streams is None:
        streams = app.state.open_streams = OpenStreams(app.state.settings.max_streams_per_client)
    return streams


def client_address(scope: dict) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"
