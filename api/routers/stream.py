"""Live: Server-Sent Events, one per appended event of a game, redacted for the caller.

Each SSE message has ``id: <version>``, ``event: <type>`` and ``data: <the event as in
/games/{id}/events>``. A client that reconnects with ``Last-Event-ID: <version>`` (or
``?after=<version>``) gets exactly the events after that version. ``follow=false`` ends
the stream once caught up; ``max_events`` ends it after that many events (tests, tools).
Redaction uses the caller's view at the time each event is sent: once the game is
finished, events are sent in full.

A stream sleeps until the store has news of its game (api/live_wakeup.py: the process's one
notifier rings it), never polling; at most ``HEIRLOOM_MAX_STREAMS_PER_CLIENT`` streams (and
WebSockets) per client address and process, then ``429 too_many_streams``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep, TokenDep
from api.live_wakeup import TooManyStreams, bells_of, client_address, open_streams_of
from api.models import errors
from api.presence import presence_of
from projections.event_log import event_log

router = APIRouter(tags=["live"])

HEARTBEAT_SECONDS = 15.0
#: A refused stream may try again after this many seconds.
STREAM_RETRY_SECONDS = 10
BATCH = 200


def sse_message(event: dict) -> bytes:
    return (f"id: {event['version']}\nevent: {event['type']}\ndata: ".encode()
            + orjson.dumps(event) + b"\n\n")


@router.get("/games/{game_id}/stream", response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {"schema": {
              "type": "object", "required": ["data"],
              "properties": {"id": {"type": "string", "description": "the event's version"},
                             "event": {"type": "string", "description": "the event's type"},
                             "data": {"type": "string", "contentMediaType": "application/json",
                                      "contentSchema": {"$ref": "#/components/schemas/EventRecord"}},
                             "retry": {"type": "integer"}}}}},
          "description": "Server-Sent Events, one per event: `id: <version>`, `event: <type>`, "
                         "`data: <the event as in /events>`"},
    **errors(401, 404, 422, 429)})
async def stream(game_id: str, request: Request, service: ServiceDep, token: TokenDep,
                 last_event_id: str | None = Header(default=None, max_length=20),
                 after: int = Query(default=0, ge=0, le=2 ** 62),
                 follow: bool = True,
                 max_events: int | None = Query(default=None, ge=1, le=10 ** 6)) -> StreamingResponse:
    """Server-Sent Events of this game from `Last-Event-ID` (or `after`) on."""
    caller = await run_in_threadpool(service.caller, game_id, token)  # 404 / 401 before the stream starts
    presence = presence_of(request.app)
    position = after
    if last_event_id is not None and last_event_id.strip().isdigit():
        position = int(last_event_id.strip())

    client = client_address(request.scope)
    streams = open_streams_of(request.app)
    try:
        streams.acquire(client)
    except TooManyStreams:
        return JSONResponse({"error": "too_many_streams",
                             "detail": f"this client has {streams.limit} live streams open already; close one, "
                                       f"or retry in {STREAM_RETRY_SECONDS} s"},
                            status_code=429, headers={"Retry-After": str(STREAM_RETRY_SECONDS)})
    bells = bells_of(request.app)

    async def messages():
        nonlocal position
        sent = 0
        yield b"retry: 1000\n\n"
        loop_bell = bells.subscribe(game_id)
        bell = loop_bell[1]
        online = presence.held(game_id, caller)      # a seat's stream keeps it online (seats[].online)
        await online.__aenter__()
        try:
            while True:
                bell.clear()  # before reading: news after this read rings it again
                listing = await run_in_threadpool(event_log, service, game_id, token, position, BATCH)
                for event in listing["events"]:
                    yield sse_message(event)
                    position = event["version"]
                    sent += 1
                    if max_events is not None and sent >= max_events:
                        return
                if len(listing["events"]) >= BATCH:
                    continue
                if not follow:
                    return
                try:  # asleep until the store rings for this game (or the heartbeat is due)
                    await asyncio.wait_for(bell.wait(), HEARTBEAT_SECONDS)
                except asyncio.TimeoutError:
                    yield b": keep-alive\n\n"
        finally:
            bells.unsubscribe(game_id, loop_bell)
            await online.__aexit__(None, None, None)

    return CountedStream(messages(), release=lambda: streams.release(client), media_type="text/event-stream",
                         headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


class CountedStream(StreamingResponse):
    """A stream that gives its client's slot back however it ends (done, disconnected, failed,
    or never started because the client left first)."""

    def __init__(self, content: Any, release, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
