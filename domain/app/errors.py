"""The refusals of the application, as plain domain errors.

Each has a stable machine `code` (the ``"error"`` of an API answer), a human `detail` and
optional `extra` fields (``rule``, ``current_version``...). How a refusal is shown over
HTTP (its status code) is the API's business: `api/errors.py` maps these classes.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal: ``code`` names it, ``detail`` says what is wrong, ``extra`` adds fields."""

    code = "bad_request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class GameNotFound(ServiceError):
    code = "game_not_found"


class UnknownGameType(ServiceError):
    code = "unknown_game_type"


class InvalidGameSetup(ServiceError):
    code = "invalid_game"


class TokenRequired(ServiceError):
    code = "token_required"


class InvalidToken(ServiceError):
    code = "invalid_token"


class NotYourSeat(ServiceError):
    code = "not_your_seat"


class VersionConflict(ServiceError):
    code = "version_conflict"


class IdempotencyKeyReused(ServiceError):
    code = "idempotency_key_reused"


class GameTypeUnavailable(ServiceError):
    """A stored game whose rules this server does not load (e.g. a test game module)."""

    code = "game_type_unavailable"


class UndoNotFound(ServiceError):
    code = "undo_not_found"


class InvalidUndo(ServiceError):
    code = "invalid_undo"


class UndoConflict(ServiceError):
    """A take-back request that would duplicate one still pending (TABLE-UNDO-06, TABLE-UNDO-07)."""

    code = "undo_pending"


class AnalysisLocked(ServiceError):
    """The engine's analysis of a running game, at a table that does not allow it (TABLE-ANALYSIS-01)."""

    code = "analysis_locked"


class StepOutOfRange(ServiceError):
    """A replay step past the game's last step."""

    code = "step_out_of_range"


class InviteNotFound(ServiceError):
    """No seat of this game was offered with this invitation code. The game exists, so this is
    a refusal of the code (403 ``invite_invalid``), never a 404: a 404 says the game is gone."""

    code = "invite_invalid"


class InviteUsed(ServiceError):
    """An invitation is single-use: its seat has been taken."""

    code = "invite_used"


class NameTaken(ServiceError):
    """Player names are unique within a game."""

    code = "name_taken"


class CannotLeave(ServiceError):
    """A seat that cannot be handed to a bot (the game is over, or a bot plays it already)."""

    code = "cannot_leave"
