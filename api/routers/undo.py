"""Undo: request (applied at once when the table's policy allows) and vote.

The request's clock is this server's: `now` is passed into the domain, which reads none."""

import time

from fastapi import APIRouter, Depends, Path

from api.deps import ServiceDep, TokenDep
from api.models import RequestUndo, UndoAnswer, Vote, VoteAnswer, answers
from api.rate_limit import quota

router = APIRouter(tags=["undo"])


@router.post("/games/{game_id}/undo", status_code=201, response_model=None, dependencies=[Depends(quota("undo"))],
             responses=answers(UndoAnswer, 401, 403, 404, 409, 413, 422, 429, status=201))
def request_undo(game_id: str, body: RequestUndo, service: ServiceDep, token: TokenDep) -> dict:
    """Undo move `to_move` and every later one, under the table's `undo_policy` (api/README.md,
    TABLE-UNDO-*): at once for the referee or a seat's own last move that revealed nothing;
    otherwise pending until every other seat approves (bots vote at once), for at most 10 minutes.
    409 `undo_pending` when a request for the same move, or another of this seat's, is pending."""
    return service.request_undo(game_id, token, body.to_move, body.reason, now=time.time())


@router.post("/games/{game_id}/undo/{request_id}/votes", response_model=None,
             responses=answers(VoteAnswer, 401, 403, 404, 409, 413, 422))
def vote(game_id: str, body: Vote, service: ServiceDep, token: TokenDep,
         request_id: str = Path(max_length=100)) -> dict:
    return service.vote_undo(game_id, token, request_id, body.approve, now=time.time())
