"""Live moves over a WebSocket: ``/games/{id}/ws`` (API.md "Live moves").

The first message may be ``{"token": "..."}`` (a seat's or the referee's); without it,
within `FIRST_MESSAGE_SECONDS`, the connection is a spectator's (``{"token": null}`` says so
at once). From then on:

- the server sends each new event of the game, as ``/games/{id}/events`` lists it for
  this caller (redacted per connection while the game runs: a seat sees its own hidden
  facts, others their public form; everything once the game is finished). ``?after=N``
  starts after version N (default: the version when the connection opened, so only new
  events);
- a seat sends ``{"move": {...}, "expected_version": n}`` (optional ``"idempotency_key"``)
  and gets the same answer as ``POST /games/{id}/moves``: the 201 body, or the error body
  (``{"error", "detail", ...}``) that request would have had.

Events reach the connection without any Redis read of its own (api/live.py): a move saved
in this process is handed over by the service as it is saved, and the append script
publishes every appended batch for the processes serving the game's other connections;
each connection redacts the events itself with the same function as the events listing
(`event_record`). After a gap in versions, or `SAFETY_SECONDS` without news, it reads the
events listing instead.

A move is played on the event loop itself (`GameService.play`: the cached game, one Redis
round trip for the append), not handed to a thread and back: on a small machine the two
thread switches cost more than the round trip they would overlap.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from api.models import PlayMove
from api.live_wakeup import TooManyStreams, client_address, open_streams_of
from api.origins import frame_too_large, origin_allowed
from api.presence import presence_of
import orjson

from api.live import GAP, live_games
from domain.engine import IllegalMove, get_rules
from domain.app import ServiceError
from projections.event_log import event_log, event_record

router = APIRouter(tags=["live"])

FIRST_MESSAGE_SECONDS = 1.0
#: Without a push, look at the events listing this often anyway (another process's follower).
SAFETY_SECONDS = 2.0
#: Without a live feed (a Redis Cluster, or an app run without its lifespan), this often.
POLL_SECONDS = 0.1
BATCH = 200


def error_body(error: BaseException) -> dict:
    """The body POST /moves would answer with for `error` (api/errors.py)."""
    if isinstance(error, ServiceError):
        return {"error": error.code, "detail": error.detail, **error.extra}
    if isinstance(error, IllegalMove):
        return {"error": "illegal_move", "detail": error.detail, "rule": error.rule_id}
    if isinstance(error, (ValidationError, RequestValidationError)):
        from api.errors import _validation_detail

        problems = error if isinstance(error, RequestValidationError) else RequestValidationError(
            [dict(item, loc=("body", *item.get("loc", ()))) for item in error.errors()])
        text, listed = _validation_detail(problems)
        return {"error": "invalid_request", "detail": text, "errors": listed}
    from eventsourcing.persistence import OperationalError, PersistenceError
    import redis

    from domain.eventstore.errors import StoreFull, is_store_full

    if isinstance(error, StoreFull) or (isinstance(error, redis.ResponseError) and is_store_full(error)):
        from api.errors import STORE_FULL_DETAIL

        return {"error": "store_full", "detail": STORE_FULL_DETAIL}
    if isinstance(error, (OperationalError, redis.RedisError)):
        return {"error": "store_unavailable", "detail": "the event store does not answer; retry later"}
    if isinstance(error, PersistenceError):
        return {"error": "store_error", "detail": "the event store refused the request; the error is logged"}
    return {"error": "internal_error", "detail": "the server failed; the error is logged"}


class Connection:
    """One WebSocket: who it is, where it is in the game, and one sender at a time."""

    def __init__(self, websocket: WebSocket, game_id: str) -> None:
        self.ws = websocket
        self.app = websocket.app
        self.service = websocket.app.state.service
        self.game_id = game_id
        self.token: str | None = None
        self.caller: Any = None
        self.position = 0
        self.finished = False
        self.game_type = ""
        self._send_lock = asyncio.Lock()

    async def send(self, body: dict) -> None:
        text = orjson.dumps(body).decode()  # orjson: several times cheaper than json.dumps
        async with self._send_lock:
            await self.ws.send_text(text)

    async def listing(self) -> None:
        """Catch up from the events listing (what the caller may see, read from the store)."""
        while True:
            page = await run_in_threadpool(event_log, self.service, self.game_id, self.token, self.position, BATCH)
            for event in page["events"]:
                await self.send(event)
                self.position = event["version"]
            if len(page["events"]) < BATCH:
                return

    async def pushed(self, events: list[Any]) -> None:
        """Events handed over by the follower: redacted here, in order, gaps read from the store."""
        if events is GAP:
            await self.listing()
            return
        rules = get_rules(self.game_type)
        for event in events:
            version = event.originator_version
            if version <= self.position:
                continue
            if version != self.position + 1:  # missed some (a page we were not woken for)
                await self.listing()
                if version <= self.position:
                    continue
            kind = type(event).__name__
            if kind == "MovePlayed":
                self.finished = bool(event.finished)
            elif kind == "MovesUndone":
                self.finished = False
            viewer = self.caller.viewer(self.finished)
            await self.send(event_record(rules, event, viewer, set()))
            self.position = version

    async def follow(self) -> None:
        live = live_games(self.app)
        entry = live.subscribe(self.game_id)
        queue = entry[1]
        try:
            await self.listing()
            while True:
                try:
                    async with asyncio.timeout(SAFETY_SECONDS if live.feed is not None else POLL_SECONDS):
                        events = await queue.get()
                except TimeoutError:
                    await self.listing()
                    continue
                await self.pushed(events)
        finally:
            live.unsubscribe(self.game_id, entry)

    async def play(self, message: dict) -> None:
        try:
            body = PlayMove.model_validate({k: v for k, v in message.items() if k != "idempotency_key"})
            key = message.get("idempotency_key")
            if key is not None and (not isinstance(key, str) or len(key) > 200):
                raise ServiceError("idempotency_key: a string of at most 200 characters")
            answer = self.service.play(self.game_id, self.token, body.move, body.expected_version, key)
        except Exception as error:  # noqa: BLE001 - every refusal is answered, like POST /moves
            await self.send(error_body(error))
            return
        await self.send(answer)

    async def receive(self, first: dict | None) -> None:
        if first is not None:
            await self.handle(first)
        while True:
            await self.handle(await receive(self.ws))

    async def handle(self, message: Any) -> None:
        if message is NOT_JSON:
            await self.send({"error": "invalid_request", "detail": "the message is not valid JSON"})
        elif not isinstance(message, dict):
            await self.send({"error": "invalid_request", "detail": "send a JSON object: {\"move\", \"expected_version\"}"})
        elif "move" in message:
            await self.play(message)
        else:
            await self.send({"error": "invalid_request",
                             "detail": "a message is {\"move\": {...}, \"expected_version\": n}"})


NOT_JSON = object()


async def receive(websocket: WebSocket) -> Any:
    """The next message, decoded (`NOT_JSON` if it is not JSON)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if frame_too_large(message, websocket.app.state.settings.max_body_bytes):  # like HTTP bodies (api/origins.py)
        await websocket.close(code=1009, reason="message too big")
        raise WebSocketDisconnect(1009)
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return NOT_JSON


@router.websocket("/games/{game_id}/ws")
async def live(websocket: WebSocket, game_id: str, after: int | None = None) -> None:
    """Each new event of the game as the caller may see it; moves in, answers out."""
    if not origin_allowed(websocket.scope, websocket.app.state.settings.allowed_origins):
        await websocket.close(code=1008)  # before the handshake: the browser sees a 403
        return
    streams, client = open_streams_of(websocket.app), client_address(websocket.scope)
    try:
        streams.acquire(client)  # live streams per client (api/live_wakeup.py)
    except TooManyStreams:
        await websocket.close(code=1008)
        return
    try:
        await serve(websocket, game_id, after)
    finally:
        streams.release(client)


async def serve(websocket: WebSocket, game_id: str, after: int | None) -> None:
    await websocket.accept()
    connection = Connection(websocket, game_id)
    first: Any = None
    try:
        try:
            first = await asyncio.wait_for(receive(websocket), FIRST_MESSAGE_SECONDS)
        except asyncio.TimeoutError:
            first = None
        if isinstance(first, dict) and set(first) == {"token"}:
            connection.token = first["token"] if isinstance(first["token"], str) and first["token"] else None
            first = None
        try:
            connection.caller = await run_in_threadpool(connection.service.caller, game_id, connection.token)
            view = await run_in_threadpool(connection.service.game_view, game_id, connection.token)
        except Exception as error:  # noqa: BLE001 - 404 / 401 as the HTTP API says them
            await connection.send(error_body(error))
            await websocket.close(code=1008)
            return
        connection.finished = view["status"] == "finished"
        connection.game_type = view["game"]
        connection.position = view["version"] if after is None else max(0, min(after, view["version"]))
        tasks = [asyncio.ensure_future(connection.follow()), asyncio.ensure_future(connection.receive(first))]
        try:
            async with presence_of(websocket.scope["app"]).held(game_id, connection.caller):  # seats[].online
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                error = task.exception()
                if error is not None and not isinstance(error, WebSocketDisconnect):
                    raise error
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    except WebSocketDisconnect:
        return
