"""Abomination: The Heir of Frankenstein — the rules engine (game type `abomination`, 2-4 players).

The template's modules (domain/games/README.md): content (TOML pack + layout), state (table, setup),
flow (who acts; round and phase steps), lab (build, switch, preserve), moves (the binding list), decide,
resolver (the effect queue and pending decisions), effects (content effects), evolve, view, scoring, describe, words, picture.
Rule IDs refer to /shared/rules/abomination.md; RULINGS.md holds every reading.
"""

from __future__ import annotations

from domain.engine import GameMeta, register
from domain.games.adapter import PackageRules

from . import decide, describe, evolve, flow, moves, picture, scoring, state, view, words
from . import redeal
from . import effects, resolver  # noqa: F401  (template modules, used by decide)

META = GameMeta(name="abomination", title="Abomination: The Heir of Frankenstein", min_players=2,
                max_players=4, cooperative=False, content_version="1",
                hidden_information=True,  # hands, deck orders, held encounters (catalog section 5)
                chance=True,  # shuffles and shock dice
                simultaneous=True,  # the Lab phase: every seat acts at once
                blurb="Rival scientists in 1819 Paris scour morgues and markets for parts, "
                      "racing to stitch a creature together and throw the switch.")

RULES = register(PackageRules(META, state=state, flow=flow, moves=moves, decide=decide, evolve=evolve, view=view,
                              scoring=scoring, describe=describe, words=words, picture=picture, redeal=redeal))
