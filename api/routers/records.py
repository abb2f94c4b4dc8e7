"""Forks and game records: what-if games from a position, and records anyone can check."""

from typing import Any, Literal

import orjson
from fastapi import APIRouter, Body, Depends, Request
from pydantic import BaseModel, Field

from api.deps import ServiceDep, TokenDep
from api.models import SAFE_MAX, Answer, GameCreated, JsonObject, WholeNumber, answers, player_names
from api.rate_limit import quota
from domain.app.records import InvalidRecord

from .comments import comments_of, table_of

router = APIRouter(tags=["games"])


class ForkGame(BaseModel):
    step: WholeNumber = Field(ge=0, le=SAFE_MAX, description="fork from the position after this many moves")
    seating: Literal["tokens", "invite"] = "tokens"


class Forked(GameCreated):
    """The new game, as POST /games answers, and where it came from."""

    forked_from: JsonObject = Field(description='{"id", "step"} of the game and step it was forked from')


class GameRecord(Answer):
    """A game record: everything needed to re-decide every move (the seed once finished)."""

    format: str
    game: str
    players: int
    moves: list[JsonObject]


@router.post("/games/{game_id}/fork", status_code=201, response_model=None, dependencies=[Depends(quota("create"))],
             responses=answers(Forked, 401, 403, 404, 413, 422, 429, status=201))
def fork(game_id: str, body: ForkGame, service: ServiceDep, token: TokenDep) -> dict:
    """A new, unrated game from the position after `step` moves, with fresh randomness from
    there on ("what if I had not played move 41"). A finished game may be forked by anyone,
    a running one by its referee. The answer is as for POST /games, plus `forked_from`."""
    return service.fork(game_id, token, body.step, body.seating)


@router.get("/games/{game_id}/record", response_model=None, responses=answers(GameRecord, 401, 404, 422))
def record(game_id: str, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """The game's record: type, options, players, every effective move with its facts, and the
    seed once the game is finished (then POST /games/import can check it). While it runs the
    record is redacted for the caller and has no seed. `comments`: the comments on its steps the
    caller may read (none for a spectator of a running game); they are never part of its events."""
    written = service.record(game_id, token)
    caller, finished, _, _ = table_of(service, game_id, token)
    hidden = not finished and caller.kind == "spectator"
    written["comments"] = comments_of(request, service).list(game_id, table_only_hidden=hidden)
    return written


@router.post("/games/import", status_code=201, response_model=None, dependencies=[Depends(quota("create"))],
             responses=answers(GameCreated, 413, 422, 429, status=201))
def import_record(service: ServiceDep, body: dict[str, Any] = Body(description="a record from GET /games/{id}/record")) -> dict:
    """A new, unrated game from a finished game's record, every move re-decided from the seed:
    422 `record_mismatch` names the first move whose facts differ (`move_no`, `verified_to`; nothing
    is stored). A record of an earlier `rules_release` is read under today's fact names and shapes;
    a difference a rule fixed since explains exactly is accepted and listed in `rule_fixes`, one
    that changed the game's course is named in the 422 (`rule_fix`)."""
    try:
        orjson.dumps(body)  # exactly storable (no integer beyond 64 bits)
        names = body.get("names")
        if names is not None:
            if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
                raise ValueError("the record's names are a list of strings")
            body = {**body, "names": player_names(names)}
    except (ValueError, TypeError, orjson.JSONEncodeError) as error:
        raise InvalidRecord(str(error)) from None
    return service.import_record(body)
