"""Live: Server-Sent Events, one per appended event of a game, redacted for the caller.

Each SSE message has ``id: <version>``, ``event: <type>`` and ``data: <the event as in
/games/{id}/events>``. A client that reconnects with ``Last-Event-ID: <version>`` (or
``?after=<version>``) gets exactly the events after that version. ``follow=false`` ends
the stream once caught up; ``max_events`` ends it after that many events (tests, tools).
Redaction uses the caller's view at the time each event is sent: once the game is
finished, events are sent in full.
"""

from __future__ import annotations

import asyncio
import time

import orjson
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep, TokenDep
from api.models import errors
from projections.event_log import event_log
from projections.partitions import log_head

router = APIRouter(tags=["live"])

POLL_SECONDS = 0.1
HEARTBEAT_SECONDS = 15.0
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
    **errors(401, 404, 422)})
async def stream(game_id: str, request: Request, service: ServiceDep, token: TokenDep,
                 last_event_id: str | None = Header(default=None, max_length=20),
                 after: int = Query(default=0, ge=0, le=2 ** 62),
                 follow: bool = True,
                 max_events: int | None = Query(default=None, ge=1, le=10 ** 6)) -> StreamingResponse:
    """Server-Sent Events of this game from `Last-Event-ID` (or `after`) on."""
    await run_in_threadpool(service.caller, game_id, token)  # 404 / 401 before the stream starts
    position = after
    if last_event_id is not None and last_event_id.strip().isdigit():
        position = int(last_event_id.strip())

    async def messages():
        nonlocal position
        sent = 0
        quiet_since = time.monotonic()
        yield b"retry: 1000\n\n"
        seen_head = -1  # the log's head when this stream last caught up
        while True:
            head = await run_in_threadpool(log_head, service.recorder)  # every partition's
            if head != seen_head:  # something was appended somewhere: read this game's new events
                listing = await run_in_threadpool(event_log, service, game_id, token, position, BATCH)
                for event in listing["events"]:
                    yield sse_message(event)
                    position = event["version"]
                    sent += 1
                    if max_events is not None and sent >= max_events:
                        return
                if listing["events"]:
                    quiet_since = time.monotonic()
                    continue
                seen_head = head
            if not follow or await request.is_disconnected():
                return
            if time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                yield b": keep-alive\n\n"
                quiet_since = time.monotonic()
            await asyncio.sleep(POLL_SECONDS)

    return StreamingResponse(messages(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
