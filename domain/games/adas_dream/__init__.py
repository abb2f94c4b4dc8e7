"""Ada's Dream: dice drafting and engine building for 2-4 players (multiplayer rules).

Modules: content (TOML + lookups), state (table + setup), board (queries), moves (legal moves and
the phase table), decide (one function per move kind), flow (agenda resolver: effects, actions,
choices), evolve (facts -> state), scoring, view, describe.
"""

from __future__ import annotations

from domain.engine import Decision, GameMeta, register

from . import scoring
from .decide import decide as _decide
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .moves import legal_moves as _legal_moves
from .state import initial_state as _initial_state, setup as _setup
from .view import view as _view, view_move as _view_move


class AdasDream:
    meta = GameMeta(name="adas_dream", title="Ada's Dream", min_players=2, max_players=4, cooperative=False,
                    content_version="1")

    def initial_state(self, players, options):
        return _initial_state(players, dict(options or {}))

    def setup(self, state, rng):
        return _setup(state, rng)

    def decision(self, state):
        if state["over"]:
            return Decision.nobody()
        draft = state.get("draft")
        if draft:
            return Decision.single(draft["order"][len(draft["picks"])], "pick a tier-1 Partner card")
        fl = state["flow"]
        deferred = fl["deferred"]
        if fl["final_wait"]:
            return Decision.single(deferred["seat"], "settle your deferred Build")
        if deferred and deferred["seat"] != fl["seat"]:
            # ADA-BUILD-04 / ADA-AMB-43: two seats may send a move, but not the same moves. The active seat plays
            # its turn; the previous seat may only send its deferred end-of-turn Build (build / decline_build).
            # decide() refuses anything else from either seat (ADA-TURN-07); legal_moves lists each seat's own.
            active, builder = fl["seat"], deferred["seat"]
            return Decision(
                (active, builder), "team",
                f"seat {active} takes their turn; seat {builder} may only send their deferred Build "
                f"(build or decline_build)",
                {"active": active, "deferred_build": builder})
        return Decision.single(fl["seat"], "take your turn")

    def legal_moves(self, state, seat):
        return _legal_moves(state, seat)

    def decide(self, state, seat, move, rng):
        return _decide(self, state, seat, move, rng)

    def evolve(self, state, record):
        return _evolve(state, record)

    def view(self, state, viewer):
        return _view(state, viewer)

    def scores(self, state):
        # RULINGS: the running score counts only publicly known Partner cards; final scoring counts all
        totals = state["final"] or scoring.final_scores(state, public_only=True)
        return {seat: s["total"] for seat, s in enumerate(totals)}

    def is_over(self, state):
        return state["over"]

    def winners(self, state):
        if not state["over"]:
            return []
        return scoring.winners(state, state["final"])

    def describe(self, state, seat, move, facts):
        return _describe(state, seat, move, facts)

    def view_move(self, move, facts, mover, viewer):
        return _view_move(move, facts, mover, viewer)


RULES = register(AdasDream())
