"""The `Game` aggregate: one game session, its events, and the undo workflow.

The aggregate records what happened (`Created`, `MovePlayed`, the undo events) and holds
the live state: the fold of the setup facts and the facts of the effective moves. Rules
run once, at decision time, through the pure kernel (`domain.engine.play`); applying an
event only folds recorded facts with `evolve`, so a past game replays exactly even after
a rules fix.

The aggregate (and so its snapshot) does not grow with the game's length: the effective
moves are kept as runs of consecutive (move number, version) pairs, undone versions as
ranges, resolved undo requests
for the last `RESOLVED_UNDO_REQUESTS`. For undo it keeps a window: the state after move
`window_base` and the facts of the at most 2 x `WINDOW` effective moves after it; an undo
into the window refolds from there, by itself. An undo further back leaves `state` None
and the application refolds the effective moves' facts read from the store (`restore`).

The one thing that grows is `idempotency`, on purpose: every Idempotency-Key of the game's
life, as a 12-character digest -> the version of the move it answered (about 20 bytes per keyed
move), so that a late retry of a keyed move is answered, never appended twice (issue 30.8; it
kept the last 64 keys before). The retry is checked against the stored event itself (its
seat, move and key), so a digest collision is never taken for a retry.

Every event carries ``prev_hash``/``hash`` of the audit chain (`domain.audit`).
Stored games are forever: events keep their names and fields (new fields get defaults);
snapshots carry `class_version` and are upcast (`upcast_v1_v2`, `upcast_v2_v3`, `upcast_v3_v4`).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from typing import Any, Iterable

import orjson
from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain.audit import GENESIS, chain_hash
from domain.engine import IllegalMove, fold, get_rules, new_game, play, reveals_hidden
from domain.engine.legacy import FIRST_RELEASE, RULES_RELEASE
from domain.engine.redeal import forked_position_fact
from domain.engine.text import name_seats

from .callers import REFEREE, Caller, identify
from .errors import (
    AnalysisLocked, CannotLeave, InvalidUndo, InviteNotFound, InviteUsed, NameTaken, NotYourSeat, TokenRequired, UndoConflict, UndoNotFound,
)
from .clocks import deadlines, new_clock, remaining, tick
from .seeds import commitment, move_seed
from .table import stored_table


def json_native(value: Any) -> Any:
    """An orjson round trip: what the store gives back is exactly what we hold live."""
    return orjson.loads(orjson.dumps(value))


#: Before release 4 of the snapshot, Idempotency-Keys were remembered for this many moves only.
IDEMPOTENCY_KEYS = 64
#: Resolved (applied or rejected) undo requests kept; pending ones are all kept.
RESOLVED_UNDO_REQUESTS = 16
#: The undo window holds the facts of between WINDOW and 2 x WINDOW effective moves.
WINDOW = 16
#: A pending undo request expires after this many seconds without settling (TABLE-UNDO-08).
UNDO_REQUEST_TTL_S = 600.0
#: An undo request's reason has at most this many characters (TABLE-UNDO-10).
MAX_UNDO_REASON = 200


def key_digest(key: str) -> str:
    """The compact form an Idempotency-Key is remembered by (72 bits, urlsafe base64)."""
    return base64.urlsafe_b64encode(hashlib.sha256(str(key).encode("utf-8")).digest()[:9]).decode()


def move_digest(move: Any) -> str:
    """A short fingerprint of a move (idempotent retries must repeat the same move)."""
    return hashlib.sha256(orjson.dumps(move, option=orjson.OPT_SORT_KEYS)).hexdigest()


class Game(Aggregate):
    """One game session. Its state is the fold of its setup facts and effective moves."""

    #: 2: each `effective` entry kept its move's facts. 3: bounded (see the module docstring).
    #: 4: every Idempotency-Key of the game, as digest -> version.
    class_version = 4

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        """A v1 snapshot has no facts in `effective` (v3 needs none: see upcast_v2_v3)."""
        state["needs_events"] = True

    @staticmethod
    def upcast_v2_v3(state: dict) -> None:
        """The effective-move list becomes runs, undone versions ranges, the memories bounded;
        the undo window starts empty (an undo right after loading refolds from the store)."""
        state.pop("needs_events", None)
        effective = state.pop("effective", [])
        runs: list[list[int]] = []
        for entry in effective:
            _extend_runs(runs, entry["move_no"], entry["version"])
        state["runs"] = runs
        state["last_move"] = ({"move_no": effective[-1]["move_no"], "seat": effective[-1]["seat"],
                               "reveals": effective[-1]["reveals"]} if effective else None)
        ranges: list[list[int]] = []
        for version in sorted(state.pop("undone_versions", [])):
            _extend_ranges(ranges, version)
        state["undone_ranges"] = ranges
        state["idempotency"] = _bounded(dict(state.get("idempotency", {})), IDEMPOTENCY_KEYS)
        state["undo_requests"] = _trim_requests(dict(state.get("undo_requests", {})))
        state["window"] = []
        state["window_base"] = state["runs"][-1][0] + state["runs"][-1][2] - 1 if runs else 0
        state["window_state"] = None

    @staticmethod
    def upcast_v3_v4(state: dict) -> None:
        """Idempotency-Keys become digest -> version. A v3 snapshot kept only the last 64 keys, so
        the aggregate is folded from its events once (`needs_events`), which remember them all;
        its next snapshot is complete."""
        state["idempotency"] = {key_digest(key): entry["version"]
                                for key, entry in dict(state.get("idempotency", {})).items()}
        state["needs_events"] = True

    needs_events = False
    #: Bot seats ("seat" -> level); snapshots taken before bots existed lack it.
    bots: dict | None = None
    #: Invitation seating: invite hash -> {"seat", "used"} (`SeatsInvited`, `SeatJoined`);
    #: empty for games whose seats got tokens at creation (and games stored before invites).
    invites = {}  # replaced, never mutated in place
    #: {"id", "step"} of the game this one was forked from (`ForkedFrom`), else None.
    forked_from = None
    #: True for a game rebuilt from a record (`Imported`).
    imported = False
    #: True for an imported game that is not over (`PracticeStarted`): its setup and seed are public.
    practice = False
    #: {"id", "index"} of the simulation that played this game (`Simulated`), else None.
    simulation = None
    #: The release of the rules that decided its moves (domain/engine/legacy.py), from `Created`;
    #: games stored before it was recorded are release 1 (snapshots of them lack it too).
    rules_release = FIRST_RELEASE
    #: The table's options (domain/app/table.py), from `Created.table`; stored games lack it (defaults).
    table_recorded: dict | None = None
    #: When the latest move by a person was recorded (epoch seconds; bot pacing), None if none yet.
    person_moved_at: float | None = None
    #: Committed randomness (domain/app/seeds.py), from `Created`: the public commitment, the secret
    #: material, and whether the creator chose the seed. Games stored before it have none of them.
    seed_commitment: str | None = None
    seed_material: str | None = None
    seed_chosen = False
    #: The seats' entropy counted in the move seed ([{"seat", "entropy"}]): given before the first move.
    contributions: tuple | list = ()
    #: True once a move was played (an undo does not reset it): the move seed is fixed from then on.
    moved = False
    #: Seats that passed the current step to the bots (`SeatPassed`, TABLE-BOT-04): seat (str) -> the
    #: prompt of the decision they passed; replaced, never mutated in place.
    passes = {}

    #: The seats' clocks (domain/app/clocks.py) when the table has one; folded from the events' times.
    clock: dict | None = None
    #: Seats handed to a bot for good: {"1": {"level": "normal", "reason": "left"|"forfeit"}} (`SeatTakenOver`).
    takeovers: dict | None = None
    #: Seats whose clock ran out on the decision now asked of them: {"0": "bot"|"skip"} (`ClockExpired`);
    #: a bot plays that decision for them (actor `clock:bot:normal`), then the seat is theirs again.
    expired: dict | None = None
    #: The latest reopening of this game once finished (`Reopened`): {"at": the move it reopened after,
    #: "reason", "by", "times", "seed_commitment", "seed_material": the new secret seed, "position": the
    #: position there with every card a spectator could not see dealt again}; None if never reopened.
    reopened: dict | None = None

    class Event(Aggregate.Event):
        prev_hash: str
        hash: str

        def mutate(self, aggregate: Any) -> Any:
            """Every event also moves the table's clocks on, by its own time (none: nothing to do)."""
            aggregate = super().mutate(aggregate)
            if aggregate is not None and aggregate.clock_of_table() is not None:
                aggregate.tick_clock(self)
            return aggregate

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
        #: The rules release it was created under (records name it); absent before (None: release 1).
        rules_release: int | None = None
        #: The table's options (domain/app/table.py); absent before they existed (None: the defaults).
        table: dict | None = None
        #: Committed randomness (domain/app/seeds.py); absent before it existed, None when the creator
        #: chose the seed (`seed_chosen`). `contributions`: entropy known at creation (an import's).
        seed_commitment: str | None = None
        seed_material: str | None = None
        seed_chosen: bool | None = None
        contributions: list | None = None

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
            game.rules_release = self.rules_release or FIRST_RELEASE
            game.table_recorded = dict(self.table) if self.table else None
            game.seed_commitment, game.seed_material = self.seed_commitment, self.seed_material
            game.seed_chosen = bool(self.seed_chosen)
            game.contributions = list(self.contributions or [])
            game.runs = []
            game.last_move = None
            game.undone_ranges = []
            game.undo_requests = {}
            game.idempotency = {}
            game.head_hash = self.hash
            game.set_state(game.replay([]))
            game.window, game.window_base, game.window_state = [], 0, json_native(game.state)

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
            _extend_runs(game.runs, self.move_no, self.originator_version)
            game.last_move = {"move_no": self.move_no, "seat": self.seat, "reveals": reveals_hidden(self.facts)}
            game.window.append({**game.last_move, "facts": self.facts})
            if len(game.window) >= 2 * WINDOW:
                game.advance_window()
            if self.idempotency_key is not None:
                game.idempotency[key_digest(self.idempotency_key)] = self.originator_version
            # Games stored before `UndoExpired` existed: a later move let pending requests lapse silently.
            # Today `play_move` closes them with `UndoExpired` first, so none is pending here.
            for request in game.undo_requests.values():
                if request["status"] == "pending":
                    request["status"] = "expired"
            if self.actor.startswith("seat:"):
                game.person_moved_at = self.timestamp.timestamp()
            game.moved = True
            if game.passes:
                game.use_passes(self.seat, self.move)
            game.head_hash = self.hash
            if game.state is not None:  # None: a deep undo before, refolded by the application
                # A copy of the facts: evolve may keep references into the state and mutate them.
                game.set_state(fold(get_rules(game.game_type).evolve, game.state, json_native(self.facts)))
            if game.passes:
                game.drop_stale_passes()

    class ClockExpired(Event):
        """A seat's time ran out (`deadline`, epoch seconds); `action` is the table's `on_timeout`:
        ``bot`` or ``skip`` (that decision is played for it) or ``forfeit`` (the seat goes to a bot)."""

        seat: int
        deadline: float
        action: str

        def apply(self, game: "Game") -> None:
            if self.action == "forfeit":
                game.takeovers = {**(game.takeovers or {}), str(self.seat): {"level": "normal", "reason": "forfeit"}}
            else:
                game.expired = {**(game.expired or {}), str(self.seat): self.action}
            game.head_hash = self.hash

    class SeatTakenOver(Event):
        """A seat handed to a bot for good (`reason`: ``left``, the player's own choice)."""

        seat: int
        level: str
        reason: str

        def apply(self, game: "Game") -> None:
            game.takeovers = {**(game.takeovers or {}), str(self.seat): {"level": self.level, "reason": self.reason}}
            game.head_hash = self.hash

    class SeatsInvited(Event):
        """Seats offered by invitation: one single-use code per seat, stored hashed."""

        invite_hashes: list

        def apply(self, game: "Game") -> None:
            game.invites = {code: {"seat": seat, "used": False} for seat, code in enumerate(self.invite_hashes)
                            if code}  # "": a bot seat, not offered
            game.head_hash = self.hash

    class SeatJoined(Event):
        """An invitation taken: the seat gets its token (hashed) and its player's name."""

        seat: int
        name: str
        token_hash: str
        invite_hash: str
        #: The seat's own entropy for the move seed (domain/app/seeds.py); "" for none (and before it existed).
        entropy: str = ""

        def apply(self, game: "Game") -> None:
            if self.entropy and not game.moved:      # counted until the first move, never after
                game.contributions = [*game.contributions, {"seat": self.seat, "entropy": self.entropy}]
            game.seat_token_hashes = [self.token_hash if seat == self.seat else stored
                                      for seat, stored in enumerate(game.seat_token_hashes)]
            game.names = [self.name if seat == self.seat else name for seat, name in enumerate(game.names)]
            game.invites = {**game.invites, self.invite_hash: {"seat": self.seat, "used": True}}
            game.head_hash = self.hash

    class ForkedFrom(Event):
        """This game starts from step `step` of game `source_id`, with fresh randomness: unrated.
        Its setup is that position with what the forker could not see dealt again (one
        `ForkedPosition` fact, domain/engine/redeal.py); forks stored before issue 30 hold that
        game's setup and first moves' facts, then `Redealt`."""

        source_id: str
        step: int

        def apply(self, game: "Game") -> None:
            game.forked_from = {"id": self.source_id, "step": self.step}
            game.head_hash = self.hash

    class Imported(Event):
        """This game was rebuilt from a verified record (its moves follow): unrated."""

        moves: int

        def apply(self, game: "Game") -> None:
            game.imported = True
            game.head_hash = self.hash

    class PracticeStarted(Event):
        """An imported record's game that is not over (a prefix of a public record, TABLE-PRACTICE-01):
        its seed and so every card to come are public; it is played on as an unrated practice game."""

        def apply(self, game: "Game") -> None:
            game.practice = True
            game.head_hash = self.hash

    class Simulated(Event):
        """This game is game `index` of simulation `simulation_id` (bots on every seat, played by
        the workers for the lab, api/jobs/simulations.py): unrated."""

        simulation_id: str
        index: int

        def apply(self, game: "Game") -> None:
            game.simulation = {"id": self.simulation_id, "index": self.index}
            game.head_hash = self.hash

    class UndoRequested(Event):
        request_id: str
        by: str
        to_move: int
        reason: str
        #: When it lapses unsettled (epoch seconds, TABLE-UNDO-08); None: requests stored before.
        expires_at: float | None = None

        def apply(self, game: "Game") -> None:
            game.undo_requests[self.request_id] = {
                "request_id": self.request_id, "by": self.by, "to_move": self.to_move,
                "reason": self.reason, "status": "pending", "approvals": [],
                "version": self.originator_version, "expires_at": self.expires_at,
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
            game.runs = _runs_before(game.runs, self.to_move)
            for version in self.undone_versions:
                _extend_ranges(game.undone_ranges, version)
            game.undo_requests[self.request_id]["status"] = "applied"
            game.undo_requests = _trim_requests(game.undo_requests)
            game.head_hash = self.hash
            game.passes = {}
            game.refold_to(self.to_move - 1)

    class Reopened(Event):
        """The referee reopened this finished game at `to_move` (TABLE-REOPEN-01), right after the
        `UndoRequested` and `MovesUndone` that took the moves from it on back: since the finished game's
        record published every hidden card and the seed, the position there is dealt again from a
        spectator's knowledge with a new secret seed (`position`, `seed_material`: never shown while it
        runs), which every later move's randomness uses."""

        request_id: str
        by: str
        to_move: int
        reason: str
        seed_commitment: str
        seed_material: str
        position: dict

        def apply(self, game: "Game") -> None:
            at = self.to_move - 1
            game.reopened = {"at": at, "reason": self.reason, "by": self.by,
                             "times": (game.reopened or {}).get("times", 0) + 1,
                             "seed_commitment": self.seed_commitment, "seed_material": self.seed_material,
                             "position": self.position}
            game.window, game.window_base, game.window_state = [], at, json_native(self.position)
            game.head_hash = self.hash
            game.set_state(json_native(self.position))

    class UndoRejected(Event):
        request_id: str
        by: str
        #: Why, in words (a bot's vote, a withdrawal...); "" for rejections stored before.
        reason: str = ""

        def apply(self, game: "Game") -> None:
            request = game.undo_requests[self.request_id]
            request["status"], request["outcome"] = "rejected", self.reason
            game.undo_requests = _trim_requests(game.undo_requests)
            game.head_hash = self.hash

    class SeatPassed(Event):
        """A person's seat passes the current step (TABLE-BOT-04): the bots may take what it left."""

        seat: int
        prompt: str

        def apply(self, game: "Game") -> None:
            game.passes = {**game.passes, str(self.seat): self.prompt}
            game.head_hash = self.hash

    class UndoExpired(Event):
        """A pending request closed unsettled (TABLE-UNDO-08, TABLE-UNDO-09): a move was played, its
        time ran out, or an undo removed the moves it was about. Never silently (issue 25)."""

        request_id: str
        reason: str

        def apply(self, game: "Game") -> None:
            request = game.undo_requests[self.request_id]
            request["status"], request["outcome"] = "expired", self.reason
            game.undo_requests = _trim_requests(game.undo_requests)
            game.head_hash = self.hash

    # ---- construction

    @classmethod
    def start(cls, game_type: str, players: int, names: list[str], options: dict, seed: int,
              seat_token_hashes: list[str], referee_token_hash: str, bots: dict | None = None,
              setup_facts: list | None = None, table: dict | None = None, seeding: dict | None = None,
              game_id: uuid.UUID | None = None) -> "Game":
        """Set the table up with the rules (random stream 0) and record `Created`; a fork
        passes the facts of its starting position as `setup_facts` instead. `seeding`: the committed
        randomness (`seed_commitment`, `seed_material`, `seed_chosen`, `contributions`; seeds.py)."""
        rules = get_rules(game_type)
        if setup_facts is None:
            _, setup_facts = new_game(rules, players, options, seed)
        fields = {
            "game_type": game_type, "content_version": rules.meta.content_version,
            "players": players, "names": names, "options": options, "seed": seed,
            "setup_facts": json_native(setup_facts), "seat_token_hashes": seat_token_hashes,
            "referee_token_hash": referee_token_hash, "bots": dict(bots or {}), "rules_release": RULES_RELEASE,
            "table": stored_table(table), "prev_hash": GENESIS,
            "seed_commitment": None, "seed_material": None, "seed_chosen": None, "contributions": None,
            **(seeding or {}),
        }
        fields["hash"] = chain_hash(GENESIS, "Created", 1, fields)
        return cls._create(cls.Created, id=game_id, **fields)

    # ---- derived state

    @property
    def rules(self):
        return get_rules(self.game_type)

    @property
    def table_shown(self) -> dict:
        """The table as `GET /games/{id}` shows it: its options and how its randomness was chosen."""
        reopened = None
        if self.reopened is not None:
            reopened = {key: self.reopened[key] for key in ("at", "reason", "by", "times", "seed_commitment")}
        return {**self.table, "seed_commitment": self.seed_commitment, "seed_chosen": bool(self.seed_chosen),
                "reopened": reopened, "practice": bool(self.practice)}

    @property
    def move_seed(self) -> int:
        """TABLE-SEED-02: the seed of every move's randomness, from the committed material and the seats'
        entropy (domain/app/seeds.py); a chosen seed, or a game stored before, uses its one seed. A
        reopened game (TABLE-REOPEN-01) uses the new secret material of its reopening."""
        if self.reopened is not None:
            return move_seed(self.reopened["seed_material"], self.contributions)
        if self.seed_material is None:
            return self.seed
        return move_seed(self.seed_material, self.contributions)

    @property
    def reopened_position_due(self) -> bool:
        """True while no move was played since the reopening: the next move records its position."""
        return self.reopened is not None and self.last_move_no == self.reopened["at"]

    def replay(self, move_facts: Iterable[list]) -> dict:
        """Initial table + setup facts + the facts of `move_facts`: replay, exactly."""
        rules = self.rules
        state = rules.initial_state(self.players, self.options)
        state = fold(rules.evolve, state, json_native(self.setup_facts))
        for facts in move_facts:
            state = fold(rules.evolve, state, json_native(facts))
        return state

    def refold_to(self, move_no: int) -> None:
        """The state after effective move `move_no` (an undo): from the window if it reaches
        back that far, else `state` becomes None and the application refolds from the store."""
        kept = [entry for entry in self.window if entry["move_no"] <= move_no]
        self.last_move = {k: kept[-1][k] for k in ("move_no", "seat", "reveals")} if kept else None
        if self.window_state is not None and move_no >= self.window_base:
            self.window = kept
            state = json_native(self.window_state)
            self.set_state(self.replay_from(state, (entry["facts"] for entry in kept)))
        else:
            self.window, self.window_base, self.window_state = [], move_no, None
            self.state = None

    def advance_window(self) -> None:
        """Fold the window's oldest `WINDOW` moves into its base state, so it stays bounded."""
        moved, self.window = self.window[:WINDOW], self.window[WINDOW:]
        self.window_base = moved[-1]["move_no"]
        if self.window_state is not None:
            self.window_state = self.replay_from(self.window_state, (entry["facts"] for entry in moved))

    def replay_from(self, state: dict, move_facts: Iterable[list]) -> dict:
        evolve = self.rules.evolve
        for facts in move_facts:
            state = fold(evolve, state, json_native(facts))
        return state

    def restore(self, effective_moves: list[Any]) -> None:
        """Refold the state from the effective moves' `MovePlayed` events, in order (read
        from the store by the application after a deep undo), and rebuild the undo window."""
        split = max(0, len(effective_moves) - WINDOW)
        base = self.replay(event.facts for event in effective_moves[:split])
        self.window_base = effective_moves[split - 1].move_no if split else 0
        self.window_state = json_native(base)
        self.window = [{"move_no": e.move_no, "seat": e.seat, "reveals": reveals_hidden(e.facts), "facts": e.facts}
                       for e in effective_moves[split:]]
        last = self.window[-1] if self.window else None
        self.last_move = {k: last[k] for k in ("move_no", "seat", "reveals")} if last else None
        self.set_state(self.replay_from(base, (event.facts for event in effective_moves[split:])))
        if self.reopened_position_due:            # no move since the reopening: its position, not the old one
            self.window, self.window_base = [], self.reopened["at"]
            self.window_state = json_native(self.reopened["position"])
            self.set_state(json_native(self.reopened["position"]))

    def effective_versions(self) -> list[int]:
        """The versions of the effective moves, in order (from the runs)."""
        return [version + i for _, version, count in self.runs for i in range(count)]

    @property
    def effective(self) -> list[dict]:
        """The effective moves as {"move_no", "version"} (derived: tools and tests)."""
        return [{"move_no": move_no + i, "version": version + i} for move_no, version, count in self.runs
                for i in range(count)]

    @property
    def undone_versions(self) -> frozenset:
        return frozenset(v for first, last in self.undone_ranges for v in range(first, last + 1))

    def set_state(self, state: dict) -> None:
        rules = self.rules
        self.state = state
        self.finished = bool(rules.is_over(state))
        self.scores = {str(seat): score for seat, score in rules.scores(state).items()}
        self.winners = list(rules.winners(state)) if self.finished else []

    @property
    def last_move_no(self) -> int:
        if not self.runs:
            return 0
        move_no, _, count = self.runs[-1]
        return move_no + count - 1

    @property
    def status(self) -> str:
        return "finished" if self.finished else "active"

    @property
    def bot_seats(self) -> frozenset:
        """The seats bots play: bot seats, seats taken over, and seats whose clock ran out on this decision."""
        return frozenset(int(seat) for seat in {**(self.bots or {}), **(self.takeovers or {}), **(self.expired or {})})

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot playing `seat`, or None for a person."""
        key = str(seat)
        if key in (self.takeovers or {}):
            return self.takeovers[key]["level"]
        if key in (self.bots or {}):
            return self.bots[key]
        return "normal" if key in (self.expired or {}) else None

    def bot_actor(self, seat: int) -> str:
        """Who a bot's move of `seat` is recorded as: `clock:bot:<level>` when the clock ran out."""
        level = self.bot_level(seat)
        key = str(seat)
        if key in (self.expired or {}) and key not in (self.bots or {}) and key not in (self.takeovers or {}):
            return f"clock:bot:{level}"
        return f"bot:{level}"

    # ---- clocks (domain/app/clocks.py)

    def clock_of_table(self) -> dict | None:
        # On every event of every game (Event.mutate): read the recorded table, merge no defaults
        # (the defaults have no clock).
        return (self.table_recorded or {}).get("clock")

    def waiting_people(self) -> list[int]:
        """The seats a person must decide for now (the only ones whose clocks run)."""
        if self.state is None or self.finished:
            return []
        bots = self.bot_seats
        return [seat for seat in self.rules.decision(self.state).seats if seat not in bots]

    def tick_clock(self, event: Any) -> None:
        table_clock = self.clock_of_table()
        if self.state is None:
            return
        if self.clock is None:
            self.clock = new_clock(table_clock, self.players)
        mover = getattr(event, "seat", None) if type(event).__name__ == "MovePlayed" else None
        if mover is not None and self.expired and str(mover) in self.expired:
            self.expired = {k: v for k, v in self.expired.items() if k != str(mover)}
        tick(self.clock, table_clock, event.timestamp.timestamp(), self.waiting_people(), mover)

    def clock_left(self, seat: int, now: float) -> float | None:
        """Seconds left on `seat`'s clock at `now` (None: no clock, or a bot's seat)."""
        table_clock = self.clock_of_table()
        if table_clock is None or self.clock is None or seat in self.bot_seats:
            return None
        return remaining(self.clock, table_clock, seat, now)

    def deadlines(self) -> dict[int, float]:
        """Per seat asked now, when its time runs out (empty: no clock, or nobody but bots asked)."""
        table_clock = self.clock_of_table()
        if table_clock is None or self.clock is None or self.finished:
            return {}
        return {seat: at for seat, at in deadlines(self.clock, table_clock).items() if seat not in self.bot_seats}

    def expire_clocks(self, now: float) -> list[int]:
        """Record `ClockExpired` for every seat whose time ran out by `now` (a deadline served twice,
        or by two processes, expires once: the seat is then no longer a person asked)."""
        policy = stored_table(self.table_recorded).get("on_timeout", "bot")
        expired = []
        for seat, at in sorted(self.deadlines().items()):
            if at <= now:
                self._trigger(self.ClockExpired, seat=seat, deadline=round(at, 3), action=policy)
                expired.append(seat)
        return expired

    def take_over(self, caller: Caller, level: str = "normal") -> None:
        """The seat's player leaves: a bot plays the seat from now on and the game no longer counts."""
        if caller.kind != "seat":
            raise NotYourSeat("Only a seat's own token hands that seat to a bot.", rule="TABLE-LEAVE-01")
        if self.finished:
            raise CannotLeave("The game is over: there is no seat left to hand over.", rule="TABLE-LEAVE-01")
        if caller.seat in self.bot_seats and str(caller.seat) not in (self.expired or {}):
            raise CannotLeave("A bot already plays this seat.", rule="TABLE-LEAVE-01")
        self._trigger(self.SeatTakenOver, seat=caller.seat, level=level, reason="left")

    def caller_for(self, token: str | None) -> Caller:
        """The caller a bearer token stands for in THIS game."""
        return identify(token, self.seat_token_hashes, self.referee_token_hash)

    @property
    def open_seats(self) -> list[int]:
        """Seats offered by invitation that nobody has taken yet."""
        return [seat for seat, stored in enumerate(self.seat_token_hashes) if not stored and not self.bot_level(seat)]

    # ---- commands (validate everything first; trigger events last)

    @property
    def unrated(self) -> bool:
        """Forks, imported and simulated games stay out of leaderboards."""
        return (self.forked_from is not None or self.imported or self.simulation is not None
                or bool(self.takeovers))

    # ---- passing a step to the bots (TABLE-BOT-04)

    def pass_step(self, caller: Caller) -> dict:
        """The caller's seat is done with the current step (one where several seats may act): the bots
        may now play what it could have played, the team's decisions included, until the step changes
        or this seat moves again. A seat that passed already passes again without a new event."""
        if caller.kind == "spectator":
            raise TokenRequired("Passing needs a seat token.")
        if caller.kind != "seat":
            raise NotYourSeat("Only a seat passes; use a seat token.", rule="TABLE-BOT-04")
        decision = self.rules.decision(self.state)
        if self.finished or caller.seat not in decision.seats or decision.mode != "team":
            raise InvalidUndo("Passing is for a step any seat of the team may take, when it is yours; "
                              "this one is not.", rule="TABLE-BOT-04")
        if self.passes.get(str(caller.seat)) != decision.prompt:
            self._trigger(self.SeatPassed, seat=caller.seat, prompt=decision.prompt)
        return {"passed": sorted(self.released_seats()), "version": self.version}

    def released_seats(self) -> set[int]:
        """Seats that passed the step now being decided (the bots may act for the team's part)."""
        if not self.passes or self.state is None:
            return set()
        prompt = self.rules.decision(self.state).prompt
        return {int(seat) for seat, passed in self.passes.items() if passed == prompt}

    def use_passes(self, mover: int, move: Any) -> None:
        """Before a move is folded in: the mover's own pass ends, and a pass is used up by a move the
        passing seat could have played itself (a bot ending the window, answering for the team): a
        pass lets the bots take one of the people's decisions, not every later one."""
        if self.state is None:
            self.passes = {}
            return
        rules = self.rules
        self.passes = {seat: passed for seat, passed in self.passes.items()
                       if int(seat) != mover and json_native(move) not in rules.legal_moves(self.state, int(seat))}

    def drop_stale_passes(self) -> None:
        """After a move: every pass of a step that is over ends (the decision asks something else)."""
        if self.state is None:
            self.passes = {}
            return
        prompt = self.rules.decision(self.state).prompt
        self.passes = {seat: passed for seat, passed in self.passes.items() if passed == prompt}

    def check_analysis(self) -> None:
        """TABLE-ANALYSIS-01: no engine help during play. While a rated game runs, its analysis is
        locked for everybody (seats, spectators and the referee alike: in invitation seating the
        referee is often a player) unless the table allows it; finished games, forks and imported
        games (unrated practice) can always be analysed."""
        if not self.finished and not self.unrated and not self.table["analysis_during_play"]:
            raise AnalysisLocked("The engine's analysis is locked while this game runs (fair play); "
                                 "it opens when the game is over, or on a fork of it.", rule="TABLE-ANALYSIS-01")

    def mark_forked(self, source_id: str, step: int) -> None:
        self._trigger(self.ForkedFrom, source_id=source_id, step=step)

    def mark_imported(self, moves: int) -> None:
        self._trigger(self.Imported, moves=moves)

    def mark_practice(self) -> None:
        self._trigger(self.PracticeStarted)

    def mark_simulated(self, simulation_id: str, index: int) -> None:
        self._trigger(self.Simulated, simulation_id=simulation_id, index=index)

    def invite(self, invite_hashes: list[str]) -> None:
        """Offer every seat by invitation (right after `Created`, whose seat token hashes are empty)."""
        self._trigger(self.SeatsInvited, invite_hashes=list(invite_hashes))

    def join(self, invite_hash: str, name: str, token_hash: str, entropy: str = "") -> int:
        """Take the seat of an invitation, once, under a name unique in this game, adding the seat's
        entropy to the move seed if no move was played yet (domain/app/seeds.py); returns the seat."""
        offer = self.invites.get(invite_hash)
        if offer is None:
            raise InviteNotFound("this invitation is not valid for this game")
        if offer["used"]:
            raise InviteUsed("this invitation has been used; ask the game's creator for another seat")
        seat = offer["seat"]
        taken = {other.casefold(): index for index, other in enumerate(self.names) if index != seat}
        if name.casefold() in taken:
            raise NameTaken(f"{name!r} is already the name of seat {taken[name.casefold()]}; "
                            "names are unique within a game", seat=taken[name.casefold()])
        self._trigger(self.SeatJoined, seat=seat, name=name, token_hash=token_hash, invite_hash=invite_hash,
                      entropy=entropy)
        return seat

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
            after, facts = play(rules, self.state, seat, move, self.move_seed, move_no)
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
        if self.reopened_position_due:
            # The first move after a reopening records the position dealt again (TABLE-REOPEN-01), so
            # every replay of the effective moves (the store's, the read side's) folds to what was played.
            facts = [forked_position_fact(self.reopened["position"], {"reopened_at": self.reopened["at"]})] + facts
        finished = bool(rules.is_over(after))
        scores = {str(s): v for s, v in rules.scores(after).items()}
        self.expire_on_move(move_no, seat)
        self._trigger(self.MovePlayed, seat=seat, actor=actor or caller.actor, move=json_native(move), move_no=move_no,
                      facts=facts, idempotency_key=idempotency_key, description=str(description),
                      scores=scores, finished=finished, salt=secrets.token_hex(16))
        return {"version": self.version, "move_no": move_no, "facts": facts, "description": str(description)}

    # ---- take-backs (the table's `undo_policy`, TABLE-UNDO-*; the bots' vote, TABLE-BOT-03)

    @property
    def table(self) -> dict:
        """The table's options (domain/app/table.py): what `Created` recorded, else the defaults."""
        return stored_table(self.table_recorded)

    def request_undo(self, caller: Caller, to_move: int, reason: str, now: float | None = None) -> dict:
        """Open an undo request; apply it at once when the table's policy allows (see `undo_is_immediate`),
        else let the bot seats vote at once (`bot_vote`) and wait for the people's votes.

        `now` (epoch seconds, passed in: the domain reads no clock) stamps its expiry and first closes
        the requests whose time has run out; None (tools, imports) does neither."""
        if caller.kind == "spectator":
            raise TokenRequired("Taking moves back needs a seat or referee token.")
        self.expire_requests(now)
        if not isinstance(reason, str) or len(reason) > MAX_UNDO_REASON:
            raise InvalidUndo(f"The reason for a take-back has at most {MAX_UNDO_REASON} characters; "
                              f"this one has {len(reason) if isinstance(reason, str) else 'no text'}.",
                              rule="TABLE-UNDO-10")
        if not 1 <= to_move <= self.last_move_no:
            raise InvalidUndo(f"There is no move {to_move} to take back; " + (
                f"the moves played are 1 to {self.last_move_no}." if self.last_move_no else "no move has been played yet."),
                rule="ENGINE-UNDO-01")
        self.check_undo_policy(caller, to_move)
        self.check_after_reopening(to_move)
        for request in self.undo_requests.values():
            if request["status"] != "pending":
                continue
            if request["to_move"] == to_move:
                raise UndoConflict(f"A take-back to move {to_move} is already waiting for votes "
                                   f"(request {request['request_id']}); vote on it instead.",
                                   rule="TABLE-UNDO-07", request_id=request["request_id"])
            if caller.kind == "seat" and request["by"] == caller.actor:
                raise UndoConflict("You already have a take-back request waiting for votes; withdraw it or let it "
                                   "settle before asking again (one pending request per seat).",
                                   rule="TABLE-UNDO-06", request_id=request["request_id"])
        request_id = uuid.uuid4().hex
        immediate = self.undo_is_immediate(caller, to_move)
        expires_at = None if now is None else now + UNDO_REQUEST_TTL_S
        self._trigger(self.UndoRequested, request_id=request_id, by=caller.actor, to_move=to_move, reason=reason,
                      expires_at=expires_at)
        if immediate:
            self._apply_undo(request_id)
        else:
            self._bots_vote(request_id)
        return {"request_id": request_id, **self.request_answer(request_id)}

    def check_after_reopening(self, to_move: int) -> None:
        """TABLE-REOPEN-02: the moves before a reopening stand: going back there would bring back the
        hidden cards the finished game's record published."""
        if self.reopened is not None and to_move <= self.reopened["at"]:
            raise InvalidUndo(f"This game was reopened after move {self.reopened['at']} with its hidden cards dealt "
                              f"again; the moves up to it stand (take back move {self.reopened['at'] + 1} or later).",
                              rule="TABLE-REOPEN-02")

    def check_reopen(self, caller: Caller, to_move: int, reason: Any) -> None:
        """TABLE-REOPEN-01: only the referee reopens a finished game, saying why."""
        if caller.kind != REFEREE:
            raise InvalidUndo("The game is over and its result stands: only the referee can reopen it.",
                              rule="TABLE-UNDO-05")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidUndo("Reopening a finished game needs a reason: say why it is played on (for the record).",
                              rule="TABLE-REOPEN-01")
        if len(reason) > MAX_UNDO_REASON:
            raise InvalidUndo(f"The reason has at most {MAX_UNDO_REASON} characters; this one has {len(reason)}.",
                              rule="TABLE-UNDO-10")
        if not 1 <= to_move <= self.last_move_no:
            raise InvalidUndo(f"to_move must be an effective move number 1..{self.last_move_no}, not {to_move}",
                              rule="ENGINE-UNDO-01")
        self.check_undo_policy(caller, to_move)
        self.check_after_reopening(to_move)

    def reopen(self, caller: Caller, to_move: int, reason: str, position: dict, material: str) -> dict:
        """Reopen this finished game at `to_move` (the application deals `position` with `material`'s seed,
        domain/app/application.py `_reopen`): one `Reopened` event."""
        self.check_reopen(caller, to_move, reason)
        request_id = uuid.uuid4().hex
        self._trigger(self.UndoRequested, request_id=request_id, by=caller.actor, to_move=to_move, reason=reason,
                      expires_at=None)
        self._apply_undo(request_id)
        self._trigger(self.Reopened, request_id=request_id, by=caller.actor, to_move=to_move, reason=reason,
                      seed_commitment=commitment(material), seed_material=material, position=json_native(position))
        return {"request_id": request_id, "status": "applied", "waiting_for": [], "reopened": True}

    def check_undo_policy(self, caller: Caller, to_move: int) -> None:
        """Refuse what the table's `undo_policy` forbids (422 with the rule), and any seat's take-back
        of a finished game: its result stands (TABLE-UNDO-05; reopening is the referee's)."""
        policy = self.table["undo_policy"]
        if policy == "none":
            raise InvalidUndo("This table plays without take-backs (undo_policy none).", rule="TABLE-UNDO-04")
        if caller.kind == REFEREE:
            return
        if self.finished:
            raise InvalidUndo("The game is over and its result stands: no seat can take a move back now.",
                              rule="TABLE-UNDO-05")
        if policy == "referee":
            raise InvalidUndo("At this table only the referee takes moves back (undo_policy referee).",
                              rule="TABLE-UNDO-03")
        if policy == "own_turn" and not self.own_turn_undo(caller.seat, to_move):
            raise InvalidUndo("At this table a seat takes back only moves of its current turn that revealed "
                              "nothing hidden or random, before anybody else moves (undo_policy own_turn).",
                              rule="TABLE-UNDO-02")

    def moves_from(self, to_move: int) -> list[dict] | None:
        """The effective moves `to_move`.. (move_no, seat, reveals), or None when they reach back
        beyond the undo window (not known without reading the store)."""
        if to_move <= self.window_base:
            return None
        return [entry for entry in self.window if entry["move_no"] >= to_move]

    def own_turn_undo(self, seat: int, to_move: int) -> bool:
        """TABLE-UNDO-02: every move from `to_move` on is this seat's and revealed nothing."""
        moves = self.moves_from(to_move)
        return bool(moves) and all(entry["seat"] == seat and not entry["reveals"] for entry in moves)

    def request_answer(self, request_id: str) -> dict:
        """A request's status and, while it is pending, the seats whose approval it still waits for."""
        request = self.undo_requests[request_id]
        answer = {"status": request["status"], "waiting_for": self.waiting_for(request)}
        if request.get("outcome"):
            answer["outcome"] = request["outcome"]
        return answer

    def waiting_for(self, request: dict) -> list[int]:
        if request["status"] != "pending":
            return []
        return [seat for seat in self.voters(request["by"]) if seat not in request["approvals"]]

    def undo_is_immediate(self, caller: Caller, to_move: int) -> bool:
        """The policy of ARCHITECTURE.md, under the table's `undo_policy` (`check_undo_policy` ran first).

        The referee undoes at once. Under `own_turn` an allowed take-back is at once. Under `consent`
        (TABLE-UNDO-01) a seat takes back its own last move at once when nobody has acted since and
        the move revealed nothing hidden or random; anything else waits for every other seat's
        approval (a one-seat game has nobody to ask)."""
        if caller.kind == REFEREE or self.table["undo_policy"] == "own_turn":
            return True
        last = self.last_move
        if (last is not None and to_move == last["move_no"] and last["seat"] == caller.seat
                and not last["reveals"] and not self.finished):
            return True
        return not self.voters(caller.actor)

    def voters(self, requested_by: str) -> list[int]:
        """Seats whose approval a request by `requested_by` needs."""
        return [seat for seat in range(self.players) if f"seat:{seat}" != requested_by]

    def bot_vote(self, seat: int, to_move: int) -> tuple[bool, str]:
        """TABLE-BOT-03: how the bot of `seat` votes on taking back moves `to_move`..: it approves a
        take-back of moves that revealed nothing hidden or random and that it has not answered with
        a move of its own (so it holds no information it would have to forget); otherwise it rejects,
        saying why."""
        moves = self.moves_from(to_move)
        if moves is None:
            return False, "the bot rejects: those moves are too far back for it to check what they revealed"
        for entry in moves:
            if entry["reveals"]:
                return False, f"the bot rejects: move {entry['move_no']} revealed something hidden or random"
        for entry in moves:
            if entry["seat"] == seat:
                return False, f"the bot rejects: it has played since (move {entry['move_no']})"
        return True, "the bot approves: nothing was revealed and it has not moved since"

    def _bots_vote(self, request_id: str) -> None:
        """Every bot seat asked votes at once (`bot_vote`), so a request never waits on a bot."""
        request = self.undo_requests[request_id]
        for seat in self.voters(request["by"]):
            level = self.bot_level(seat)
            if level is None or request["status"] != "pending":
                continue
            approve, why = self.bot_vote(seat, request["to_move"])
            self._trigger(self.UndoVoted, request_id=request_id, seat=seat, approve=approve)
            if not approve:
                self._trigger(self.UndoRejected, request_id=request_id, by=f"bot:{level}", reason=why)
            elif set(self.voters(request["by"])) <= set(request["approvals"]):
                self._apply_undo(request_id)

    def expire_requests(self, now: float | None) -> None:
        """Close the pending requests whose time has run out (TABLE-UNDO-08); `now` is passed in."""
        if now is None:
            return
        for request in list(self.undo_requests.values()):
            expires_at = request.get("expires_at")
            if request["status"] == "pending" and expires_at is not None and expires_at <= now:
                self._trigger(self.UndoExpired, request_id=request["request_id"], reason=lapse_reason())

    def vote_undo(self, caller: Caller, request_id: str, approve: bool, now: float | None = None) -> dict:
        request = self.undo_requests.get(request_id)
        if request is None:
            raise UndoNotFound(f"no undo request {request_id!r} in this game")
        if caller.kind == "spectator":
            raise TokenRequired("voting needs a seat or referee token")
        self.expire_requests(now)
        if request["status"] != "pending":  # applied, rejected or expired
            return self.request_answer(request_id)
        if caller.kind == REFEREE:
            if approve:
                self._apply_undo(request_id)
            else:
                self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor,
                              reason="the referee rejected it")
            return self.request_answer(request_id)
        if caller.actor == request["by"]:
            if not approve:  # the requester withdraws
                self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor,
                              reason="withdrawn by the player who asked")
            return self.request_answer(request_id)
        if approve and caller.seat in request["approvals"]:  # the same vote again: nothing changes
            return self.request_answer(request_id)
        self._trigger(self.UndoVoted, request_id=request_id, seat=caller.seat, approve=approve)
        if not approve:
            self._trigger(self.UndoRejected, request_id=request_id, by=caller.actor,
                          reason=f"{self.seat_name(caller.seat)} rejected it")
        elif set(self.voters(request["by"])) <= set(request["approvals"]):
            self._apply_undo(request_id)
        return self.request_answer(request_id)

    def seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def expire_on_move(self, move_no: int, seat: int) -> None:
        """A move closes every pending request (TABLE-UNDO-08): the position it was about is gone."""
        for request in list(self.undo_requests.values()):
            if request["status"] == "pending":
                self._trigger(self.UndoExpired, request_id=request["request_id"],
                              reason=f"{self.seat_name(seat)} played move {move_no} before every vote was in")

    def _apply_undo(self, request_id: str) -> None:
        to_move = self.undo_requests[request_id]["to_move"]
        if to_move > self.last_move_no:  # an earlier undo already removed those moves
            self._trigger(self.UndoRejected, request_id=request_id, by="stale",
                          reason=f"move {to_move} had already been taken back")
            return
        undone = [version + i for move_no, version, count in self.runs for i in range(count)
                  if move_no + i >= to_move]
        self._trigger(self.MovesUndone, request_id=request_id, to_move=to_move, undone_versions=undone)
        for request in list(self.undo_requests.values()):  # TABLE-UNDO-09: what this made moot
            if request["status"] == "pending" and request["to_move"] >= to_move:
                self._trigger(self.UndoExpired, request_id=request["request_id"],
                              reason=f"moves from {to_move} on were taken back, this request's with them")


def lapse_reason() -> str:
    """Why a request expired by time (TABLE-UNDO-08)."""
    return f"not settled within {round(UNDO_REQUEST_TTL_S / 60)} minutes"


def _extend_runs(runs: list[list[int]], move_no: int, version: int) -> None:
    """Add effective move `move_no` at `version` to runs of [first move, first version, count]."""
    if runs:
        first, at, count = runs[-1]
        if first + count == move_no and at + count == version:
            runs[-1][2] += 1
            return
    runs.append([move_no, version, 1])


def _runs_before(runs: list[list[int]], to_move: int) -> list[list[int]]:
    """The runs of the moves before `to_move` (an undo)."""
    kept = []
    for first, version, count in runs:
        if first >= to_move:
            break
        kept.append([first, version, min(count, to_move - first)])
    return kept


def _extend_ranges(ranges: list[list[int]], version: int) -> None:
    if ranges and ranges[-1][1] + 1 == version:
        ranges[-1][1] = version
    elif not ranges or version > ranges[-1][1]:
        ranges.append([version, version])
    elif not any(first <= version <= last for first, last in ranges):  # out of order: rare
        ranges.append([version, version])
        ranges.sort()


def _bounded(memory: dict, size: int) -> dict:
    """Drop the oldest entries (insertion order) beyond `size`."""
    while len(memory) > size:
        del memory[next(iter(memory))]
    return memory


def _trim_requests(requests: dict) -> dict:
    """Every pending undo request, and the latest resolved ones."""
    resolved = [key for key, request in requests.items() if request["status"] != "pending"]
    for key in resolved[:max(0, len(resolved) - RESOLVED_UNDO_REQUESTS)]:
        del requests[key]
    return requests


#: Events and snapshots stored before the split name `domain.service:Game...`.
register_topic("domain.service:Game", Game)
