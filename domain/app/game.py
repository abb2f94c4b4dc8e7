"""The `Game` aggregate: one game session, its events, and the undo workflow.

The aggregate records what happened (`Created`, `MovePlayed`, the undo events) and holds
the live state: the fold of the setup facts and the facts of the effective moves. Rules
run once, at decision time, through the pure kernel (`domain.engine.play`); applying an
event only folds recorded facts with `evolve`, so a past game replays exactly even after
a rules fix. After an undo the aggregate refolds its state from the facts it keeps of its
effective moves: it never needs the store to rebuild itself.

Every event carries ``prev_hash``/``hash`` of the audit chain (`domain.audit`).
Stored games are forever: events keep their names and fields (new fields get defaults);
snapshots carry `class_version` and are upcast (`upcast_v1_v2`).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from typing import Any, Iterable

import orjson
from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain.audit import GENESIS, chain_hash
from domain.engine import IllegalMove, fold, get_rules, new_game, play, reveals_hidden
from domain.engine.text import name_seats

from .callers import REFEREE, Caller, identify
from .errors import InvalidUndo, NotYourSeat, TokenRequired, UndoNotFound


def json_native(value: Any) -> Any:
    """An orjson round trip: what the store gives back is exactly what we hold live."""
    return orjson.loads(orjson.dumps(value))


def move_digest(move: Any) -> str:
    """A short fingerprint of a move (idempotent retries must repeat the same move)."""
    return hashlib.sha256(orjson.dumps(move, option=orjson.OPT_SORT_KEYS)).hexdigest()


class Game(Aggregate):
    """One game session. Its state is the fold of its setup facts and effective moves."""

    #: 2: each `effective` entry keeps its move's facts (the aggregate refolds itself after
    #: an undo). Version 1 snapshots lack them: see `upcast_v1_v2`.
    class_version = 2

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        """A v1 snapshot has no facts in `effective`: mark it, so the application loads the
        game from its events instead (`needs_events`), which fills them in."""
        state["needs_events"] = True

    needs_events = False
    #: Bot seats ("seat" -> level); snapshots taken before bots existed lack it.
    bots: dict | None = None

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
        #: Bot seats, {"1": "normal"}. Absent from games stored before bots existed (None).
        bots: dict | None = None

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
            game.bots = dict(self.bots or {})
            game.effective = []
            game.undone_versions = []
            game.undo_requests = {}
            game.idempotency = {}
            game.head_hash = self.hash
            game.refold()

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
                                   "seat": self.seat, "reveals": reveals_hidden(self.facts),
                                   "facts": self.facts})
            if self.idempotency_key is not None:
                game.idempotency[self.idempotency_key] = {
                    "version": self.originator_version, "move_no": self.move_no, "seat": self.seat,
                    "move": move_digest(self.move),
                }
            game.head_hash = self.hash
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
            game.refold()

    class UndoRejected(Event):
        request_id: str
        by: str

        def apply(self, game: "Game") -> None:
            game.undo_requests[self.request_id]["status"] = "rejected"
            game.head_hash = self.hash

    # ---- construction

    @classmethod
    def start(cls, game_type: str, players: int, names: list[str], options: dict, seed: int,
              seat_token_hashes: list[str], referee_token_hash: str, bots: dict | None = None) -> "Game":
        """Set the table up with the rules (random stream 0) and record `Created`."""
        rules = get_rules(game_type)
        _, setup_facts = new_game(rules, players, options, seed)
        fields = {
            "game_type": game_type, "content_version": rules.meta.content_version,
            "players": players, "names": names, "options": options, "seed": seed,
            "setup_facts": json_native(setup_facts), "seat_token_hashes": seat_token_hashes,
            "referee_token_hash": referee_token_hash, "bots": dict(bots or {}), "prev_hash": GENESIS,
        }
        fields["hash"] = chain_hash(GENESIS, "Created", 1, fields)
        return cls._create(cls.Created, **fields)

    # ---- derived state

    @property
    def rules(self):
        return get_rules(self.game_type)

    def replay(self, move_facts: Iterable[list]) -> dict:
        """Initial table + setup facts + the facts of `move_facts`: replay, exactly."""
        rules = self.rules
        state = rules.initial_state(self.players, self.options)
        state = fold(rules.evolve, state, json_native(self.setup_facts))
        for facts in move_facts:
            state = fold(rules.evolve, state, json_native(facts))
        return state

    def refold(self) -> None:
        """Rebuild the state from the setup and the facts of the effective moves it keeps."""
        if self.needs_events:  # a v1 snapshot's copy: the application reloads it from its events
            self.state = None
            return
        self.set_state(self.replay(entry["facts"] for entry in self.effective))

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

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot playing `seat`, or None for a person."""
        return (self.bots or {}).get(str(seat))

    def caller_for(self, token: str | None) -> Caller:
        """The caller a bearer token stands for in THIS game."""
        return identify(token, self.seat_token_hashes, self.referee_token_hash)

    # ---- commands (validate everything first; trigger events last)

    def _trigger(self, event_class: type, **fields: Any) -> None:
        version = self.version + 1
        fields["prev_hash"] = self.head_hash
        fields["hash"] = chain_hash(self.head_hash, event_class.__name__, version, fields)
        self.trigger_event(event_class, **fields)

    def play_move(self, caller: Caller, move: Any, idempotency_key: str | None, actor: str | None = None) -> dict:
        """Decide `move` for the caller's seat and record it; raises IllegalMove/NotYourSeat.
        `actor` overrides who is recorded as playing it (a bot seat: "bot:<level>")."""
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
        self._trigger(self.MovePlayed, seat=seat, actor=actor or caller.actor, move=json_native(move), move_no=move_no,
                      facts=facts, idempotency_key=idempotency_key, description=str(description),
                      scores=scores, finished=finished, salt=secrets.token_hex(16))
        return {"version": self.version, "move_no": move_no, "facts": facts, "description": str(description)}

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


#: Events and snapshots stored before the split name `domain.service:Game...`.
register_topic("domain.service:Game", Game)
