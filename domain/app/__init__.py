"""The write side: the `Game` aggregate and the `GameService` application.

- `game.py`: the aggregate (events, state fold, undo workflow, audit chain fields)
- `application.py`: the eventsourcing Application (use cases, locking, snapshots)
- `callers.py`: who a bearer token stands for, and what that caller may see
- `errors.py`: the refusals, as plain domain errors (HTTP statuses are `api/errors.py`'s)
"""

from .application import SNAPSHOT_INTERVAL, EventSlice, GameService
from .callers import REFEREE, REFEREE_CALLER, SPECTATOR_CALLER, Caller, hash_token, identify
from .errors import (
    GameNotFound, GameTypeUnavailable, IdempotencyKeyReused, InvalidGameSetup, InvalidToken, InvalidUndo, InviteNotFound, InviteUsed, NameTaken,
    NotYourSeat, ServiceError, StepOutOfRange, TokenRequired, UndoNotFound, UnknownGameType, VersionConflict,
)
from .game import Game, json_native, move_digest

__all__ = [
    "Caller", "EventSlice", "Game", "GameNotFound", "GameService", "GameTypeUnavailable", "IdempotencyKeyReused",
    "InvalidGameSetup", "InvalidToken", "InvalidUndo", "InviteNotFound", "InviteUsed", "NameTaken", "NotYourSeat", "REFEREE", "REFEREE_CALLER",
    "SNAPSHOT_INTERVAL", "SPECTATOR_CALLER", "ServiceError", "StepOutOfRange", "TokenRequired", "UndoNotFound", "UnknownGameType",
    "VersionConflict", "hash_token", "identify", "json_native", "move_digest",
]
