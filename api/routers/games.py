"""Games: create, list, inspect (the caller's view)."""

import time
from typing import Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response

from api.deps import ServiceDep, TokenDep
from api.models import SeatLeft, CreateGame, GameCreated, GameSummary, GameView, answers
from api.presence import presence_of, with_online
from api.projections_deps import ReadSideDep
from api.rate_limit import quota

router = APIRouter(tags=["games"])


@router.post("/games", status_code=201, response_model=None, dependencies=[Depends(quota("create"))],
             responses=answers(GameCreated, 404, 413, 422, 429, status=201))
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


LIST_DEFAULT, LIST_MAX = 100, 500
NEXT_PAGE_HEADERS = {
    "Link": {"description": '`</games?...&cursor=...>; rel="next"` when there are more games', "schema": {"type": "string"}},
    "X-Next-Cursor": {"description": "the `cursor` of the next page, when there is one", "schema": {"type": "string"}},
}


@router.get("/games", response_model=None,
            responses={**answers(list[GameSummary], 422), 200: {**answers(list[GameSummary])[200],
                                                                "headers": NEXT_PAGE_HEADERS}})
def list_games(request: Request, response: Response, read_side: ReadSideDep,
               game: str | None = Query(default=None, max_length=100),
               status: Literal["active", "finished"] | None = None,
               limit: int = Query(default=LIST_DEFAULT, ge=1, le=LIST_MAX,
                                  description=f"games per page (default {LIST_DEFAULT}, at most {LIST_MAX})"),
               cursor: str | None = Query(default=None, max_length=100,
                                          description="`X-Next-Cursor` of the previous page")) -> list[dict]:
    """Games in creation order, one page at a time: when there are more, the answer carries
    `X-Next-Cursor` and a `Link: <...>; rel="next"` to the next page."""
    try:
        page, next_cursor = read_side.page_games(game, status, cursor, limit)
    except KeyError:
        raise HTTPException(status_code=422, detail={
            "error": "invalid_request", "detail": "cursor: not a cursor of this listing; pass the X-Next-Cursor "
                                                  "of the previous page, or none for the first page"}) from None
    if next_cursor is not None:
        following = request.url.include_query_params(cursor=next_cursor, limit=limit)
        response.headers["X-Next-Cursor"] = next_cursor
        response.headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
    return page


@router.get("/games/{game_id}", response_model=None, responses=answers(GameView, 401, 404, 422))
def get_game(game_id: str, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """The game as the caller may see it (hidden information removed while it runs); `seats[].online`
    from the seats' open live connections (api/presence.py)."""
    now = time.time()
    view = service.game_view(game_id, token, now=now)  # a lapsed take-back request shows as expired
    return with_online(view, presence_of(request.app), game_id, now)
