"""Wiring of the read side into the API: the `ReadSide` on ``app.state.projections``.

`install_projections(app)` builds the projections of the app's service and runs them in
the API process (started and stopped by the FastAPI lifespan). With
``HEIRLOOM_PROJECTIONS=external`` they are left to a separate ``heirloom projections run``
process and the API only reads their views. Either way a read endpoint first waits until
the projections it reads reached every event written before the request
(read-your-writes, at most ``HEIRLOOM_READ_TIMEOUT`` seconds, default 5, then 503).
"""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from typing import Annotated, Iterable

from fastapi import Depends, FastAPI, Request
from starlette.concurrency import run_in_threadpool

from domain.app import ServiceError
from projections.readside import ReadSide
from projections.replay import GameNotProjected
from projections.replay import StepOutOfRange as ReplayStepOutOfRange


class ProjectionLagging(ServiceError):
    status, code = 503, "projection_lagging"


class ProjectionsUnavailable(ServiceError):
    status, code = 503, "projections_unavailable"


class GameNotFoundInReadModel(ServiceError):
    status, code = 404, "game_not_found"


class StepOutOfRange(ServiceError):
    status, code = 422, "step_out_of_range"


class UnknownGameType(ServiceError):
    status, code = 404, "unknown_game_type"


def install_projections(app: FastAPI) -> ReadSide:
    """Attach the read side to `app` and run it with the app's lifespan (see module docstring)."""
    external = os.environ.get("HEIRLOOM_PROJECTIONS", "inline").strip().lower() == "external"
    read_side = ReadSide(app.state.service, external=external)
    app.state.projections = read_side
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: FastAPI):
        if not external:
            read_side.start()
        try:
            async with previous(application) as state:
                yield state
        finally:
            await run_in_threadpool(read_side.stop)

    app.router.lifespan_context = lifespan
    return read_side


def read_timeout() -> float:
    try:
        return float(os.environ.get("HEIRLOOM_READ_TIMEOUT", "5"))
    except ValueError:
        return 5.0


def get_read_side(request: Request) -> ReadSide:
    read_side = getattr(request.app.state, "projections", None)
    if read_side is None:
        raise ProjectionsUnavailable("the read side is not installed in this app")
    return read_side


async def read_side_dependency(request: Request) -> ReadSide:
    """get_read_side as an async dependency (a sync one costs a thread-pool hop)."""
    return get_read_side(request)


ReadSideDep = Annotated[ReadSide, Depends(read_side_dependency)]


def synced(read_side: ReadSide, names: Iterable[str]) -> ReadSide:
    """Read-your-writes: wait for `names` to reach every write made before this request."""
    try:
        read_side.sync(names, timeout=read_timeout())
    except TimeoutError as error:
        raise ProjectionLagging(str(error)) from None
    return read_side


def not_projected(game_id: str) -> GameNotFoundInReadModel:
    return GameNotFoundInReadModel(f"no game {game_id!r}")


__all__ = [
    "GameNotProjected", "ReadSideDep", "ReplayStepOutOfRange", "StepOutOfRange", "UnknownGameType",
    "install_projections", "not_projected", "synced",
]
