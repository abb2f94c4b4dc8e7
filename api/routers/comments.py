"""POST/GET /games/{id}/comments: comments on a game's steps (projections/comments.py).

Who may write: a seat or the referee while the game runs, anyone with a `name` once it is finished.
Who may read: the table (seats, referee) while it runs, everyone once it is finished.
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from api.deps import ServiceDep, TokenDep
from api.models import Answer, WholeNumber, answers
from projections.comments import MAX_NAME, MAX_TEXT, CommentsClosed, CommentStore, check_name
from projections.readside import redis_of

router = APIRouter(tags=["comments"])


class NewComment(BaseModel):
    step: WholeNumber = Field(ge=0, le=10 ** 7, description="the step commented on (0 = after setup)")
    text: str = Field(min_length=1, max_length=MAX_TEXT * 2, description="plain text, at most 2,000 characters")
    name: str | None = Field(default=None, max_length=MAX_NAME * 2,
                             description="who writes, without a token (finished games only)")


class Comment(Answer):
    """A comment on a step: plain text, shown escaped."""

    id: str
    step: int
    author: str
    role: str = Field(description="`seat`, `referee` or `guest`")
    seat: int | None = None
    text: str
    at: str = Field(description="when it was written, ISO-8601 UTC")
    during_play: bool = Field(description="written while the game ran")


def comments_of(request: Request, service) -> CommentStore:
    store = getattr(request.app.state, "comments", None)
    if store is None:
        client, prefix = redis_of(service)
        store = request.app.state.comments = CommentStore(client, prefix)
    return store


def table_of(service, game_id: str, token: str | None):
    """(caller, finished, steps, names) of a game for this token."""
    caller = service.caller(game_id, token)
    game = service.game(game_id)
    return caller, game.finished, len(game.effective_versions()), list(game.names)


@router.post("/games/{game_id}/comments", status_code=201, response_model=None,
             responses=answers(Comment, 401, 404, 413, 422, status=201))
def add_comment(game_id: str, body: NewComment, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """Comment on a step: seats and the referee while the game runs; anyone with a name once finished."""
    caller, finished, steps, names = table_of(service, game_id, token)
    if caller.kind == "seat":
        author, role = (names[caller.seat] if caller.seat < len(names) else f"Seat {caller.seat}"), "seat"
    elif caller.kind == "referee":
        author, role = "the referee", "referee"
    elif finished:
        author, role = check_name(body.name), "guest"
    else:
        raise CommentsClosed("while a game runs only its seats and referee comment on it (send a seat or "
                             "referee token); anyone may once it is finished")
    return comments_of(request, service).add(game_id, step=body.step, steps=steps, text=body.text, author=author,
                                             role=role, seat=caller.seat, running=not finished)


@router.get("/games/{game_id}/comments", response_model=None, responses=answers(list[Comment], 401, 404, 422))
def list_comments(game_id: str, request: Request, service: ServiceDep, token: TokenDep,
                  step: int | None = Query(default=None, ge=0, le=10 ** 7,
                                           description="only this step's comments")) -> list[dict]:
    """The comments in step order; a spectator of a running game gets none (the table's talk is private)."""
    caller, finished, _, _ = table_of(service, game_id, token)
    hidden = not finished and caller.kind == "spectator"
    return comments_of(request, service).list(game_id, table_only_hidden=hidden, step=step)
