"""The analytics projection: per game type counters over finished games.

Per game type (``<prefix>:proj:analytics:t:<type>:counters``) a hash of integer counters
(`summary.analytics_counters`): games, moves, per-seat games/wins/score, player counts,
action counts and score progression sums; ``started`` counts games created. A finishing
move adds the game's counters (kept in ``g:<id>``) and an undo that reopens the game
subtracts them again, so the counters always equal a rebuild's. ``g:<id>`` is the game's
contribution, applied once: on a partitioned log (`idempotent`) a replayed ``Created`` of
a game already counted counts nothing, a replayed finish of a finished game adds nothing,
and the rebuild of one partition keeps ``g:<id>`` (`kept_per_game`), so replaying the
partition leaves every counter as it was. `summary.analytics_report`
turns them into the public report.

Per-game analytics (score over time, action counts) are computed on request from the
replay view's effective moves (`game_report`).
"""

from __future__ import annotations

from typing import Any, Callable

from domain.engine import Rules

from .base import GameProjection
from .lab import lab_row
from .records import EventRecord
from .replay import ReplayView, effective_entries
from .summary import analytics_counters, analytics_report, game_analytics, summarize_game
from .timeline import Timeline, build_timeline
from .views import Op, RedisView, dumps, loads


class AnalyticsView(RedisView):
    def game_key(self, game_id: str) -> str:
        return self.key("g", game_id)

    def counters_key(self, game_type: str) -> str:
        return self.key("t", game_type, "counters")

    def lab_key(self, game_type: str) -> str:
        """The lab's rows of a game type (projections/lab.py): game id -> row."""
        return self.key("t", game_type, "lab")

    def lab_rows(self, game_type: str) -> list[dict]:
        return [loads(raw) for raw in self.client.hvals(self.lab_key(game_type))]

    def report(self, game_type: str) -> dict[str, Any]:
        counters = {k.decode(): int(v) for k, v in self.client.hgetall(self.counters_key(game_type)).items()}
        return analytics_report(game_type, counters)

    def kept_per_game(self, suffix: str) -> bool:
        return suffix.count(":") == 1  # g:<id>, the game's contribution to the counters

    def game_types(self) -> list[str]:
        prefix = self.key("t", "")
        return sorted({key.decode()[len(prefix):].rsplit(":", 1)[0]
                       for key in self.client.scan_iter(match=f"{prefix}*:counters", count=1000)})


class AnalyticsProjection(GameProjection):
    name = "analytics"
    view_class = AnalyticsView

    def game(self, game_id: str) -> dict | None:
        return self.cached(game_id, lambda: loads(self.view.client.get(self.view.game_key(game_id))))

    def on_Created(self, record: EventRecord, ops: list[Op]) -> None:
        if self.idempotent and self.game(record["game_id"]) is not None:
            return  # counted already (a replayed partition)
        table = record.get("table") or {}
        doc = {"game_type": record.get("game_type"), "finished": False, "counters": {},
               "tags": {"bots": record.get("bots") or {},
                        "simulation": record.get("simulation") or table.get("simulation")}}
        self.cache[record["game_id"]] = doc
        ops += [("hincrby", self.view.counters_key(doc["game_type"]), "started", 1),
                ("set", self.view.game_key(record["game_id"]), dumps(doc))]

    def on_MovePlayed(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.game(game_id)
        if doc is None or not record.get("finished") or doc["finished"]:
            return
        timeline = build_timeline(self.game_records(game_id, record["version"]))
        summary = summarize_game(self.rules(doc["game_type"]), timeline)
        doc["finished"], doc["counters"] = True, analytics_counters(summary)
        key = self.view.counters_key(doc["game_type"])
        ops += [("hincrby", key, name, value) for name, value in sorted(doc["counters"].items())]
        ops.append(("set", self.view.game_key(game_id), dumps(doc)))
        row = lab_row(self.rules(doc["game_type"]), timeline, summary, doc.get("tags") or {})
        ops.append(("hset", self.view.lab_key(doc["game_type"]), game_id, dumps(row)))

    def _tag(self, record: EventRecord, ops: list[Op], name: str) -> None:
        doc = self.game(record["game_id"])
        if doc is None:
            return
        doc.setdefault("tags", {})[name] = True
        ops.append(("set", self.view.game_key(record["game_id"]), dumps(doc)))

    def on_Simulated(self, record: EventRecord, ops: list[Op]) -> None:
        doc = self.game(record["game_id"])
        if doc is not None:
            doc.setdefault("tags", {})["simulation"] = record.get("simulation_id")
            ops.append(("set", self.view.game_key(record["game_id"]), dumps(doc)))

    def on_ForkedFrom(self, record: EventRecord, ops: list[Op]) -> None:
        self._tag(record, ops, "forked")

    def on_Imported(self, record: EventRecord, ops: list[Op]) -> None:
        self._tag(record, ops, "imported")

    def on_MovesUndone(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.game(game_id)
        if doc is None or not doc["finished"]:
            return
        key = self.view.counters_key(doc["game_type"])
        ops += [("hincrby", key, name, -value) for name, value in sorted(doc["counters"].items())]
        ops.append(("hdel", self.view.lab_key(doc["game_type"]), game_id))
        doc["finished"], doc["counters"] = False, {}
        ops.append(("set", self.view.game_key(game_id), dumps(doc)))


def game_report(replay: ReplayView, rules_for: Callable[[str], Rules], game_id: str) -> dict[str, Any]:
    """Score over time and action counts of one game, from the replay view."""
    meta, status, entries = effective_entries(replay, game_id)
    timeline = Timeline(meta=meta, moves=entries, effective=entries)
    return game_analytics(rules_for(meta["game_type"]), timeline)
