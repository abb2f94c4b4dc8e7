"""The state: the empty table and the chapter setup (`setup`), and every read-only query on a state.

`queries` (derived state: slots, Dying, Defence, fullness, hostility, actions in play), `board` (the Terrain as a
graph of areas), `reach` (what a PC can reach: targets, attack slots, explorations), `timeline` (positions,
anchoring search, restoring gaps, the events of an arrival), `setup` (initial state, control, setup).
"""

from __future__ import annotations

from .board import Board, board
from .queries import *  # noqa: F401,F403  (the queries are this module's vocabulary)
from .queries import C
from .reach import (
    action_place_ok, attack_slots, attack_targets, explore_options, first_blocker, immediate_events, marker_icon,
    max_targets, slot_power, slot_record,
)
from .timeline import anchor_fact, arrival_ops, find_slot, next_position, restored

# last: setup resolves the opening instructions, and the resolver reads the state through the modules above
from .setup import DEFAULT_CHAPTER, OPTIONS, check_campaign, control_map, initial_state, setup  # noqa: E402

__all__ = ["Board", "board", "C", "initial_state", "setup"]
