"""The `GameService`: the eventsourcing Application that creates, plays and undoes games.

A move costs one Redis round trip: the append, guarded by optimistic concurrency, of a
move decided on the in-process cached aggregate (not fast-forwarded first: if another
process appended meanwhile, the append's version check refuses it, and the command runs
once more on the aggregate read from the store, so a stale cache costs a retry, never a
wrong answer). Reads fast-forward the cached aggregate with one read of newer events.
Commands on one game are serialised by a per-game lock in this process; between
processes the store's optimistic concurrency decides, and a lost race is a
`VersionConflict`. Snapshots keep the latest only (``SNAPSHOTS_KEEP=latest``).

Who may see what is decided here (`Caller.viewer`), so the HTTP layer only translates.
The seed and the token hashes are never part of any answer. Listings of events and of
games are the read side's (`projections.event_log`, `projections.game_index`); this
application hands them the raw events a caller may see (`event_slice`).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import RecordConflictError

from domain.bots import LEVELS, bot_move
from domain.engine import (
    SPECTATOR, IllegalMove, Rng, Rules, Viewer, derive_seed, fold, get_rules, presentation, visible_facts,
)
from domain.engine.redeal import deal_again, forked_position_fact
from domain.engine.legacy import check_facts
from domain.engine.rules import stored_move
from domain.engine.text import default_seat_name

from .callers import Caller, hash_token
from .errors import (
    GameNotFound, GameTypeUnavailable, IdempotencyKeyReused, InvalidGameSetup, NotYourSeat, ServiceError,
    StepOutOfRange, TokenRequired, UnknownGameType, VersionConflict,
)
from .bot_turns import bot_moves, bots_may_act
from .game import Game, json_native, key_digest, lapse_reason, move_digest
from .table import table_options
from .seeds import checked_entropy, commitment, new_material, setup_seed
from .records import InvalidRecord, RecordMismatch, build_record, checked_record


def _lapsed(request: dict, now: float | None) -> bool:
    """A pending take-back request whose time has run out at `now` (its `UndoExpired` is not written yet)."""
    expires_at = request.get("expires_at")
    return request["status"] == "pending" and now is not None and expires_at is not None and expires_at <= now


def bot_seats(bots: Any, players: int) -> dict:
    """Validated bot seats of a new game: {"1": "normal"} (seat numbers as strings)."""
    if not bots:
        return {}
    if not isinstance(bots, dict):
        raise InvalidGameSetup('Bots are given seat by seat, e.g. {"1": "normal"}.')
    seats = {}
    for key, name in bots.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise InvalidGameSetup(f"Bots are given by seat number; {key!r} is not one.") from None
        if not 0 <= seat < players:
            raise InvalidGameSetup(f"There is no seat {seat} for a bot in a {players}-player game "
                                   f"(seats are 0 to {players - 1}).")
        if name not in LEVELS:
            raise InvalidGameSetup(f"{name!r} is not a bot level; the levels are {', '.join(LEVELS)}.")
        seats[str(seat)] = name
    return seats

SNAPSHOT_INTERVAL = 50


def forked_facts(rules: Rules, players: int, options: dict, facts: list, seed: int,
                 viewers: list[Viewer], source: dict) -> list:
    """The setup of a fork: ONE fact, `ForkedPosition`, holding the position reached by `facts` (the
    source's setup and effective moves up to the step) with everything `viewers` (whose knowledge the
    fork keeps) did not see dealt again with the fork's seed (domain/engine/redeal.py). The source's
    facts themselves are never stored with the fork: its record, public once it is finished, tells
    nothing of the source that the forker did not see."""
    state = fold(rules.evolve, rules.initial_state(players, options), json_native(facts))
    position = deal_again(rules, state, facts, viewers, Rng(seed, FORK_STREAM))
    return [forked_position_fact(json_native(position), source)]


def committed_seed() -> tuple[int, dict]:
    """A new game's setup seed and its committed randomness (domain/app/seeds.py)."""
    material = new_material()
    return setup_seed(material), {"seed_commitment": commitment(material), "seed_material": material,
                                  "seed_chosen": False}


def fork_viewers(players: int, finished: bool) -> list[Viewer]:
    """Whose knowledge a fork keeps: every seat's (as it was at the step) for a finished game, whose
    whole record is public anyway; the spectator's for a running game (its referee forks it)."""
    return list(range(players)) if finished else [SPECTATOR]


#: The random stream of a fork's re-deal (moves use streams 1, 2, ...; setup 0).
FORK_STREAM = "fork"
#: The random stream of the re-deal of a reopened game (with its new seed material).
REOPEN_STREAM = "reopen"


@dataclass(frozen=True)
class EventSlice:
    """Stored events of one game with what the read side needs to show them to a caller."""

    rules: Rules
    viewer: Viewer
    undone_versions: frozenset
    events: list
    names: tuple = ()       # the seats' names, for the events told in words


class GameService(Application):
    """Create, play, inspect and undo games. Thread-safe within one process."""

    name = "heirloom"
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}
    env = {
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        "SNAPSHOTS_KEEP": "latest",
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env=dict(env) if env is not None else None)
        self._locks_guard = threading.Lock()
        self._locks: dict[Any, threading.Lock] = {}
        #: Called with the recordings of every save (each: ``.domain_event`` and its
        #: ``.notification`` with its id in the log), in the saving thread, once stored: the
        #: live WebSocket channel (api/live.py) and the read side's follower (projections/
        #: runner.py) take new events from here instead of reading them back from Redis.
        #: Keep them quick; their errors are logged, never the save's.
        self.saved_listeners: list[Callable[[list[Any]], None]] = []

    # ---- plumbing

    def save(self, *objs: Any, **kwargs: Any) -> list[Any]:
        """`Application.save`, with a fast path for the usual case of one `Game`: the
        library's `collect_events` tells events from aggregates with `isinstance` against
        runtime-checkable Protocols, which costs more than the rest of a move's bookkeeping."""
        if len(objs) != 1 or type(objs[0]) is not Game:
            return super().save(*objs, **kwargs)
        game = objs[0]
        processing_event: ProcessingEvent = ProcessingEvent()
        processing_event.events.extend(game.collect_events())
        processing_event.aggregates[game.id] = game
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        return recordings

    def _notify(self, recordings: list[Any]) -> None:
        if self.saved_listeners:
            for listener in list(self.saved_listeners):
                try:
                    listener(recordings)
                except Exception:  # the events are stored: a listener's failure is not the save's
                    logging.getLogger("heirloom.app").exception("a saved-events listener failed")

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

    def _load(self, key: uuid.UUID, version: int | None = None) -> Game:
        """The live aggregate (cached; fast-forwarded with one read of newer events)."""
        try:
            game = self.repository.get(key, version=version)
            if game.needs_events:  # from a v1 snapshot: the facts of its moves are in its events
                game = self._from_events(key, version)
            if game.state is None:
                self._restore_state(game)
        except AggregateNotFoundError:
            raise GameNotFound(f"no game {str(key)!r}") from None
        except KeyError as error:
            if "unknown game type" not in str(error):
                raise
            raise GameTypeUnavailable(f"game {key} needs rules this server does not load: {error.args[0]}") from None
        return game

    def _from_events(self, key: uuid.UUID, version: int | None) -> Game:
        """The aggregate folded from all its events, skipping snapshots (and cached when current)."""
        game = None
        for event in self.events.get(key, lte=version):
            game = event.mutate(game)
        if game is None:
            raise AggregateNotFoundError(key)
        if version is None and self.repository.cache is not None:
            self.repository.cache.put(key, game)
        return game

    def _restore_state(self, game: Game) -> None:
        """After an undo further back than the aggregate's window: refold the effective
        moves' facts, read from the store (one read)."""
        game.restore(self._effective_moves(game))

    def _effective_moves(self, game: Game, steps: int | None = None) -> list[Any]:
        """The `MovePlayed` events of the first `steps` (all) effective moves, in order (one read)."""
        versions = game.effective_versions()
        if steps is not None:
            versions = versions[:steps]
        if not versions:
            return []
        wanted = set(versions)
        stored = self.events.get(game.id, gt=1, lte=versions[-1])
        return [event for event in stored
                if type(event).__name__ == "MovePlayed" and event.originator_version in wanted]

    def _cached(self, key: uuid.UUID) -> tuple[Game, bool]:
        """The cached aggregate as it is, without reading the store (False), else loaded (True)."""
        cache = self.repository.cache
        if cache is not None:
            try:
                game = cache.get(key)
            except KeyError:
                pass
            else:
                if not game.needs_events:
                    if game.state is None:
                        self._restore_state(game)
                    return game, False
        return self._load(key), True

    def _stored_event(self, game: Game, version: int) -> Any:
        return next(iter(self.events.get(game.id, gt=version - 1, lte=version)))

    def _snapshot_with(self, game: Game) -> dict[str, Any]:
        """``snapshot=<stored snapshot>`` when the events being saved cross a multiple of
        `SNAPSHOT_INTERVAL` and the store writes it with the append (one round trip), else {}."""
        if self.snapshots is None or not getattr(self.snapshots.recorder, "latest_only", False):
            return {}
        if not any(event.originator_version % SNAPSHOT_INTERVAL == 0 for event in game.pending_events):
            return {}
        if game.state is None:
            return {}  # refolded from the store after the save; `_take_snapshots` takes it then
        return {"snapshot": self.snapshots.mapper.to_stored_event(Game.Snapshot.take(game))}

    def _take_snapshots(self, processing_event: Any) -> None:
        """Snapshot the aggregate just saved, from memory (the library would rebuild it from
        the store first), every `SNAPSHOT_INTERVAL` versions."""
        if self.snapshots is None or "snapshot" in processing_event.saved_kwargs:
            return  # none due, or written with the append
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
        """Run `fn(game)` on the cached aggregate and save; on any failure forget the copy.

        The cached copy is used without reading the store: if another process changed the
        game, the append is refused (or the expected version differs) and `fn` runs once
        more on the aggregate as stored; so does any refusal (not your turn, illegal move),
        which the newer state may not share. Accepted moves cost no read."""
        key = self.parse_id(game_id)
        with self._lock(key):
            game, fresh = self._cached(key)
            try:
                return self._run(key, game, fn)
            except (ServiceError, IllegalMove):
                if fresh:
                    raise
            return self._run(key, self._load(key), fn)

    def _run(self, key: uuid.UUID, game: Game, fn):
        try:
            result = fn(game)
            if game.pending_events:
                self.save(game, **self._snapshot_with(game))
            if game.state is None:  # an undo beyond the aggregate's window
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
                    options: dict | None = None, seed: int | None = None, bots: dict | None = None,
                    seating: str = "tokens", undo_policy: str | None = None,
                    analysis_during_play: bool | None = None, clock: dict | None = None,
                    on_timeout: str | None = None) -> dict:
        """Set a game up. ``seating="tokens"``: the answer holds every seat's token;
        ``"invite"``: one single-use invitation code per seat instead (`join` turns one into
        that seat's token), so the creator never holds another player's token. `undo_policy` and
        `analysis_during_play` are the table's options (domain/app/table.py), stored in `Created`."""
        table = table_options(undo_policy, analysis_during_play, clock, on_timeout)
        if seed is not None and seating != "tokens":       # API.md "Seeds"
            raise InvalidGameSetup("A seed of your choosing is refused when players join by invitation: "
                                   "whoever chooses the seed knows every hand. Leave the seed out and the "
                                   "server commits to one (table.seed_commitment).", rule="TABLE-SEED-01")
        seeding = {"seed_chosen": True} if seed is not None else None
        return self._create(game_type, players, names, options, seed, seating, bots, table=table, seeding=seeding)

    def create_simulated(self, game_id: uuid.UUID, game_type: str, players: int, bots: dict, seed: int,
                         simulation_id: str, index: int) -> bool:
        """Game `index` of a simulation (api/jobs/simulations.py): bots on every seat, unrated
        (`Simulated`), under the id the simulation gives it, so that two workers creating it
        store it once. False when it exists already."""
        try:
            self._create(game_type, players, None, {}, seed, "tokens", bots, game_id=game_id,
                         before_save=lambda game: game.mark_simulated(simulation_id, index))
        except RecordConflictError:
            return False
        return True

    def _create(self, game_type: str, players: int, names: list[str] | None, options: dict | None,
                seed: int | None, seating: str, bots: dict | None = None, setup_facts: list | None = None,
                before_save: Callable[[Game], None] | None = None, table: dict | None = None,
                seeding: dict | None = None, game_id: uuid.UUID | None = None) -> dict:
        """Create and save a game (`before_save` may add its first events or refuse it). Without a
        seed the server draws seed material and commits to it (domain/app/seeds.py); `seeding` says
        how a given seed came (chosen by the creator; a record's committed material)."""
        if seating not in ("tokens", "invite"):
            raise InvalidGameSetup(f'seating is "tokens" or "invite", not {seating!r}')
        try:
            rules = get_rules(game_type)
        except KeyError:
            from domain.engine.registry import game_types
            known = ", ".join(rules.meta.name for rules in game_types())
            raise UnknownGameType(f"There is no game called {game_type!r}; the games are {known}.",
                                  game=game_type) from None
        meta = rules.meta
        if not isinstance(players, int) or not meta.min_players <= players <= meta.max_players:
            raise InvalidGameSetup(
                f"{meta.title} is for {meta.min_players} to {meta.max_players} players; you asked for {players}.",
                rule="ENGINE-PLAYERS-01")
        names = list(names) if names else [default_seat_name(seat) for seat in range(players)]
        if len(names) != players:
            raise InvalidGameSetup(f"Give one name per player: {len(names)} "
                                   f"name{'s' if len(names) != 1 else ''} for {players} players.")
        bots = bot_seats(bots, players)
        if seed is None:
            seed, seeding = committed_seed()
        invited = seating == "invite"
        # A bot seat gets no token at all: the bot runner plays it through `play_bot`, and a token
        # in the creator's hands would let the creator vote or move as the bot.
        seat_tokens = [None if str(seat) in bots else secrets.token_urlsafe(32) for seat in range(players)]
        # A bot seat is nobody's to take: no invitation for it ("" in SeatsInvited).
        invite_codes = ["" if str(seat) in bots else secrets.token_urlsafe(24) for seat in range(players)]
        referee_token = secrets.token_urlsafe(32)
        try:
            game = Game.start(game_type, players, names, json_native(options or {}), seed,
                              [""] * players if invited else [hash_token(t) if t else "" for t in seat_tokens],
                              hash_token(referee_token), bots, setup_facts, table, seeding, game_id=game_id)
        except IllegalMove as error:
            raise InvalidGameSetup(error.detail, rule=error.rule_id) from None
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            # Options are client input; a game that trips over odd ones refuses them.
            raise InvalidGameSetup(f"These options are not valid for {rules.meta.title}: {error}.") from None
        if invited:
            game.invite([hash_token(code) if code else "" for code in invite_codes])
        if before_save is not None:
            before_save(game)
        self.save(game)
        answer: dict = {"id": str(game.id), "game": game_type, "version": game.version}
        if invited:
            answer["invites"] = [{"seat": seat, "invite": code} for seat, code in enumerate(invite_codes) if code]
        else:
            answer["seats"] = [{"seat": seat, "token": token, "name": names[seat], "bot": bots.get(str(seat))}
                               for seat, token in enumerate(seat_tokens)]
        answer["referee_token"] = referee_token
        return answer

    # ---- forks and records

    def fork(self, game_id: str, token: str | None, step: int, seating: str = "tokens") -> dict:
        """A new, unrated game from the position after `step` effective moves of this one, with
        fresh randomness (a new seed) from there on: what the forker could not see is dealt again with
        it (`forked_facts`, `fork_viewers`). Anyone may fork a finished game; a running one only its
        referee (ENGINE-FORK-01), from the spectator's knowledge. The fork keeps the source's bot
        seats (same levels) and its players' names."""
        def source(game: Game) -> tuple:
            caller = game.caller_for(token)
            if not game.finished and caller.kind != "referee":
                raise NotYourSeat("only the referee may fork a game that is still running", rule="ENGINE-FORK-01")
            if not 0 <= step <= game.last_move_no:
                raise StepOutOfRange(f"step is 0..{game.last_move_no}, not {step}", steps=game.last_move_no)
            facts = list(game.setup_facts)
            for event in self._effective_moves(game, step):
                facts.extend(event.facts)
            return (game.game_type, game.players, list(game.names), game.options, json_native(facts), str(game.id),
                    dict(game.bots or {}), fork_viewers(game.players, game.finished))
        game_type, players, names, options, facts, source_id, bots, viewers = self._read(game_id, source)
        seed, seeding = committed_seed()
        facts = forked_facts(get_rules(game_type), players, options, facts, seed, viewers,
                             {"id": source_id, "step": step})
        answer = self._create(game_type, players, names, options, seed, seating, bots=bots, setup_facts=facts,
                              before_save=lambda game: game.mark_forked(source_id, step), seeding=seeding)
        answer["forked_from"] = {"id": source_id, "step": step}
        return answer

    def record(self, game_id: str, token: str | None) -> dict:
        """The game's record (`records.build_record`): complete with the seed once finished,
        redacted for the caller while it runs."""
        def write(game: Game) -> dict:
            viewer = game.caller_for(token).viewer(game.finished)
            return build_record(game, self._effective_moves(game), viewer)
        return self._read(game_id, write)

    def import_record(self, record: Any, seating: str = "tokens") -> dict:
        """A new, unrated game from a record, every move re-decided from the seed; refused
        (`RecordMismatch`, nothing stored) at the first move whose facts differ. A record of an
        earlier release is read under today's fact names and shapes, and a difference a rule fix
        made since explains exactly is accepted and named in the answer (`rule_fixes`;
        domain/engine/legacy.py). The copy holds the facts today's rules decide."""
        checked = checked_record(record)
        release = checked["release"]
        explained: list[dict] = []

        def check(game: Game, recorded: list, decided: list, move_no: int) -> None:
            verdict = check_facts(game.rules, recorded, decided, game.state, release)
            if not verdict.ok:
                what = "the setup facts differ from what the seed gives" if move_no == 0 else \
                    f"move {move_no} does not give the recorded facts"
                extra: dict = {"move_no": move_no, "verified_to": max(move_no - 1, 0), "facts": decided}
                if verdict.fix is not None:   # a rule fixed since changed the course of the game here
                    fix = verdict.fix
                    what += (f": a record of release {release}, decided before {fix.rule} was fixed (issue {fix.issue},"
                             f" release {fix.release}: {fix.summary}); verified to move {move_no - 1}")
                    extra["rule_fix"] = fix.describe()
                if explained:
                    extra["rule_fixes"] = explained
                raise RecordMismatch(what, **extra)
            if verdict.fix is not None:
                explained.append({"move_no": move_no, **verdict.fix.describe()})

        def replay_moves(game: Game) -> None:
            if checked["setup_facts"] is not None:
                check(game, checked["setup_facts"], json_native(game.setup_facts), 0)
            game.mark_imported(len(checked["moves"]))  # first: the read side knows it is unrated
            for index, entry in enumerate(checked["moves"], start=1):
                try:
                    # A move a bot played for the seat (its clock ran out, or it left) keeps its actor:
                    # the recorded move is the clock's outcome, never re-decided from wall time.
                    played = game.play_move(Caller("seat", entry["seat"]), stored_move(game.rules, entry["move"]), None,
                                            actor=entry.get("actor"))
                except (ServiceError, IllegalMove) as error:
                    rule = getattr(error, "rule_id", None) or error.extra.get("rule")
                    raise RecordMismatch(f"move {index} is refused: {error.detail}", move_no=index,
                                         verified_to=index - 1, rule=rule) from None
                if "facts" in entry:
                    check(game, entry["facts"], played["facts"], index)
            if not game.finished:          # a prefix of a public record: practice (TABLE-PRACTICE-01)
                game.mark_practice()

        names = checked["names"]
        try:
            answer = self._create(checked["game"], checked["players"], names, checked["options"], checked["seed"],
                                  seating, before_save=replay_moves, seeding=checked["seeding"])
        except InvalidGameSetup as error:
            raise InvalidRecord(f"the record's game cannot be set up: {error.detail}", **error.extra) from None
        answer["rules_release"] = release
        if explained:
            answer["rule_fixes"] = explained
        return answer

    def join(self, game_id: str, invite: str, name: str, entropy: str | None = None) -> dict:
        """Take the seat of an invitation (single use) under `name`: ``{"seat", "token"}``; the seat's
        `entropy` goes into the move seed when no move was played yet (`entropy_counted`, seeds.py)."""
        token = secrets.token_urlsafe(32)
        try:
            entropy = checked_entropy(entropy)
        except ValueError as error:
            raise InvalidGameSetup(f"The {error}.") from None

        def take(game: Game) -> dict:
            counted = bool(entropy) and not game.moved and game.seed_material is not None
            seat = game.join(hash_token(invite), name, hash_token(token), entropy)
            return {"seat": seat, "token": token, "name": name, "version": game.version, "entropy_counted": counted}
        return self._command(game_id, take)

    def bots_to_act(self, game_id: str) -> list[int]:
        """The bot seats that may play now (empty once finished): the table's rule that bots are
        seats, not referees (domain/app/bot_turns.py, TABLE-BOT-01), for every runner of bots."""
        def seats(game: Game) -> list[int]:
            if game.finished or not game.bot_seats:
                return []
            return bots_may_act(game.rules, game.state, game.rules.decision(game.state), game.bot_seats,
                                game.released_seats())
        return self._read(game_id, seats)

    def pass_step(self, game_id: str, token: str | None) -> dict:
        """The caller's seat passes the current team step to the bots (`Game.pass_step`, TABLE-BOT-04)."""
        return self._command(game_id, lambda game: game.pass_step(game.caller_for(token)))

    def bot_wait(self, game_id: str, now: float, delay_s: float) -> float:
        """Seconds a bot of this game still waits before its move (TABLE-BOT-02): `delay_s` after the
        latest move by a person, so people can follow; 0 when that is past (or nobody has moved).
        `now` is passed in (epoch seconds): the wait is pacing, not part of the bot's thinking."""
        moved_at = self._read(game_id, lambda game: game.person_moved_at)
        if moved_at is None or delay_s <= 0:
            return 0.0
        return max(0.0, min(delay_s, moved_at + delay_s - now))

    def play_bot(self, game_id: str, seat: int) -> dict | None:
        """Let the bot of `seat` choose and play its move; None when it has nothing to do now.

        The bot thinks outside the game's lock, from a copy of the state (it reads only what
        its seat may see, see domain/bots); the move then goes through the same play path as a
        person's, recorded with actor ``bot:<level>``, unless the game moved on meanwhile
        (then None: the caller looks again)."""
        def position(game: Game):
            level = game.bot_level(seat)
            if game.finished or level is None:
                return None
            allowed = bot_moves(game.rules, game.state, game.rules.decision(game.state), seat, game.bot_seats,
                                game.released_seats())
            if not allowed:  # not its decision, or the people's (TABLE-BOT-01)
                return None
            move_no = game.last_move_no + 1
            return (game.version, level, json_native(game.state), derive_seed(game.seed, f"bot/{seat}/{move_no}"),
                    json_native(allowed))
        found = self._read(game_id, position)
        if found is None:
            return None
        version, level, state, bot_seed, allowed = found
        move = bot_move(get_rules(self._read(game_id, lambda game: game.game_type)), state, seat, level, bot_seed,
                        allowed)

        def command(game: Game) -> dict | None:
            if game.version != version:
                return None
            result = game.play_move(Caller("seat", seat), move, None, actor=game.bot_actor(seat))
            return self._move_answer(result, Caller("seat", seat), game.finished, replayed=False)
        return self._command(game_id, command)

    def caller(self, game_id: str, token: str | None) -> Caller:
        return self._read(game_id, lambda game: game.caller_for(token))

    def game_view(self, game_id: str, token: str | None, now: float | None = None) -> dict:
        """The game as the caller may see it. `now` (epoch seconds, the caller's clock) shows a take-back
        request whose time ran out as expired already (TABLE-UNDO-08; its event is written by the next
        command on the game)."""
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
                "score_breakdown": presentation.score_breakdown(rules, game.state) if game.finished else [],
                "players": game.players, "names": game.names, "decision": decision.to_json(),
                "bots": dict(game.bots or {}),
                "forked_from": game.forked_from,
                "prompt": presentation.prompt(rules, game.state, game.names, caller.viewer(game.finished)),
                "you": {"role": caller.kind, "seat": caller.seat},
                "open_seats": game.open_seats,
                "undo_requests": [self._public_request(game, r) for r in game.undo_requests.values()
                                  if r["status"] == "pending" and not _lapsed(r, now)],
                "undo_history": [self._public_request(game, r, now) for r in game.undo_requests.values()
                                 if r["status"] != "pending" or _lapsed(r, now)],
                "table": game.table_shown,
                "passed": sorted(game.released_seats()),
                "seats": self._seats(game),
            }
        return self._read(game_id, view)

    @staticmethod
    def _seats(game: Game) -> list[dict]:
        """Who sits where (API.md): name, bot level, seconds left on the seat's clock (`clock_s`, None
        without a clock or for a bot), whether its player left it to a bot (`left`, `forfeited` when
        the clock ran out on a `forfeit` table); `online` is the live connections' (None: not known here)."""
        now = time.time()
        takeovers = game.takeovers or {}
        return [{"seat": seat, "name": game.names[seat], "bot": game.bot_level(seat), "online": None,
                 "clock_s": game.clock_left(seat, now),
                 "left": str(seat) in takeovers,
                 "forfeited": takeovers.get(str(seat), {}).get("reason") == "forfeit"}
                for seat in range(game.players)]

    def leave(self, game_id: str, token: str | None) -> dict:
        """The caller's seat goes to a `normal` bot for good (`SeatTakenOver`); the game no longer counts."""
        def command(game: Game) -> dict:
            caller = game.caller_for(token)
            game.take_over(caller)
            return {"seat": caller.seat, "bot": game.bot_level(caller.seat), "version": game.version}
        return self._command(game_id, command)

    def next_deadline(self, game_id: str) -> float | None:
        """When the next clock of this game runs out (epoch seconds), None when none runs."""
        found = self._read(game_id, lambda game: game.deadlines())
        return min(found.values()) if found else None

    def expire_clocks(self, game_id: str, now: float) -> list[int]:
        """Record `ClockExpired` for every seat whose time ran out by `now` (idempotent), then, on a
        `skip` table, play a pass for it where the game has one (else a bot plays, as for `bot`)."""
        def command(game: Game) -> list[int]:
            return game.expire_clocks(now)
        expired = self._command(game_id, command)
        for seat in expired:
            self._skip(game_id, seat)
        return expired

    def _skip(self, game_id: str, seat: int) -> None:
        def command(game: Game) -> None:
            if (game.expired or {}).get(str(seat)) != "skip" or game.finished:
                return
            passes = [m for m in game.rules.legal_moves(game.state, seat)
                      if isinstance(m, dict) and str(m.get("type", "")).startswith(("pass", "end"))]
            if passes:
                game.play_move(Caller("seat", seat), passes[0], None, actor="clock:skip")
        self._command(game_id, command)

    @staticmethod
    def _public_request(game: Game, request: dict, now: float | None = None) -> dict:
        shown = {key: request[key] for key in ("request_id", "by", "to_move", "reason", "status", "approvals")}
        if _lapsed(request, now):
            shown["status"], shown["outcome"] = "expired", lapse_reason()
        shown["waiting_for"] = game.waiting_for(request)
        expires_at = request.get("expires_at")
        shown["expires_at"] = (datetime.fromtimestamp(expires_at, timezone.utc).isoformat()
                               if expires_at is not None else None)
        if request.get("outcome"):
            shown["outcome"] = request["outcome"]
        return shown

    def legal_moves(self, game_id: str, token: str | None) -> dict:
        def moves(game: Game) -> dict:
            caller = game.caller_for(token)
            if caller.kind == "spectator":
                raise TokenRequired("legal moves are listed for a seat token")
            if caller.kind != "seat" or game.finished:
                return {"version": game.version, "moves": [], "labels": [], "paths": [], "targets": []}
            rules, state, seat = game.rules, game.state, caller.seat
            listed = json_native(rules.legal_moves(state, seat))
            labels = presentation.labels(rules, state, seat, listed, game.names)
            return {"version": game.version, "moves": listed, "labels": labels,
                    "paths": presentation.paths(rules, state, seat, listed, game.names, labels),
                    "targets": presentation.targets(rules, state, seat, listed)}
        return self._read(game_id, moves)

    def picture(self, game_id: str, token: str | None) -> str:
        """The board picture (SVG) for the caller now.

        Drawn by the game from the caller's view only (`presentation.picture`), with the
        players' names; once the game is finished it is shown in full. A past step's picture
        is the read side's (the replay projection: api/routers/board.py `picture_at`).
        """
        def draw(game: Game) -> str:
            viewer = game.caller_for(token).viewer(game.finished)
            view = json_native(game.rules.view(game.state, viewer))
            return presentation.picture(game.rules, view, viewer, list(game.names), game.scores)
        return self._read(game_id, draw)

    def glossary(self, game_id: str, token: str | None) -> list[dict]:
        """The glossary as the caller reads it now (`presentation.glossary_of_view`): drawn from the
        caller's view only, like the picture, so it names nothing the caller cannot see."""
        def words(game: Game) -> list[dict]:
            viewer = game.caller_for(token).viewer(game.finished)
            view = json_native(game.rules.view(game.state, viewer))
            return presentation.glossary_of_view(game.rules, view)
        return self._read(game_id, words)

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
            first = self._keyed_move(game, idempotency_key)
            if first is not None:  # a retry: the first answer, nothing appended (for the game's whole life)
                if first.seat != caller.seat or move_digest(first.move) != move_digest(move):
                    raise IdempotencyKeyReused("this Idempotency-Key was used for a different move")
                record = {"version": first.originator_version, "move_no": first.move_no,
                          "facts": first.facts, "description": first.description}
                return self._move_answer(record, caller, bool(first.finished), replayed=True)
            rebased = False
            if retry_only or (expected_version is not None and expected_version != game.version):
                rebased = not retry_only and self._still_meant(game, caller, move, expected_version)
                if not rebased:
                    shown = expected_version if expected_version is not None else "another version"
                    raise VersionConflict(f"expected version {shown}, the game is at {game.version}",
                                          current_version=game.version)
            result = game.play_move(caller, move, idempotency_key)
            answer = self._move_answer(result, caller, game.finished, replayed=False)
            if rebased:
                answer["rebased_from"] = expected_version
            return answer
        return command

    def _keyed_move(self, game: Game, idempotency_key: str | None) -> Any:
        """The stored `MovePlayed` this Idempotency-Key answered, if any (the digest finds its
        version; the stored event's own key must match, so a digest collision is no retry)."""
        if idempotency_key is None:
            return None
        version = game.idempotency.get(key_digest(idempotency_key))
        if version is None:
            return None
        stored = self._stored_event(game, version)
        return stored if getattr(stored, "idempotency_key", None) == idempotency_key else None

    #: Events after which a move still means what it meant: other seats' moves (checked apart) and
    #: the bookkeeping of take-back requests and seats, which change no position.
    _NEUTRAL_EVENTS = frozenset({"UndoRequested", "UndoVoted", "UndoRejected", "UndoExpired", "SeatJoined",
                                 "SeatPassed"})

    def _still_meant(self, game: Game, caller: Caller, move: Any, expected_version: Any) -> bool:
        """TABLE-MOVE-01: a move sent at a stale `expected_version` is played anyway (the answer says
        `rebased_from`) when only OTHER seats moved since, in a step where several seats may act
        (simultaneous or any order), or nothing moved at all (only take-back bookkeeping), and the
        move was legal then and is listed now with the same words: the person meant this move and
        nothing they saw has changed its meaning. Anything else is the 409 it always was."""
        if (caller.kind != "seat" or not isinstance(expected_version, int)
                or not game.version - 64 <= expected_version < game.version or expected_version < 1
                or game.finished):
            return False
        between = list(self.events.get(game.id, gt=expected_version, lte=game.version))
        played = [event for event in between if type(event).__name__ == "MovePlayed"]
        if any(type(event).__name__ not in self._NEUTRAL_EVENTS | {"MovePlayed"} for event in between):
            return False  # an undo, or anything else that reshapes the game
        if any(event.seat == caller.seat for event in played):
            return False
        rules = game.rules
        if not played:
            return True  # the position is the one the person saw; play_move checks the move
        kept = len([version for version in game.effective_versions() if version <= expected_version])
        if game.window_state is None or kept < game.window_base:
            return False  # too far back to compare cheaply: the person reloads
        before = game.replay_from(json_native(game.window_state),
                                  (entry["facts"] for entry in game.window if entry["move_no"] <= kept))
        then, now = rules.decision(before), rules.decision(game.state)
        if then.mode not in ("simultaneous", "team") or caller.seat not in then.seats or caller.seat not in now.seats:
            return False
        try:
            if move not in rules.legal_moves(before, caller.seat) or move not in rules.legal_moves(game.state, caller.seat):
                return False
            return (presentation.labels(rules, before, caller.seat, [move], game.names)
                    == presentation.labels(rules, game.state, caller.seat, [move], game.names))
        except Exception:  # noqa: BLE001 - a malformed move: the 409 as before, never a 500
            return False

    @staticmethod
    def _move_answer(record: dict, caller: Caller, finished: bool, replayed: bool) -> dict:
        """The answer to a move, as it was when the move was played (a retry gets the same
        body; `replayed` says it was a retry, and is not part of the HTTP body)."""
        viewer = caller.viewer(finished)
        return {"version": record["version"], "move_no": record["move_no"],
                "facts": visible_facts(record["facts"], viewer), "description": record["description"],
                "status": "finished" if finished else "active", "replayed": replayed}

    def request_undo(self, game_id: str, token: str | None, to_move: int, reason: str = "",
                     now: float | None = None) -> dict:
        """A take-back request (`Game.request_undo`); `now` (epoch seconds) is the caller's clock. The
        referee's take-back in a FINISHED game reopens it (`_reopen`, TABLE-REOPEN-01)."""
        def command(game: Game) -> dict:
            caller = game.caller_for(token)
            if game.finished and caller.kind == "referee":
                return self._reopen(game, caller, to_move, reason)
            return game.request_undo(caller, to_move, reason, now)
        return self._command(game_id, command)

    def _reopen(self, game: Game, caller: Caller, to_move: int, reason: str) -> dict:
        """Reopen a finished game at `to_move`: its record published every hidden card and its seed, so
        the position after move `to_move - 1` is dealt again from what a spectator saw then, with new
        secret seed material that every later move uses (domain/engine/redeal.py, `Game.reopen`)."""
        game.check_reopen(caller, to_move, reason)
        facts = list(game.setup_facts)
        for event in self._effective_moves(game, to_move - 1):
            facts.extend(event.facts)
        rules = game.rules
        state = fold(rules.evolve, rules.initial_state(game.players, game.options), json_native(facts))
        material = new_material()
        position = deal_again(rules, state, facts, [SPECTATOR], Rng(setup_seed(material), REOPEN_STREAM))
        return game.reopen(caller, to_move, reason, position, material)

    def vote_undo(self, game_id: str, token: str | None, request_id: str, approve: bool,
                  now: float | None = None) -> dict:
        return self._command(game_id, lambda game: game.vote_undo(game.caller_for(token), request_id, approve, now))


    def event_slice(self, game_id: str, token: str | None, after: int = 0, limit: int = 100) -> EventSlice:
        """Up to `limit` stored events after version `after`, and how to show them to the caller
        (`projections.event_log` formats them)."""
        def read(game: Game) -> EventSlice:
            viewer = game.caller_for(token).viewer(game.finished)
            events = list(self.events.get(game.id, gt=after, lte=game.version, limit=limit))
            return EventSlice(game.rules, viewer, frozenset(game.undone_versions), events, tuple(game.names))
        return self._read(game_id, read)

    def game(self, game_id: str) -> Game:
        """The live aggregate itself (for tests and internal tools; do not mutate)."""
        return self._read(game_id, lambda game: game)

    def rebuilt(self, game_id: str) -> Game:
        """The aggregate rebuilt from the store alone (snapshot + later events), bypassing
        the cache: what a freshly started process would load."""
        key = self.parse_id(game_id)
        version = self.game(game_id).version
        game = self.repository.get(key, version=version)
        game = self._from_events(key, version) if game.needs_events else game
        if game.state is None:
            self._restore_state(game)
        return game

    _MOVED = {"event_log": "projections.event_log.event_log(service, game_id, token, after, limit)",
              "list_games": "ReadSide.list_games(game, status) (projections.game_index)"}

    def __getattr__(self, name: str) -> Any:
        if name in GameService._MOVED:
            raise AttributeError(f"GameService.{name} moved to the read side: {GameService._MOVED[name]}")
        raise AttributeError(name)
