"""POST /simulations, GET /simulations/{id}: many bot games played by the workers (the lab;
api/jobs/simulations.py). Nothing is played here: the request is checked, stored and queued."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from api.deps import ServiceDep
from api.jobs.queue import JobQueue
from api.jobs.simulations import MAX_GAMES, Simulations
from api.models import Answer, ErrorBody, JsonObject, WholeNumber, answers
from projections.readside import redis_of

router = APIRouter(tags=["lab"])


class CreateSimulation(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game: str = Field(min_length=1, max_length=100, examples=["adas_dream"])
    players: WholeNumber = Field(ge=1, le=16, examples=[3])
    bots: list[str] = Field(min_length=1, max_length=16, examples=[["normal", "normal", "random"]],
                            description="bot levels (GET /game-types lists `bot_levels`), at most one per seat, "
                                        "dealt round the seats and shifted by one each game")
    games: WholeNumber = Field(ge=1, le=MAX_GAMES, examples=[500], description=f"at most {MAX_GAMES:,}")
    seed: WholeNumber | None = Field(default=None, ge=0, le=2 ** 63 - 1,
                                     description="makes the simulation reproducible (game i's seed is derived from it)")


class Simulation(Answer):
    """A simulation's progress and, once games are done, its figures so far."""

    id: str
    status: str = Field(description="`queued`, `running`, `done` or `failed` (every game failed)")
    progress: float = Field(description="games done / games asked for")
    games_done: int
    games: int
    game: str
    players: int
    bots: list[str]
    games_failed: int = 0
    workers: int = Field(default=0, description="workers alive now (none: start `heirloom worker`; nothing is "
                                                "played meanwhile)")
    report: JsonObject | None = Field(default=None, description="per seat win rate and mean score, per bot "
                                                                "level win rate, mean length (finished games)")


def simulations_of(request: Request, service: Any) -> Simulations:
    simulations = getattr(request.app.state, "simulations", None)
    if simulations is None:
        simulations = request.app.state.simulations = Simulations(JobQueue(*redis_of(service)), service)
    return simulations


@router.post("/simulations", status_code=202, response_model=None,
             responses={**answers(Simulation, 413, 422, status=202),
                        429: {"model": ErrorBody, "description": "`simulations_busy`: too many simulated games "
                                                                  "are waiting; try again later"}})
def create_simulation(body: CreateSimulation, request: Request, service: ServiceDep):
    """Queue N games between bots for the workers (`heirloom worker`); 202 with the simulation's
    id and status. Its games are stored as ordinary unrated games tagged with the simulation
    (`Simulated`). At most 5,000 games per simulation, 20,000 waiting across simulations (429)."""
    status = simulations_of(request, service).create(body.game, body.players, body.bots, body.games, body.seed)
    return JSONResponse(status, status_code=202)


@router.get("/simulations/{simulation_id}", response_model=None, responses=answers(Simulation, 404))
def get_simulation(simulation_id: str, request: Request, service: ServiceDep) -> dict:
    """Progress (`games_done` of `games`) and the figures of the games done so far."""
    return simulations_of(request, service).status(simulation_id)
