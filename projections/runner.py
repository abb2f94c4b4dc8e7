"""Following the notification log: the projection runner, rebuilds and read-your-writes.

`ProjectionRunner` is the eventsourcing runner's equivalent for several projections of one
application, off the request path: one thread reads each page of notifications once
(`select_notifications`), every projection turns it into view changes (`prepare`), and one
script commits all of them with every view's new position (`COMMIT_VIEWS_LUA`): two Redis
commands per page, however many projections, and a page holds every event written since
the last one (under load, many moves). Then finished games are compacted (`compact` of
the event store: one compressed record per game). Any failure (a conflict with another
runner, a rebuild, a game whose event cannot be applied) falls back to `catch_up` per
projection, which sorts it out, and the shared loop resumes.

While the log is idle nothing is read: on the Redis event store the thread blocks on the
log stream from its position (`LogWaiter.wait_after`, one ``XREAD BLOCK`` on its own
connection, which an append in any process ends at once); `poke()` ends it too. A wait
still ends after `idle_timeout` (5 s) as a safety net. On another store (no `log_waiter`)
the thread polls every `poll_interval`. Once woken it lingers `linger` (25 ms) for more
appends, unless a read is waiting, so one page serves several moves. Read-your-writes
(`wait`) waits on the positions held in memory, without asking Redis, when the runner runs
in this process.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any, Iterable, Mapping, TextIO

import redis
from eventsourcing.persistence import IntegrityError, Tracking

from .base import GameFailed, GameProjection
from .compaction import compact_game
from .partitions import Log, clear_partition, logs_of, partition_count
from .records import to_record
from .views import COMMIT_VIEWS_LUA, StaleView

log = logging.getLogger("heirloom.projections")

GAME_TOPIC = ":Game."
#: Saved events kept for the follower at most (beyond, it reads the log as usual).
FRESH_LIMIT = 10_000


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
             stop: threading.Event | None = None, logs: Iterable[Log] | None = None) -> int:
    """Apply every notification after the view's position in each log (every partition,
    or `logs`); return how many were read."""
    done = 0
    for log in (logs if logs is not None else logs_of(app)):
        done += catch_up_log(app, projection, log, batch_size=batch_size, progress=progress, stop=stop)
    return done


def catch_up_log(app: Any, projection: GameProjection, log: Log, *, batch_size: int = 200,
                 progress: "ProgressBar | None" = None, stop: threading.Event | None = None) -> int:
    """`catch_up` on one log (one partition), tracked under `log.name`."""
    view = projection.view
    position = view.max_tracking_id(log.name) or 0
    done = 0
    one_by_one_until = 0  # after a failed batch: find the failing event one notification at a time
    while stop is None or not stop.is_set():
        size = 1 if position < one_by_one_until else batch_size
        notifications = log.recorder.select_notifications(position, size, inclusive_of_start=False)
        if not notifications:
            break
        try:
            projection.process_batch(records_of(app, notifications), Tracking(log.name, notifications[-1].id),
                                     after=position)
        except (IntegrityError, StaleView) as conflict:  # another runner got there first, or a rebuild
            projection.forget()
            if isinstance(conflict, StaleView):
                time.sleep(0.05)  # a rebuild may still be clearing the view
            position = view.max_tracking_id(log.name) or 0
            continue
        except Exception as error:
            # Caches loaded while another runner was writing may be torn; if the view moved
            # on meanwhile, that is the cause: reload and go on. Otherwise it is a real error:
            # a game whose event cannot be applied is set aside, anything else is raised.
            moved = (view.max_tracking_id(log.name) or 0) != position or view.current_generation() != view.generation
            projection.forget()
            if moved:
                position = view.max_tracking_id(log.name) or 0
                continue
            if not isinstance(error, GameFailed):
                raise
            if len(notifications) > 1:
                one_by_one_until = notifications[-1].id
                continue
            projection.quarantine(error, Tracking(log.name, notifications[-1].id), position)
            position = notifications[-1].id
            done += 1
            if progress is not None:
                progress.advance(1)
            continue
        position = notifications[-1].id
        done += len(notifications)
        if progress is not None:
            progress.advance(len(notifications))
        if len(notifications) < size and position >= one_by_one_until:
            break
    return done


class ProgressBar:
    """A one-line progress bar on stderr (stdlib only)."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, width: int = 30,
                 unit: str = "events") -> None:
        self.total = max(total, 0)
        self.unit = unit
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.shown = -1.0
        self.finished = False
        self.done = 0
        self.update(0)

    def advance(self, count: int) -> None:
        self.done += count
        if self.done > self.total:
            self.total = self.done
        self.update(self.done)

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
                          f"{fraction * 100:5.1f}% {done}/{self.total} {self.unit} {rate:,.{1 if rate < 10 else 0}f}/s")
        self.stream.flush()

    def close(self) -> None:
        if not self.finished:
            self.shown = -1.0
            self.update(self.total)
        self.stream.write("\n")
        self.stream.flush()


def rebuild(app: Any, projection: GameProjection, *, batch_size: int = 500, show_progress: bool = True,
            stream: TextIO | None = None, partition: int | None = None) -> int:
    """Clear the projection's view and apply the whole notification log again (every
    partition); or, with `partition` k, only that partition's games and log (the other
    partitions' games stay as they are, views spanning games count each game once)."""
    logs = logs_of(app)
    if partition is not None and not 0 <= partition < len(logs):
        raise ValueError(f"partition {partition} does not exist: the log has {len(logs)} partition(s), "
                         f"0..{len(logs) - 1}")
    label = projection.name
    if partition is None or len(logs) == 1:
        projection.view.clear()
    else:
        logs = [logs[partition]]
        label = f"{projection.name} p{partition}"
        projection.idempotent = True
        clear_partition(projection.view, partition, partition_count(app), logs[0].name,
                        keep=projection.view.kept_per_game)
    projection.forget()
    total = sum(log.recorder.max_notification_id() or 0 for log in logs)
    progress = ProgressBar(total, label, stream) if show_progress else None
    done = catch_up(app, projection, batch_size=batch_size, progress=progress, logs=logs)
    while True:  # writes that arrived during the rebuild
        more = catch_up(app, projection, batch_size=batch_size, progress=progress, logs=logs)
        if not more:
            break
        done += more
    if progress is not None:
        progress.close()
    return done


class ProjectionRunner:
    """Runs projections of `app` in background threads until `stop()`."""

    def __init__(self, app: Any, projections: Mapping[str, GameProjection], *, batch_size: int = 200,
                 poll_interval: float = 0.05, idle_timeout: float = 5.0, compact_finished: bool = True,
                 linger: float = 0.025) -> None:
        self.app = app
        self.projections = dict(projections)
        self.batch_size = batch_size
        #: Idle wait of the follower when the store cannot wake it (no log_waiter).
        self.poll_interval = poll_interval
        #: Safety net: the longest idle wait when the log watcher wakes the threads.
        self.idle_timeout = idle_timeout
        #: After the log grew, wait this long for more appends before reading the page (a
        #: read that needs the new events ends the wait at once): batches the read side's
        #: work, so a page and its commit serve several moves even when they come one by one
        #: (25 ms: a commit costs about a dozen Redis commands however many moves it holds).
        self.linger = linger
        #: Fold a finished game's events into one compressed record (stores with `compact`).
        self.compact_finished = compact_finished and hasattr(app.recorder, "compact")
        self.errors: dict[str, str] = {}
        #: The logs followed: one, or one per partition of a partitioned cluster log.
        self.logs = logs_of(app)
        if len(self.logs) > 1:
            for projection in self.projections.values():
                projection.idempotent = True
        #: Called from the follower with the `Game` domain events of each committed page
        #: (the live WebSocket channel pushes them; keep them quick and non-blocking).
        self.listeners: list[Any] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._progress = threading.Condition()
        #: Position of each projection in each log as this runner committed it (None: ask the view).
        self._positions: dict[tuple[str, str], int | None] = self._unknown()
        self._threads: list[threading.Thread] = []
        self._waiter: Any = None
        #: Events saved by this process's application (notification id -> (topic, event)),
        #: handed over by `GameService.saved_listeners`: a page made of them is not read back
        #: from Redis (nor decoded again). Any gap (another process's append, a save whose
        #: listener has not run yet) falls back to reading the log.
        self._fresh: dict[int, tuple[str, Any]] = {}
        self._fresh_lock = threading.Lock()
        self._saved = threading.Event()

    # ---- lifecycle

    def start(self) -> "ProjectionRunner":
        self._stop.clear()
        # One log: block on it while idle. Several partitions: poll them (`poll_interval`).
        make_waiter = getattr(self.app.recorder, "log_waiter", None) if len(self.logs) == 1 else None
        if make_waiter is not None and self._waiter is None:
            self._waiter = make_waiter()
        self._positions = self._unknown()
        listeners = getattr(self.app, "saved_listeners", None)
        if listeners is not None and len(self.logs) == 1 and self._on_saved not in listeners:
            listeners.append(self._on_saved)
        thread = threading.Thread(target=self._follow, name="projections", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        waiter = self._waiter
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            while thread.is_alive() and time.monotonic() < deadline:
                if waiter is not None:
                    waiter.unblock()  # may race the thread's next XREAD: repeat until it is gone
                thread.join(0.05)
        self._threads.clear()
        listeners = getattr(self.app, "saved_listeners", None)
        if listeners is not None and self._on_saved in listeners:
            listeners.remove(self._on_saved)
        with self._fresh_lock:
            self._fresh.clear()
        if waiter is not None:
            waiter.close()
            self._waiter = None

    @property
    def running(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def __enter__(self) -> "ProjectionRunner":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def poke(self) -> None:
        """New events were written: look at the log now. (A follower blocked on the log
        wakes by itself when an append lands; this ends a poll's sleep.)"""
        self._wake.set()

    def _on_saved(self, recordings: list[Any]) -> None:
        """`GameService.saved_listeners` hook (the saving thread): keep the new events."""
        with self._fresh_lock:
            for recording in recordings:
                notification = getattr(recording, "notification", None)
                if notification is not None and notification.id is not None:
                    self._fresh[notification.id] = (notification.topic, recording.domain_event)
            if len(self._fresh) > FRESH_LIMIT:  # the follower is stuck or gone: read the log later
                self._fresh.clear()
        self._saved.set()

    def _take_fresh(self, after: int) -> list[tuple[int, str, Any]]:
        """The saved events right after notification `after`, without a gap (maybe none)."""
        with self._fresh_lock:
            fresh = self._fresh
            if not fresh:
                return []
            for old in [nid for nid in fresh if nid <= after]:
                del fresh[old]
            taken = []
            nid = after + 1
            while nid in fresh and len(taken) < self.batch_size:
                topic, event = fresh.pop(nid)
                taken.append((nid, topic, event))
                nid += 1
            return taken

    def _follow(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()  # before reading: a poke after this read sets it again
            self._saved.clear()  # likewise for saves of this process (`_on_saved`)
            try:
                moved, low = self._step()
                self.errors.clear()
            except Exception as error:  # noqa: BLE001 - sorted out one projection at a time
                log.debug("projections: shared step failed (%s); catching up one by one", error)
                moved, low = self._catch_up_each(), None
            if moved:
                with self._progress:
                    self._progress.notify_all()
                if moved >= self.batch_size or low is None:
                    continue  # more may be waiting: read on
            if self._idle(low) and self.linger > 0:  # returns at once if the log grew past `low`
                self._wake.wait(self.linger)  # let a few more appends join the page, unless a read waits

    def _idle(self, position: int | None) -> bool:
        """Sleep until the log grows past `position` (True), or a poke, or the idle timeout."""
        waiter = self._waiter
        if waiter is None or position is None:
            self._wake.wait(self.poll_interval if waiter is None else 0.05)
            return False
        if self._wake.is_set():
            return False
        if self._saved.is_set():  # this process saved events: no need to ask the log
            self._saved.clear()
            return True
        try:
            return waiter.wait_after(position, self.idle_timeout)
        except Exception:  # Redis away: wait a little and go on
            log.debug("projections: waiting for the log failed", exc_info=True)
            self._stop.wait(1.0)
            return False

    def _unknown(self) -> dict[tuple[str, str], int | None]:
        return {(name, log.name): None for name in self.projections for log in self.logs}

    def _position(self, name: str, log: Log) -> int:
        known = self._positions.get((name, log.name))
        if known is None:
            known = self._positions[name, log.name] = self.projections[name].view.max_tracking_id(log.name) or 0
        return known

    def _step(self) -> tuple[int, int | None]:
        """One page of each log for every projection; returns (how many notifications were
        applied, the lowest position after it, None when a page was full: read on)."""
        if len(self.logs) == 1:
            return self._step_log(self.logs[0])
        moved, full = 0, False
        for log in self.logs:
            count, _ = self._step_log(log)
            moved += count
            full = full or count >= self.batch_size
        return moved, None if full else 0

    def _step_log(self, log: Log) -> tuple[int, int]:
        """One page of `log` for every projection, committed by one script; returns
        (how many notifications were applied, the lowest position after it)."""
        app = self.app
        positions = {name: self._position(name, log) for name in self.projections}
        low = min(positions.values(), default=0)
        fresh = self._take_fresh(low) if len(self.logs) == 1 else []
        if fresh:  # saved by this process: neither read back nor decoded again
            count, last = len(fresh), fresh[-1][0]
            events = [(nid, event) for nid, topic, event in fresh if GAME_TOPIC in topic]
        else:
            notifications = log.recorder.select_notifications(low, self.batch_size, inclusive_of_start=False)
            if not notifications:
                return 0, low
            count, last = len(notifications), notifications[-1].id
            events = [(n.id, app.mapper.to_domain_event(n)) for n in notifications if GAME_TOPIC in n.topic]
        records = []
        for notification_id, event in events:
            record = to_record(event)
            record["notification_id"] = notification_id
            records.append(record)
        words: list[Any] = [0]
        prepared: list[str] = []
        try:
            for name, projection in self.projections.items():
                after = positions[name]
                if after >= last:
                    continue
                mine = [r for r in records if r["notification_id"] > after]
                ops = projection.prepare(mine, after, log.name)
                words += projection.view.commit_command(Tracking(log.name, last), ops, after)
                words[0] += 1
                prepared.append(name)
            if prepared:
                self._commit(words)
        except BaseException:
            for name in prepared:
                self.projections[name].settle(last, committed=False, log=log.name)
            self._positions = self._unknown()
            raise
        for name in prepared:
            self.projections[name].settle(last, committed=True, log=log.name)
            self._positions[name, log.name] = last
        for listener in list(self.listeners):
            try:
                listener([event for _, event in events])
            except Exception:
                logging.getLogger("heirloom.projections").exception("projections: a page listener failed")
        if self.compact_finished:
            self._compact(records)
        return count, last if count < self.batch_size else low

    def _commit(self, words: list[Any]) -> None:
        views = next(iter(self.projections.values())).view
        script = getattr(self, "_commit_script", None)
        if script is None:
            script = self._commit_script = views.client.register_script(COMMIT_VIEWS_LUA)
        # On a cluster the script must be sent to the views' slot: name one of their keys.
        keys = [views.tracking_key] if isinstance(views.client, redis.RedisCluster) else []
        try:
            script(keys=keys, args=words)
        except Exception as error:
            text = str(error)
            if "HEIRLOOM_STALE" in text:
                raise StaleView(text) from None
            if "HEIRLOOM_TRACKING" in text:
                raise IntegrityError(text) from None
            raise

    def _compact(self, records: list[dict]) -> None:
        """Fold the events of the games that finished in this page into one record each,
        and their replay and score history (projections/compaction.py)."""
        replay, scoreboard = self.projections.get("replay"), self.projections.get("scoreboard")
        for record in records:
            if record["type"] == "MovePlayed" and record.get("finished"):
                try:
                    self.app.recorder.compact(record["game_id"])
                    if replay is not None and scoreboard is not None:
                        compact_game(replay.view, scoreboard.view, record["game_id"])
                except Exception:  # a later finish (or `heirloom migrate`) compacts it
                    log.warning("could not compact game %s", record["game_id"], exc_info=True)

    def _catch_up_each(self) -> int:
        """The robust path: each projection on its own (conflicts, rebuilds, set-aside games)."""
        moved = 0
        for name, projection in self.projections.items():
            try:
                moved += catch_up(self.app, projection, batch_size=self.batch_size, stop=self._stop, logs=self.logs)
                self.errors.pop(name, None)
            except Exception as error:  # keep following; the status endpoint shows the error
                said = f"{type(error).__name__}: {error}"
                if self.errors.get(name) != said:  # once per distinct error, not once a second (a full store)
                    log.exception("projection %s failed", name)
                else:
                    log.debug("projection %s failed again: %s", name, said)
                self.errors[name] = said
                try:  # dropping caches reads the view's generation: it fails too while Redis is away
                    projection.forget()
                except Exception:
                    log.debug("projection %s: could not reset its caches yet", name, exc_info=True)
        self._positions = self._unknown()
        if moved == 0 and self.errors:
            self._stop.wait(1.0)
        return moved

    # ---- read-your-writes

    def position(self, name: str, log: Log | None = None) -> int:
        """Where projection `name` is in `log` (default: the first log, the only one on a single node)."""
        log = log or self.logs[0]
        return self.projections[name].view.max_tracking_id(log.name) or 0

    def _reached(self, name: str, log: Log) -> int:
        """Where `name` is: held in memory while this runner follows the log, else the view's."""
        if self.running:
            known = self._positions.get((name, log.name))
            if known is not None:
                return known
        return self.position(name, log)

    def wait(self, notification_id: int | None, timeout: float = 5.0, names: Iterable[str] | None = None,
             log: Log | None = None) -> None:
        """Block until the projections reached `notification_id` of `log` (default: the
        first); TimeoutError after `timeout`."""
        self.wait_heads({(log or self.logs[0]).k: notification_id}, timeout, names)

    def wait_heads(self, heads: Mapping[int, int | None], timeout: float = 5.0,
                   names: Iterable[str] | None = None) -> None:
        """Block until the projections reached, in each partition k, notification heads[k]."""
        targets = [(self.logs[k], head) for k, head in heads.items() if head]
        if not targets:
            return
        names = list(names) if names is not None else list(self.projections)
        deadline = time.monotonic() + timeout
        if any(self._reached(name, log) < head for name in names for log, head in targets):
            self.poke()
        interval = 0.002
        while True:
            behind = sorted({name for name in names for log, head in targets if self._reached(name, log) < head})
            if not behind:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                where = ", ".join(f"{head} of partition {log.k}" if len(self.logs) > 1 else str(head)
                                  for log, head in targets)
                raise TimeoutError(f"projection(s) {', '.join(behind)} did not reach notification "
                                   f"{where} within {timeout}s")
            with self._progress:
                self._progress.wait(min(interval, remaining))
            interval = min(interval * 2, 0.05)

    def heads(self) -> dict[int, int]:
        """The last notification id of every log (partition k -> id)."""
        return {log.k: log.recorder.max_notification_id() or 0 for log in self.logs}

    def wait_current(self, timeout: float = 5.0, names: Iterable[str] | None = None) -> None:
        """Read-your-writes: wait for everything written before this call."""
        self.wait_heads(self.heads(), timeout, names)
