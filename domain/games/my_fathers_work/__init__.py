"""My Father's Work: three Generations of mad scientists, with a data-driven Storybook substitute.

Modules: content (TOML pack + validation), state (initial state + queries), ops (the op queue
and effects), flow (rounds and Generations), actions (placements and turn actions), moves
(legal moves), decide, evolve, view, scoring, describe.

Options: ``scenario`` (default "scn-lantern"; also "scn-parish"), ``choose_masterwork`` (bool),
``journal_occult_insanity`` (bool, MFW-AMB-19).

Moves (every element of legal_moves can be posted back as-is):
- ``{"type": "place", "loc": <Town Location id | "estate_affairs" | "record_knowledge" |
  "perform_experiment" | Upgrade tile id>, "pieces": [...], + "mode" | "track" | "card"}``
- ``{"type": "pass"}``, ``{"type": "end_turn"}``, ``{"type": "free", "source": <tile/token id>}``,
  ``{"type": "keep", "card": <id>}`` (Estate Affairs)
- ``{"type": "choose", "option": ...}`` answers the pending choice in ``state["pending"]``;
  ``{"type": "commit", "option": ...}`` is a hidden commitment in a simultaneous step.
"""

from __future__ import annotations

from domain.engine import Decision, GameMeta, Turn, register

from . import picture, words
from . import state as Q
from .decide import decide as _decide
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .flow import setup_facts
from .moves import legal_moves as _legal_moves
from .ops import Ctx, run
from .scoring import scores as _scores, winners as _winners
from .view import view as _view


class MyFathersWork:
    meta = GameMeta(name="my_fathers_work", title="My Father's Work", min_players=2, max_players=4,
                    cooperative=False, content_version="1", hidden_information=True, chance=True,
                    simultaneous=True,  # the hidden commits of the start of a round and a Generation
                    blurb="Three generations of a mad scientist's family work the estate, "
                          "perform experiments and try to keep the town's angry mob at bay.")

    def initial_state(self, players, options):
        return Q.initial_state(players, options)

    def setup(self, state, rng):
        turn = Turn(self, state)
        ctx = Ctx(turn, rng)
        setup_facts(ctx)
        run(ctx)
        return turn.facts

    def decision(self, state):
        if state["over"]:
            return Decision.nobody()
        pend = state["pending"]
        if pend is not None:
            if pend["kind"] == "sim":
                return Decision.simultaneous(pend["waiting"], pend["step"])
            return Decision.single(pend["seat"], pend["kind"])
        return Decision.single(state["active"], "place pieces or pass")

    def legal_moves(self, state, seat):
        return _legal_moves(state, seat)

    def decide(self, state, seat, move, rng):
        return _decide(self, state, seat, move, rng)

    def evolve(self, state, record):
        return _evolve(state, record)

    def view(self, state, viewer):
        return _view(state, viewer)

    def scores(self, state):
        return _scores(state)

    def is_over(self, state):
        return state["over"]

    def winners(self, state):
        return _winners(state)

    def describe(self, state, seat, move, facts):
        return _describe(state, seat, move, facts)

    def label(self, state, seat, move):
        return words.label(state, seat, move)

    def prompt(self, state):
        return words.prompt(state)

    def picture(self, view, viewer, names):
        return picture.picture(view, viewer, names)


RULES = register(MyFathersWork())
