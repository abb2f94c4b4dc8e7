"""Ada's Dream: dice drafting and engine building for 2-4 players (multiplayer rules).

The template's modules (domain/games/README.md): content (TOML + lookups), state (table, setup and every
query), flow (the turn and phase table), moves (the binding legal-move list), decide (one function per move
kind), resolver (the agenda machinery), effects (content effects, actions, choices), evolve, view, scoring,
describe, words (labels and prompts). RULINGS.md holds every reading of an unclear rule.
"""

from __future__ import annotations

from domain.engine import GameMeta, register
from domain.games.adapter import PackageRules

from . import decide, describe, evolve, flow, moves, picture, scoring, state, view, words
from . import redeal
from . import effects, resolver  # noqa: F401  (template modules, used by decide)

META = GameMeta(
    name="adas_dream", title="Ada's Dream", min_players=2, max_players=4, cooperative=False, content_version="1",
    hidden_information=True,     # hands, decks, face-down tier-1 cards, stack orders (catalog 5)
    chance=True,                 # Workshop dice drawn and rolled, decks shuffled
    simultaneous=False,          # one seat acts at a time; a deferred Build is a separate, non-overlapping move
    blurb="Draft dice from a shared Workshop, send partners across Victorian Britain and assemble "
          "Babbage's engine gear by gear.")

RULES = register(PackageRules(META, state=state, flow=flow, moves=moves, decide=decide, evolve=evolve, view=view,
                              scoring=scoring, describe=describe, words=words,
                              picture=picture, redeal=redeal))
