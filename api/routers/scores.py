"""Scores of one game (after every move) and leaderboards per game type."""

from fastapi import APIRouter

from api.deps import CallerDep
from api.models import GameScores, Scoreboard, answers
from api.projections_deps import ReadSideDep, UnknownGameType, not_projected, synced
from domain.engine import get_rules

router = APIRouter(tags=["scores"])


def known_game_type(game: str) -> str:
    try:
        return get_rules(game).meta.name
    except KeyError:
        raise UnknownGameType(f"unknown game type {game!r}", game=game) from None


@router.get("/games/{game_id}/scores", response_model=None, responses=answers(GameScores, 401, 404, 422))
def game_scores(game_id: str, caller: CallerDep, read_side: ReadSideDep) -> dict:
    """Current scores and the score history: after setup (move 0) and after every effective move."""
    synced(read_side, ["scoreboard"])
    scores = read_side.scores(game_id)
    if scores is None:
        raise not_projected(game_id)
    return scores


@router.get("/scoreboard/{game}", response_model=None, responses=answers(Scoreboard, 404, 422))
def scoreboard(game: str, read_side: ReadSideDep) -> dict:
    """Leaderboard of a game type by player name: games, wins, average score and Elo-style rating,
    from games between people only (no bot seat, simulation, fork or import). A cooperative game
    has no ratings: `team_record` gives each player's chapters played and won. Imported games
    are listed apart (`imports`), rated for nobody."""
    game = known_game_type(game)
    synced(read_side, ["scoreboard"])
    return {"game": game, "leaders": read_side.leaders(game), "team_record": read_side.team_record(game),
            "imports": read_side.imports(game)}
