"""Shared dependencies: the service, the bearer token, the caller, the projections."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from domain.app import Caller, GameService, InvalidToken

MAX_TOKEN = 200


async def get_service(request: Request) -> GameService:
    """Async on purpose (as is get_token): a sync dependency costs a thread-pool hop per request."""
    return request.app.state.service


#: The OpenAPI security scheme (Swagger's Authorize button). Optional: without a token the
#: caller is a spectator; `api.openapi` marks which operations need one.
bearer_scheme = HTTPBearer(
    auto_error=False, scheme_name="bearer", bearerFormat="opaque",
    description="A seat or referee token from `POST /games` (or `/join`). Without one you are a spectator.",
)


async def get_token(request: Request,
              _: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)] = None) -> str | None:
    """The bearer token, or None for a spectator. A malformed header is a 401 (read here
    rather than from HTTPBearer, which would quietly treat `Basic x` as no token)."""
    authorization = request.headers.get("authorization")
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
        raise InvalidToken('use "Authorization: Bearer <token>"')
    return token


def get_caller(game_id: str, service: Annotated[GameService, Depends(get_service)],
               token: Annotated[str | None, Depends(get_token)]) -> Caller:
    """Seat / referee / spectator of the bearer token for the game in the path."""
    return service.caller(game_id, token)


async def get_projections(request: Request) -> Any:
    """The read models (set by the projections package on `app.state.projections`)."""
    return getattr(request.app.state, "projections", None)


ServiceDep = Annotated[GameService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(get_token)]
CallerDep = Annotated[Caller, Depends(get_caller)]
