"""Where the write side used to live; kept so existing imports (and stored topics such as
``domain.service:Game.MovePlayed``) keep working. The code is in `domain.app`; the move
redaction is `domain.engine.redaction`; the event listing and the game index are the read
side's (`projections.event_log`, `projections.game_index`)."""

from domain.app import *  # noqa: F401,F403  (the public names of the write side)
from domain.app import __all__ as _app_names
from domain.engine.redaction import redact_move  # noqa: F401

__all__ = [*_app_names, "redact_move"]
