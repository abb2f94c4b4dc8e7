"""Moves: the legal moves of a seat, and playing one."""

from typing import Annotated

from fastapi import APIRouter, Header

from api.deps import ServiceDep, TokenDep
from api.models import LegalMoves, MoveAccepted, Passed, PlayMove, answers
from api.responses import OrjsonResponse

router = APIRouter(tags=["moves"])


@router.get("/games/{game_id}/legal-moves", response_model=None,
            responses=answers(LegalMoves, 401, 404, 422))
def legal_moves(game_id: str, service: ServiceDep, token: TokenDep) -> dict:
    """Every move this seat may submit now; each element can be posted back as-is."""
    return service.legal_moves(game_id, token)


@router.post("/games/{game_id}/moves", status_code=201, response_model=None,
             responses=answers(MoveAccepted, 401, 403, 404, 409, 413, 422, status=201))
async def play_move(game_id: str, body: PlayMove, service: ServiceDep, token: TokenDep,
                    idempotency_key: Annotated[str | None, Header(max_length=200)] = None) -> OrjsonResponse:
    """Play a move. 422 names the rule it breaks. A retried Idempotency-Key returns the first
    answer's body unchanged and appends nothing; the header `Idempotent-Replayed: true` marks it."""
    # On the event loop, not the thread pool: a move is the cached game plus one Redis round
    # trip, cheaper than the two thread switches a hand-off costs (as on the WebSocket).
    answer = dict(service.play(game_id, token, body.move, body.expected_version, idempotency_key))
    headers = {"Idempotent-Replayed": "true"} if answer.pop("replayed", False) else None
    return OrjsonResponse(answer, status_code=201, headers=headers)  # rendered once, no encoder pass


@router.post("/games/{game_id}/pass", response_model=None, responses=answers(Passed, 401, 403, 404, 422))
def pass_step(game_id: str, service: ServiceDep, token: TokenDep) -> dict:
    """Your seat is done with the current step where any seat of the team may act (TABLE-BOT-04):
    the bots, which wait while a person has a decision there, may now play it, the team's decision
    included, until the step changes or you move again. 422 when the step is not such a one."""
    return service.pass_step(game_id, token)
