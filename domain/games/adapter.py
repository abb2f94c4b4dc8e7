"""The shared adapter: a game package's modules assembled into one `Rules` object.

Every game package follows the template in `README.md`; each verb lives in one module under
one name. Instead of four hand-written classes passing calls through, a package declares its
`GameMeta` and hands its modules to `PackageRules`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from domain.engine import GameMeta
from domain.engine.redeal import with_redeal


class PackageRules:
    """`Rules` built from template modules (`state`, `flow`, `moves`, `decide`, `evolve`,
    `view`, `scoring`, `describe`, and optionally `words`, `picture`, `bot`, `redeal` (what a fork deals
    again, domain/engine/redeal.py); `view` may also
    define `view_move`, see domain/engine/redaction.py, and `moves` `upcast_move`, see
    domain/engine/rules.py `stored_move`, and `listed_form`, see `is_listed` there; `evolve` may define `RENAMED`, `legacy_facts` and
    `FIXES`, read by record import, see domain/engine/legacy.py)."""

    def __init__(self, meta: GameMeta, *, state: ModuleType, flow: ModuleType, moves: ModuleType,
                 decide: ModuleType, evolve: ModuleType, view: ModuleType, scoring: ModuleType,
                 describe: ModuleType, words: ModuleType | None = None, picture: ModuleType | None = None,
                 bot: ModuleType | None = None, redeal: ModuleType | None = None) -> None:
        self.meta = meta
        self.initial_state = state.initial_state
        self.setup = state.setup
        self.decision = flow.decision
        self.legal_moves = moves.legal_moves
        self.decide = decide.decide
        self.evolve = with_redeal(evolve.evolve)   # + the generic facts of a fork (engine/redeal.py)
        self.view = view.view
        self.scores = scoring.scores
        self.is_over = scoring.is_over
        self.winners = scoring.winners
        if hasattr(scoring, "score_breakdown"):   # optional: the end of game's score by category
            self.score_breakdown = scoring.score_breakdown
        self.describe = describe.describe
        if hasattr(view, "view_move"):        # optional: how a played move is listed to each viewer
            self.view_move = view.view_move
        if hasattr(moves, "upcast_move"):     # optional: a stored move in today's shape (engine.rules.stored_move)
            self.upcast_move = moves.upcast_move
        if hasattr(moves, "listed_form"):     # optional: the listed move of the same effect (engine.rules.is_listed)
            self.listed_form = moves.listed_form
        # Facts of earlier releases (domain/engine/legacy.py): renames, reshapes, rule fixes.
        self.renamed_facts = dict(getattr(evolve, "RENAMED", {}))
        if hasattr(evolve, "legacy_facts"):   # optional: today's facts written as an earlier release did
            self.legacy_facts = evolve.legacy_facts
        self.rule_fixes = tuple(getattr(evolve, "FIXES", ()))
        if words is not None:
            self.label = words.label
            self.prompt = words.prompt
            # The move tree and the glossary (API.md "Move tree", "Glossary"); a game without
            # them gets presentation.py's fallbacks. `glossary(content)` has the game's content
            # as its default argument, so the rules call it without one.
            for name in ("glossary", "paths", "targets"):
                if hasattr(words, name):
                    setattr(self, name, getattr(words, name))
        if picture is not None:
            self.picture = picture.picture
        self.bot = bot
        if redeal is not None:                # what a fork deals again (domain/engine/redeal.py)
            self.redeal_places = redeal.redeal_places
            if hasattr(redeal, "after_redeal"):
                self.after_redeal = redeal.after_redeal

    def __repr__(self) -> str:
        return f"<rules {self.meta.name}>"


def package_modules(package: ModuleType) -> dict[str, Any]:
    """The template modules a package has, by name (used by the template conformance test)."""
    return {name: getattr(package, name) for name in TEMPLATE_MODULES if hasattr(package, name)}


#: Module names of the template, in reading order (see README.md).
TEMPLATE_MODULES = ("content", "state", "flow", "moves", "decide", "resolver", "effects", "evolve",
                    "view", "scoring", "describe", "words", "picture", "bot", "redeal")
