"""Security headers on every answer: ``X-Content-Type-Options: nosniff`` and a
Content-Security-Policy chosen by what the answer is.

Why each one:

- ``nosniff``: a browser must never guess that a JSON body or an uploaded-looking text is
  HTML or script (a player name is shown in many answers).
- JSON and every other non-page answer: ``default-src 'none'`` — opened directly in a tab,
  nothing in it may load or run anything.
- SVG pictures: nothing but their own inline styles (an SVG opened directly could otherwise
  run a script).
- Pages: only this server's own scripts, styles, images and connections (``'self'``; the
  pages load nothing from elsewhere). Inline ``style`` attributes stay allowed: the board
  pictures use them.
- ``/docs`` sets its own policy (api/web/docs.py: its one inline script is allowed by hash).

The wrapper sits outside every middleware and error handler (`install` wraps the app's whole
middleware stack), so a 413 of the body limit and a 500 carry the headers too.
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOSNIFF = (b"x-content-type-options", b"nosniff")
CSP = b"content-security-policy"
#: Anything that is not a page or a picture: nothing may load or run.
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
               "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")


def policy_for(content_type: bytes) -> str:
    kind = content_type.split(b";", 1)[0].strip().lower()
    if kind == b"text/html":
        return PAGE_POLICY
    if kind == b"image/svg+xml":
        return SVG_POLICY
    return DATA_POLICY


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                if NOSNIFF[0] not in names:
                    headers.append(NOSNIFF)
                if CSP not in names:
                    content_type = next((value for name, value in headers if name.lower() == b"content-type"), b"")
                    headers.append((CSP, policy_for(content_type).encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install(app: Any) -> None:
    """Wrap the app's whole middleware stack (Starlette's error middleware included)."""
    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: SecurityHeaders(build())
