"""Heredity: The Book of Swan — cooperative, card-driven; the Timeline drives the tempo.

Modules: `lang` (instruction language -> AST, see GRAMMAR.md), `content` (TOML chapters),
`board` (Terrain graph), `query` (derived state), `timeline` (anchoring, restore),
`interp` (the interpreter: call stack and pending decisions are state), `ai` (NPC AI),
`actions` (PC actions and decision answers), `moves` (legal moves), `evolve`, `view`,
`describe`, `state` (initial state and setup).

Turn flow (there are no turns: the Hourglass drives everything, HER-GEN-05):

| phase            | state                                              | who may act                       | moves                                   |
|------------------|----------------------------------------------------|-----------------------------------|-----------------------------------------|
| action window    | `window` set, stack at that depth, no `pending`    | every seat, for the PCs it controls | PC actions, free drops, injuries, `end_window` |
| decision pending | `pending` = {kind, options, pc}                    | controllers of `pending.pc` (all seats if none) | `choose` an option, voluntary injury |
| resolving        | frames on `stack` (never visible between moves)    | nobody: `interp.run` continues    | —                                       |
| over             | `over` = "victory" / "defeat"                      | nobody                            | —                                       |
"""

from __future__ import annotations

from domain.engine import Decision, GameMeta, IllegalMove, Turn, register

from . import actions as A
from . import interp as I
from .content import load_chapter
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .moves import legal_moves as _legal_moves, listed
from .query import injury_seats
from .state import initial_state as _initial_state, setup as _setup
from .view import view as _view

SWAN = load_chapter(__name__, "chapter1.toml")


class Heredity:
    meta = GameMeta(name="heredity", title="Heredity: The Book of Swan", min_players=1, max_players=4,
                    cooperative=True, content_version="1")

    def initial_state(self, players, options):
        if not 1 <= players <= 4:
            raise IllegalMove("HER-CONTROL-01", "1 to 4 players")
        return _initial_state(players, dict(options or {}))

    def setup(self, state, rng):
        return _setup(self, state, rng)

    def decision(self, state):
        if state["over"] is not None:
            return Decision.nobody(f"chapter over: {state['over']}")
        p = state["pending"]
        if p is not None:
            seats = state["control"][p["pc"]] if p["pc"] else list(range(state["players"]))
            seats = set(seats) | set(injury_seats(state))         # a voluntary injury at any time (HER-INJURY-05)
            return Decision.team(sorted(seats), p["kind"].replace("_", " "))
        return Decision.team(list(range(state["players"])), "action window: spend Action tokens or end the window")

    def legal_moves(self, state, seat):
        if seat not in self.decision(state).seats:
            return []
        return _legal_moves(state, seat)

    def decide(self, state, seat, move, rng):
        """Binding (issue 16.4): the referee's own checks first (their rule IDs name what is wrong), then the move
        must equal one of the listed legal moves."""
        facts = self.referee(state, seat, move, rng)
        if move not in listed(state, seat, move):          # types already checked strictly (A.check_keys)
            raise IllegalMove("HER-GEN-05", "not one of the listed legal moves (see legal-moves)")
        return facts

    def referee(self, state, seat, move, rng):
        """The move applied by the rules' checks alone (no comparison with the list)."""
        if state["over"] is not None:
            raise IllegalMove("HER-GEN-06", "the chapter is over")
        handler = A.DO.get(move.get("type")) if isinstance(move, dict) else None
        if handler is None:
            raise IllegalMove("HER-GEN-05", f"unknown move type {move.get('type')!r}")
        A.check_keys(move)
        if state["pending"] is not None and move["type"] not in ("choose", "injure") and not (
                move["type"] == "drop" and state["pending"]["kind"] == "ally_join"):           # HER-AMB-26
            raise IllegalMove("HER-ACTION-07", "a decision is pending: answer it first")
        turn = Turn(self, state)
        t = I.Ctx(turn, rng)
        handler(t, seat, move)
        I.run(t)
        self._auto_close(t)
        return turn.facts

    @staticmethod
    def _auto_close(t):
        """HER-TIMELINE-08: the window ends by itself once every PC token is spent."""
        s = t.s
        while (s["over"] is None and s["pending"] is None and s["window"] is not None
               and len(s["stack"]) == s["window"] and not any("avail" in p["tokens"] for p in s["pcs"].values())):
            t.emit("WindowClosed", automatic=True)
            I.step(t)
            I.run(t)
            s = t.s

    def evolve(self, state, fact):
        return _evolve(state, fact)

    def view(self, state, viewer):
        return _view(state, viewer)

    def scores(self, state):
        """Cooperative: every seat gets the team's result/progress."""
        if state["over"] == "victory":
            points = 100
        elif state["over"] == "defeat":
            points = 0
        else:
            points = 5 * state["slain"] + len(state["terrains"]) + len(state["revealed"]) // 4
        return {seat: points for seat in range(state["players"])}

    def is_over(self, state):
        return state["over"] is not None

    def winners(self, state):
        return list(range(state["players"])) if state["over"] == "victory" else []

    def describe(self, state, seat, move, facts):
        return _describe(state, seat, move, facts)


RULES = register(Heredity())
