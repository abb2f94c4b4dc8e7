"""Seating by invitation: POST /games/{id}/join turns an invitation code into a seat token, once."""

from fastapi import APIRouter, Depends

from api.deps import ServiceDep
from api.models import JoinGame, Joined, answers
from api.rate_limit import quota

router = APIRouter(tags=["games"])


@router.post("/games/{game_id}/join", status_code=201, response_model=None, dependencies=[Depends(quota("join"))],
             responses=answers(Joined, 403, 404, 409, 413, 422, 429, status=201))
def join(game_id: str, body: JoinGame, service: ServiceDep) -> dict:
    """Take the seat of an invitation under your name; the answer holds that seat's bearer token
    (shown once). 403 `invite_invalid` when no seat of this game was offered with that code (404 only
    when the game does not exist), 409 `invite_used` once the invitation has been taken, 409 `name_taken` when
    another player of the game has that name."""
    return service.join(game_id, body.invite, body.name, body.entropy)
