"""Abomination: The Heir of Frankenstein — the rules engine (game type `abomination`, 2-4 players).

Modules: content (TOML pack), state (table + setup), effects (effect interpreter, dials, meeples),
flow (round/phase table), lab (build/switch/preserve), moves (legal moves), decide, evolve, view,
scoring, describe. Rule IDs refer to /shared/rules/abomination.md.
"""

from __future__ import annotations

from domain.engine import Decision, GameMeta, Turn, register

from . import decide as _decide
from . import flow, picture, words
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .moves import legal_moves as _legal_moves
from .scoring import final_scores
from .state import initial_state as _initial_state, setup_facts
from .view import view as _view


class Abomination:
    meta = GameMeta(name="abomination", title="Abomination: The Heir of Frankenstein", min_players=2,
                    max_players=4, cooperative=False, content_version="1", hidden_information=True, chance=True,
                    simultaneous=True,  # the Lab phase: every seat acts at once
                    blurb="Rival scientists in 1819 Paris scour morgues and markets for parts, "
                          "racing to stitch a creature together and throw the switch.")

    def initial_state(self, players, options):
        return _initial_state(players, options)

    def setup(self, state, rng):
        turn = Turn(self, state)
        for f in setup_facts(state, rng):
            turn.add(f)
        flow.start_round(turn)  # ABOM-SETUP-14: round 1 begins
        return turn.facts

    def decision(self, state):
        if state["phase"] == "over":
            return Decision.nobody()
        if state["pending"]:
            rec = state["pending"][-1]
            return Decision.single(rec["seat"], f"{rec['kind']} decision")
        if state["phase"] == "city":
            return Decision.single(state["active"], "place a meeple")
        if state["phase"] == "lab":  # ABOM-LAB-01: everyone at once, commands in any order
            return Decision.simultaneous([s for s in range(state["n"]) if not state["p"][s]["done"]],
                                         "lab: build, throw the switch, preserve, then done")
        return Decision.nobody("waiting")

    def legal_moves(self, state, seat):
        return _legal_moves(state, seat)

    def decide(self, state, seat, move, rng):
        return _decide.decide(self, state, seat, move, rng)

    def evolve(self, state, record):
        return _evolve(state, record)

    def view(self, state, viewer):
        return _view(state, viewer)

    def scores(self, state):
        if state.get("final"):
            return {int(s): v["total"] for s, v in state["final"].items()}
        return {s: p["vp"] for s, p in enumerate(state["p"])}

    def is_over(self, state):
        return state["phase"] == "over"

    def winners(self, state):
        if not self.is_over(state):
            return []
        return list(state["winners"] or final_scores(state)[1])

    def describe(self, state, seat, move, facts):
        return _describe(state, seat, move, facts)

    def label(self, state, seat, move):
        return words.label(state, seat, move)

    def prompt(self, state):
        return words.prompt(state)

    def picture(self, view, viewer, names):
        return picture.picture(view, viewer, names)


RULES = register(Abomination())
