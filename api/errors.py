"""Every error is ``{"error": <code>, "detail": <text>}`` (+ fields such as ``rule``).

Malformed input is always a 4xx: validation errors are 422 ``invalid_request``,
unknown paths 404 ``not_found``; a 500 means a bug and says only ``internal_error``.
"""

from __future__ import annotations

import logging

import redis
from eventsourcing.persistence import OperationalError, PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from api.metrics import count_store_error
from api.responses import OrjsonResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from domain.app import errors as domain
from domain.app.records import InvalidRecord, RecordMismatch
from domain.engine import IllegalMove
from projections.readside import GameSetAside

log = logging.getLogger("heirloom.api")

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "body_too_large", 415: "unsupported_media_type",
              422: "invalid_request"}


#: The HTTP status of each refusal of the write and read sides (plain domain errors).
#: An API-layer error may carry its own ``status`` instead; anything else is a 400.
STATUS_OF: dict[type, int] = {
    domain.GameNotFound: 404,
    domain.UnknownGameType: 422,
    domain.InvalidGameSetup: 422,
    domain.TokenRequired: 401,
    domain.InvalidToken: 401,
    domain.NotYourSeat: 403,
    domain.VersionConflict: 409,
    domain.IdempotencyKeyReused: 422,
    domain.GameTypeUnavailable: 503,
    domain.UndoNotFound: 404,
    domain.InvalidUndo: 422,
    domain.StepOutOfRange: 422,
    domain.InviteNotFound: 403,  # the game exists; the code is wrong
    domain.InviteUsed: 409,
    domain.NameTaken: 409,
    InvalidRecord: 422,
    RecordMismatch: 422,
    GameSetAside: 503,
}


def status_of(error: domain.ServiceError) -> int:
    """The HTTP status of a refusal: its own ``status`` (API-layer errors), else the nearest
    class in `STATUS_OF`, else 400."""
    own = getattr(error, "status", None)
    if isinstance(own, int):
        return own
    for cls in type(error).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return 400


PROBED_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def error_response(status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                   **extra) -> OrjsonResponse:
    return OrjsonResponse({"error": code, "detail": detail, **extra}, status_code=status, headers=headers)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's own 405 names only the first
    route whose path matched, e.g. GET for /games although POST /games exists too)."""
    allowed = []
    for method in PROBED_METHODS:
        probe = {**request.scope, "method": method}
        if any(route.matches(probe)[0] is Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    literal = request.app.openapi().get("paths", {}).get(request.url.path)
    if literal is not None:  # /games/import is that path, not /games/{game_id} with game_id "import"
        allowed = [m for m in allowed if m.lower() in literal or (m == "HEAD" and "get" in literal)]
    return allowed


def _validation_detail(error: RequestValidationError) -> tuple[str, list[dict]]:
    problems = []
    for item in error.errors():
        kind = str(item.get("type", ""))
        parts = item.get("loc", ())
        message = str(item.get("msg", ""))
        if kind == "json_invalid":  # loc is ("body", <offset>): say what it is
            parts = parts[:1]
            reason = (item.get("ctx") or {}).get("error", "")
            message = f"not valid JSON ({reason})" if reason else "not valid JSON"
        message = message.removeprefix("Value error, ")
        location = ".".join(str(part) for part in parts)
        problems.append({"loc": location, "msg": message, "type": kind})
    text = "; ".join(f"{p['loc']}: {p['msg']}" for p in problems) or "invalid request"
    return text, problems


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the common shape."""

    @app.exception_handler(domain.ServiceError)
    async def service_error(_: Request, error: domain.ServiceError) -> OrjsonResponse:
        return error_response(status_of(error), error.code, error.detail, **error.extra)

    @app.exception_handler(IllegalMove)
    async def illegal_move(_: Request, error: IllegalMove) -> OrjsonResponse:
        return error_response(422, "illegal_move", error.detail, rule=error.rule_id)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> OrjsonResponse:
        text, problems = _validation_detail(error)
        return error_response(422, "invalid_request", text, errors=problems)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> OrjsonResponse:
        if isinstance(error.detail, dict) and "error" in error.detail:
            return OrjsonResponse(error.detail, status_code=error.status_code, headers=error.headers)
        if error.status_code == 400:
            # FastAPI's "There was an error parsing the body" (e.g. bytes that are not UTF-8):
            # the same 422 as any other body that is not valid JSON.
            return error_response(422, "invalid_request", "body: not valid JSON (or not UTF-8)",
                                  errors=[{"loc": "body", "msg": "not valid JSON", "type": "json_invalid"}])
        headers = dict(error.headers or {})
        if error.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        code = HTTP_CODES.get(error.status_code, "error")
        return error_response(error.status_code, code, str(error.detail), headers=headers or None)

    @app.exception_handler(PersistenceError)
    async def store_error(request: Request, error: PersistenceError) -> OrjsonResponse:
        log.error("event store error: %s", error)
        count_store_error(request.app, type(error).__name__)
        if isinstance(error, OperationalError):
            return error_response(503, "store_unavailable", "the event store does not answer; retry later")
        return error_response(500, "store_error", "the event store refused the request; the error is logged")

    @app.exception_handler(redis.RedisError)
    async def redis_error(request: Request, error: redis.RedisError) -> OrjsonResponse:
        log.error("redis error: %s", error)
        count_store_error(request.app, type(error).__name__)
        return error_response(503, "store_unavailable", "the event store does not answer; retry later")

    @app.exception_handler(Exception)
    async def internal_error(_: Request, error: Exception) -> OrjsonResponse:
        log.exception("unhandled error")
        return error_response(500, "internal_error", "the server failed; the error is logged")
