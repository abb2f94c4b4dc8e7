"""The pages of ../shared/UI.md: lobby, join, table, replay viewer, analytics.

Every page is rendered without any token: what the server writes into the HTML is public
(game types, the list of games, player names, finished-game analytics). Whatever depends
on who is looking (hands, legal moves, the board for a seat) is fetched by the page's
script from the JSON API with the token the tab holds.
"""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from api.errors import status_of
from api.projections_deps import ProjectionLagging, get_read_side, synced
from domain.engine import get_rules
from domain.app import ServiceError

from . import STATIC, TEMPLATES
from .analytics_page import analytics_context, analytics_csv, analytics_export
from .blurbs import blurb_for
from .charts import line_chart

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(TEMPLATES))

#: Pages load scripts and styles from this server only; no inline script runs.
PAGE_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _asset_version() -> str:
    """A short digest of the page assets, appended to their URLs so a new release is fetched."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.glob("*.css")) + sorted((STATIC / "js").glob("*.js")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


ASSET_VERSION = _asset_version()
#: The lobby lists this many running and this many finished games, newest first.
LISTED = 40


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("title", "Heirloom")
    response = templates.TemplateResponse(request, template, {"v": ASSET_VERSION, **context}, status_code=status)
    response.headers.update(PAGE_HEADERS)
    return response


def error_page(request: Request, error: ServiceError) -> HTMLResponse:
    return render(request, "error.html", status=status_of(error), title="Not here",
                  message=error.detail, code=error.code)


def game_types(request: Request) -> list[dict]:
    """What GET /game-types answers (with bot levels once bots exist), plus the lobby's line."""
    from api.routers.game_types import list_game_types

    types = list_game_types()
    for entry in types:
        entry["line"] = entry.get("blurb") or blurb_for(entry["name"])
    return sorted(types, key=lambda entry: entry["title"])


def live_mode(request: Request) -> str:
    """`ws` when the app serves the WebSocket of API.md, else `sse` (the event stream)."""
    paths = {getattr(route, "path", "") for route in request.app.routes}
    return "ws" if "/games/{game_id}/ws" in paths else "sse"


def _game_summary(request: Request, game_id: str) -> dict:
    """Public facts of one game for a page header: its type, title and player names."""
    service = request.app.state.service
    game = service.game(game_id)
    rules = get_rules(game.game_type)
    return {"id": str(game.id), "game": game.game_type, "title": rules.meta.title, "names": list(game.names),
            "players": game.players, "status": game.status, "cooperative": rules.meta.cooperative}


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    games = await run_in_threadpool(request.app.state.projections.list_games)
    titles = {entry["name"]: entry["title"] for entry in game_types(request)}
    newest = lambda g: g.get("created_at", "")  # noqa: E731
    running = sorted((g for g in games if g["status"] == "active"), key=newest, reverse=True)
    finished = sorted((g for g in games if g["status"] != "active"), key=newest, reverse=True)
    return render(request, "lobby.html", title="Heirloom", types=game_types(request), titles=titles,
                  running=running[:LISTED], finished=finished[:LISTED],
                  more_running=max(0, len(running) - LISTED), more_finished=max(0, len(finished) - LISTED))


@router.get("/ui/join/{game_id}", response_class=HTMLResponse)
async def join(request: Request, game_id: str) -> HTMLResponse:
    try:
        game = await run_in_threadpool(_game_summary, request, game_id)
    except ServiceError as error:
        return error_page(request, error)
    return render(request, "join.html", title=f"Join {game['title']}", game=game)


@router.get("/ui/games/{game_id}", response_class=HTMLResponse)
async def table(request: Request, game_id: str) -> HTMLResponse:
    try:
        game = await run_in_threadpool(_game_summary, request, game_id)
    except ServiceError as error:
        return error_page(request, error)
    return render(request, "table.html", title=f"{game['title']} — table", game=game, live=live_mode(request))


@router.get("/ui/games/{game_id}/replay", response_class=HTMLResponse)
async def replay(request: Request, game_id: str,
                 step: int | None = Query(default=None, ge=0, le=2 ** 31)) -> HTMLResponse:
    try:
        game = await run_in_threadpool(_game_summary, request, game_id)
    except ServiceError as error:
        return error_page(request, error)
    return render(request, "replay.html", title=f"{game['title']} — replay", game=game,
                  step="" if step is None else step, live=live_mode(request))


@router.get("/ui/reviews/{review_id}", response_class=HTMLResponse)
async def shared_review(request: Request, review_id: str) -> HTMLResponse:
    """A shared review: the replay viewer following the leader's step (API "Shared review")."""
    from api.routers.reviews import reviews_of

    try:
        review = await run_in_threadpool(reviews_of(request, request.app.state.service).get, review_id)
        game = await run_in_threadpool(_game_summary, request, review["game"])
    except ServiceError as error:
        return error_page(request, error)
    return render(request, "replay.html", title=f"{game['title']} — shared review", game=game,
                  step=review["step"], live=live_mode(request), review=review_id)


def score_chart(request: Request, game_id: str, step: int | None) -> str:
    """Every seat's score after setup and after each effective move (public scores)."""
    game = _game_summary(request, game_id)
    read_side = synced(get_read_side(request), ["scoreboard"])
    scores = read_side.scores(str(game["id"])) or {"history": []}
    history = scores["history"]
    series = [(name, [float(entry["scores"].get(str(seat), 0)) for entry in history])
              for seat, name in enumerate(game["names"])]
    return line_chart(series, title="Scores over the game", x_label="step (moves played)",
                      marker=step if step is not None else len(history) - 1, testid="score-chart")


@router.get("/ui/games/{game_id}/score-chart.svg")
async def score_chart_svg(request: Request, game_id: str,
                          step: int | None = Query(default=None, ge=0, le=2 ** 31)) -> Response:
    try:
        svg = await run_in_threadpool(score_chart, request, game_id, step)
    except ServiceError as error:
        return Response(error.detail, status_code=status_of(error), media_type="text/plain")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _known_type(game: str) -> Any:
    try:
        return get_rules(game)
    except KeyError:
        return None


@router.get("/ui/analytics/{game}", response_class=HTMLResponse)
async def analytics(request: Request, game: str) -> HTMLResponse:
    rules = _known_type(game)
    if rules is None:
        return render(request, "error.html", status=404, title="Not here", code="unknown_game_type",
                      message=f"There is no game type {game!r}.")
    try:
        context = await run_in_threadpool(analytics_context, request, rules)
    except ProjectionLagging as error:
        return error_page(request, error)
    return render(request, "analytics.html", title=f"{rules.meta.title} — analytics", **context)


@router.get("/ui/lab/{game}", response_class=HTMLResponse)
async def lab(request: Request, game: str) -> HTMLResponse:
    """The lab (issue 27.6): start a simulation, watch it, read the report, download Parquet."""
    rules = _known_type(game)
    if rules is None:
        return render(request, "error.html", status=404, title="Not here", code="unknown_game_type",
                      message=f"There is no game type {game!r}.")
    from domain.bots import LEVELS

    return render(request, "lab.html", title=f"{rules.meta.title} — the lab", rules=rules.meta,
                  levels=list(LEVELS))


@router.get("/ui/analytics/{game}/export.csv")
async def analytics_export_csv(request: Request, game: str) -> Response:
    rules = _known_type(game)
    if rules is None:
        return Response(f"unknown game type {game!r}\n", status_code=404, media_type="text/plain")
    text = await run_in_threadpool(analytics_csv, request, rules)
    return Response(text, media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{rules.meta.name}-analytics.csv"'})


@router.get("/ui/analytics/{game}/export.json")
async def analytics_export_json(request: Request, game: str) -> Response:
    rules = _known_type(game)
    if rules is None:
        return Response(f"unknown game type {game!r}\n", status_code=404, media_type="text/plain")
    import orjson

    body = await run_in_threadpool(analytics_export, request, rules)
    return Response(orjson.dumps(body, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS),
                    media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{rules.meta.name}-analytics.json"'})
