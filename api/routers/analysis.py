"""POST/GET /games/{id}/analysis: engine analysis of a game (projections/analysis.py).

A finished game is analysed with everything public; a running one for what the caller may see,
and its result is shown to that caller only. While a rated game runs, the analysis is locked
(403 `analysis_locked`, TABLE-ANALYSIS-01) unless its table allows it (`Game.check_analysis`).
A client may have at most 3 analyses queued or running (429 `analysis_queue_full`,
api/analysis_bound.py) besides the quota on requests (api/rate_limit.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from api.deps import ServiceDep, TokenDep
from api.models import Analysis, AnalysisStarted, answers
from domain.app.errors import AnalysisLocked
from api.analysis_bound import AnalysisBound, per_client
from api.live_wakeup import client_address
from api.rate_limit import quota
from projections.analysis import AnalysisJobs, AnalysisStore, viewer_key
from projections.readside import redis_of

router = APIRouter(tags=["analysis"])


def jobs_of(request: Request, service) -> AnalysisJobs:
    jobs = getattr(request.app.state, "analysis", None)
    if jobs is None:
        client, prefix = redis_of(service)
        jobs = request.app.state.analysis = AnalysisJobs(service, AnalysisStore(client, prefix))
    return jobs


def bound_of(request: Request, jobs: AnalysisJobs) -> AnalysisBound:
    bound = getattr(request.app.state, "analysis_bound", None)
    if bound is None:
        bound = request.app.state.analysis_bound = AnalysisBound(jobs.store.client, jobs.store.prefix, jobs.store,
                                                                 per_client())
    return bound


def _caller_position(service, game_id: str, token: str | None, starting: bool = True):
    """The caller's viewer and the game's version; starting an analysis of a running game is
    refused where the table locks it (403 analysis_locked); reading says so (`locked`)."""
    game = service.game(game_id)
    viewer = game.caller_for(token).viewer(game.finished)  # a foreign token is 401 before anything else
    locked = None
    try:
        game.check_analysis()
    except AnalysisLocked as refusal:
        if starting:
            raise
        locked = refusal.detail
    return viewer, game.version, locked


@router.post("/games/{game_id}/analysis", status_code=202, response_model=None,
             dependencies=[Depends(quota("analysis"))],
             responses=answers(AnalysisStarted, 401, 403, 404, 422, 429, status=202))
def start_analysis(game_id: str, request: Request, service: ServiceDep, token: TokenDep):
    """Start the engine analysis (202 {"status": "queued"|"running"|"done"}); GET shows it."""
    viewer, version, _ = _caller_position(service, game_id, token)
    jobs = jobs_of(request, service)
    known = jobs.current(game_id, viewer, version)
    if known is None or known["status"] == "failed":  # a new job: counted for this client (429 beyond)
        bound_of(request, jobs).admit(client_address(request.scope), game_id, viewer_key(viewer))
    record = jobs.request(game_id, viewer, version)
    return JSONResponse({"status": record["status"], "progress": record.get("progress", 0.0)}, status_code=202)


@router.get("/games/{game_id}/analysis", response_model=None, responses=answers(Analysis, 401, 404, 422))
def get_analysis(game_id: str, request: Request, service: ServiceDep, token: TokenDep) -> dict:
    """Progress, then per step each seat's win probability and expected score, and the mistakes."""
    viewer, version, locked = _caller_position(service, game_id, token, starting=False)
    answer = jobs_of(request, service).status(game_id, viewer, version)
    if locked is not None:  # what a page needs to say why there is no "analyse" button
        answer = {**answer, "locked": True, "locked_detail": locked}
    return answer
