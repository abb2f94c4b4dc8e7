"""Shared reviews (projections/reviews.py): POST /games/{id}/review, PUT/GET /reviews/{id}, and
GET /reviews/{id}/stream, where everyone with the link follows the leader's step live (SSE).

Followers' streams are woken by Redis pub/sub through one subscriber thread per process
(`ReviewBell`), not by polling; where pub/sub is not to be had (a cluster client) they look every
half second instead.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api.deps import ServiceDep, TokenDep
from api.models import Answer, WholeNumber, answers, errors
from projections.readside import redis_of
from projections.reviews import ReviewStore, public

log = logging.getLogger("heirloom.reviews")
router = APIRouter(tags=["reviews"])

HEARTBEAT_SECONDS = 15.0
FALLBACK_SECONDS = 0.5


class StartReview(BaseModel):
    step: WholeNumber = Field(default=0, ge=0, le=10 ** 7, description="the step the review opens at")


class MoveReview(BaseModel):
    step: WholeNumber = Field(ge=0, le=10 ** 7, description="the step everyone following now sees")


class ReviewStarted(Answer):
    """A shared review: the leader's token (only in this answer) and the link to share."""

    id: str
    leader_token: str
    url: str


class ReviewState(Answer):
    id: str
    game: str
    step: int
    seq: int = Field(description="how many times the leader moved (a stream event per change)")


class ReviewBell:
    """One pub/sub subscriber per process that wakes the streams following a review."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.pattern = f"{prefix}:review:*:changes"
        self.head = len(f"{prefix}:review:")
        self.client = client
        self.waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.lock = threading.Lock()
        self.working = hasattr(client, "pubsub") and not type(client).__name__.startswith("RedisCluster")
        if self.working:
            threading.Thread(target=self._listen, name="review-bell", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(self.pattern)
                for message in pubsub.listen():
                    channel = message.get("channel")
                    channel = channel.decode() if isinstance(channel, bytes) else str(channel)
                    self._ring(channel[self.head:-len(":changes")])
            except Exception as error:  # noqa: BLE001 - the store went away: wake everyone, then retry
                log.warning("review bell: %s; resubscribing", error)
                for review_id in list(self.waiters):
                    self._ring(review_id)
                time.sleep(1.0)

    def _ring(self, review_id: str) -> None:
        with self.lock:
            waiting = list(self.waiters.get(review_id, ()))
        for loop, event in waiting:
            loop.call_soon_threadsafe(event.set)

    def listen(self, review_id: str) -> asyncio.Event:
        event = asyncio.Event()
        with self.lock:
            self.waiters.setdefault(review_id, set()).add((asyncio.get_running_loop(), event))
        return event

    def forget(self, review_id: str, event: asyncio.Event) -> None:
        with self.lock:
            waiting = self.waiters.get(review_id, set())
            waiting.discard(next((w for w in waiting if w[1] is event), None))
            if not waiting:
                self.waiters.pop(review_id, None)


def reviews_of(request: Request, service) -> ReviewStore:
    store = getattr(request.app.state, "reviews", None)
    if store is None:
        client, prefix = redis_of(service)
        store = request.app.state.reviews = ReviewStore(client, prefix)
    return store


def bell_of(request: Request, store: ReviewStore) -> ReviewBell:
    bell = getattr(request.app.state, "review_bell", None)
    if bell is None:
        bell = request.app.state.review_bell = ReviewBell(store.client, store.prefix)
    return bell


@router.post("/games/{game_id}/review", status_code=201, response_model=None,
             responses=answers(ReviewStarted, 401, 404, 413, 422, status=201))
def start_review(game_id: str, request: Request, service: ServiceDep, token: TokenDep,
                 body: StartReview | None = None) -> dict:
    """Start a shared review of this game; share `url`, keep `leader_token` to lead it."""
    service.caller(game_id, token)  # 404 for no such game, 401 for a foreign token
    steps = len(service.game(game_id).effective_versions())
    step = min(body.step if body else 0, steps)
    return reviews_of(request, service).create(game_id, step)


@router.get("/reviews/{review_id}", response_model=None, responses=answers(ReviewState, 404))
def get_review(review_id: str, request: Request, service: ServiceDep) -> dict:
    """The game and the leader's step."""
    return public(reviews_of(request, service).get(review_id))


@router.put("/reviews/{review_id}", response_model=None, responses=answers(ReviewState, 403, 404, 413, 422))
def move_review(review_id: str, body: MoveReview, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """The leader (its token as bearer) moves everyone to a step."""
    store = reviews_of(request, service)
    review = store.get(review_id)
    steps = len(service.game(review["game"]).effective_versions())
    return store.move(review_id, token, min(body.step, steps))


@router.post("/reviews/{review_id}/handover", response_model=None, responses=answers(ReviewStarted, 403, 404))
def hand_over(review_id: str, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """The leader hands the review over: a new leader token (give it to the next leader); the old one stops."""
    return reviews_of(request, service).hand_over(review_id, token)


@router.get("/reviews/{review_id}/stream", response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {"schema": {
              "type": "object", "required": ["data"],
              "properties": {"event": {"type": "string", "description": "`step`"},
                             "data": {"type": "string", "contentMediaType": "application/json",
                                      "contentSchema": {"$ref": "#/components/schemas/ReviewState"}},
                             "retry": {"type": "integer"}}}}},
          "description": "Server-Sent Events: `event: step`, `data: {\"id\", \"game\", \"step\", \"seq\"}` "
                         "at once and after every change of step"},
    **errors(404)})
async def follow_review(review_id: str, request: Request, service: ServiceDep) -> StreamingResponse:
    """Follow the leader: one event now and one per change of step."""
    store = reviews_of(request, service)
    await run_in_threadpool(store.get, review_id)  # 404 before the stream starts
    bell = bell_of(request, store)

    async def messages():
        wake = bell.listen(review_id)        # listening before reading: no change falls in between
        seen, current = -1, public(await run_in_threadpool(store.get, review_id))
        quiet_since = time.monotonic()
        try:
            yield b"retry: 1000\n\n"
            while True:
                if current["seq"] != seen:
                    seen = current["seq"]
                    yield b"event: step\ndata: " + orjson.dumps(current) + b"\n\n"
                    quiet_since = time.monotonic()
                if await request.is_disconnected():
                    return
                wait = FALLBACK_SECONDS if not bell.working else HEARTBEAT_SECONDS
                try:
                    await asyncio.wait_for(wake.wait(), timeout=wait)
                except asyncio.TimeoutError:
                    pass
                wake.clear()
                if time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                    yield b": keep-alive\n\n"
                    quiet_since = time.monotonic()
                try:
                    current = public(await run_in_threadpool(store.get, review_id))
                except Exception:  # noqa: BLE001 - the review expired: the stream ends
                    return
        finally:
            bell.forget(review_id, wake)

    return StreamingResponse(messages(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
