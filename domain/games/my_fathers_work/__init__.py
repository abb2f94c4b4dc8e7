"""My Father's Work: three Generations of mad scientists, with a data-driven Storybook substitute.

The template's modules (domain/games/README.md): content (TOML pack + validation), state (initial
state, setup, queries), flow (who acts; rounds and Generations),
moves (the binding list), decide (the checks of every move), resolver (the op queue and pending
decisions), effects/ (what the ops do: primitives.py, and placement.py for placements and Experiments), evolve, view, scoring, describe, words, picture. RULINGS.md holds every reading.

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

from domain.engine import GameMeta, register
from domain.games.adapter import PackageRules

from . import decide, describe, evolve, flow, moves, picture, scoring, state, view, words
from . import redeal
from . import effects, resolver  # noqa: F401  (template modules, used by decide)

META = GameMeta(name="my_fathers_work", title="My Father's Work", min_players=2, max_players=4,
                cooperative=False, content_version="1",
                hidden_information=True,  # hands, Compulsions, secret Storybook messages, deck orders
                chance=True,  # shuffled decks and tiles
                simultaneous=True,  # the hidden commits of the start of a round and a Generation
                blurb="Three generations of a mad scientist's family work the estate, "
                      "perform experiments and try to keep the town's angry mob at bay.")

RULES = register(PackageRules(META, state=state, flow=flow, moves=moves, decide=decide, evolve=evolve, view=view,
                              scoring=scoring, describe=describe, words=words, picture=picture, redeal=redeal))
