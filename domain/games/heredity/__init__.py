"""Heredity: The Book of Swan — cooperative, card-driven; the Timeline drives the tempo.

The template's modules (domain/games/README.md): content (TOML chapters; the card language in `lang`, see
GRAMMAR.md), state (initial state, setup and every read-only query: Terrain graph, reach, Timeline), flow (who
decides now), moves (the binding legal-move list), decide (one check/apply pair per move kind), resolver (the
interpreter's machinery: its call stack and pending decisions are state), effects (what each instruction does,
NPC AI included), evolve, view, scoring, describe. RULINGS.md holds every reading of an unclear rule.
"""

from __future__ import annotations

from domain.engine import GameMeta, register
from domain.games.adapter import PackageRules

from . import state  # first: the resolver and the effects read the state through its modules  # isort: skip
from . import decide, describe, evolve, flow, moves, picture, scoring, view, words
from . import redeal
from . import effects, resolver  # noqa: F401  (template modules, used by decide)
from .content import load_chapter

SWAN = load_chapter(__name__, "chapter1.toml")
words.check_layout(SWAN)          # the area and Terrain names of layout.toml fit the chapter

META = GameMeta(
    name="heredity", title="Heredity: The Book of Swan", min_players=1, max_players=4, cooperative=True,
    content_version="1",
    hidden_information=True,     # the Adventure and Secrets decks, unrevealed faces, the Karma deck's order
    chance=True,                 # the Karma deck is shuffled (setup, reshuffles, evolutions)
    simultaneous=False,          # the team acts one move at a time
    blurb="A family crosses a salt-blighted land together, card by card, while the Hourglass runs along the "
          "Timeline and the storm closes in.")

RULES = register(PackageRules(META, state=state, flow=flow, moves=moves, decide=decide, evolve=evolve, view=view,
                              scoring=scoring, describe=describe, words=words,
                              picture=picture, redeal=redeal))
