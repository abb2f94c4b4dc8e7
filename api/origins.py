"""Who may open a game's WebSocket: Origin checks and the size of a frame.

A browser sends ``Origin`` with every WebSocket handshake, and a WebSocket is not bound by
the same-origin policy: without a check, any page a player visits could open the game's
socket in their browser. So a handshake with an ``Origin`` is accepted only when that origin
is this server's own (the origin's host and port equal the request's ``Host``) or one of
``HEIRLOOM_ALLOWED_ORIGINS``. A client that sends no ``Origin`` is not a browser (a bot, a
script, a test): no page can be acting through it, so it is allowed.

Frames are capped like HTTP bodies (``HEIRLOOM_MAX_BODY_BYTES``, 1 MiB): uvicorn refuses a
larger frame before it is assembled (``ws_max_size``, api/cli.py) and `frame_too_large`
checks again in the app, whatever server runs it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def origin_allowed(scope: dict, allowed: tuple[str, ...] = ()) -> bool:
    """True when the handshake has no Origin, or it is this server's own or a configured one."""
    origin = header(scope, b"origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    host = (header(scope, b"host") or "").strip().lower()
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc == host


def frame_too_large(message: dict[str, Any], limit: int) -> bool:
    """True when a received WebSocket message is over `limit` bytes (text counted as UTF-8
    only when its length in characters could pass it)."""
    text = message.get("text")
    if text is not None:
        return len(text) > limit or (len(text) * 4 > limit and len(text.encode("utf-8")) > limit)
    return len(message.get("bytes") or b"") > limit
