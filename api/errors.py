"""Every error is ``{"error": <code>, "detail": <text>}`` (+ fields such as ``rule``).

Malformed input is always a 4xx: validation errors are 422 ``invalid_request``,
unknown paths 404 ``not_found``; a 500 means a bug and says only ``internal_error``.
"""

from __future__ import annotations

import logging
import time

import redis
from eventsourcing.persistence import OperationalError, PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from api.metrics import count_store_error
from domain.eventstore.errors import StoreFull, is_store_full
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
    domain.CannotLeave: 422,
    domain.UndoConflict: 409,
    domain.AnalysisLocked: 403,
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


STORE_FULL_DETAIL = ("the event store refuses writes for now: its disk or memory is full (or a replica it "
                     "needs is missing); reading works; retry later, nothing was stored")
STORE_FULL_LOG_SECONDS = 300.0
_store_full_logged_at = -STORE_FULL_LOG_SECONDS


def store_full() -> OrjsonResponse:
    return error_response(503, "store_full", STORE_FULL_DETAIL, headers={"Retry-After": "30"})


def log_store_full(reason: str) -> None:
    """Say it plainly, once per 5 minutes and process, not once per refused request (the
    embedded Redis's supervisor says what is full: domain/eventstore/embedded.py)."""
    global _store_full_logged_at
    now = time.monotonic()
    if now - _store_full_logged_at >= STORE_FULL_LOG_SECONDS:
        _store_full_logged_at = now
        log.error("the event store is full, writes are refused until there is room (%s)", reason)


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


#: How a missing field is asked for, in words (others: "The field X is required.").
ASK_FOR = {"players": "Say how many players (players) are at the table.",
           "game": "Say which game to play (game).",
           "move": "Say which move to play (move): one of the legal moves.",
           "to_move": "Say from which move to take back (to_move).",
           "approve": "Say whether you approve (approve: true or false).",
           "invite": "Give the invitation code (invite).",
           "name": "Give your player name (name)."}
KINDS = {"dict_type": "an object ({...})", "list_type": "a list ([...])", "string_type": "text in quotes",
         "bool_type": "true or false", "int_type": "a whole number", "bool_parsing": "true or false",
         "int_parsing": "a whole number", "int_from_float": "a whole number", "model_type": "an object ({...})"}


def field_name(parts: tuple) -> str:
    """A field's name for people: `reason`, `names item 2`, `options`; the body itself is "the body"."""
    words = []
    for part in parts[1:] if parts and parts[0] in ("body", "query", "path", "header") else parts:
        words.append(f"item {part + 1}" if isinstance(part, int) else str(part))
    return " ".join(words) or "the body"


def sentence(kind: str, parts: tuple, message: str, ctx: dict, given: object) -> str:
    """One validation problem as a sentence (issue 25.8: never pydantic's wording)."""
    field = field_name(parts)
    ctx = ctx or {}
    if kind == "json_invalid":
        reason = ctx.get("error", "")
        return f"The body is not valid JSON ({reason})." if reason else "The body is not valid JSON."
    if kind == "missing":
        return ASK_FOR.get(field, f"The field {field} is required.")
    if kind == "value_error":
        text = message.removeprefix("Value error, ").strip()
        if text[:1].isupper():
            return text if text.endswith(".") else text + "."
        return f"{field} {text}."
    if kind in ("string_too_long", "too_long"):
        size = f"; this one has {len(given)}" if isinstance(given, (str, list, dict)) else ""
        unit = "characters" if kind == "string_too_long" else "items"
        return f"{field} has at most {ctx.get('max_length')} {unit}{size}."
    if kind in ("string_too_short", "too_short"):
        unit = "characters" if kind == "string_too_short" else "items"
        return f"{field} needs at least {ctx.get('min_length')} {unit}."
    if kind == "string_pattern_mismatch":
        return f"{field} has characters it may not hold."
    if kind in ("greater_than_equal", "greater_than"):
        return f"{field} must be at least {ctx.get('ge', ctx.get('gt'))}; you gave {given!r}."
    if kind in ("less_than_equal", "less_than"):
        return f"{field} must be at most {ctx.get('le', ctx.get('lt'))}; you gave {given!r}."
    if kind in ("literal_error", "enum"):
        return f"{field} is one of {ctx.get('expected', 'the listed values')}; {given!r} is not."
    if kind == "extra_forbidden":
        return f"{field} is not a field this request takes."
    if kind in KINDS:
        return f"{field} must be {KINDS[kind]}."
    text = message.removeprefix("Value error, ").rstrip(".")
    return f"{field}: {text[:1].lower()}{text[1:]}."


def _validation_detail(error: RequestValidationError) -> tuple[str, list[dict]]:
    """The sentence(s) a person reads (`detail`), and each problem for programs (`errors`, with the
    field's path as `loc`)."""
    problems, sentences = [], []
    for item in error.errors():
        kind = str(item.get("type", ""))
        parts = tuple(item.get("loc", ()))
        message = str(item.get("msg", ""))
        if kind == "json_invalid":  # loc is ("body", <offset>): say what it is
            parts = parts[:1]
        said = sentence(kind, parts, message, item.get("ctx") or {}, item.get("input"))
        sentences.append(said)
        location = ".".join(str(part) for part in parts)
        problems.append({"loc": location, "msg": said, "type": kind})
    text = " ".join(dict.fromkeys(sentences)) or "The request is not valid."
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
            return error_response(422, "invalid_request", "The body is not valid JSON (or not UTF-8).",
                                  errors=[{"loc": "body", "msg": "not valid JSON", "type": "json_invalid"}])
        headers = dict(error.headers or {})
        if error.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        code = HTTP_CODES.get(error.status_code, "error")
        return error_response(error.status_code, code, str(error.detail), headers=headers or None)

    @app.exception_handler(PersistenceError)
    async def store_error(request: Request, error: PersistenceError) -> OrjsonResponse:
        count_store_error(request.app, type(error).__name__)
        if isinstance(error, StoreFull):
            log_store_full(str(error))
            return store_full()
        log.error("event store error: %s", error)
        if isinstance(error, OperationalError):
            return error_response(503, "store_unavailable", "the event store does not answer; retry later")
        return error_response(500, "store_error", "the event store refused the request; the error is logged")

    @app.exception_handler(redis.RedisError)
    async def redis_error(request: Request, error: redis.RedisError) -> OrjsonResponse:
        count_store_error(request.app, type(error).__name__)
        if isinstance(error, redis.ResponseError) and is_store_full(error):
            log_store_full(str(error))
            return store_full()
        log.error("redis error: %s", error)
        return error_response(503, "store_unavailable", "the event store does not answer; retry later")

    @app.exception_handler(Exception)
    async def internal_error(_: Request, error: Exception) -> OrjsonResponse:
        log.exception("unhandled error")
        return error_response(500, "internal_error", "the server failed; the error is logged")
