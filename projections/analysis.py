"""Engine analysis jobs: run `domain.bots.analysis` on a stored game off the request path and
keep the result in Redis, with the engine version that made it.

One result per (game, viewer): a finished game has one, made with everything public (viewer
"all"); a running game has one per seat (and one for spectators), made from what that caller
may see, at the game version it was asked for, and shown only to the same caller. A result of
an older engine version, or of an older version of a running game, is made again when asked.

Keys: ``<prefix>:analysis:{<game id>}:<viewer>`` (JSON; the hash tag keeps them with the game).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Callable

import orjson

from domain.bots.analysis import ENGINE_VERSION, analyse
from domain.engine import EVERYONE, derive_seed
from domain.engine.rules import stored_move

log = logging.getLogger("heirloom.analysis")


def viewer_key(viewer: Any) -> str:
    return "all" if viewer == EVERYONE else ("spectator" if viewer == "spectator" else f"seat:{viewer}")


def game_history(service: Any, game_id: str) -> dict:
    """What the analysis needs of a stored game: setup, effective moves (with their facts), names."""
    game = service.game(game_id)
    effective = set(game.effective_versions())  # the aggregate keeps no facts of old moves
    moves = []
    for event in service.events.get(game.id, lte=game.version):
        if event.originator_version in effective and type(event).__name__ == "MovePlayed":
            moves.append({"seat": event.seat, "move": stored_move(game.rules, event.move), "facts": list(event.facts)})
    return {"rules": game.rules, "players": game.players, "options": dict(game.options),
            "setup_facts": list(game.setup_facts), "names": list(game.names), "moves": moves,
            "seed": derive_seed(game.seed, "analysis"), "version": game.version, "finished": game.finished}


def run_analysis(history: dict, viewer: Any, progress: Callable[[int, int], None] | None = None) -> dict:
    """Analyse one game history for `viewer`; the stored result (status "done")."""
    total = len(history["moves"]) + 1
    steps, summary = [], {"mistakes": [], "accuracy": {}, "turning_points": []}
    for record in analyse(history["rules"], history["players"], history["options"], history["setup_facts"],
                          history["moves"], viewer, history["seed"], history["names"]):
        if "mistakes" in record:
            summary = record
            continue
        steps.append(record)
        if progress is not None:
            progress(len(steps), total)
    return {"status": "done", "progress": 1.0, "engine": ENGINE_VERSION, "viewer": viewer_key(viewer),
            "game_version": history["version"], "finished": history["finished"],
            "steps": steps, **summary}


class AnalysisStore:
    """Analysis results in Redis, one JSON document per (game, viewer)."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix

    def key(self, game_id: str, viewer: Any) -> str:
        return f"{self.prefix}:analysis:{{{game_id}}}:{viewer_key(viewer)}"

    def get(self, game_id: str, viewer: Any) -> dict | None:
        raw = self.client.get(self.key(game_id, viewer))
        return orjson.loads(raw) if raw else None

    def put(self, game_id: str, viewer: Any, record: dict) -> None:
        self.client.set(self.key(game_id, viewer), orjson.dumps(record))


class AnalysisJobs:
    """A queue of analysis jobs worked by one background thread (analysis is CPU-bound: one at
    a time keeps the server answering)."""

    def __init__(self, service: Any, store: AnalysisStore) -> None:
        self.service = service
        self.store = store
        self._queue: queue.Queue = queue.Queue()
        self._pending: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def current(self, game_id: str, viewer: Any, game_version: int) -> dict | None:
        """The stored result if it is of this engine and (for a running game) this game version."""
        record = self.store.get(game_id, viewer)
        if record is None or record.get("engine") != ENGINE_VERSION:
            return None
        if viewer != EVERYONE and record.get("game_version") != game_version:
            return None
        return record

    def request(self, game_id: str, viewer: Any, game_version: int) -> dict:
        """Start (or find) the analysis of a game for a viewer; its status record."""
        record = self.current(game_id, viewer, game_version)
        job = (game_id, viewer_key(viewer))
        with self._lock:
            if record is not None and (record["status"] == "done" or job in self._pending):
                return record
            self._pending.add(job)
        record = {"status": "queued", "progress": 0.0, "engine": ENGINE_VERSION, "viewer": viewer_key(viewer),
                  "game_version": game_version, "steps": [], "mistakes": []}
        self.store.put(game_id, viewer, record)
        self._queue.put((game_id, viewer))
        self._ensure_thread()
        return record

    def status(self, game_id: str, viewer: Any, game_version: int) -> dict:
        record = self.current(game_id, viewer, game_version)
        if record is None:
            return {"status": "none", "progress": 0.0, "steps": [], "mistakes": []}
        with self._lock:
            orphan = record["status"] in ("queued", "running") and (game_id, viewer_key(viewer)) not in self._pending
        if orphan:   # its worker is gone (a restart): queue it again
            return self.request(game_id, viewer, game_version)
        return record

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._work, name="analysis", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self) -> None:
        while not self._stop.is_set():
            job = self._queue.get()
            if job is None:
                break
            game_id, viewer = job
            try:
                self._run(game_id, viewer)
            except Exception as error:  # noqa: BLE001 - one failed job must not end the worker
                log.warning("analysis of %s failed: %s", game_id, error)
                self.store.put(game_id, viewer, {"status": "failed", "progress": 0.0, "engine": ENGINE_VERSION,
                                                 "viewer": viewer_key(viewer), "error": type(error).__name__,
                                                 "steps": [], "mistakes": []})
            finally:
                with self._lock:
                    self._pending.discard((game_id, viewer_key(viewer)))

    def _run(self, game_id: str, viewer: Any) -> None:
        history = game_history(self.service, game_id)
        last = [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.5:
                last[0] = now
                self.store.put(game_id, viewer, {"status": "running", "progress": round(done / total, 3),
                                                 "engine": ENGINE_VERSION, "viewer": viewer_key(viewer),
                                                 "game_version": history["version"], "steps": [], "mistakes": []})
        self.store.put(game_id, viewer, run_analysis(history, viewer, progress))
