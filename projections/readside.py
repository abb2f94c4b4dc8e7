"""`ReadSide`: the projections of one application, their views, runner and queries.

The API keeps one on ``app.state.projections``; the CLI builds one to run or rebuild
projections in a separate process. Views use the event store's own Redis connection and
key prefix when the application runs on `domain.eventstore` (``<prefix>:proj:<name>:``),
otherwise ``REDIS_URL`` (default redis://127.0.0.1:6379/0).
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Iterable, TextIO

import redis

from domain.engine import Rules, get_rules
from domain.app.errors import ServiceError

from .analytics import AnalyticsProjection, AnalyticsView, game_report
from .base import ApplicationEvents, GameProjection
from .game_index import GameIndex
from .replay import CHECKPOINT_EVERY, GameNotProjected, ReplayProjection, ReplayView, history, moves_log, replay_step
from .runner import ProjectionRunner, catch_up, rebuild
from .scoreboard import ScoreboardProjection, ScoreboardView

class GameSetAside(ServiceError):
    """A projection could not apply one of this game's events (see GameProjection.quarantine)."""

    code = "projection_failed"


def public_error(failure: dict) -> str:
    """The exception type of a set-aside game's failure, without its message: the message may
    quote the game's state (a hidden card id in a KeyError); the server log has it all."""
    return str(failure.get("error", "")).split(":", 1)[0]


PROJECTION_CLASSES: dict[str, type[GameProjection]] = {
    "replay": ReplayProjection,
    "scoreboard": ScoreboardProjection,
    "analytics": AnalyticsProjection,
}


def redis_of(app: Any) -> tuple[redis.Redis, str]:
    """The Redis client and key prefix the application's event store uses."""
    datastore = getattr(app.recorder, "datastore", None)
    if datastore is not None and hasattr(datastore, "client"):
        return datastore.client, datastore.prefix
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    return redis.Redis.from_url(url), os.environ.get("REDIS_KEY_PREFIX") or "heirloom"


class ReadSide:
    """Builds every projection of `app` and answers the read endpoints' queries."""

    def __init__(self, app: Any, *, names: Iterable[str] | None = None, client: redis.Redis | None = None,
                 prefix: str | None = None, rules_for: Callable[[str], Rules] = get_rules,
                 checkpoint_every: int = CHECKPOINT_EVERY, name_suffix: str = "", external: bool = False) -> None:
        self.app = app
        #: True when another process (``heirloom projections run``) applies the events.
        self.external = external
        self._inline_lock = threading.Lock()
        if client is None:
            client, default_prefix = redis_of(app)
            prefix = prefix or default_prefix
        self.client = client
        self.prefix = prefix or "heirloom"
        self.rules_for = rules_for
        self.checkpoint_every = checkpoint_every
        events = ApplicationEvents(app)
        self.projections: dict[str, GameProjection] = {}
        for name in names if names is not None else PROJECTION_CLASSES:
            cls = PROJECTION_CLASSES[name]
            view = cls.view_class(client, self.prefix, name + name_suffix)
            projection = cls(view, events=events, rules_for=rules_for)
            if isinstance(projection, ReplayProjection):
                projection.every = checkpoint_every
            self.projections[name] = projection
        self.runner = ProjectionRunner(app, self.projections)
        #: GET /games: follows the notification log on demand (not a tracked projection).
        self.index = GameIndex(app)

    # ---- operations

    def start(self) -> "ReadSide":
        self.runner.start()
        return self

    def stop(self) -> None:
        self.runner.stop()

    def catch_up(self) -> None:
        """Apply everything written so far, synchronously (tests, tools)."""
        for projection in self.projections.values():
            catch_up(self.app, projection)

    def rebuild(self, name: str, *, show_progress: bool = True, stream: TextIO | None = None,
                partition: int | None = None) -> int:
        """Rebuild projection `name` from every partition of the log, or only `partition`."""
        return rebuild(self.app, self.projections[name], show_progress=show_progress, stream=stream,
                       partition=partition)

    def sync(self, names: Iterable[str] | None = None, timeout: float = 5.0) -> None:
        """Read-your-writes: wait until `names` reflect every write made before this call.

        With the runner in this process (or another one), wait for it; with no runner at
        all (a tool, a test without lifespan) apply the new events here, synchronously.
        """
        if self.runner.running or self.external:
            self.runner.wait_current(timeout, names)
            return
        with self._inline_lock:
            for name in names if names is not None else self.projections:
                catch_up(self.app, self.projections[name])

    def status(self) -> dict[str, Any]:
        logs = self.runner.logs
        heads = self.runner.heads()
        partitioned = len(logs) > 1

        def where(name: str) -> dict[str, Any]:
            if not partitioned:
                position = self.runner.position(name)
                return {"position": position, "lag": heads[0] - position}
            positions = {log.k: self.runner.position(name, log) for log in logs}
            return {"position": sum(positions.values()), "lag": sum(heads.values()) - sum(positions.values()),
                    "partitions": {str(k): {"position": p, "lag": heads[k] - p} for k, p in positions.items()}}

        return {
            "head": sum(heads.values()),
            **({"heads": {str(k): h for k, h in heads.items()}} if partitioned else {}),
            "running": self.runner.running,
            "projections": {
                name: {**where(name),
                       "error": self.runner.errors.get(name),
                       "games_set_aside": {game_id: dict(failure, error=public_error(failure))
                                           for game_id, failure in self.projections[name].view.failures().items()}}
                for name in self.projections
            },
        }

    # ---- views

    @property
    def replay_view(self) -> ReplayView:
        return self.projections["replay"].view  # type: ignore[return-value]

    @property
    def scoreboard_view(self) -> ScoreboardView:
        return self.projections["scoreboard"].view  # type: ignore[return-value]

    @property
    def analytics_view(self) -> AnalyticsView:
        return self.projections["analytics"].view  # type: ignore[return-value]

    # ---- queries (callers pass the write side's Caller)

    def check(self, game_id: str, name: str) -> None:
        """Raise `GameSetAside` when projection `name` set this game aside after a failure."""
        failure = self.projections[name].view.failure(str(game_id))
        if failure is not None:
            raise GameSetAside(f"the {name} projection could not apply {failure['type']} "
                               f"(version {failure['version']}) of this game: {public_error(failure)} "
                               f"(details in the server log)", projection=name, version=failure["version"])

    def replay(self, game_id: str, step: int | None, caller: Any) -> dict[str, Any]:
        """The replay of `step` (None: the last step)."""
        self.check(game_id, "replay")
        if step is None:
            status = self.replay_view.status(game_id)
            if status is None:
                raise GameNotProjected(game_id)
            step = status["steps"]
        return replay_step(self.replay_view, self.rules_for, game_id, step, caller, self.checkpoint_every)

    def list_games(self, game: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        """Every game (of type `game`, with `status`): id, game, status, version, players, names."""
        return self.index.list(game, status)

    def page_games(self, game: str | None, status: str | None, after: str | None,
                   limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """One page of `list_games` after the game `after`, and the next page's cursor."""
        return self.index.page(game, status, after, limit)

    def known_version(self, game_id: str) -> int | None:
        """The last version of the game the replay projection saw in the notification log."""
        try:
            self.sync(["replay"])
        except TimeoutError:
            pass
        status = self.replay_view.status(game_id)
        return None if status is None else status["version"]

    def moves_log(self, game_id: str, caller: Any) -> list[dict[str, Any]]:
        self.check(game_id, "replay")
        return moves_log(self.replay_view, self.rules_for, game_id, caller)

    def history(self, game_id: str, caller: Any) -> dict[str, Any]:
        self.check(game_id, "replay")
        return history(self.replay_view, self.rules_for, game_id, caller)

    def scores(self, game_id: str) -> dict[str, Any] | None:
        self.check(game_id, "scoreboard")
        return self.scoreboard_view.scores(game_id)

    def leaders(self, game_type: str) -> list[dict[str, Any]]:
        return self.scoreboard_view.leaders(game_type)

    def team_record(self, game_type: str) -> list[dict[str, Any]]:
        return self.scoreboard_view.team_record(game_type)

    def imports(self, game_type: str) -> list[dict[str, Any]]:
        return self.scoreboard_view.imports(game_type)

    def analytics(self, game_type: str) -> dict[str, Any]:
        return self.analytics_view.report(game_type)

    def lab_report(self, game_type: str, **filters: Any) -> dict[str, Any]:
        """The lab's report of a game type (projections/lab.py), from the rows the analytics
        projection wrote when each game finished; names of features from the glossary."""
        from domain.engine import presentation

        from .lab import report, select

        names = {entry["key"]: entry["name"] for entry in presentation.glossary(self.rules_for(game_type))}
        rows = select(self.analytics_view.lab_rows(game_type), **filters)
        return report(rows, names, game_type, {k: v for k, v in filters.items() if v is not None})

    def game_analytics(self, game_id: str) -> dict[str, Any]:
        self.check(game_id, "replay")
        return game_report(self.replay_view, self.rules_for, game_id)
