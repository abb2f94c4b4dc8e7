"""Pydantic models of request bodies (validation at the edge) and documented responses."""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
MAX_JSON_BYTES = 64 * 1024


def storable_json(value: Any) -> Any:
    """Reject what the orjson store cannot keep exactly (huge ints, deep nesting, too big)."""
    try:
        encoded = orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError) as error:
        raise ValueError(f"not storable as JSON: {error}") from None
    if len(encoded) > MAX_JSON_BYTES:
        raise ValueError(f"larger than {MAX_JSON_BYTES} bytes")
    return value


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game: str = Field(min_length=1, max_length=100, examples=["adas_dream"])
    players: int = Field(ge=1, le=16, examples=[3])
    names: list[str] | None = Field(default=None, max_length=16, examples=[["annette", "john", "serena"]])
    seed: int | None = Field(default=None, ge=INT64_MIN, le=INT64_MAX, description="for reproducible tests")
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("names")
    @classmethod
    def _names(cls, names: list[str] | None) -> list[str] | None:
        if names is not None and any(not 1 <= len(name) <= 100 for name in names):
            raise ValueError("each name has 1 to 100 characters")
        return names

    _options = field_validator("options")(classmethod(lambda cls, value: storable_json(value)))


class PlayMove(BaseModel):
    move: dict[str, Any] = Field(examples=[{"type": "roll"}])
    expected_version: int | None = Field(default=None, ge=0, le=INT64_MAX,
                                         description="the version you saw; 409 when the game moved on")

    _move = field_validator("move")(classmethod(lambda cls, value: storable_json(value)))


class RequestUndo(BaseModel):
    to_move: int = Field(ge=1, le=INT64_MAX, description="undo this move and every later one")
    reason: str = Field(default="", max_length=500)


class Vote(BaseModel):
    approve: bool


class Seat(BaseModel):
    seat: int
    token: str
    name: str


class GameCreated(BaseModel):
    id: str
    game: str
    version: int
    seats: list[Seat]
    referee_token: str


class MoveAccepted(BaseModel):
    version: int
    move_no: int
    facts: list[dict[str, Any]]
    status: str
    replayed: bool


class ErrorBody(BaseModel):
    error: str
    detail: str


ERRORS = {status: {"model": ErrorBody} for status in (401, 403, 404, 409, 422)}
