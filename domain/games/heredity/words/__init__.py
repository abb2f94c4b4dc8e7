"""Words for players (the template's `words`): names of things, the label of each listed move,
the prompt of the decision now, every card's words for the glossary, and the move tree.

Everything is said in content names, never an internal id. The modules, in reading order:
`names` (PCs, cards, slots, areas), `labels` (moves, options, prompts), `cards` (the card language
read aloud as plain sentences), `glossary` (every thing the chapter defines, with what it does),
`tree` (each listed move's path of steps and the board elements it involves).
"""

from __future__ import annotations

from .labels import ask, option, prompt, question, seats_for, sentence  # noqa: F401
from .names import (ICON, LAYOUT, SIDE, _area_ids, _snippet, anchor_name, area_name, card_name, check_layout, join,  # noqa: F401
                    marker_place, materials, npc_name, pc_name, plural, possessive, slot_name, slot_short,
                    terrain_name, upper_first, who)
from .glossary import glossary  # noqa: F401,E402
from .tree import label, paths, targets  # noqa: F401,E402
