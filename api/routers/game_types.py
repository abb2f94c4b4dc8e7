"""GET /game-types: every registered game; GET /game-types/{game}/glossary: its content in words."""

from fastapi import APIRouter

from api.models import GameType, Glossary, answers
from api.projections_deps import UnknownGameType
from domain.bots import level_names
from domain.engine import game_types, get_rules, presentation

router = APIRouter(tags=["game types"])


@router.get("/game-types", response_model=None, responses=answers(list[GameType]))
def list_game_types() -> list[dict]:
    return [{**rules.meta.to_json(), "bot_levels": level_names()} for rules in game_types()]


@router.get("/game-types/{game}/glossary", response_model=None, responses=answers(Glossary, 404))
def glossary(game: str) -> dict:
    """Every card, tile, space, location, character and token of the game, with what it does in
    plain words (written by the game's words.py from its content). The keys are those of
    `data-detail` and `data-target` in board pictures and of `targets` in legal-moves."""
    try:
        rules = get_rules(game)
    except KeyError:
        raise UnknownGameType(f"unknown game type {game!r}", game=game) from None
    return {"entries": presentation.glossary(rules)}
