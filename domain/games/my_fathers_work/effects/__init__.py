"""What the resolver applies, in two modules: primitives.py (content effects, tracks, Insanity steps,
pieces, draws, builds, scenario events, votes) and placement.py (a turn's placement, its performances,
Record Knowledge, Experiments). Importing this package fills the tables of resolver.py."""

from __future__ import annotations

from .primitives import (  # noqa: F401  (the names the other modules use)
    ANSWERS, OPS, SIM_DONE, Ctx, arm_compulsions, ask, ask_all, combos, draw_card, draw_special, eff_ops,
    fire_hook, gain, note, run, save_queue, scenario_event, set_town, town_for,
)
from .placement import apply_place  # noqa: F401
