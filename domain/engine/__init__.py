"""The game-agnostic kernel. PURE: no I/O, no clock, no global randomness.

Every game implements `Rules`; the service and the projections only ever talk to games
through this package. See `rules.py` for the protocol and `facts.py` for visibility.
"""

from .content import load_toml, require, require_count, require_one_of, require_unique_ids
from .decision import Decision
from .errors import ContentError, IllegalMove
from .facts import EVERYONE, SPECTATOR, Fact, Move, Viewer, can_see, fact, reveals_hidden, visible_fact, visible_facts
from .registry import game_types, get_rules, register, unregister
from .rng import Rng, derive_seed
from .rules import GameMeta, Rules, Turn, new_game, play
from .state import State, copy_state, fold, is_json_native

__all__ = [
    "ContentError", "Decision", "EVERYONE", "Fact", "GameMeta", "IllegalMove", "Move", "Rng",
    "Rules", "SPECTATOR", "State", "Turn", "Viewer", "can_see", "copy_state", "derive_seed",
    "fact", "fold", "game_types", "get_rules", "is_json_native", "load_toml", "new_game", "play",
    "register", "require", "require_count", "require_one_of", "require_unique_ids",
    "reveals_hidden", "unregister", "visible_fact", "visible_facts",
]
