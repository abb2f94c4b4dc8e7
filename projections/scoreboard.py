"""The scoreboard projection: scores after every move; leaderboards per game type.

Per game (``<prefix>:proj:scoreboard:g:<id>:``): ``meta`` (type, names, finished) and
``history``, a list of ``{"move_no", "scores"}`` starting with the scores after setup
(move 0); an undo to move m trims it to moves 0..m-1.

Per game type (``t:<type>:``): ``results``, one entry per finished rated game (names, final
scores, winners, the notification id it finished at), ``leaders``, one entry per
player name (games, wins, rating, score total; a cooperative type's entries are its team
record, without a rating), and ``imports``, the results of imported games, listed apart.

Ratings count games between people only (issue 27.4): a game with a bot seat (`Created.bots`),
a simulation's game (`Simulated`), a fork (`ForkedFrom`) and an imported game (`Imported`) keep
their scores but count for no rating. A store written before this rule keeps its leaderboards
until `heirloom projections rebuild scoreboard`. A finished game updates the leaders
incrementally (`rating.apply_result`); an undo that reopens a finished game removes its
result and recomputes the game type's leaders from the remaining results in finishing
order, which is what a rebuild computes too. A result is a game's contribution, keyed by
its id: a finish whose game has a result already (a replayed partition), or that is older
than the newest result (partitions of a cluster log are followed one after the other),
recomputes the leaders from all results in finishing order instead of adding it, so the
leaders stay the same function of the results however often a game is replayed. On a
partitioned log a result also holds ``at``, its finishing time, which orders results of
different partitions (a notification id orders one partition only).
"""

from __future__ import annotations

from typing import Any

from .base import GameProjection, keep_first
from .compaction import unpack
from .rating import apply_result, leaderboard, replay_results, team_record
from .records import EventRecord
from .summary import summarize_game
from .timeline import build_timeline, game_meta, initial_state, joined_names
from .views import Op, RedisView, dumps, loads


class ScoreboardView(RedisView):
    def game_key(self, game_id: str, part: str) -> str:
        return self.key("g", game_id, part)

    def type_key(self, game_type: str, part: str) -> str:
        return self.key("t", game_type, part)

    def scores(self, game_id: str) -> dict[str, Any] | None:
        pipe = self.client.pipeline(transaction=True)
        pipe.get(self.game_key(game_id, "meta"))
        pipe.lrange(self.game_key(game_id, "history"), 0, -1)
        meta, history = pipe.execute()
        if meta is None:
            return None
        if history:
            history = [loads(item) for item in history]
        else:  # a finished game's history is compact (projections/compaction.py)
            history = unpack(self.client.get(self.game_key(game_id, "history:z"))) or []
        meta = loads(meta)
        return {
            "game": meta["game_type"],
            "names": meta["names"],
            "finished": meta["finished"],
            "winners": meta.get("winners", []),
            "scores": history[-1]["scores"] if history else {},
            "history": history,
        }

    def leaders(self, game_type: str) -> list[dict[str, Any]]:
        entries = {k.decode(): loads(v) for k, v in self.client.hgetall(self.type_key(game_type, "leaders")).items()}
        return leaderboard(entries)

    def team_record(self, game_type: str) -> list[dict[str, Any]]:
        entries = {k.decode(): loads(v) for k, v in self.client.hgetall(self.type_key(game_type, "leaders")).items()}
        return team_record(entries)

    def imports(self, game_type: str) -> list[dict[str, Any]]:
        """Finished imported games of this type (not rated), newest first."""
        rows = [loads(v) for v in self.client.hvals(self.type_key(game_type, "imports"))]
        rows.sort(key=lambda row: (row.get("at", ""), row["seq"]), reverse=True)
        return [{key: row[key] for key in ("game_id", "names", "scores", "winners")} for row in rows]

    def results(self, game_type: str) -> dict[str, dict]:
        return {k.decode(): loads(v) for k, v in self.client.hgetall(self.type_key(game_type, "results")).items()}


class ScoreboardProjection(GameProjection):
    name = "scoreboard"
    view_class = ScoreboardView

    def game(self, game_id: str) -> dict | None:
        return self.cached(("g", game_id), lambda: loads(self.view.client.get(self.view.game_key(game_id, "meta"))))

    def game_type_doc(self, game_type: str) -> dict:
        """The type's results and leader entries, loaded once (kept in step with every change)."""
        def load() -> dict:
            leaders = self.view.client.hgetall(self.view.type_key(game_type, "leaders"))
            return {"results": self.view.results(game_type),
                    "leaders": {k.decode(): loads(v) for k, v in leaders.items()}}
        return self.cached(("t", game_type), load)

    def on_Created(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        meta = game_meta(record)
        rules = self.rules(meta["game_type"])
        start = {str(seat): points for seat, points in rules.scores(initial_state(rules, meta)).items()}
        doc = {"game_type": meta["game_type"], "names": meta["names"], "players": meta["players"],
               "finished": False, "winners": [], "moves": 0}
        if record.get("bots"):      # a bot seat: not a game between people, no rating
            doc["unrated"] = True
        self.cache[("g", game_id)] = doc
        ops += [("set", self.view.game_key(game_id, "meta"), dumps(doc)),
                ("rpush", self.view.game_key(game_id, "history"), dumps({"move_no": 0, "scores": start}))]

    def on_ForkedFrom(self, record: EventRecord, ops: list[Op]) -> None:
        self._unrated(record, ops)

    def on_Imported(self, record: EventRecord, ops: list[Op]) -> None:
        self._unrated(record, ops, imported=True)

    def on_Simulated(self, record: EventRecord, ops: list[Op]) -> None:
        self._unrated(record, ops)

    def on_SeatTakenOver(self, record: EventRecord, ops: list[Op]) -> None:
        self._unrated(record, ops)   # a seat left to a bot (issue 28.2): the game no longer counts

    def on_ClockExpired(self, record: EventRecord, ops: list[Op]) -> None:
        if record.get("action") == "forfeit":
            self._unrated(record, ops)   # the seat went to a bot for good, as if it had left

    def _unrated(self, record: EventRecord, ops: list[Op], imported: bool = False) -> None:
        """Forks, imported and simulated games keep their scores but stay out of the leaderboards."""
        doc = self.game(record["game_id"])
        if doc is None:
            return
        doc["unrated"] = True
        if imported:
            doc["imported"] = True
        ops.append(("set", self.view.game_key(record["game_id"], "meta"), dumps(doc)))

    def on_SeatJoined(self, record: EventRecord, ops: list[Op]) -> None:
        doc = self.game(record["game_id"])
        if doc is None:
            return
        doc["names"] = joined_names(doc["names"], record)
        ops.append(("set", self.view.game_key(record["game_id"], "meta"), dumps(doc)))

    def on_MovePlayed(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.game(game_id)
        if doc is None:
            return
        scores = {str(k): v for k, v in (record.get("scores") or {}).items()}
        doc["moves"] = record.get("move_no") or doc["moves"] + 1
        ops.append(("rpush", self.view.game_key(game_id, "history"),
                    dumps({"move_no": record.get("move_no"), "scores": scores})))
        if record.get("finished") and not doc["finished"] and doc.get("unrated"):
            doc["finished"] = True
            if doc.get("imported"):   # listed apart: GET /scoreboard/{game} "imports"
                result = self._result(game_id, doc, record)[0]
                ops.append(("hset", self.view.type_key(doc["game_type"], "imports"), game_id, dumps(result)))
        elif record.get("finished") and not doc["finished"]:
            result, summary = self._result(game_id, doc, record)
            doc["finished"], doc["winners"] = True, summary["winners"]
            type_doc = self.game_type_doc(doc["game_type"])
            results = type_doc["results"]
            in_order = game_id not in results and all(finishing_order(r) <= finishing_order(result)
                                                      for r in results.values())
            results[game_id] = result
            ops.append(("hset", self.view.type_key(doc["game_type"], "results"), game_id, dumps(result)))
            if in_order:
                apply_result(type_doc["leaders"], result)
                ops += self._leader_ops(doc["game_type"], type_doc, summary["names"])
            else:
                ops += self._recompute_leaders(doc["game_type"], type_doc)
        ops.append(("set", self.view.game_key(game_id, "meta"), dumps(doc)))

    def _result(self, game_id: str, doc: dict, record: EventRecord) -> tuple[dict, dict]:
        """A finished game's result (names, final scores, winners, when it finished) and summary."""
        timeline = build_timeline(self.game_records(game_id, record["version"]))
        summary = summarize_game(self.rules(doc["game_type"]), timeline)
        result = {"game_id": game_id, "seq": record.get("notification_id", record["version"]),
                  "names": summary["names"], "scores": summary["scores"],
                  "winners": summary["winners"], "cooperative": summary["cooperative"]}
        if self.idempotent:
            result["at"] = record.get("recorded_at") or ""
        return result, summary

    def on_MovesUndone(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.game(game_id)
        if doc is None:
            return
        keep = max(0, int(record.get("to_move") or 1) - 1)
        doc["moves"] = min(doc["moves"], keep)
        compact = unpack(self.view.client.get(self.view.game_key(game_id, "history:z")))
        if compact:  # a compacted finished game reopened: its history back in the list first
            ops += [("delete", self.view.game_key(game_id, "history:z")),
                    ("rpush", self.view.game_key(game_id, "history"), *[dumps(entry) for entry in compact])]
        ops += list(keep_first(self.view.game_key(game_id, "history"), keep + 1))
        if doc["finished"] and doc.get("unrated"):
            doc["finished"] = False
            if doc.get("imported"):
                ops.append(("hdel", self.view.type_key(doc["game_type"], "imports"), game_id))
        elif doc["finished"]:
            doc["finished"], doc["winners"] = False, []
            type_doc = self.game_type_doc(doc["game_type"])
            type_doc["results"].pop(game_id, None)
            ops.append(("hdel", self.view.type_key(doc["game_type"], "results"), game_id))
            ops += self._recompute_leaders(doc["game_type"], type_doc)
        ops.append(("set", self.view.game_key(game_id, "meta"), dumps(doc)))

    def _recompute_leaders(self, game_type: str, type_doc: dict) -> list[Op]:
        """The type's leaders again from all its results in finishing order."""
        type_doc["leaders"] = replay_results(sorted(type_doc["results"].values(), key=finishing_order))
        return [("delete", self.view.type_key(game_type, "leaders")),
                *self._leader_ops(game_type, type_doc, list(type_doc["leaders"]))]

    def _leader_ops(self, game_type: str, type_doc: dict, names: list[str]) -> list[Op]:
        if not names:
            return []
        mapping = {name: dumps(type_doc["leaders"][name]) for name in names}
        return [("hset", self.view.type_key(game_type, "leaders"), None, None, mapping)]


def finishing_order(result: dict) -> tuple:
    """Results in the order their games finished: by time across partitions (``at``, on a
    partitioned log), by notification id within one log, by game id for equal times."""
    return (result.get("at", ""), result["seq"], result["game_id"])
