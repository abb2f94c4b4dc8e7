"""GET /games/{id}/events: the audit log of one game, redacted for the caller."""

from fastapi import APIRouter, Query

from api.deps import ServiceDep, TokenDep
from api.models import EventLog, answers
from projections.event_log import event_log

router = APIRouter(tags=["history"])


@router.get("/games/{game_id}/events", response_model=None, responses=answers(EventLog, 401, 404, 422))
def list_events(game_id: str, service: ServiceDep, token: TokenDep,
                after: int = Query(default=0, ge=0, le=2 ** 62),
                limit: int = Query(default=100, ge=1, le=1000)) -> dict:
    return event_log(service, game_id, token, after, limit)
