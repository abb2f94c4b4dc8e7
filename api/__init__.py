"""Heirloom's HTTP layer: FastAPI routers that authenticate, validate and translate.

No game logic lives here: routes call `domain.app.GameService` (writes, views) or a
projection (reads). See `api/README.md` for the API at a glance.
"""
