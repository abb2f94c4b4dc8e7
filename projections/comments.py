"""Comments on the steps of a game: their own stream, never part of the game's events.

A comment is plain text attached to a step (0 = after setup) of a game, by a seat or the referee
while the game runs (shown then to the table only: a spectator never reads the table's talk of a
running game, since a seat may discuss its own hand), by anyone who gives a name once it is finished.
Comments live in a Redis Stream of their own, ``<prefix>:comments:{<game id>}`` (the hash tag keeps
it with the game in cluster mode), so a comment can never change the game: the event log and its
audit chain do not know comments exist. They are part of the game's record (`GET /games/{id}/record`).

The text is kept exactly as written (control characters but newlines removed) and is only ever
shown as text: pages set it with `textContent`, never as HTML.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import orjson

from domain.app.errors import ServiceError

MAX_TEXT = 2000
MAX_NAME = 40
#: A game's comments are bounded, so one caller cannot grow a game's keys without end.
MAX_PER_GAME = 5000
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


class CommentRefused(ServiceError):
    """A comment that cannot be stored (empty, too long, at no such step, the game's limit)."""

    code = "invalid_comment"
    status = 422


class CommentsClosed(ServiceError):
    """A spectator commenting on a running game (only its seats and referee talk then)."""

    code = "token_required"
    status = 401


def clean_text(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n")).strip()


class CommentStore:
    """The comments of every game, one Redis Stream per game."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:comments:{{{game_id}}}"

    def add(self, game_id: str, *, step: int, steps: int, text: str, author: str, role: str,
            seat: int | None, running: bool) -> dict:
        """Store one comment (checked here: the only way in) and return it as listed."""
        body = clean_text(text)
        if not body:
            raise CommentRefused("a comment needs some text")
        if len(body) > MAX_TEXT:
            raise CommentRefused(f"a comment has at most {MAX_TEXT:,} characters; this one has {len(body):,}")
        if not 0 <= step <= steps:
            raise CommentRefused(f"this game has steps 0 to {steps}; there is no step {step}")
        if self.client.xlen(self.key(game_id)) >= MAX_PER_GAME:
            raise CommentRefused(f"this game already has {MAX_PER_GAME:,} comments, the most one game keeps")
        at = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
        comment = {"step": step, "author": author, "role": role, "seat": seat, "text": body, "at": at,
                   "during_play": running}
        entry = self.client.xadd(self.key(game_id), {"c": orjson.dumps(comment)})
        return {"id": entry.decode() if isinstance(entry, bytes) else str(entry), **comment}

    def list(self, game_id: str, *, table_only_hidden: bool, step: int | None = None) -> list[dict]:
        """The game's comments in step order (then in the order written). `table_only_hidden`:
        the caller is a spectator of a running game, who sees none."""
        if table_only_hidden:
            return []
        comments = []
        for entry, fields in self.client.xrange(self.key(game_id)):
            comment = orjson.loads(fields[b"c"] if b"c" in fields else fields["c"])
            if step is None or comment["step"] == step:
                comments.append({"id": entry.decode() if isinstance(entry, bytes) else str(entry), **comment})
        comments.sort(key=lambda c: (c["step"], c["id"]))
        return comments


def check_name(name: str | None) -> str:
    """The name a guest signs a finished game's comment with."""
    name = clean_text(name or "")
    if not name:
        raise CommentRefused("say who you are: a comment on a finished game needs a \"name\" without a token")
    if len(name) > MAX_NAME or "<" in name or ">" in name:
        raise CommentRefused(f"a name has at most {MAX_NAME} characters and no '<' or '>'")
    return name
