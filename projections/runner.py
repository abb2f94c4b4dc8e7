"""Following the notification log: the projection runner, rebuilds and read-your-writes.

`ProjectionRunner` is the eventsourcing runner's equivalent for several projections of one
application: one thread per projection reads notifications after the view's tracking
position in batches (`select_notifications`), applies them (`process_batch`) and commits
the changes with the position of the batch's last notification. Reading the log in
batches, rather than event by event from a subscription, lets the same loop catch up after
a restart, rebuild with a progress bar and follow live writes.

While the log is idle nothing is read: on the Redis event store one watcher thread per
runner blocks on the log stream (`LogWaiter`, an ``XREAD BLOCK`` on its own connection) and
wakes the projection threads when an append lands, in any process; `poke()` (a read that
needs the newest events) wakes them too. A wait still ends after `idle_timeout` (5 s) as a
safety net. On another store (no `log_waiter`) the threads poll every `poll_interval`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any, Iterable, Mapping, TextIO

from eventsourcing.persistence import IntegrityError, Tracking

from .base import GameFailed, GameProjection
from .records import to_record
from .views import StaleView

log = logging.getLogger("heirloom.projections")

GAME_TOPIC = ":Game."


def records_of(app: Any, notifications: Iterable[Any]) -> list[dict]:
    """Event records of the `Game` notifications (other topics are skipped but still tracked)."""
    records = []
    for notification in notifications:
        if GAME_TOPIC not in notification.topic:
            continue
        record = to_record(app.mapper.to_domain_event(notification))
        record["notification_id"] = notification.id
        records.append(record)
    return records


def catch_up(app: Any, projection: GameProjection, *, batch_size: int = 200, progress: "ProgressBar | None" = None,
             stop: threading.Event | None = None) -> int:
    """Apply every notification after the view's position; return how many were read."""
    view = projection.view
    position = view.max_tracking_id(app.name) or 0
    done = 0
    one_by_one_until = 0  # after a failed batch: find the failing event one notification at a time
    while stop is None or not stop.is_set():
        size = 1 if position < one_by_one_until else batch_size
        notifications = app.recorder.select_notifications(position, size, inclusive_of_start=False)
        if not notifications:
            break
        try:
            projection.process_batch(records_of(app, notifications), Tracking(app.name, notifications[-1].id),
                                     after=position)
        except (IntegrityError, StaleView) as conflict:  # another runner got there first, or a rebuild
            projection.forget()
            if isinstance(conflict, StaleView):
                time.sleep(0.05)  # a rebuild may still be clearing the view
            position = view.max_tracking_id(app.name) or 0
            continue
        except Exception as error:
            # Caches loaded while another runner was writing may be torn; if the view moved
            # on meanwhile, that is the cause: reload and go on. Otherwise it is a real error:
            # a game whose event cannot be applied is set aside, anything else is raised.
            moved = (view.max_tracking_id(app.name) or 0) != position or view.current_generation() != view.generation
            projection.forget()
            if moved:
                position = view.max_tracking_id(app.name) or 0
                continue
            if not isinstance(error, GameFailed):
                raise
            if len(notifications) > 1:
                one_by_one_until = notifications[-1].id
                continue
            projection.quarantine(error, Tracking(app.name, notifications[-1].id), position)
            position = notifications[-1].id
            done += 1
            continue
        position = notifications[-1].id
        done += len(notifications)
        if progress is not None:
            progress.update(position)
        if len(notifications) < size and position >= one_by_one_until:
            break
    return done


class ProgressBar:
    """A one-line progress bar on stderr (stdlib only)."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.shown = -1.0
        self.finished = False
        self.update(0)

    def update(self, done: int) -> None:
        now = time.monotonic()
        if (done < self.total and now - self.shown < 0.1) or (done >= self.total and self.finished):
            return
        self.finished = done >= self.total
        self.shown = now
        fraction = 1.0 if self.total == 0 else min(done / self.total, 1.0)
        filled = int(self.width * fraction)
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(f"\r{self.label:<12} [{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{fraction * 100:5.1f}% {done}/{self.total} events {rate:,.0f}/s")
        self.stream.flush()

    def close(self) -> None:
        if not self.finished:
            self.shown = -1.0
            self.update(self.total)
        self.stream.write("\n")
        self.stream.flush()


def rebuild(app: Any, projection: GameProjection, *, batch_size: int = 500, show_progress: bool = True,
            stream: TextIO | None = None) -> int:
    """Clear the projection's view and apply the whole notification log again."""
    projection.view.clear()
    projection.forget()
    total = app.recorder.max_notification_id() or 0
    progress = ProgressBar(total, projection.name, stream) if show_progress else None
    done = catch_up(app, projection, batch_size=batch_size, progress=progress)
    while True:  # writes that arrived during the rebuild
        more = catch_up(app, projection, batch_size=batch_size, progress=progress)
        if not more:
            break
        done += more
    if progress is not None:
        if progress.total < (projection.view.max_tracking_id(app.name) or 0):
            progress.total = projection.view.max_tracking_id(app.name) or 0
            progress.finished = False
        progress.close()
    return done


class ProjectionRunner:
    """Runs projections of `app` in background threads until `stop()`."""

    def __init__(self, app: Any, projections: Mapping[str, GameProjection], *, batch_size: int = 200,
                 poll_interval: float = 0.05, idle_timeout: float = 5.0) -> None:
        self.app = app
        self.projections = dict(projections)
        self.batch_size = batch_size
        #: Idle wait of the projection threads when the store cannot wake them (no log_waiter).
        self.poll_interval = poll_interval
        #: Safety net: the longest idle wait when the log watcher wakes the threads.
        self.idle_timeout = idle_timeout
        self.errors: dict[str, str] = {}
        self._stop = threading.Event()
        self._wake = {name: threading.Event() for name in self.projections}
        self._progress = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._waiter: Any = None
        self._watcher: threading.Thread | None = None

    # ---- lifecycle

    def start(self) -> "ProjectionRunner":
        self._stop.clear()
        make_waiter = getattr(self.app.recorder, "log_waiter", None)
        if make_waiter is not None and self._watcher is None:
            self._waiter = make_waiter()
            self._watcher = threading.Thread(target=self._watch, args=(self._waiter,), name="projection-log-watcher",
                                             daemon=True)
            self._watcher.start()
        for name, projection in self.projections.items():
            thread = threading.Thread(target=self._follow, args=(name, projection), name=f"projection-{name}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for event in self._wake.values():
            event.set()
        watcher, waiter = self._watcher, self._waiter
        if watcher is not None:
            deadline = time.monotonic() + timeout
            while watcher.is_alive() and time.monotonic() < deadline:
                waiter.unblock()  # may race the watcher's next XREAD: repeat until it is gone
                watcher.join(0.05)
            self._watcher = self._waiter = None
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()

    @property
    def running(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def __enter__(self) -> "ProjectionRunner":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def poke(self) -> None:
        """New events were written: look at the log now."""
        for event in self._wake.values():
            event.set()

    def _watch(self, waiter: Any) -> None:
        """Block on the log; wake every projection thread when it grows."""
        last: int | None = None
        try:
            while not self._stop.is_set():
                try:
                    if last is None:
                        last = waiter.last_id()
                    now = waiter.wait(last, self.idle_timeout)
                except Exception:  # Redis away: the threads' idle timeout covers it; retry
                    log.debug("projection log watcher: waiting failed", exc_info=True)
                    last = None
                    self._stop.wait(1.0)
                    continue
                if now != last:
                    last = now
                    self.poke()
        finally:
            waiter.close()

    def _follow(self, name: str, projection: GameProjection) -> None:
        wake = self._wake[name]
        while not self._stop.is_set():
            wake.clear()  # before reading: an append after this read sets it again
            try:
                moved = catch_up(self.app, projection, batch_size=self.batch_size, stop=self._stop)
                self.errors.pop(name, None)
            except Exception as error:  # keep following; the status endpoint shows the error
                log.exception("projection %s failed", name)
                self.errors[name] = f"{type(error).__name__}: {error}"
                try:  # dropping caches reads the view's generation: it fails too while Redis is away
                    projection.forget()
                except Exception:
                    log.debug("projection %s: could not reset its caches yet", name, exc_info=True)
                self._stop.wait(1.0)
                continue
            if moved:
                with self._progress:
                    self._progress.notify_all()
                continue
            watched = self._watcher is not None and self._watcher.is_alive()
            wake.wait(self.idle_timeout if watched else self.poll_interval)

    # ---- read-your-writes

    def position(self, name: str) -> int:
        return self.projections[name].view.max_tracking_id(self.app.name) or 0

    def wait(self, notification_id: int | None, timeout: float = 5.0, names: Iterable[str] | None = None) -> None:
        """Block until the projections reached `notification_id`; TimeoutError after `timeout`."""
        if not notification_id:
            return
        names = list(names) if names is not None else list(self.projections)
        deadline = time.monotonic() + timeout
        self.poke()
        interval = 0.002
        while True:
            behind = [name for name in names if self.position(name) < notification_id]
            if not behind:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"projection(s) {', '.join(behind)} did not reach notification "
                                   f"{notification_id} within {timeout}s")
            with self._progress:
                self._progress.wait(min(interval, remaining))
            interval = min(interval * 2, 0.05)

    def wait_current(self, timeout: float = 5.0, names: Iterable[str] | None = None) -> None:
        """Read-your-writes: wait for everything written before this call."""
        self.wait(self.app.recorder.max_notification_id(), timeout, names)
