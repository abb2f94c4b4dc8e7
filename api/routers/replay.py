"""Replay, moves-log and history of one game, from the replay projection."""

from fastapi import APIRouter, Query

from api.deps import CallerDep
from api.models import History, MoveLogEntry, ReplayStep, answers
from api.projections_deps import (
    GameNotProjected, ReadSideDep, ReplayStepOutOfRange, StepOutOfRange, not_projected, synced,
)

router = APIRouter(tags=["history"])


@router.get("/games/{game_id}/replay", response_model=None, responses=answers(ReplayStep, 401, 404, 422))
def replay(game_id: str, caller: CallerDep, read_side: ReadSideDep,
           step: int | None = Query(default=None, ge=0, le=2 ** 31, description="default: the last step")) -> dict:
    """The state after the first `step` effective moves (0 = after setup), as the caller may see it,
    with the move of that step and its description."""
    synced(read_side, ["replay"])
    try:
        return read_side.replay(game_id, step, caller)
    except GameNotProjected:
        raise not_projected(game_id) from None
    except ReplayStepOutOfRange as error:
        raise StepOutOfRange(str(error), steps=error.steps) from None


@router.get("/games/{game_id}/moves-log", response_model=None,
            responses=answers(list[MoveLogEntry], 401, 404, 422))
def moves_log(game_id: str, caller: CallerDep, read_side: ReadSideDep) -> list[dict]:
    """Every move in the order played, in plain words; undone moves stay, marked `undone`."""
    synced(read_side, ["replay"])
    try:
        return read_side.moves_log(game_id, caller)
    except GameNotProjected:
        raise not_projected(game_id) from None


@router.get("/games/{game_id}/history", response_model=None, responses=answers(History, 401, 404, 422))
def history(game_id: str, caller: CallerDep, read_side: ReadSideDep) -> dict:
    """Effective moves, undone moves and every undo request with its votes and outcome."""
    synced(read_side, ["replay"])
    try:
        return read_side.history(game_id, caller)
    except GameNotProjected:
        raise not_projected(game_id) from None
