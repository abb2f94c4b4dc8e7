"""Words for players (the template's `words`): the label of each listed move, the prompt of the
decision now, every thing of the content with what it does (the glossary), and the move tree.

Everything is said in content names (cards, cities, Institutions, tracks), never in ids. The modules:
`labels` (the phrases of effects, costs and dice; labels; prompts), `glossary` (the pack in words),
`tree` (each listed move's path of steps and the board elements it involves).
"""

from __future__ import annotations

from domain.engine.text import article, join, plural  # noqa: F401  (describe and picture use them)

from .glossary import glossary  # noqa: F401
from .labels import (AREA_NAMES, CHOICE_PROMPTS, GEAR_NAMES, IMPERATIVE, RESOURCE_NAMES, REWARD_WORDS,  # noqa: F401
                     STUDY_ITEMS, amount, choice_label, cost_words, criteria_words, die, effect_words, gear_name,
                     imperative, mill_slot, program_words, prompt)
from .tree import label, paths, place_words, targets  # noqa: F401,E402  (the label of the tree replaces labels.label)
