"""Prometheus metrics: ``GET /metrics`` in the text exposition format (prometheus-client).

- ``heirloom_http_requests_total{method,route,status}`` and
  ``heirloom_http_request_duration_seconds{method,route}`` (histogram): by route *template*
  (``/games/{game_id}/moves``), never the raw path, so game ids do not explode the series;
- ``heirloom_moves_total{game,outcome,error}``: moves accepted (``outcome="accepted"``,
  ``error=""``) and refused (``outcome="refused"``, ``error`` = the answer's error code);
- ``heirloom_store_errors_total{kind}``: requests that met a store that failed or did not answer;
- ``heirloom_open_streams{kind}``: Server-Sent Event streams and WebSockets open now;
- ``heirloom_projection_lag_events{projection}`` and ``heirloom_projection_position``: read
  at scrape time from the read side.

Each app has its own registry (tests build many apps in one process).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any, Iterable

import orjson
from fastapi import APIRouter, Request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MOVES_ROUTE = "/games/{game_id}/moves"
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
GAME_TYPE_CACHE = 4096


class ProjectionCollector:
    """Projection positions and lags, asked of the read side when Prometheus scrapes."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def collect(self) -> Iterable[GaugeMetricFamily]:
        lag = GaugeMetricFamily("heirloom_projection_lag_events", "events of the log a projection has not applied yet",
                                labels=["projection"])
        position = GaugeMetricFamily("heirloom_projection_position", "last notification id a projection applied",
                                     labels=["projection"])
        read_side = getattr(self.app.state, "projections", None)
        try:
            status = read_side.status() if read_side is not None else {}
        except Exception:  # noqa: BLE001 - a store that does not answer: no sample, not a failed scrape
            status = {}
        for name, entry in (status.get("projections") or {}).items():
            lag.add_metric([name], float(entry.get("lag") or 0))
            position.add_metric([name], float(entry.get("position") or 0))
        yield lag
        yield position


class Metrics:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.registry = CollectorRegistry()
        self.requests = Counter("heirloom_http_requests", "HTTP requests answered", ["method", "route", "status"],
                                registry=self.registry)
        self.latency = Histogram("heirloom_http_request_duration_seconds", "time to answer an HTTP request",
                                 ["method", "route"], buckets=BUCKETS, registry=self.registry)
        self.moves = Counter("heirloom_moves", "moves posted, accepted or refused", ["game", "outcome", "error"],
                             registry=self.registry)
        self.store_errors = Counter("heirloom_store_errors", "requests that met a failing or silent store",
                                    ["kind"], registry=self.registry)
        self.open_streams = Gauge("heirloom_open_streams", "live streams open now", ["kind"], registry=self.registry)
        self.registry.register(ProjectionCollector(app))
        self.game_types: OrderedDict[str, str] = OrderedDict()

    def game_type(self, game_id: str) -> str:
        """The type of a game (cached; the service has the aggregate at hand after a move)."""
        known = self.game_types.get(game_id)
        if known is not None:
            return known
        try:
            kind = self.app.state.service.game(game_id).game_type
        except Exception:  # noqa: BLE001 - unknown game, store down: still count the refusal
            return "unknown"
        self.game_types[game_id] = kind
        if len(self.game_types) > GAME_TYPE_CACHE:
            self.game_types.popitem(last=False)
        return kind


def metrics_of(app: Any) -> Metrics | None:
    return getattr(app.state, "metrics", None)


def count_store_error(app: Any, kind: str) -> None:
    metrics = metrics_of(app)
    if metrics is not None:
        metrics.store_errors.labels(kind).inc()


class MetricsMiddleware:
    """Times and counts every request by route template; counts moves and open streams."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            gauge = self.metrics.open_streams.labels("websocket")
            gauge.inc()
            try:
                await self.app(scope, receive, send)
            finally:
                gauge.dec()
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        streaming = False
        body = bytearray()

        async def observed_send(message: Message) -> None:
            nonlocal status, streaming
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = dict(message.get("headers") or ())
                if headers.get(b"content-type", b"").startswith(b"text/event-stream"):
                    streaming = True
                    self.metrics.open_streams.labels("sse").inc()
            elif message["type"] == "http.response.body" and route_of(scope) == MOVES_ROUTE and len(body) < 65536:
                body.extend(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            if streaming:
                self.metrics.open_streams.labels("sse").dec()
            route = route_of(scope)
            method = scope["method"]
            self.metrics.requests.labels(method, route, str(status)).inc()
            self.metrics.latency.labels(method, route).observe(time.perf_counter() - started)
            if route == MOVES_ROUTE and method == "POST":
                await self.count_move(scope, status, bytes(body))

    async def count_move(self, scope: Scope, status: int, body: bytes) -> None:
        game_id = str((scope.get("path_params") or {}).get("game_id", ""))
        game = self.metrics.game_types.get(game_id)  # known after the first move: no thread hop
        if game is None:
            game = await run_in_threadpool(self.metrics.game_type, game_id)
        if 200 <= status < 300:
            self.metrics.moves.labels(game, "accepted", "").inc()
            return
        try:
            error = str(orjson.loads(body).get("error") or status)
        except (orjson.JSONDecodeError, AttributeError):
            error = str(status)
        self.metrics.moves.labels(game, "refused", error).inc()


def route_of(scope: Scope) -> str:
    """The matched route's template, or `unmatched` (never the raw path)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


router = APIRouter(tags=["operations"])


@router.get("/metrics", response_class=Response, responses={
    200: {"content": {"text/plain": {"schema": {"type": "string"}}},
          "description": "Prometheus text exposition format"}})
def metrics_endpoint(request: Request) -> Response:
    """Counters, latency histograms, projection lag, store errors and open streams."""
    metrics = metrics_of(request.app)
    payload = generate_latest(metrics.registry) if metrics is not None else b""
    return Response(payload, media_type=CONTENT_TYPE_LATEST)


def install(app: Any) -> Metrics:
    metrics = Metrics(app)
    app.state.metrics = metrics
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.include_router(router)
    return metrics
