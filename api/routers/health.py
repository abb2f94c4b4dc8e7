"""GET /healthz: the process answers and the store is reachable."""

from fastapi import APIRouter

from api.deps import ServiceDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(service: ServiceDep) -> dict:
    """Cheap: one read of the store's last notification id."""
    return {"ok": True, "last_notification_id": service.recorder.max_notification_id() or 0}
