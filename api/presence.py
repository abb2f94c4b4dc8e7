"""Presence (issue 28.3): `seats[].online` from the seat's open live connections.

Each open WebSocket or SSE connection of a seat keeps `<prefix>:presence:<game>` (a Redis hash,
seat -> the epoch second its presence lasts until) a little in the future: every `REFRESH_S` it
writes `now + REFRESH_S + GRACE_S`, and when it closes `now + GRACE_S`. So a seat is online while a
connection is open and for `GRACE_S` after the last one closed (a page reload, a phone changing
networks), and every API process reads the same answer. A server notices a closed SSE connection
when it next writes to it (at the latest its 15 s keep-alive), so an SSE seat goes offline
`GRACE_S` to about 25 s after its page closed; a WebSocket's close is seen at once. The cost is one HSET per open connection
every few seconds and one HGETALL per GET /games/{id}: nothing on the move path.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, AsyncIterator

from starlette.concurrency import run_in_threadpool

GRACE_S = 10.0
REFRESH_S = 5.0
KEEP_S = 86400          # the hash of a game nobody watches goes away by itself


class Presence:
    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:presence:{game_id}"

    def mark(self, game_id: str, seat: int, until: float) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(self.key(game_id), str(seat), f"{until:.3f}")
        pipe.expire(self.key(game_id), KEEP_S)
        pipe.execute()

    def online(self, game_id: str, now: float) -> set[int]:
        """The seats with a live connection now (or closed less than `GRACE_S` ago)."""
        found = self.client.hgetall(self.key(game_id)) or {}
        return {int(seat) for seat, until in found.items() if float(until) > now}

    @contextlib.asynccontextmanager
    async def held(self, game_id: str, caller: Any) -> AsyncIterator[None]:
        """While the block runs, the caller's seat is online (a spectator or the referee: nothing)."""
        seat = getattr(caller, "seat", None) if getattr(caller, "kind", None) == "seat" else None
        if seat is None:
            yield
            return

        async def refresh() -> None:
            while True:
                await run_in_threadpool(self.mark, game_id, seat, time.time() + REFRESH_S + GRACE_S)
                await asyncio.sleep(REFRESH_S)
        task = asyncio.ensure_future(refresh())
        try:
            yield
        finally:
            task.cancel()
            # Not awaited: a connection torn down by cancellation still writes its grace period.
            asyncio.get_running_loop().run_in_executor(None, self.quiet_mark, game_id, seat, time.time() + GRACE_S)

    def quiet_mark(self, game_id: str, seat: int, until: float) -> None:
        with contextlib.suppress(Exception):
            self.mark(game_id, seat, until)


def presence_of(app: Any) -> Presence:
    """The application's presence book (one per process, on the store's Redis)."""
    found = getattr(app.state, "presence", None)
    if found is None:
        from projections.readside import redis_of
        found = app.state.presence = Presence(*redis_of(app.state.service))
    return found


def with_online(view: dict, presence: Presence, game_id: str, now: float) -> dict:
    """GET /games/{id} with `seats[].online` filled in (a bot seat: null)."""
    seats = view.get("seats")
    if not seats:
        return view
    try:
        online = presence.online(game_id, now)
    except Exception:  # noqa: BLE001 - presence is a courtesy: a Redis hiccup leaves it unknown
        return view
    for seat in seats:
        seat["online"] = None if seat.get("bot") else seat["seat"] in online
    return view
