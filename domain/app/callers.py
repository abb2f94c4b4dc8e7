"""Who sends a request for one game, from the bearer token it carries.

A token is a seat's, the game's referee's, or absent (a spectator). Only hashes of the
tokens are stored; comparisons are constant-time. The kernel viewer of a caller says
what it may see: its own hidden information for a seat, the public view for the referee
and spectators, everything once the game is finished.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Sequence

from domain.engine import EVERYONE, SPECTATOR, Viewer

from .errors import InvalidToken

REFEREE = "referee"


@dataclass(frozen=True)
class Caller:
    """Who sends a request for one game: a seat, the game's referee, or a spectator."""

    kind: str  # "seat" | "referee" | "spectator"
    seat: int | None = None

    @property
    def actor(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    def viewer(self, finished: bool) -> Viewer:
        """The kernel viewer: everything once finished; the referee sees the public view."""
        if finished:
            return EVERYONE
        return self.seat if self.kind == "seat" else SPECTATOR


SPECTATOR_CALLER = Caller("spectator")
REFEREE_CALLER = Caller(REFEREE)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def identify(token: str | None, seat_token_hashes: Sequence[str], referee_token_hash: str) -> Caller:
    """The caller `token` stands for in a game with these token hashes (InvalidToken if none)."""
    if not token:
        return SPECTATOR_CALLER
    presented = hash_token(token)
    found: Caller | None = None
    for seat, stored in enumerate(seat_token_hashes):
        if stored and hmac.compare_digest(presented, stored):
            found = Caller("seat", seat)
    if hmac.compare_digest(presented, referee_token_hash):
        found = REFEREE_CALLER
    if found is None:
        raise InvalidToken("this token is not valid for this game")
    return found
