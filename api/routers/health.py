"""GET /healthz: the process answers and the store is reachable."""

from fastapi import APIRouter

from api.deps import ServiceDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(service: ServiceDep) -> dict:
    return {"ok": True, "games_indexed": len(service.list_games())}
