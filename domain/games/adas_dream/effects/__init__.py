"""What the resolver applies: the effects of content (icons on cards, spaces and tiles), the main and Advanced
actions, and every choice met half way.

  primitives  the small verbs (gain, research, draw, refill a display, place a disc...)
  icons       the effect language (catalog 3.1): `resolve` and OPS, one function per icon
  choices     CHOICES: what each answered choice does
  items       HANDLERS: the automatic agenda items of effects
"""

from __future__ import annotations

from .choices import CHOICES, ch_build
from .icons import OPS, resolve
from .items import HANDLERS
from .primitives import (adjust_options, advanced, draw, gain, gain_innovation, research_point, steam_advance,
                         workshop_reward)

__all__ = ["CHOICES", "HANDLERS", "OPS", "adjust_options", "advanced", "ch_build", "draw", "gain",
           "gain_innovation", "research_point", "resolve", "steam_advance", "workshop_reward"]
