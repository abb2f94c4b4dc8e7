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
import time
from typing import Any, Callable

import orjson

from domain.bots.analysis import ENGINE_VERSION, analyse_steps, summarise
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
    """Analyse one game history for `viewer` in one go; the stored result (status "done")."""
    record = new_record(viewer, history["version"], "running")
    while record["status"] != "done":
        record = analyse_slice(history, viewer, record, seconds=0.5)
        if progress is not None:
            progress(len(record["steps"]), len(history["moves"]) + 1)
    return record


def new_record(viewer: Any, game_version: int, status: str = "queued") -> dict:
    return {"status": status, "progress": 0.0, "engine": ENGINE_VERSION, "viewer": viewer_key(viewer),
            "game_version": game_version, "steps": [], "mistakes": [], "updated": time.time()}


def analyse_slice(history: dict, viewer: Any, record: dict, seconds: float | None, budget: Any = None) -> dict:
    """The record with the next steps analysed: from where `record` stopped, for about
    `seconds` of work (None: to the end). Each step's search has its own seed, so slices
    give the same analysis as one run, and a slice run twice (a worker taken over) the same
    steps. Until done the record keeps each step's verdict and words (``partial``); the last
    slice turns them into the mistakes, accuracy and turning points."""
    total = len(history["moves"]) + 1
    steps = list(record["steps"])
    partial = record.get("partial") or {"verdicts": [], "descriptions": []}
    verdicts, descriptions = list(partial["verdicts"]), list(partial["descriptions"])
    started = time.monotonic()
    for step_record, verdict, description in analyse_steps(
            history["rules"], history["players"], history["options"], history["setup_facts"], history["moves"],
            viewer, history["seed"], history["names"], **({"budget": budget} if budget else {}), start=len(steps)):
        steps.append(step_record)
        verdicts.append(verdict)
        descriptions.append(description)
        if seconds is not None and time.monotonic() - started >= seconds:
            break
    done = len(steps) >= total
    answer = {key: value for key, value in record.items() if key != "partial"}
    answer.update(status="done" if done else "running", progress=1.0 if done else round(len(steps) / total, 3),
                  engine=ENGINE_VERSION, game_version=history["version"], finished=history["finished"],
                  steps=steps, updated=time.time())
    if done:
        answer.update(summarise(history["rules"], steps, verdicts, descriptions, history["moves"], history["names"]))
    else:
        answer["partial"] = {"verdicts": verdicts, "descriptions": descriptions}
    return answer


def parse_viewer(key: str) -> Any:
    """The viewer of a `viewer_key` ("all", "spectator", "seat:N")."""
    if key == "all":
        return EVERYONE
    if key.startswith("seat:"):
        return int(key.split(":", 1)[1])
    return key


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


#: A queued or running analysis untouched this long has lost its job (a worker of an earlier
#: release, stopped mid-way): asking for it queues it again (a job still queued is not doubled).
STALE_SECONDS = 60.0


class AnalysisJobs:
    """Analysis jobs, queued for the workers (api/jobs: `heirloom worker`, or the one `heirloom
    serve` runs), never run in the API process: analysis is CPU-bound. Each job analyses about
    `SLICE_SECONDS` of steps and queues its continuation at the tail, so a long analysis never
    holds a worker from the bots' moves and other analyses (`analysis_job`)."""

    def __init__(self, service: Any, store: AnalysisStore, queue: Any = None) -> None:
        self.service = service
        self.store = store
        if queue is None:
            from api.jobs.queue import JobQueue

            queue = JobQueue(store.client, store.prefix)
        self.queue = queue

    def current(self, game_id: str, viewer: Any, game_version: int) -> dict | None:
        """The stored result if it is of this engine and (for a running game) this game version
        (without the verdicts kept between slices)."""
        record = self.store.get(game_id, viewer)
        if record is None or record.get("engine") != ENGINE_VERSION:
            return None
        if viewer != EVERYONE and record.get("game_version") != game_version:
            return None
        record.pop("partial", None)
        return record

    def request(self, game_id: str, viewer: Any, game_version: int) -> dict:
        """Start (or find) the analysis of a game for a viewer; its status record."""
        record = self.current(game_id, viewer, game_version)
        if record is not None and (record["status"] == "done" or not self._stale(record)):
            return record
        if record is None or record["status"] == "failed":
            record = new_record(viewer, game_version)
            self.store.put(game_id, viewer, record)
        self.enqueue(game_id, viewer, game_version)
        return record

    def enqueue(self, game_id: str, viewer: Any, game_version: int) -> bool:
        return self.queue.enqueue("analysis", {"kind": "analysis", "game": game_id, "viewer": viewer_key(viewer),
                                               "version": game_version},
                                  dedupe=f"analysis:{game_id}:{viewer_key(viewer)}")

    @staticmethod
    def _stale(record: dict) -> bool:
        return record["status"] in ("queued", "running", "failed") and \
            (record["status"] == "failed" or time.time() - float(record.get("updated", 0)) > STALE_SECONDS)

    def status(self, game_id: str, viewer: Any, game_version: int) -> dict:
        record = self.current(game_id, viewer, game_version)
        if record is None:
            return {"status": "none", "progress": 0.0, "steps": [], "mistakes": []}
        if record["status"] in ("queued", "running") and self._stale(record):
            self.request(game_id, viewer, game_version)
        return record

    def stop(self, timeout: float = 5.0) -> None:
        """Nothing runs here any more (kept for callers of the former in-process thread)."""


def analysis_job(service: Any, store: AnalysisStore, body: dict, seconds: float) -> dict | None:
    """Do one slice of an analysis job (a worker calls this); the continuation job to queue,
    or None when the analysis is done, failed, or no longer wanted (the game moved on)."""
    game_id, viewer = body["game"], parse_viewer(body["viewer"])
    record = store.get(game_id, viewer)
    if record is None or record.get("engine") != ENGINE_VERSION or record["status"] not in ("queued", "running"):
        return None
    try:
        history = game_history(service, game_id)
        if history["version"] != record["game_version"] and viewer != EVERYONE:
            return None    # a running game moved on: that version's analysis is not wanted any more
        record = analyse_slice(history, viewer, record, seconds)
    except Exception as error:  # noqa: BLE001 - one failed job must not end the worker
        log.warning("analysis of %s failed: %s", game_id, error)
        store.put(game_id, viewer, {**new_record(viewer, record["game_version"], "failed"), "error": type(error).__name__})
        return None
    store.put(game_id, viewer, record)
    return None if record["status"] == "done" else body
