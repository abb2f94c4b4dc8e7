"""Refuse request bodies over the limit before anything parses them (413 `body_too_large`).

A declared ``Content-Length`` over the limit is answered at once, without reading a byte;
a body without one (chunked) is counted while the app reads it and refused as soon as it
passes the limit, so a 10 MB body never reaches the JSON parser or pydantic.
"""

from __future__ import annotations

import orjson
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY_BYTES = 1024 * 1024


def too_large_body(limit: int) -> dict[str, str]:
    return {"error": "body_too_large", "detail": f"the request body is larger than {limit} bytes"}


class BodyTooLarge(HTTPException):
    """Raised from `receive` when the streamed body passes the limit (FastAPI re-raises an
    HTTPException met while reading a body, so the app's error handler answers it)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=too_large_body(limit))


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.limit:
            await self.refuse(send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except BodyTooLarge:
            if started:
                raise
            await self.refuse(send)

    async def refuse(self, send: Send) -> None:
        body = orjson.dumps(too_large_body(self.limit))
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def declared_length(scope: Scope) -> int | None:
    """The Content-Length header as a number; None when absent. An unreadable one counts as
    too large (never trust it to be small)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 1 << 62
    return None
