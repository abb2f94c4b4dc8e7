"""Analytics per game type and per game; the projections' own status."""

from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from api.deps import CallerDep
from api.models import GameAnalytics, LabReport, ProjectionsStatus, TypeAnalytics, answers, errors
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


@router.get("/analytics/{game}/report", response_model=None, responses=answers(LabReport, 404, 422))
def lab_report(game: str, read_side: ReadSideDep,
               players: int | None = Query(default=None, ge=1, le=16, description="only games of this many players"),
               bots: Literal["include", "exclude", "only"] = Query(
                   default="include", description="games with a bot seat: counted, left out, or the only ones"),
               simulation: str | None = Query(default=None, max_length=64, description="only this simulation's games"),
               ) -> dict:
    """The lab's report over finished games of a type (forks and imports left out): seat advantage
    with 95% Wilson intervals, game length percentiles and histogram, score distributions, and per
    feature (card, tile, space, location, character, kind of action) the win rate of the seats that
    used it against those that did not, the difference and its 95% interval (Newcombe)."""
    game = known_game_type(game)
    synced(read_side, ["analytics"])
    return read_side.lab_report(game, players=players, bots=bots, simulation=simulation)


@router.get("/analytics/{game}/export.parquet", response_class=Response, responses={
    200: {"content": {"application/vnd.apache.parquet": {"schema": {"type": "string", "format": "binary"}}},
          "description": "one Parquet table of the finished games of this type (README \"The lab\")"},
    **errors(404, 422)})
def parquet_export(game: str, read_side: ReadSideDep,
                   table: Literal["games", "moves", "features"] = Query(default="games")) -> Response:
    """`games`, `moves` or `features` of every finished game of this type, as Parquet (typed columns)."""
    from projections.parquet import parquet_bytes, tables

    game = known_game_type(game)
    synced(read_side, ["replay", "analytics"])
    body = parquet_bytes(tables(read_side, game)[table])
    return Response(body, media_type="application/vnd.apache.parquet",
                    headers={"Content-Disposition": f'attachment; filename="{game}-{table}.parquet"'})


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
