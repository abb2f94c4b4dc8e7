"""GET /game-types: every registered game."""

from fastapi import APIRouter

from domain.engine import game_types

router = APIRouter(tags=["game types"])


@router.get("/game-types")
def list_game_types() -> list[dict]:
    return [rules.meta.to_json() for rules in game_types()]
