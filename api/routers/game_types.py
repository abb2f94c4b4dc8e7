"""GET /game-types: every registered game; GET /game-types/{game}/glossary: its content in words;
GET /games/{id}/glossary: the same as one viewer of one game reads it."""

from fastapi import APIRouter

from api.deps import ServiceDep, TokenDep
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


@router.get("/games/{game_id}/glossary", response_model=None, responses=answers(Glossary, 401, 404))
def game_glossary(game_id: str, service: ServiceDep, token: TokenDep) -> dict:
    """The game type's glossary as the caller reads it in this game now: the same keys, and where the
    game hides its content until play reveals it (Heredity's cards, areas and characters), the words
    of everything the caller's view shows. Nothing the caller cannot see is named."""
    return {"entries": service.glossary(game_id, token)}
