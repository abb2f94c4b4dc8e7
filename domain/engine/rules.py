"""The `Rules` protocol every game implements, in the decider style.

    state0 = fold(evolve, initial_state(players, options), setup(...))
    facts  = decide(state, seat, move, rng)       # validates; raises IllegalMove(rule_id)
    state' = fold(evolve, state, facts)           # dull on purpose: no rules, no randomness

Games are objects (one module or package per game) whose metadata is data (`GameMeta`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol, runtime_checkable

import orjson

from .decision import Decision
from .errors import IllegalMove
from .facts import Fact, Move, Viewer, fact
from .rng import Rng
from .state import State, copy_state, fold


@dataclass(frozen=True)
class GameMeta:
    """What kind of game this is, declared before any logic (as OpenSpiel does)."""

    name: str
    title: str
    min_players: int
    max_players: int
    cooperative: bool = False
    content_version: str = "1"
    #: OpenSpiel-style traits, as data: generic tests, bots and pages read them instead of
    #: asking each game. `hidden_information`: some facts are private to seats or to nobody;
    #: `chance`: outcomes drawn from `Rng`; `simultaneous`: some decisions are simultaneous.
    hidden_information: bool = True
    chance: bool = True
    simultaneous: bool = False
    #: One line about the game for the lobby.
    blurb: str = ""

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "cooperative": self.cooperative,
            "content_version": self.content_version,
            "hidden_information": self.hidden_information,
            "chance": self.chance,
            "simultaneous": self.simultaneous,
            "blurb": self.blurb,
        }


@runtime_checkable
class Rules(Protocol):
    meta: GameMeta

    def initial_state(self, players: int, options: Mapping[str, Any]) -> State:
        """The empty table for `players` seats; raise IllegalMove for bad counts/options."""

    def setup(self, state: State, rng: Rng) -> list[Fact]:
        """Facts that set the table up (shuffles, deals); random outcomes are recorded here."""

    def decision(self, state: State) -> Decision:
        """Who must act now, and how (single / simultaneous / team / nobody)."""

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move `seat` may submit now (empty when it is not its decision)."""

    def decide(self, state: State, seat: int, move: Move, rng: Rng) -> list[Fact]:
        """Validate `move` and return its facts, including automatic consequences."""

    def evolve(self, state: State, record: Fact) -> State:
        """Apply one fact. May mutate and return `state`; never consults rules or randomness."""

    def view(self, state: State, viewer: Viewer) -> dict:
        """What `viewer` may see of the state (hidden information removed)."""

    def scores(self, state: State) -> dict[int, int]:
        """Current score per seat."""

    def is_over(self, state: State) -> bool: ...

    def winners(self, state: State) -> list[int]:
        """Winning seats once over (ties: several; cooperative defeat: none)."""

    def describe(self, state: State, seat: int, move: Move, facts: list[Fact]) -> str:
        """One plain-language sentence for the move, given the state it was played in."""

    # Presentation (optional; `domain/engine/presentation.py` supplies the fallbacks and is
    # the only caller). Words refer to players as "Seat N"; the service writes in names.

    def label(self, state: State, seat: int, move: Move) -> str:
        """One plain sentence for a listed move, before it is played, with its known costs
        and gains, in content names (never ids)."""

    def prompt(self, view: dict) -> str:
        """What is being decided now and by whom ("Seat 1: choose which card to keep"), drawn
        from a viewer's `view(state, viewer)` alone (like `picture`), so it names nothing that
        viewer cannot see; `view(state, EVERYONE)` gives the full prompt."""

    def picture(self, view: dict, viewer: Viewer, names: list[str]) -> str:
        """The board as `viewer` sees it, as an SVG document, drawn from `view` alone."""

    def glossary(self) -> list[dict]:
        """Every card, tile, space, location, character and token of the content:
        ``{"key": "card:142", "kind": "card", "name", "text"}``, in plain words, no ids."""

    def paths(self, state: State, seat: int, moves: list[Move]) -> list[list[str]]:
        """Per listed move, 1 to 5 plain steps from the general to the particular (the move tree)."""

    def targets(self, state: State, seat: int, moves: list[Move]) -> list[list[str]]:
        """Per listed move, the keys of the board elements it involves (glossary keys, ``seat:N``)."""


class Turn:
    """Collects the facts of one decision while keeping a working copy of the state.

    Rules that chain automatic consequences (end of round, scoring) emit facts one by
    one and read `turn.state` to decide what follows; the caller's state is untouched.
    """

    __slots__ = ("_evolve", "state", "facts")

    def __init__(self, rules: Rules, state: State) -> None:
        self._evolve = rules.evolve
        self.state = copy_state(state)
        self.facts: list[Fact] = []

    def emit(self, type_: str, *, private_to=None, public: dict | None = None, **data: Any) -> Fact:
        return self.add(fact(type_, private_to=private_to, public=public, **data))

    def add(self, record: Fact) -> Fact:
        self.facts.append(record)
        self.state = self._evolve(self.state, record)
        return record


def new_game(rules: Rules, players: int, options: Mapping[str, Any], seed: int) -> tuple[State, list[Fact]]:
    """Set a game up: the state after setup, and the setup facts (random stream 0)."""
    if not rules.meta.min_players <= players <= rules.meta.max_players:
        raise IllegalMove(
            "ENGINE-PLAYERS-01",
            f"{rules.meta.name} takes {rules.meta.min_players} to {rules.meta.max_players} players, not {players}",
        )
    state = rules.initial_state(players, options)
    facts = rules.setup(copy_state(state), Rng(seed, 0))
    return fold(rules.evolve, state, facts), facts


def play(rules: Rules, state: State, seat: int, move: Any, seed: int, move_no: int) -> tuple[State, list[Fact]]:
    """Check the kernel-level rules (game not over, seat's turn, move shape), then decide.

    Returns the new state and the facts; `state` itself is left unchanged.
    """
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("ENGINE-MOVE-01", 'a move is a JSON object with a string "type"')
    if rules.is_over(state):
        raise IllegalMove("ENGINE-OVER-01", "the game is over; no more moves")
    decision = rules.decision(state)
    if seat not in decision.seats:
        raise IllegalMove(
            "ENGINE-TURN-01",
            f"seat {seat} may not act now; waiting for seat(s) {list(decision.seats)}",
        )
    facts = rules.decide(state, seat, move, Rng(seed, move_no))
    if not is_listed(rules, state, seat, move):
        raise IllegalMove("ENGINE-MOVE-02", "this move is not one of the listed moves (GET legal-moves lists them)")
    new_state = fold(rules.evolve, copy_state(state), facts)
    return new_state, facts


def stored_move(rules: Rules, move: Any) -> Any:
    """A move read back from the store (or a record) in today's shape: the game's optional
    `upcast_move` hook (issue 18: a move shape renamed since the move was stored). Moves are
    stored as played forever; whatever re-decides or relabels one reads it through here."""
    upcast = getattr(rules, "upcast_move", None)
    return upcast(move) if upcast is not None else move


def canonical_move(move: Any) -> bytes:
    """A move's canonical JSON (sorted keys; ``true`` is not ``1``, ``1.0`` is not ``1``)."""
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def is_listed(rules: Rules, state: State, seat: int, move: Any) -> bool:
    """Whether `move` equals one of `legal_moves(state, seat)` (ENGINE-MOVE-02: only a
    listed move is ever stored, whatever else a game's `decide` would accept), or is the same
    in effect as a listed one by the game's optional `listed_form(state, seat, move)` (a game
    that lists one move per distinct effect, issue 24: Heredity's twin slots; moves stored or
    recorded in another of the equivalent shapes are still accepted and decided as played)."""
    try:
        wanted = canonical_move(move)
    except (TypeError, orjson.JSONEncodeError):
        return False
    listed = {canonical_move(m) for m in rules.legal_moves(state, seat)}
    if wanted in listed:
        return True
    same = getattr(rules, "listed_form", None)
    if same is None:
        return False
    try:
        return canonical_move(same(state, seat, move)) in listed
    except Exception:          # a malformed move is simply not listed
        return False
