"""The write side: one event-sourced `Game` aggregate per session, and the `GameService`.

The aggregate records what happened (`Created`, `MovePlayed`, the undo workflow) and
holds the live game state, so a move costs one load (from the in-process aggregate
cache, fast-forwarded with one read of newer events) plus one append guarded by
optimistic concurrency. Rules run once, at decision time, through the pure kernel
(`domain.engine.play`); replay only folds the recorded facts with `evolve`.

Every event carries ``prev_hash``/``hash`` of the audit chain (`domain.audit`).

Who may see what is decided here too (`Caller.viewer`), so the HTTP layer only
translates: a seat sees its own hidden information, the referee and spectators see
the public view, and once a game is finished everybody sees everything. The seed
and the token hashes are never part of any view.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import orjson
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import RecordConflictError

from domain.audit import GENESIS, chain_hash
from domain.engine import (
    EVERYONE, SPECTATOR, IllegalMove, Viewer, fold, get_rules, new_game, play,
    reveals_hidden, visible_facts,
)
from domain.engine.facts import PRIVATE_KEY
from domain.engine.text import default_seat_name, name_seats

SNAPSHOT_INTERVAL = 50
REFEREE = "referee"


# --------------------------------------------------------------------------- errors


class ServiceError(Exception):
    """A refusal the API turns into ``{"error": code, "detail": ...}`` with `status`."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class GameNotFound(ServiceError):
    status, code = 404, "game_not_found"


class UnknownGameType(ServiceError):
    status, code = 422, "unknown_game_type"


class InvalidGameSetup(ServiceError):
    status, code = 422, "invalid_game"


class TokenRequired(ServiceError):
    status, code = 401, "token_required"


class InvalidToken(ServiceError):
    status, code = 401, "invalid_token"


class NotYourSeat(ServiceError):
    status, code = 403, "not_your_seat"


class VersionConflict(ServiceError):
    status, code = 409, "version_conflict"


class IdempotencyKeyReused(ServiceError):
    status, code = 422, "idempotency_key_reused"


class GameTypeUnavailable(ServiceError):
    """A stored game whose rules this server does not load (e.g. a test game module)."""

    status, code = 503, "game_type_unavailable"


class UndoNotFound(ServiceError):
    status, code = 404, "undo_not_found"


class InvalidUndo(ServiceError):
    status, code = 422, "invalid_undo"


# --------------------------------------------------------------------------- callers


@dataclass(frozen=True)
class Caller:
    """Who sends a request for one game: a seat, the game's referee, or a spectator."""

    kind: str  # "seat" | "referee" | "spectator"
    seat: int | None = None

    @property
    def actor(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    def viewer(self, finished: bool) -> Viewer:
        """The kernel viewer: everything once finished; the referee sees the public view."""
        if finished:
            return EVERYONE
        return self.seat if self.kind == "seat" else SPECTATOR


SPECTATOR_CALLER = Caller("spectator")
REFEREE_CALLER = Caller(REFEREE)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def json_native(value: Any) -> Any:
    """An orjson round trip: what the store gives back is exactly what we hold live."""
    return orjson.loads(orjson.dumps(value))


def move_digest(move: Any) -> str:
    """A short fingerprint of a move (idempotent retries must repeat the same move)."""
    return hashlib.sha256(orjson.dumps(move, option=orjson.OPT_SORT_KEYS)).hexdigest()


def redact_move(rules: Any, move: dict, facts: list[dict], mover: int, viewer: Viewer) -> dict:
    """A move as `viewer` may see it.

    A game may define ``view_move(move, facts, mover, viewer)`` to say exactly. Otherwise,
    a move whose facts hide something from `viewer` (a secret bid, a card kept) may itself
    name the secret, so such a move shows only its type to anybody but its author.
    """
    if viewer == EVERYONE or viewer == mover:
        return move
    custom = getattr(rules, "view_move", None)
    if custom is not None:
        return custom(move, facts, mover, viewer)
    for record in facts:
        private_to = record.get(PRIVATE_KEY)
        if private_to is not None and viewer not in private_to:
            return {"type": move.get("type"), "hidden": True}
    return move


# --------------------------------------------------------------------------- aggregate


class Game(Aggregate):
    """One game session. Its state is the fold of its setup facts and effective moves."""

    class Event(Aggregate.Event):
        prev_hash: str
        hash: str

    class Created(Event, Aggregate.Created):
        game_type: str
        content_version: str
        players: int
        names: list
        options: dict
        seed: int
        setup_facts: list
        seat_token_hashes: list
        referee_token_hash: str

        def apply(self, game: "Game") -> None:
            game.game_type = self.game_type
            game.content_version = self.content_version
            game.players = self.players
            game.names = list(self.names)
            game.options = dict(self.options)
            game.seed = self.seed
            game.setup_facts = list(self.setup_facts)
            game.seat_token_hashes = list(self.seat_token_hashes)
            game.referee_token_hash = self.referee_token_hash
            game.effective = []
            game.undone_versions = []
            game.undo_requests = {}
            game.idempotency = {}
            game.head_hash = self.hash
            game.set_state(game.replay([]))

    class MovePlayed(Event):
        seat: int
        actor: str
        move: dict
        move_no: int
        facts: list
        idempotency_key: Any
        description: str
        scores: dict
        finished: bool
        #: Random, hashed with the rest and never shown: without it, anybody could find a hidden
        #: fact (a secret bid, the card kept of three) by hashing each guess and comparing with
        #: the public `hash`, since everything else of the event is known or guessable.
        salt: str = ""

        def apply(self, game: "Game") -> None:
            game.effective.append({"version": self.originator_version, "move_no": self.move_no,
                                   "seat": self.seat, "reveals": reveals_hidden(self.facts)})
            if self.idempotency_key is not None:
                game.idempotency[self.idempotency_key] = {
                    "version": self.originator_version, "move_no": self.move_no, "seat": self.seat,
                    "move": move_digest(self.move),
                }
            game.head_hash = self.hash
            if game.state is not None:  # None: stale after an undo, rebuilt by the service
                # A copy of the facts: evolve may keep references into the state and mutate them.
                game.set_state(fold(get_rules(game.game_type).evolve, game.state, json_native(self.facts)))

    class UndoRequested(Event):
        request_id: str
        by: str
        to_move: int
        reason: str

        def apply(self, game: "Game") -> None:
            game.undo_requests[self.request_id] = {
                "request_id": self.request_id, "by": self.by, "to_move": self.to_move,
                "reason": self.reason, "status": "pending", "approvals": [],
                "version": self.originator_version,
            }
            game.head_hash = self.hash

    class UndoVoted(Event):
        request_id: str
        seat: int
        approve: bool

        def apply(self, game: "Game") -> None:
            request = game.undo_requests[self.request_id]
            if self.approve and self.seat not in request["approvals"]:
                request["approvals"].append(self.seat)
            game.head_hash = self.hash

    class MovesUndone(Event):
        request_id: str
        to_move: int
        undone_versions: list

        def apply(self, game: "Game") -> None:
            game.effective = [m for m in game.effective if m["move_no"] < self.to_move]
            game.undone_versions.extend(self.undone_versions)
            game.undo_requests[self.request_id]["status"] = "applied"
            game.head_hash = self.hash
            # The facts of the remaining moves live in the store, not in the aggregate (which
            # stays small, and so do its snapshots): the service refolds them (`replay`).
            game.state = None

    class UndoRejected(Event):
        request_id: str
        by: str

        def apply(self, game: "Game") -> None:
            game.undo_requests[self.request_id]["status"] = "rejected"
            game.head_hash = self.hash

    # ---- construction

    @classmethod
    def start(cls, game_type: str, players: int, names: list[str], options: dict, seed: int,
              seat_token_hashes: list[str], referee_token_hash: str) -> "Game":
        """Set the table up with the rules (random stream 0) and record `Created`."""
        rules = get_rules(game_type)
        _, setup_facts = new_game(rules, players, options, seed)
        fields = {
            "game_type": game_type, "content_version": rules.meta.content_version,
            "players": players, "names": names, "options": options, "seed": seed,
            "setup_facts": json_native(setup_facts), "seat_token_hashes": seat_token_hashes,
            "referee_token_hash": referee_token_hash, "prev_hash": GENESIS,
        }
        fields["hash"] = chain_hash(GENESIS, "Created", 1, fields)
        return cls._create(cls.Created, **fields)

    # ---- derived state

    @property
    def rules(self):
        return get_rules(self.game_type)

    def replay(self, move_facts: Iterable[list]) -> dict:
        """Initial table + setup facts + the facts of the effective moves: replay, exactly."""
        rules = self.rules
        state = rules.initial_state(self.players, self.options)
        state = fold(rules.evolve, state, json_native(self.setup_facts))
        for facts in move_facts:
            state = fold(rules.evolve, state, json_native(facts))
        return state

    def set_state(self, state: dict) -> None:
        rules = self.rules
        self.state = state
        self.finished = bool(rules.is_over(state))
        self.scores = {str(seat): score for seat, score in rules.scores(state).items()}
        self.winners = list(rules.winners(state)) if self.finished else []

    @property
    def last_move_no(self) -> int:
        return self.effective[-1]["move_no"] if self.effective else 0

    @property
    def status(self) -> str:
        return "finished" if self.finished else "active"

    # ---- commands (validate everything first; trigger events last)

    def _trigger(self, event_class: type, **fields: Any) -> None:
        version = self.version + 1
        fields["prev_hash"] = self.head_hash
        fields["hash"] = chain_hash(self.head_hash, event_class.__name__, version, fields)
        self.trigger_event(event_class, **fields)

    def play_move(self, caller: Caller, move: Any, idempotency_key: str | None) -> dict:
        """Decide `move` for the caller's seat and record it; raises IllegalMove/NotYourSeat."""
        if caller.kind != "seat":
            raise NotYourSeat(f"the {caller.kind} may not play moves; use a seat token", rule="ENGINE-TURN-01")
        rules = self.rules
        seat = caller.seat
        if not self.finished:
            decision = rules.decision(self.state)
            if seat not in decision.seats:
                raise NotYourSeat(
                    f"seat {seat} may not act now; waiting for seat(s) {list(decision.seats)}",
                    rule="ENGINE-TURN-01",
                )
        move_no = self.last_move_no + 1
        try:
            after, facts = play(rules, self.state, seat, move, self.seed, move_no)
        except IllegalMove:
            raise
        except Exception:
            # A malformed move can trip a game's decide (a list where an int belongs).
            # When it is not a listed legal move it is the client's error, never a 500.
            if move in rules.legal_moves(self.state, seat):
                raise
            raise IllegalMove("ENGINE-MOVE-02", "this move is not one of the legal moves "
                              "(GET legal-moves lists them)") from None
        facts = json_native(facts)
        description = name_seats(str(rules.describe(self.state, seat, move, facts)), self.names)
        finished = bool(rules.is_over(after))
        scores = {str(s): v for s, v in rules.scores(after).items()}
        self._trigger(self.MovePlayed, seat=seat, actor=caller.actor, move=json_native(move), move_no=move_no,
                      facts=facts, idempotency_key=idempotency_key, description=str(description),
                      scores=scores, finished=finished, salt=secrets.token_hex(16))
        return {"version": self.version, "move_no": move_no, "facts": facts}

    def request_undo(self, caller: Caller, to_move: int, reason: str) -> dict:
        """Open an undo request; apply it at once when the policy allows (see `undo_is_immediate`)."""
        if caller.kind == "spectator":
            raise TokenRequired("undo needs a seat or referee token")
        if not 1 <= to_move <= self.last_move_no:
            raise InvalidUndo(f"to_move must be an effective move number 1..{self.last_move_no}, not {to_move}",
                              rule="ENGINE-UNDO-01")
        request_id = uuid.uuid4().hex
        immediate = self.undo_is_immediate(caller, to_move)
        self._trigger(self.UndoRequested, request_id=request_id, by=caller.actor, to_move=to_move, reason=reason)
        if immediate:
            self._apply_undo(request_id)
        return {"request_id": request_id, "status": self.undo_requests[request_id]["status"]}

    def undo_is_immediate(self, caller: Caller, to_move: int) -> bool:
        """The policy of ARCHITECTURE.md.

        The referee undoes at once. A seat takes back its own last move at once when
        nobody has acted since and the move revealed nothing hidden or random (and the
        game is not finished, which reveals everything). Anything else waits for every
        other seat's approval (a one-seat game has nobody to ask).
        """
        if caller.kind == REFEREE:
            return True
        last = self.effective[-1]
        if (to_move == last["move_no"] and last["seat"] == caller.seat
                and not last["reveals"] and not self.finished):
            return True
        return not self.voters(caller.actor)

    def voters(self, requested_by: str) -> list[int]:
        """Seats whose approval a request by `requested_by` needs."""
        return [seat for seat in range(self.players) if f"seat:{seat}" != requested_by]

    def vote_undo(self, caller: Caller, request_id: str, approve: bool) -> dict:
        request = self.undo_requests.get(request_id)
        if request is None:
            raise UndoNotFound(f"no undo request {request_id!r} in this game")
        if caller.kind == "spectator":
            raise TokenRequired("voting needs a seat or referee token")
        if request["status"] != "pending":
            return {"status": request["status"]}
        if caller.kind == REFEREE:
            if approve:
                self._apply_undo(request_id)
            else:
                self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor)
            return {"status": request["status"]}
        if caller.actor == request["by"]:
            if not approve:  # the requester withdraws
                self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor)
            return {"status": request["status"]}
        self._trigger(self.UndoVoted, request_id=request_id, seat=caller.seat, approve=approve)
        if not approve:
            self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor)
        elif set(self.voters(request["by"])) <= set(request["approvals"]):
            self._apply_undo(request_id)
        return {"status": request["status"]}

    def _apply_undo(self, request_id: str) -> None:
        to_move = self.undo_requests[request_id]["to_move"]
        if to_move > self.last_move_no:  # an earlier undo already removed those moves
            self._trigger(self.UndoRejected, request_id=request_id, by="stale")
            return
        undone = [m["version"] for m in self.effective if m["move_no"] >= to_move]
        self._trigger(self.MovesUndone, request_id=request_id, to_move=to_move, undone_versions=undone)

    # ---- auth

    def caller_for(self, token: str | None) -> Caller:
        """The caller a bearer token stands for in THIS game (constant-time comparisons)."""
        if not token:
            return SPECTATOR_CALLER
        presented = hash_token(token)
        found: Caller | None = None
        for seat, stored in enumerate(self.seat_token_hashes):
            if hmac.compare_digest(presented, stored):
                found = Caller("seat", seat)
        if hmac.compare_digest(presented, self.referee_token_hash):
            found = REFEREE_CALLER
        if found is None:
            raise InvalidToken("this token is not valid for this game")
        return found


# --------------------------------------------------------------------------- application


class GameService(Application):
    """Create, play, inspect and undo games. Thread-safe within one process.

    Commands on one game are serialised by a per-game lock (the aggregate cache holds the
    live object); between processes the store's optimistic concurrency decides, and a
    lost race is a `VersionConflict`.
    """

    name = "heirloom"
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}
    env = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env=dict(env) if env is not None else None)
        self._locks_guard = threading.Lock()
        self._locks: dict[Any, threading.Lock] = {}
        self._index = GameIndex(self)

    # ---- plumbing

    def _lock(self, game_id: uuid.UUID) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _evict(self, game_id: uuid.UUID) -> None:
        if self.repository.cache is not None:
            try:
                self.repository.cache.get(game_id, evict=True)
            except KeyError:
                pass

    def _load(self, key: uuid.UUID) -> Game:
        """The live aggregate (cached; fast-forwarded with one read of newer events)."""
        try:
            game = self.repository.get(key)
        except AggregateNotFoundError:
            raise GameNotFound(f"no game {str(key)!r}") from None
        except KeyError as error:
            if "unknown game type" not in str(error):
                raise
            raise GameTypeUnavailable(f"game {key} needs rules this server does not load: {error.args[0]}") from None
        if game.state is None:
            self._restore_state(game)
        return game

    def _restore_state(self, game: Game) -> None:
        """After an undo: refold the effective moves' facts, read from the store."""
        effective = {record["version"] for record in game.effective}
        stored = self.events.get(game.id, gt=1, lte=game.version)
        game.set_state(game.replay(event.facts for event in stored
                                   if type(event).__name__ == "MovePlayed" and event.originator_version in effective))

    def _stored_event(self, game: Game, version: int) -> Any:
        return next(iter(self.events.get(game.id, gt=version - 1, lte=version)))

    def _take_snapshots(self, processing_event: Any) -> None:
        """Snapshot the aggregate just saved, from memory (the library would rebuild it from
        the store first). Every `SNAPSHOT_INTERVAL` versions; the state is refolded first if
        an undo left it stale."""
        if self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Game):
                continue
            versions = [e.originator_version for e in processing_event.events if e.originator_id == aggregate.id]
            if any(version % SNAPSHOT_INTERVAL == 0 for version in versions):
                if aggregate.state is None:
                    self._restore_state(aggregate)
                self.snapshots.put([Game.Snapshot.take(aggregate)])

    @staticmethod
    def parse_id(game_id: str) -> uuid.UUID:
        try:
            return uuid.UUID(str(game_id))
        except ValueError:
            raise GameNotFound(f"no game {game_id!r}") from None

    def _read(self, game_id: str, fn):
        key = self.parse_id(game_id)
        with self._lock(key):
            return fn(self._load(key))

    def _command(self, game_id: str, fn):
        """Run `fn(game)` on the cached aggregate and save; on any failure forget the copy."""
        key = self.parse_id(game_id)
        with self._lock(key):
            game = self._load(key)
            try:
                result = fn(game)
                if game.pending_events:
                    self.save(game)
                if game.state is None:
                    self._restore_state(game)
            except (ServiceError, IllegalMove):
                if game.pending_events:  # refused after a change was made: forget the change
                    self._evict(key)
                raise
            except RecordConflictError:
                self._evict(key)
                current = self._load(key).version
                raise VersionConflict("another request changed this game first; reload and retry",
                                      current_version=current) from None
            except BaseException:
                self._evict(key)
                raise
            return result

    # ---- use cases

    def create_game(self, game_type: str, players: int, names: list[str] | None = None,
                    options: dict | None = None, seed: int | None = None) -> dict:
        try:
            rules = get_rules(game_type)
        except KeyError:
            raise UnknownGameType(f"unknown game type {game_type!r}", game=game_type) from None
        meta = rules.meta
        if not isinstance(players, int) or not meta.min_players <= players <= meta.max_players:
            raise InvalidGameSetup(
                f"{game_type} takes {meta.min_players} to {meta.max_players} players, not {players}",
                rule="ENGINE-PLAYERS-01")
        names = list(names) if names else [default_seat_name(seat) for seat in range(players)]
        if len(names) != players:
            raise InvalidGameSetup(f"{len(names)} names given for {players} players")
        if seed is None:
            seed = secrets.randbits(63)
        seat_tokens = [secrets.token_urlsafe(32) for _ in range(players)]
        referee_token = secrets.token_urlsafe(32)
        try:
            game = Game.start(game_type, players, names, json_native(options or {}), seed,
                              [hash_token(t) for t in seat_tokens], hash_token(referee_token))
        except IllegalMove as error:
            raise InvalidGameSetup(error.detail, rule=error.rule_id) from None
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            # Options are client input; a game that trips over odd ones refuses them.
            raise InvalidGameSetup(f"these options are not valid for {game_type}: {error}") from None
        self.save(game)
        return {
            "id": str(game.id), "game": game_type, "version": game.version,
            "seats": [{"seat": seat, "token": token, "name": names[seat]} for seat, token in enumerate(seat_tokens)],
            "referee_token": referee_token,
        }

    def caller(self, game_id: str, token: str | None) -> Caller:
        return self._read(game_id, lambda game: game.caller_for(token))

    def game_view(self, game_id: str, token: str | None) -> dict:
        def view(game: Game) -> dict:
            caller = game.caller_for(token)
            rules = game.rules
            decision = rules.decision(game.state)
            return {
                "id": str(game.id), "game": game.game_type, "version": game.version,
                "status": game.status, "to_act": list(decision.seats), "move_count": game.last_move_no,
                # A copy: the live state changes in place while the answer is being written.
                "state": json_native(rules.view(game.state, caller.viewer(game.finished))),
                "scores": game.scores, "winners": game.winners,
                "players": game.players, "names": game.names, "decision": decision.to_json(),
                "you": {"role": caller.kind, "seat": caller.seat},
                "undo_requests": [self._public_request(r) for r in game.undo_requests.values()
                                  if r["status"] == "pending"],
            }
        return self._read(game_id, view)

    @staticmethod
    def _public_request(request: dict) -> dict:
        return {key: request[key] for key in ("request_id", "by", "to_move", "reason", "status", "approvals")}

    def legal_moves(self, game_id: str, token: str | None) -> dict:
        def moves(game: Game) -> dict:
            caller = game.caller_for(token)
            if caller.kind == "spectator":
                raise TokenRequired("legal moves are listed for a seat token")
            if caller.kind != "seat" or game.finished:
                return {"version": game.version, "moves": []}
            return {"version": game.version, "moves": json_native(game.rules.legal_moves(game.state, caller.seat))}
        return self._read(game_id, moves)

    def play(self, game_id: str, token: str | None, move: Any, expected_version: int | None = None,
             idempotency_key: str | None = None) -> dict:
        """Play one move; returns {version, move_no, facts (as the mover sees them), replayed}.

        A retry with the same Idempotency-Key returns the first answer and appends nothing,
        even when the first attempt won a race this attempt lost.
        """
        try:
            return self._command(game_id, self._play_command(token, move, expected_version, idempotency_key))
        except VersionConflict:
            if idempotency_key is None:
                raise
            return self._command(game_id, self._play_command(token, move, None, idempotency_key, retry_only=True))

    def _play_command(self, token: str | None, move: Any, expected_version: int | None,
                      idempotency_key: str | None, retry_only: bool = False):
        def command(game: Game) -> dict:
            caller = game.caller_for(token)
            if caller.kind == "spectator":
                raise TokenRequired("playing a move needs a seat token")
            if idempotency_key is not None and idempotency_key in game.idempotency:
                first = game.idempotency[idempotency_key]
                if first["seat"] != caller.seat or first["move"] != move_digest(move):
                    raise IdempotencyKeyReused("this Idempotency-Key was used for a different move")
                facts = self._stored_event(game, first["version"]).facts
                return self._move_answer(game, {**first, "facts": facts}, caller, replayed=True)
            if retry_only or (expected_version is not None and expected_version != game.version):
                shown = expected_version if expected_version is not None else "another version"
                raise VersionConflict(f"expected version {shown}, the game is at {game.version}",
                                      current_version=game.version)
            result = game.play_move(caller, move, idempotency_key)
            return self._move_answer(game, result, caller, replayed=False)
        return command

    @staticmethod
    def _move_answer(game: Game, record: dict, caller: Caller, replayed: bool) -> dict:
        viewer = caller.viewer(game.finished)
        return {"version": record["version"], "move_no": record["move_no"],
                "facts": visible_facts(record["facts"], viewer), "status": game.status, "replayed": replayed}

    def request_undo(self, game_id: str, token: str | None, to_move: int, reason: str = "") -> dict:
        return self._command(game_id, lambda game: game.request_undo(game.caller_for(token), to_move, reason))

    def vote_undo(self, game_id: str, token: str | None, request_id: str, approve: bool) -> dict:
        return self._command(game_id, lambda game: game.vote_undo(game.caller_for(token), request_id, approve))

    def event_log(self, game_id: str, token: str | None, after: int = 0, limit: int = 100) -> dict:
        """The audit log of one game, every event (undone ones marked), redacted for the caller."""
        def listing(game: Game) -> dict:
            caller = game.caller_for(token)
            viewer = caller.viewer(game.finished)
            undone = set(game.undone_versions)
            stored = self.events_store_get(game.id, after, limit, game.version)
            rules = game.rules
            return {"events": [event_record(rules, event, viewer, undone) for event in stored]}
        return self._read(game_id, listing)

    def events_store_get(self, game_id: uuid.UUID, after: int, limit: int, upto: int) -> Iterable:
        return self.events.get(game_id, gt=after, lte=upto, limit=limit)

    def list_games(self, game: str | None = None, status: str | None = None) -> list[dict]:
        return self._index.list(game, status)

    def game(self, game_id: str) -> Game:
        """The live aggregate itself (for tests and internal tools; do not mutate)."""
        return self._read(game_id, lambda game: game)

    def rebuilt(self, game_id: str) -> Game:
        """The aggregate rebuilt from the store alone (snapshot + later events), bypassing
        the cache: what a freshly started process would load."""
        key = self.parse_id(game_id)
        version = self.game(game_id).version
        game = self.repository.get(key, version=version)
        if game.state is None:
            self._restore_state(game)
        return game


def event_record(rules: Any, event: Any, viewer: Viewer, undone_versions: set[int]) -> dict:
    """One stored event as a caller may see it (API.md's events listing)."""
    kind = type(event).__name__
    record = {
        "version": event.originator_version, "type": kind, "move_no": None, "seat": None,
        "actor": None, "move": None, "facts": [], "recorded_at": event.timestamp.isoformat(),
        "undone": event.originator_version in undone_versions,
        "hash": event.hash, "prev_hash": event.prev_hash,
    }
    if kind == "Created":
        record["actor"] = "system"
        record["facts"] = visible_facts(event.setup_facts, viewer)
        record["payload"] = {"game_type": event.game_type, "content_version": event.content_version,
                             "players": event.players, "names": list(event.names), "options": event.options}
    elif kind == "MovePlayed":
        record.update(move_no=event.move_no, seat=event.seat, actor=event.actor,
                      move=redact_move(rules, event.move, event.facts, event.seat, viewer),
                      facts=visible_facts(event.facts, viewer))
        record["payload"] = {"scores": event.scores, "finished": event.finished}
    elif kind == "UndoRequested":
        record["actor"] = event.by
        record["payload"] = {"request_id": event.request_id, "to_move": event.to_move, "reason": event.reason}
    elif kind == "UndoVoted":
        record.update(actor=f"seat:{event.seat}", seat=event.seat)
        record["payload"] = {"request_id": event.request_id, "approve": event.approve}
    elif kind == "MovesUndone":
        record["payload"] = {"request_id": event.request_id, "to_move": event.to_move,
                             "undone_versions": list(event.undone_versions)}
    elif kind == "UndoRejected":
        record["actor"] = event.by
        record["payload"] = {"request_id": event.request_id}
    return record


class GameIndex:
    """The list of games for GET /games, following the application's notification log.

    Each notification is read once per process (incrementally, on demand), so listing
    does not load aggregates. Status follows `MovePlayed.finished` and `MovesUndone`.
    """

    BATCH = 500

    def __init__(self, app: GameService) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._position = 0
        self._games: dict[str, dict] = {}

    def _catch_up(self) -> None:
        recorder = self._app.recorder
        while True:
            notifications = recorder.select_notifications(self._position, self.BATCH, inclusive_of_start=False)
            if not notifications:
                return
            for notification in notifications:
                self._position = notification.id
                if ":Game." not in notification.topic:
                    continue
                event = self._app.mapper.to_domain_event(notification)
                self._apply(event)
            if len(notifications) < self.BATCH:
                return

    def _apply(self, event: Any) -> None:
        kind = type(event).__name__
        key = str(event.originator_id)
        if kind == "Created":
            self._games[key] = {"id": key, "game": event.game_type, "status": "active",
                                "version": event.originator_version, "players": event.players,
                                "names": list(event.names), "created_at": event.timestamp.isoformat()}
            return
        entry = self._games.get(key)
        if entry is None:
            return
        entry["version"] = event.originator_version
        if kind == "MovePlayed":
            entry["status"] = "finished" if event.finished else "active"
        elif kind == "MovesUndone":
            entry["status"] = "active"

    def list(self, game: str | None, status: str | None) -> list[dict]:
        with self._lock:
            self._catch_up()
            return [dict(entry) for entry in self._games.values()
                    if (game is None or entry["game"] == game) and (status is None or entry["status"] == status)]
