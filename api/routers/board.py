"""GET /games/{id}/board.svg: the board picture for the caller, now or at a replay step.

The picture is drawn by the game (`domain.engine.presentation.picture`) from the caller's
*view* only, so it never holds more than the caller may see. Now: `GameService.picture`.
At a step: the replay projection's view of that step (checkpointed, so a step of a long
game costs a checkpoint read and a few folds; the write side keeps no old facts).
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep, TokenDep
from api.models import ERRORS
from api.projections_deps import (
    GameNotProjected, ReadSideDep, ReplayStepOutOfRange, StepOutOfRange, not_projected, synced,
)
from domain.engine import get_rules, presentation

router = APIRouter(tags=["history"], responses=ERRORS)

SVG = "image/svg+xml"


def picture_at(service, read_side, game_id: str, token: str | None, step: int) -> str:
    """The picture after `step` effective moves, from the replay projection (already redacted)."""
    caller = service.caller(game_id, token)
    game = service.game(game_id)
    synced(read_side, ["replay"])
    try:
        answer = read_side.replay(game_id, step, caller)
    except GameNotProjected:
        raise not_projected(game_id) from None
    except ReplayStepOutOfRange as error:
        raise StepOutOfRange(str(error), steps=error.steps) from None
    viewer = caller.viewer(game.finished)
    return presentation.picture(get_rules(game.game_type), answer["state"], viewer, list(game.names),
                                answer.get("scores") or {})


@router.get("/games/{game_id}/board.svg", response_class=Response,
            responses={200: {"content": {SVG: {}}, "description": "the board picture (SVG)"}})
async def board_svg(game_id: str, service: ServiceDep, token: TokenDep, read_side: ReadSideDep,
                    step: int | None = Query(default=None, ge=0, le=2 ** 31, description="default: now")) -> Response:
    """The board at step N (no `step`: now) as the caller may see it."""
    if step is None:
        svg = await run_in_threadpool(service.picture, game_id, token)
    else:
        svg = await run_in_threadpool(picture_at, service, read_side, game_id, token, step)
    return Response(svg, media_type=SVG, headers={"Cache-Control": "no-store"})
