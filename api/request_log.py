"""One log line per request, with a request id; JSON lines with ``--log-format json``.

Every answer carries ``X-Request-Id`` (the caller's own when it sent a sane one, else a new
one) and the same id is in the request's log line, so a complaint can be matched to the log.

What is logged is chosen, never dumped: method, route template, path *without* its query
string, status, duration, client address, request id. Headers (``Authorization``), query
strings (a WebSocket client may put a token there) and bodies are never logged, so a token
cannot reach the log. (URL fragments never reach a server at all.)

Other loggers are masked too (`mask_secrets`, in both formatters): uvicorn logs each WebSocket
handshake as ``"WebSocket /games/<id>/ws?<query>"``, so every query string after a request line
is replaced by ``?[masked]``, and ``token=``/``invite=`` values (or ``"token": "..."``), tokens (43 characters)
and invitation codes (32) are masked wherever they appear.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from datetime import datetime, timezone
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import route_of

log = logging.getLogger("heirloom.request")

REQUEST_ID_HEADER = b"x-request-id"
SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
#: Anything shaped like one of our tokens (32 random bytes, urlsafe base64) is masked in
#: every JSON log line, whatever logged it.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
#: An invitation code (24 random bytes, urlsafe base64: 32 characters) standing alone; one
#: made only of hex digits is a request id or a digest, not a code.
INVITE_SHAPE = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]{0,31}[G-Zg-z_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])")
#: The query string of a logged request line (uvicorn's ``"WebSocket /path?query"``).
QUERY_AFTER_PATH = re.compile(r"((?:WebSocket|GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) /[^\s?\"]*)\?[^\s\"]*")
#: A secret-looking parameter anywhere (query strings, form bodies, JSON written as text).
SECRET_PARAMETER = re.compile(r"((?:token|invite|secret|password)(?:=|[\"']?\s*:\s*[\"']))[^&\s\"',}]+",
                              re.IGNORECASE)


def mask_secrets(text: str) -> str:
    """`text` with query strings of request lines, secret parameters, tokens and invitation
    codes replaced by placeholders."""
    text = QUERY_AFTER_PATH.sub(r"\1?[masked]", text)
    text = SECRET_PARAMETER.sub(r"\1[masked]", text)
    text = TOKEN_SHAPE.sub("[token]", text)
    return INVITE_SHAPE.sub("[invite]", text)


def request_id_of(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            candidate = value.decode("latin-1")
            if SANE_REQUEST_ID.match(candidate):
                return candidate
    return uuid.uuid4().hex


class RequestLogMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            client = scope.get("client")
            log.info("request", extra={"request": {
                "request_id": request_id, "method": scope["method"], "route": route_of(scope),
                "path": scope.get("path", ""), "status": status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                "client": client[0] if client else None,
            }})


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object per line (timestamp, level, logger, message, request)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, timezone.utc).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if isinstance(request, dict):
            entry.update(request)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return mask_secrets(orjson.dumps(entry, default=str).decode())


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request = getattr(record, "request", None)
        if isinstance(request, dict):
            text += (f" {request['method']} {request['path']} {request['status']} {request['duration_ms']}ms"
                     f" id={request['request_id']}")
        return mask_secrets(text)


def configure(log_format: str, level: str = "info") -> dict[str, Any]:
    """Set up our loggers (stderr) and return uvicorn's `log_config` to match: with JSON,
    uvicorn's own lines are JSON too and its access log is replaced by ours."""
    formatter = "api.request_log.JsonFormatter" if log_format == "json" else "api.request_log.TextFormatter"
    text_format = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"heirloom": {"()": formatter, **({} if log_format == "json" else {"fmt": text_format})}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "heirloom", "stream": sys.stderr}},
        "loggers": {
            "heirloom": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def install(app: Any) -> None:
    app.add_middleware(RequestLogMiddleware)
