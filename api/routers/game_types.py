"""GET /game-types: every registered game."""

from fastapi import APIRouter

from api.models import GameType, answers
from domain.bots import level_names
from domain.engine import game_types

router = APIRouter(tags=["game types"])


@router.get("/game-types", response_model=None, responses=answers(list[GameType]))
def list_game_types() -> list[dict]:
    return [{**rules.meta.to_json(), "bot_levels": level_names()} for rules in game_types()]
