"""Pydantic models of request bodies (validation at the edge) and documented responses.

Integers and booleans are strict (``"4"`` is not 4, ``false`` is not 0, ``"yes"`` is not true):
a client that sends the wrong type has a bug we should name, not guess around."""

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


MAX_NAME = 40
FORBIDDEN_IN_NAMES = "<>"


def player_name(name: str) -> str:
    """One player name, trimmed: 1 to 40 printable characters, no markup (`<`, `>`).

    Names are shown on pages, in move descriptions and on leaderboards, so a newline, a NUL
    or a tag in one would break or inject into every one of them."""
    trimmed = name.strip()
    if not trimmed:
        raise ValueError("a name may not be empty or only spaces")
    if len(trimmed) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, not {len(trimmed)}")
    if not trimmed.isprintable():
        raise ValueError("a name may hold only printable characters (no newline, tab, NUL or other control)")
    markup = sorted(set(trimmed) & set(FORBIDDEN_IN_NAMES))
    if markup:
        raise ValueError(f"a name may not contain {' or '.join(repr(c) for c in markup)}")
    return trimmed


def player_names(names: list[str]) -> list[str]:
    """Every name valid (see `player_name`) and unique within the game, ignoring case."""
    cleaned = []
    for index, name in enumerate(names):
        try:
            cleaned.append(player_name(name))
        except ValueError as error:
            raise ValueError(f"names[{index}]: {error}") from None
    seen: dict[str, int] = {}
    for index, name in enumerate(cleaned):
        key = name.casefold()
        if key in seen:
            raise ValueError(f"names[{index}]: {name!r} is already the name of seat {seen[key]}; "
                             "names are unique within a game")
        seen[key] = index
    return cleaned


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game: str = Field(min_length=1, max_length=100, examples=["adas_dream"])
    players: int = Field(strict=True, ge=1, le=16, examples=[3])
    names: list[str] | None = Field(default=None, max_length=16, examples=[["annette", "john", "serena"]],
                                    description=f"one per seat: unique, printable, at most {MAX_NAME} characters, "
                                                "no `<` or `>` (surrounding spaces are trimmed)")
    seed: int | None = Field(default=None, strict=True, ge=INT64_MIN, le=INT64_MAX,
                             description="for reproducible tests")
    options: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str] | None = Field(default=None, examples=[{"1": "normal"}],
                                        description="seat -> bot level (GET /game-types lists `bot_levels`); "
                                                    "a bot seat moves by itself")

    _names = field_validator("names")(classmethod(
        lambda cls, names: None if names is None else player_names(names)))
    _options = field_validator("options")(classmethod(lambda cls, value: storable_json(value)))


class PlayMove(BaseModel):
    move: dict[str, Any] = Field(description="one element of GET /games/{id}/legal-moves, as-is")
    expected_version: int | None = Field(default=None, strict=True, ge=0, le=INT64_MAX,
                                         description="the version you saw; 409 when the game moved on")

    _move = field_validator("move")(classmethod(lambda cls, value: storable_json(value)))


class RequestUndo(BaseModel):
    to_move: int = Field(strict=True, ge=1, le=INT64_MAX, description="undo this move and every later one")
    reason: str = Field(default="", max_length=500)


class Vote(BaseModel):
    approve: bool = Field(strict=True, description="true approves, false rejects (or withdraws your own)")


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
    description: str
    status: str
    replayed: bool


class ErrorBody(BaseModel):
    error: str
    detail: str


ERRORS = {status: {"model": ErrorBody} for status in (401, 403, 404, 409, 422)}
