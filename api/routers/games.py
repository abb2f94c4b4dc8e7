"""Games: create, list, inspect (the caller's view)."""

import time
from typing import Literal

from fastapi import APIRouter, Query

from api.deps import ServiceDep, TokenDep
from api.models import SeatLeft, CreateGame, GameCreated, GameSummary, GameView, answers
from api.projections_deps import ReadSideDep

router = APIRouter(tags=["games"])


@router.post("/games", status_code=201, response_model=None,
             responses=answers(GameCreated, 404, 413, 422, status=201))
def create_game(body: CreateGame, service: ServiceDep) -> dict:
    """Set a game up; the answer holds one bearer token per seat (or, with `"seating": "invite"`,
    one invitation code per seat) and a referee token, shown once."""
    return service.create_game(body.game, body.players, body.names, body.options, body.seed, body.bots, body.seating,
                               undo_policy=body.undo_policy, analysis_during_play=body.analysis_during_play,
                               clock=body.clock, on_timeout=body.on_timeout)


@router.post("/games/{game_id}/leave", response_model=None, responses=answers(SeatLeft, 401, 403, 404, 422))
def leave(game_id: str, service: ServiceDep, token: TokenDep) -> dict:
    """Hand my seat to a `normal` bot for good (`SeatTakenOver`): the game plays on and no longer
    counts for ratings (TABLE-LEAVE-01)."""
    return service.leave(game_id, token)


@router.get("/games", response_model=None, responses=answers(list[GameSummary], 422))
def list_games(read_side: ReadSideDep, game: str | None = Query(default=None, max_length=100),
               status: Literal["active", "finished"] | None = None) -> list[dict]:
    return read_side.list_games(game, status)


@router.get("/games/{game_id}", response_model=None, responses=answers(GameView, 401, 404, 422))
def get_game(game_id: str, service: ServiceDep, token: TokenDep) -> dict:
    """The game as the caller may see it (hidden information removed while it runs)."""
    return service.game_view(game_id, token, now=time.time())  # a lapsed take-back request shows as expired
