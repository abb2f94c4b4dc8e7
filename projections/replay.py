"""The replay projection: every move of every game, checkpoints, undo requests.

Per game (keys under ``<prefix>:proj:replay:g:<id>:``):

- ``meta``   what `Created` said (type, players, names, options, setup facts);
- ``status`` ``{"steps", "finished", "undone": [versions], "version"}``;
- ``moves``  hash version -> move entry, every `MovePlayed` (undone ones too);
- ``eff``    list of the versions of the effective moves, in order (step n = eff[:n]);
- ``ckpt``   hash step -> state after that step, for steps 0, K, 2K, ... (K = CHECKPOINT_EVERY);
- ``undo``   hash request id -> undo request (status pending / applied / rejected / expired, votes; a move played after a request expires it).

A finished game's keys are folded into one compressed string ``z`` (projections/
compaction.py); every read below falls back to it when the plain keys are gone, and the
projection expands it back (same commit) when the game gets another event.

The state after step n is ``ckpt[K * (n // K)]`` folded with at most K-1 moves' facts.
An undo to move m trims ``eff`` to m-1 entries and drops the checkpoints after step m-1,
so later steps are rebuilt from the moves played after the undo.
"""

from __future__ import annotations

from typing import Any

from domain.engine import State, Viewer, visible_facts

from .base import GameProjection, keep_first
from .compaction import unpack
from .records import EventRecord
from .actor_words import actor_note
from .redaction import visible_entry, visible_move
from .timeline import fold_moves, game_meta, initial_state, joined_names, move_entry, undo_request
from .views import Op, RedisView, dumps, loads

CHECKPOINT_EVERY = 20


# KEYS: meta, status, ckpt, eff, moves of one game; ARGV: base step, step.
SNAPSHOT_LUA = """
local meta = redis.call('GET', KEYS[1])
if not meta then return false end
local base, step = tonumber(ARGV[1]), tonumber(ARGV[2])
local checkpoint = redis.call('HGET', KEYS[3], ARGV[1])
local entries = {}
if step > 0 then
  local start = base - 1
  if start < 0 then start = 0 end
  local versions = redis.call('LRANGE', KEYS[4], start, step - 1)
  if #versions > 0 then entries = redis.call('HMGET', KEYS[5], unpack(versions)) end
end
return {meta, redis.call('GET', KEYS[2]), checkpoint, entries}
"""


class ReplayView(RedisView):
    """Keys of the replay projection and its queries."""

    def game_key(self, game_id: str, part: str) -> str:
        return self.key("g", game_id, part)

    # ---- reads used by the projection (cache loads)

    def compact(self, game_id: str) -> dict[str, Any] | None:
        """The compact form of a finished game (projections/compaction.py), None if it has none."""
        doc = unpack(self.client.get(self.game_key(game_id, "z")))
        if doc is not None:
            doc["entries"] = {entry["version"]: entry for entry in doc["moves"]}
        return doc

    def load_game(self, game_id: str, every: int) -> dict[str, Any] | None:
        pipe = self.client.pipeline(transaction=True)
        pipe.get(self.game_key(game_id, "meta"))
        pipe.get(self.game_key(game_id, "status"))
        pipe.lrange(self.game_key(game_id, "eff"), 0, -1)
        pipe.hgetall(self.game_key(game_id, "undo"))
        meta, status, eff, undo = pipe.execute()
        if meta is None:
            compact = self.compact(game_id)
            if compact is None:
                return None
            steps = compact["status"]["steps"]
            base = (steps // every) * every
            return {"meta": compact["meta"], "status": compact["status"], "eff": compact["eff"],
                    "undo": compact["undo"], "head": compact["ckpt"].get(str(base)),
                    "entries": {v: compact["entries"][v] for v in compact["eff"][base:steps]},
                    "compacted": compact}
        doc = {
            "meta": loads(meta), "status": loads(status), "eff": [int(v) for v in eff],
            "undo": {k.decode(): loads(v) for k, v in undo.items()}, "entries": {},
        }
        steps = doc["status"]["steps"]
        base = (steps // every) * every
        doc["head"] = loads(self.client.hget(self.game_key(game_id, "ckpt"), base))
        versions = doc["eff"][base:steps]
        doc["entries"].update(zip(versions, self.entries(game_id, versions)))
        return doc

    def entries(self, game_id: str, versions: list[int]) -> list[dict]:
        if not versions:
            return []
        raws = self.client.hmget(self.game_key(game_id, "moves"), versions)
        if any(raw is None for raw in raws):
            compact = self.compact(game_id)
            if compact is not None:
                return [compact["entries"].get(int(v)) for v in versions]
        return [loads(raw) for raw in raws]

    # ---- queries used by the API

    def snapshot(self, game_id: str, step: int, every: int) -> tuple | None:
        """(meta, status, base, checkpoint at step base, move entries of eff[base-1 .. step-1]).

        One Lua call, so one round trip and one consistent read: base = K * (step // K).
        """
        base = (step // every) * every
        keys = [self.game_key(game_id, part) for part in ("meta", "status", "ckpt", "eff", "moves")]
        found = self._snapshot_script(keys=keys, args=[base, step])
        if not found:
            compact = self.compact(game_id)
            if compact is None:
                return None
            versions = compact["eff"][max(base - 1, 0):step] if step > 0 else []
            return (compact["meta"], compact["status"], base, compact["ckpt"].get(str(base)),
                    [compact["entries"][v] for v in versions])
        meta, status, checkpoint, entries = found
        return loads(meta), loads(status), base, loads(checkpoint), [loads(entry) for entry in entries]

    @property
    def _snapshot_script(self):
        script = getattr(self, "_snapshot", None)
        if script is None:
            script = self._snapshot = self.client.register_script(SNAPSHOT_LUA)
        return script

    def all_moves(self, game_id: str) -> tuple[dict | None, dict | None, list[dict], dict]:
        pipe = self.client.pipeline(transaction=True)
        pipe.get(self.game_key(game_id, "meta"))
        pipe.get(self.game_key(game_id, "status"))
        pipe.hgetall(self.game_key(game_id, "moves"))
        pipe.hgetall(self.game_key(game_id, "undo"))
        meta, status, moves, undo = pipe.execute()
        if meta is None:
            compact = self.compact(game_id)
            if compact is not None:
                return compact["meta"], compact["status"], compact["moves"], compact["undo"]
        entries = sorted((loads(raw) for raw in moves.values()), key=lambda e: e["version"])
        return loads(meta), loads(status), entries, {k.decode(): loads(v) for k, v in undo.items()}

    def status(self, game_id: str) -> dict | None:
        status = loads(self.client.get(self.game_key(game_id, "status")))
        if status is None:
            compact = self.compact(game_id)
            return None if compact is None else compact["status"]
        return status

    def expanded(self, suffix: str, compact: Any) -> dict[str, Any]:
        head = suffix[:-len("z")] if suffix.endswith(":z") else suffix + ":"
        parts = {head + "meta": compact["meta"], head + "status": compact["status"], head + "eff": compact["eff"],
                 head + "ckpt": compact["ckpt"], head + "moves": {str(e["version"]): e for e in compact["moves"]}}
        if compact["undo"]:
            parts[head + "undo"] = compact["undo"]
        if not compact["eff"]:
            del parts[head + "eff"]  # an empty list is no key
        return parts

    def expand_ops(self, game_id: str, compact: dict) -> list[Op]:
        """The ops that turn a compact game back into its plain keys (before it changes)."""
        ops: list[Op] = [
            ("delete", self.game_key(game_id, "z")),
            ("set", self.game_key(game_id, "meta"), dumps(compact["meta"])),
            ("set", self.game_key(game_id, "status"), dumps(compact["status"])),
        ]
        if compact["eff"]:
            ops.append(("rpush", self.game_key(game_id, "eff"), *compact["eff"]))
        for part, mapping in (("ckpt", {k: dumps(v) for k, v in compact["ckpt"].items()}),
                              ("moves", {e["version"]: dumps(e) for e in compact["moves"]}),
                              ("undo", {k: dumps(v) for k, v in compact["undo"].items()})):
            if mapping:
                ops.append(("hset", self.game_key(game_id, part), None, None, mapping))
        return ops

    def game_ids(self) -> list[str]:
        return sorted(k.decode() for k in self.client.hkeys(self.key("games")))

    def games(self) -> dict[str, dict]:
        return {k.decode(): loads(v) for k, v in self.client.hgetall(self.key("games")).items()}


class ReplayProjection(GameProjection):
    """Follows `Game` events into the replay view (see the module docstring)."""

    name = "replay"
    view_class = ReplayView
    every = CHECKPOINT_EVERY

    # ---- cache

    _touched: set | None = None
    _expansions: list | None = None

    def doc(self, game_id: str) -> dict[str, Any] | None:
        if self._touched is not None and game_id not in self._touched:
            self._touched.add(game_id)
            cached = self.cache.get(game_id)
            if cached is not None and cached["status"].get("finished"):
                # A game finished in an earlier page may have been compacted since (by the
                # follower, or `heirloom migrate` in another process): read it again.
                del self.cache[game_id]
        return self.cached(game_id, lambda: self._load(game_id))

    def prepare(self, records: Any, after: int, log: str | None = None) -> list[Op]:
        self._touched, self._expansions = set(), []
        try:
            ops = super().prepare(records, after, log)
            return self._expansions + ops  # compact games back to their plain keys first
        finally:
            self._touched, self._expansions = None, None

    def _load(self, game_id: str) -> dict[str, Any] | None:
        """A game's document from Redis, its head state = last checkpoint + the moves after it."""
        doc = self.view.load_game(game_id, self.every)
        if doc is not None and "compacted" in doc:
            compact = doc.pop("compacted")
            if self._expansions is not None:  # (read outside a page: nothing to write)
                self._expansions += self.view.expand_ops(game_id, compact)
            for step, checkpoint in compact["ckpt"].items():  # readable before the commit
                self.pending[game_id, int(step)] = dumps(checkpoint)
            for entry in compact["moves"]:
                self.pending["entry", game_id, entry["version"]] = entry
        if doc is not None:
            steps = doc["status"]["steps"]
            base = (steps // self.every) * self.every
            rules = self.rules(doc["meta"]["game_type"])
            doc["head"] = fold_moves(rules, doc["head"], [doc["entries"][v] for v in doc["eff"][base:steps]])
        return doc

    def entry(self, game_id: str, doc: dict, version: int) -> dict:
        if version in doc["entries"]:
            return doc["entries"][version]
        if ("entry", game_id, version) in self.pending:
            return self.pending["entry", game_id, version]
        return self.view.entries(game_id, [version])[0]

    def _status_op(self, game_id: str, doc: dict) -> Op:
        return ("set", self.view.game_key(game_id, "status"), dumps(doc["status"]))

    # ---- handlers

    def on_Created(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        meta = game_meta(record)
        rules = self.rules(meta["game_type"])
        state = initial_state(rules, meta)
        status = {"steps": 0, "finished": bool(rules.is_over(state)), "undone": [], "version": record["version"]}
        self.cache[game_id] = {"meta": meta, "status": status, "eff": [], "undo": {}, "entries": {},
                               "head": state}
        self.pending[game_id, 0] = dumps(state)
        ops += [
            ("set", self.view.game_key(game_id, "meta"), dumps(meta)),
            ("set", self.view.game_key(game_id, "status"), dumps(status)),
            ("hset", self.view.game_key(game_id, "ckpt"), 0, self.pending[game_id, 0]),
            ("hset", self.view.key("games"), game_id,
             dumps({"game_type": meta["game_type"], "created_at": meta["created_at"]})),
        ]

    def on_SeatJoined(self, record: EventRecord, ops: list[Op]) -> None:
        doc = self.doc(record["game_id"])
        if doc is None:
            return
        doc["meta"]["names"] = joined_names(doc["meta"]["names"], record)
        ops.append(("set", self.view.game_key(record["game_id"], "meta"), dumps(doc["meta"])))

    def on_SeatTakenOver(self, record: EventRecord, ops: list[Op]) -> None:
        self._handed_over(record, record.get("reason") or "left", ops)

    def on_ClockExpired(self, record: EventRecord, ops: list[Op]) -> None:
        if record.get("action") == "forfeit":
            self._handed_over(record, "forfeit", ops)

    def _handed_over(self, record: EventRecord, reason: str, ops: list[Op]) -> None:
        """A seat now played by a bot for good (issue 28.2): its later moves say why in words."""
        doc = self.doc(record["game_id"])
        if doc is None:
            return
        doc["meta"]["takeovers"] = {**doc["meta"].get("takeovers", {}), str(record.get("seat")): reason}
        ops.append(("set", self.view.game_key(record["game_id"], "meta"), dumps(doc["meta"])))

    def on_MovePlayed(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.doc(game_id)
        if doc is None:
            return
        rules = self.rules(doc["meta"]["game_type"])
        entry = move_entry(record)
        doc["head"] = fold_moves(rules, doc["head"], [entry])
        doc["eff"].append(entry["version"])
        status = doc["status"]
        status["steps"] += 1
        status["finished"] = entry["finished"]
        status["version"] = record["version"]
        doc["entries"][entry["version"]] = entry
        ops += [
            ("hset", self.view.game_key(game_id, "moves"), entry["version"], dumps(entry)),
            ("rpush", self.view.game_key(game_id, "eff"), entry["version"]),
            self._status_op(game_id, doc),
        ]
        self.pending["entry", game_id, entry["version"]] = entry
        for request_id, request in doc["undo"].items():  # a later move: pending requests lapse
            if request.get("status") == "pending":
                request["status"] = "expired"
                ops.append(("hset", self.view.game_key(game_id, "undo"), request_id, dumps(request)))
        if status["steps"] % self.every == 0:
            doc["entries"] = {}  # folding restarts from this checkpoint
            checkpoint = self.pending[game_id, status["steps"]] = dumps(doc["head"])
            ops.append(("hset", self.view.game_key(game_id, "ckpt"), status["steps"], checkpoint))

    def on_MovesUndone(self, record: EventRecord, ops: list[Op]) -> None:
        game_id = record["game_id"]
        doc = self.doc(game_id)
        if doc is None:
            return
        rules = self.rules(doc["meta"]["game_type"])
        status = doc["status"]
        keep = max(0, min(int(record.get("to_move") or 1) - 1, status["steps"]))
        undone = [v for v in doc["eff"][keep:]]
        undone += [v for v in record.get("undone_versions") or [] if v not in undone]
        stale = [step for step in range(self.every * (keep // self.every + 1), status["steps"] + 1, self.every)]
        doc["eff"] = doc["eff"][:keep]
        status["steps"] = keep
        status["undone"] = sorted(set(status["undone"]) | set(undone))
        status["version"] = record["version"]
        base = (keep // self.every) * self.every
        head = loads(self.client_checkpoint(game_id, base, doc))
        head = fold_moves(rules, head, [self.entry(game_id, doc, v) for v in doc["eff"][base:keep]])
        doc["head"] = head
        status["finished"] = bool(rules.is_over(head))
        self._request(doc, record)["status"] = "applied"
        ops += list(keep_first(self.view.game_key(game_id, "eff"), keep))
        for step in stale:
            self.pending.pop((game_id, step), None)
        if stale:
            ops.append(("hdel", self.view.game_key(game_id, "ckpt"), *stale))
        ops += [self._status_op(game_id, doc), self._undo_op(game_id, doc, record)]

    def client_checkpoint(self, game_id: str, step: int, doc: dict) -> bytes:
        """A checkpoint's JSON: from this batch's pending writes or from Redis."""
        if (game_id, step) in self.pending:
            return self.pending[game_id, step]
        raw = self.view.client.hget(self.view.game_key(game_id, "ckpt"), step)
        if raw is None:  # never expected; refold from step 0 rather than fail
            rules = self.rules(doc["meta"]["game_type"])
            state = fold_moves(rules, initial_state(rules, doc["meta"]),
                               [self.entry(game_id, doc, v) for v in doc["eff"][:step]])
            return dumps(state)
        return raw

    def on_UndoRequested(self, record: EventRecord, ops: list[Op]) -> None:
        doc = self.doc(record["game_id"])
        if doc is None:
            return
        doc["undo"][record["request_id"]] = undo_request(record)
        ops.append(self._undo_op(record["game_id"], doc, record))

    def on_UndoVoted(self, record: EventRecord, ops: list[Op]) -> None:
        doc = self.doc(record["game_id"])
        if doc is None:
            return
        self._request(doc, record)["votes"][str(record.get("seat"))] = bool(record.get("approve"))
        ops.append(self._undo_op(record["game_id"], doc, record))

    def on_UndoRejected(self, record: EventRecord, ops: list[Op]) -> None:
        self._settle(record, ops, "rejected")

    def on_UndoExpired(self, record: EventRecord, ops: list[Op]) -> None:
        self._settle(record, ops, "expired")

    def _settle(self, record: EventRecord, ops: list[Op], status: str) -> None:
        """A request closed, with the reason why (`outcome`) when the event has one."""
        doc = self.doc(record["game_id"])
        if doc is None:
            return
        request = self._request(doc, record)
        request["status"] = status
        if record.get("reason"):
            request["outcome"] = record.get("reason")
        ops.append(self._undo_op(record["game_id"], doc, record))

    @staticmethod
    def _request(doc: dict, record: EventRecord) -> dict:
        request_id = record.get("request_id")
        if request_id not in doc["undo"]:
            doc["undo"][request_id] = undo_request(record)
        return doc["undo"][request_id]

    def _undo_op(self, game_id: str, doc: dict, record: EventRecord) -> Op:
        request_id = record.get("request_id")
        return ("hset", self.view.game_key(game_id, "undo"), request_id, dumps(doc["undo"][request_id]))


# --------------------------------------------------------------------------- queries


class GameNotProjected(LookupError):
    """The replay view has no such game (unknown id, or not projected yet)."""


class StepOutOfRange(ValueError):
    def __init__(self, step: int, steps: int) -> None:
        super().__init__(f"step {step} is outside 0..{steps}")
        self.step = step
        self.steps = steps


def replay_step(view: ReplayView, rules_for, game_id: str, step: int, caller: Any,
                every: int = CHECKPOINT_EVERY) -> dict[str, Any]:
    """The state after `step` effective moves as `caller` may see it (API.md's replay).

    Costs one checkpoint read and at most `every` - 1 folds of a move's facts. `caller`
    is the write side's `Caller` (its `viewer(finished)` names the kernel viewer).
    """
    snapshot = view.snapshot(game_id, max(step, 0), every)
    if snapshot is None:
        raise GameNotProjected(game_id)
    meta, status, base, checkpoint, entries = snapshot
    if not 0 <= step <= status["steps"]:
        raise StepOutOfRange(step, status["steps"])
    rules = rules_for(meta["game_type"])
    if base > 0:
        step_entry, to_fold = entries[-1], entries[1:]
    else:
        step_entry, to_fold = (entries[-1] if entries else None), entries
    if checkpoint is None:  # a checkpoint is missing (e.g. a rebuild is running): fold from step 0
        return _answer(rules, meta, status, step, caller,
                       fold_moves(rules, initial_state(rules, meta), view.entries(game_id, _eff(view, game_id, step))),
                       step_entry)
    return _answer(rules, meta, status, step, caller, fold_moves(rules, checkpoint, to_fold), step_entry)


def _eff(view: ReplayView, game_id: str, step: int) -> list[int]:
    if step <= 0:
        return []
    return [int(v) for v in view.client.lrange(view.game_key(game_id, "eff"), 0, step - 1)]


def _answer(rules, meta, status, step, caller, state: State, entry: dict | None) -> dict[str, Any]:
    viewer: Viewer = caller.viewer(status["finished"])
    answer = {
        "step": step,
        "steps": status["steps"],
        "state": rules.view(state, viewer),
        "scores": {str(seat): points for seat, points in rules.scores(state).items()},
        "to_act": list(rules.decision(state).seats),
        "over": bool(rules.is_over(state)),
        "move": None, "seat": None, "move_no": None, "version": None, "description": "", "facts": [],
    }
    if entry is not None:
        answer.update(
            move=visible_move(rules, entry, viewer), seat=entry["seat"], move_no=entry["move_no"],
            version=entry["version"], description=entry["description"],
            facts=visible_facts(entry["facts"], viewer), actor=entry.get("actor"),
            actor_note=actor_note(entry.get("actor"), meta.get("names"), entry["seat"], meta.get("takeovers")),
        )
    return answer


def replay_state(view: ReplayView, rules_for, game_id: str, step: int, every: int = CHECKPOINT_EVERY) -> State:
    """The full (unredacted) state after `step` effective moves; for tests and tools."""
    snapshot = view.snapshot(game_id, step, every)
    if snapshot is None:
        raise GameNotProjected(game_id)
    meta, status, base, checkpoint, entries = snapshot
    rules = rules_for(meta["game_type"])
    return fold_moves(rules, checkpoint, entries[1:] if base > 0 else entries)


def moves_log(view: ReplayView, rules_for, game_id: str, caller: Any) -> list[dict[str, Any]]:
    """Every move in the order played, undone ones marked (API.md's moves-log)."""
    meta, status, entries, _ = view.all_moves(game_id)
    if meta is None:
        raise GameNotProjected(game_id)
    viewer = caller.viewer(status["finished"])
    undone = set(status["undone"])
    rules = rules_for(meta["game_type"])
    return [visible_entry(rules, entry, viewer, entry["version"] in undone, meta.get("names"), meta.get("takeovers"))
            for entry in entries]


def history(view: ReplayView, rules_for, game_id: str, caller: Any) -> dict[str, Any]:
    """Effective moves, undone moves and undo requests (the dispute view)."""
    meta, status, entries, undo = view.all_moves(game_id)
    if meta is None:
        raise GameNotProjected(game_id)
    viewer = caller.viewer(status["finished"])
    undone = set(status["undone"])
    rules = rules_for(meta["game_type"])
    listed = [visible_entry(rules, entry, viewer, entry["version"] in undone, meta.get("names"), meta.get("takeovers"))
              for entry in entries]
    return {
        "game": meta["game_type"],
        "steps": status["steps"],
        "finished": status["finished"],
        "effective": [entry for entry in listed if not entry["undone"]],
        "undone": [entry for entry in listed if entry["undone"]],
        "undo_requests": sorted(undo.values(), key=lambda request: request["version"]),
    }


def effective_entries(view: ReplayView, game_id: str) -> tuple[dict, dict, list[dict]]:
    """(meta, status, effective move entries in order), unredacted; for analytics and export."""
    meta, status, entries, _ = view.all_moves(game_id)
    if meta is None:
        raise GameNotProjected(game_id)
    undone = set(status["undone"])
    return meta, status, [entry for entry in entries if entry["version"] not in undone]
