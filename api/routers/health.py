"""GET /healthz: the process answers and the store is reachable.

Memory: the answer says how much of Redis's ``maxmemory`` is used (``memory``; read with one
``INFO memory`` at most every `MEMORY_EVERY` seconds per process). From `MEMORY_WARNING` on,
``"status": "memory_high"`` with a warning in words (still 200: reads and moves still work;
at the limit writes are refused with ``503 store_full``, nothing is evicted).

While the store does not answer (e.g. the embedded Redis is being restarted by its
supervisor) the answer is 503 ``"status": "degraded"``; it is ``"ok"`` again as soon as the
store answers, without restarting the server.
"""

import os
import time
from typing import Any

import redis
from eventsourcing.persistence import PersistenceError
from fastapi import APIRouter, Request
from pydantic import BaseModel

from api.deps import ServiceDep
from api.metrics import count_store_error
from api.models import ErrorBody
from api.responses import OrjsonResponse
from api.workers import worker_index
from projections.partitions import log_head

router = APIRouter(tags=["health"])


MEMORY_WARNING = 0.9
MEMORY_EVERY = 5.0


class Memory(BaseModel):
    used_bytes: int
    max_bytes: int | None = None
    used_ratio: float | None = None


class Health(BaseModel):
    ok: bool
    status: str
    last_notification_id: int
    pid: int | None = None
    worker: int | None = None
    memory: Memory | None = None
    warnings: list[str] = []


def memory_of(request: Request, service: Any) -> dict | None:
    """Redis's used memory and maxmemory (cached per process for `MEMORY_EVERY` seconds);
    None when the store is not one Redis that says (a cluster, an in-memory store)."""
    cached = getattr(request.app.state, "health_memory", None)
    now = time.monotonic()
    if cached is not None and now - cached[0] < MEMORY_EVERY:
        return cached[1]
    memory = None
    datastore = getattr(service.recorder, "datastore", None)
    client = getattr(datastore, "client", None)
    if isinstance(client, redis.Redis):
        info = client.info("memory")
        used, limit = int(info.get("used_memory", 0)), int(info.get("maxmemory", 0))
        memory = {"used_bytes": used, "max_bytes": limit or None,
                  "used_ratio": round(used / limit, 4) if limit else None}
    request.app.state.health_memory = (now, memory)
    return memory


class Degraded(ErrorBody):
    ok: bool
    status: str


@router.get("/healthz", response_model=None, responses={
    200: {"model": Health, "description": "the store answers (`status` `memory_high` from 90% of Redis's maxmemory)"},
    503: {"model": Degraded, "description": "the store does not answer (e.g. the embedded Redis is being restarted)"}})
def healthz(service: ServiceDep, request: Request):
    """Cheap: one read of the store's last notification id (and `INFO memory` every few seconds).
    `status`: `ok`, `memory_high` (90% of Redis's maxmemory) or `store_full` (the embedded Redis's
    disk is full: writes refused)."""
    try:
        last = log_head(service.recorder)  # every partition's, on a partitioned cluster log
        memory = memory_of(request, service)
    except (redis.RedisError, PersistenceError, OSError) as error:
        count_store_error(request.app, type(error).__name__)
        return OrjsonResponse({"error": "store_unavailable", "ok": False, "status": "degraded",
                               "detail": f"the event store does not answer ({type(error).__name__})"},
                              status_code=503)
    warnings = []
    status = "ok"
    settings = request.app.state.settings
    if settings.embedded:
        from domain.eventstore.embedded import embedded_server

        server = embedded_server(settings.data_dir)
        if server is not None and server.disk_full:
            status = "store_full"
            warnings.append("disk full: the data folder has no room; writes are refused "
                            "(503 store_full), reads are served")
    if memory is not None and (memory["used_ratio"] or 0) >= MEMORY_WARNING:
        warnings.append(f"Redis uses {memory['used_ratio']:.0%} of its maxmemory ({memory['max_bytes']} bytes); "
                        "at the limit every write is refused (noeviction); raise maxmemory or make room")
        status = "memory_high" if status == "ok" else status
    # Which process answered (`heirloom serve --workers N`: its index, else null).
    return {"ok": True, "status": status, "last_notification_id": last,
            "pid": os.getpid(), "worker": worker_index(), "memory": memory, "warnings": warnings}
