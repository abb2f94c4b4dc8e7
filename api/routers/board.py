"""GET /games/{id}/board.svg: the board picture for the caller, now or at a replay step.

The picture is drawn by the game (`domain.engine.presentation.picture`, through
`GameService.picture`) from the caller's *view* only, so it never holds more than the
caller may see.
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep, TokenDep
from api.models import ERRORS

router = APIRouter(tags=["history"], responses=ERRORS)

SVG = "image/svg+xml"


@router.get("/games/{game_id}/board.svg", response_class=Response,
            responses={200: {"content": {SVG: {}}, "description": "the board picture (SVG)"}})
async def board_svg(game_id: str, service: ServiceDep, token: TokenDep,
                    step: int | None = Query(default=None, ge=0, le=2 ** 31, description="default: now")) -> Response:
    """The board at step N (no `step`: now) as the caller may see it."""
    svg = await run_in_threadpool(service.picture, game_id, token, step)
    return Response(svg, media_type=SVG, headers={"Cache-Control": "no-store"})
