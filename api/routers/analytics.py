"""Analytics per game type and per game; the projections' own status."""

from fastapi import APIRouter

from api.deps import CallerDep
from api.models import GameAnalytics, ProjectionsStatus, TypeAnalytics, answers
from api.projections_deps import GameNotProjected, ReadSideDep, not_projected, synced
from api.routers.scores import known_game_type

router = APIRouter(tags=["analytics"])


@router.get("/analytics/{game}", response_model=None, responses=answers(TypeAnalytics, 404, 422))
def game_type_analytics(game: str, read_side: ReadSideDep) -> dict:
    """Finished games of a type: count, average length, seat win rates, action frequencies,
    score progression (average score per seat at every 10% of a game)."""
    game = known_game_type(game)
    synced(read_side, ["analytics"])
    return read_side.analytics(game)


@router.get("/games/{game_id}/analytics", response_model=None,
            responses=answers(GameAnalytics, 401, 404, 422))
def game_analytics(game_id: str, caller: CallerDep, read_side: ReadSideDep) -> dict:
    """One game: score over time and action counts (overall and per seat)."""
    synced(read_side, ["replay"])
    try:
        return read_side.game_analytics(game_id)
    except GameNotProjected:
        raise not_projected(game_id) from None


@router.get("/projections", response_model=None, responses=answers(ProjectionsStatus))
def projections_status(read_side: ReadSideDep) -> dict:
    """Position and lag of every projection behind the notification log."""
    return read_side.status()
