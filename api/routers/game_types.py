"""GET /game-types: every registered game."""

from fastapi import APIRouter

from domain.bots import level_names
from domain.engine import game_types

router = APIRouter(tags=["game types"])


@router.get("/game-types")
def list_game_types() -> list[dict]:
    return [{**rules.meta.to_json(), "bot_levels": level_names()} for rules in game_types()]
