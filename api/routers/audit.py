"""Audit: recompute a game's hash chain from the stored events."""

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep
from api.models import AuditResult, answers
from api.projections_deps import ReadSideDep, not_projected
from projections.audit import verify_game

router = APIRouter(tags=["audit"])


@router.get("/games/{game_id}/audit/verify", response_model=None,
            responses=answers(AuditResult, 404, 422))
async def verify(game_id: str, service: ServiceDep, read_side: ReadSideDep) -> dict:
    """`ok` with the number of events and the head hash, or the first version that does not fit
    (altered, removed, inserted or reordered events)."""
    game_key = service.parse_id(game_id)
    known = await run_in_threadpool(read_side.known_version, str(game_key))
    result = await run_in_threadpool(verify_game, service, str(game_key), known)
    if result is None:
        raise not_projected(game_id)
    return result
