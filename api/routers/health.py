"""GET /healthz: the process answers and the store is reachable.

While the store does not answer (e.g. the embedded Redis is being restarted by its
supervisor) the answer is 503 ``"status": "degraded"``; it is ``"ok"`` again as soon as the
store answers, without restarting the server.
"""

import os

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


class Health(BaseModel):
    ok: bool
    status: str
    last_notification_id: int
    pid: int | None = None
    worker: int | None = None


class Degraded(ErrorBody):
    ok: bool
    status: str


@router.get("/healthz", response_model=None, responses={
    200: {"model": Health, "description": "the store answers"},
    503: {"model": Degraded, "description": "the store does not answer (e.g. the embedded Redis is being restarted)"}})
def healthz(service: ServiceDep, request: Request):
    """Cheap: one read of the store's last notification id."""
    try:
        last = log_head(service.recorder)  # every partition's, on a partitioned cluster log
    except (redis.RedisError, PersistenceError, OSError) as error:
        count_store_error(request.app, type(error).__name__)
        return OrjsonResponse({"error": "store_unavailable", "ok": False, "status": "degraded",
                               "detail": f"the event store does not answer ({type(error).__name__})"},
                              status_code=503)
    # Which process answered (`heirloom serve --workers N`: its index, else null).
    return {"ok": True, "status": "ok", "last_notification_id": last, "pid": os.getpid(), "worker": worker_index()}
