"""Bot pacing (TABLE-BOT-02): a bot waits `HEIRLOOM_BOT_DELAY` seconds (default 0.6; tests set 0)
after a person's move before playing its own, so people can follow what happens.

Shared by every runner of bots (the thread of api/bot_runner.py, the worker processes): the runner
asks `wait_s` before the bot thinks, sleeps that long, then lets it think. The wait is pacing, not
the bot's decision time (a clock, when there is one, counts only the thinking).
"""

from __future__ import annotations

import os
import time
from typing import Any

DEFAULT_DELAY_S = 0.6


def bot_delay_s() -> float:
    """`HEIRLOOM_BOT_DELAY` in seconds (default 0.6); a value that is not a number >= 0 is the default."""
    raw = os.environ.get("HEIRLOOM_BOT_DELAY", "").strip()
    try:
        value = float(raw) if raw else DEFAULT_DELAY_S
    except ValueError:
        return DEFAULT_DELAY_S
    return value if value >= 0 else DEFAULT_DELAY_S


def wait_s(service: Any, game_id: str, delay_s: float | None = None) -> float:
    """How long the bots of this game still wait before their next move (0: go)."""
    delay = bot_delay_s() if delay_s is None else delay_s
    if delay <= 0:
        return 0.0
    return service.bot_wait(game_id, time.time(), delay)
