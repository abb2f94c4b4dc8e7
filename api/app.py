"""The FastAPI application: `create_app(settings=None)`."""

from __future__ import annotations

import importlib
import logging

from fastapi import FastAPI
from api.responses import OrjsonResponse

from api import errors, metrics, openapi, request_log, security_headers
from api.body_limit import BodyLimitMiddleware
from api.settings import ConfigurationError, Settings
from domain.games import GAME_PACKAGES, load_all
from domain.app import GameService


log = logging.getLogger("heirloom.api")


def load_games(settings: Settings) -> list[str]:
    """Import the game packages present, plus HEIRLOOM_EXTRA_GAMES (test games)."""
    if settings.strict_games:
        loaded = load_all()
    else:
        loaded = []
        for name in GAME_PACKAGES:
            try:
                importlib.import_module(f"domain.games.{name}")
                loaded.append(name)
            except ModuleNotFoundError as error:
                if error.name != f"domain.games.{name}":
                    log.warning("game %s does not import: %s", name, error)
            except Exception as error:
                log.warning("game %s does not import: %s", name, error)
    for module in settings.extra_games:
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise ConfigurationError(f"HEIRLOOM_EXTRA_GAMES names {module!r}, which does not import ({error})") from None
        loaded.append(module)
    return loaded


def create_app(settings: Settings | None = None, service: GameService | None = None) -> FastAPI:
    """Build the app. The service (and so the store connection) is created here, once."""
    from api.routers import ROUTERS

    settings = settings or Settings.from_env()
    from api.rate_limit import check_settings

    check_settings(settings.rate_limits)  # a wrong HEIRLOOM_RATE_LIMITS stops the start, in one line
    load_games(settings)
    app = FastAPI(
        title="Heirloom",
        description="An event-sourced board-game server with an audit log.",
        version="0.1.0",
        default_response_class=OrjsonResponse,
        docs_url=None,  # /docs is served by api.web with local assets (works offline)
        redoc_url=None,
    )
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=settings.max_body_bytes)
    metrics.install(app)  # outside the body limit: a 413 is counted too
    request_log.install(app)
    app.state.settings = settings
    app.state.service = service if service is not None else GameService(env=settings.service_env())
    errors.install(app)
    openapi.install(app)
    for router in ROUTERS:
        app.include_router(router)
    from api.projections_deps import install_projections  # the read side (projections/)

    install_projections(app)
    from api.bot_runner import install_bots  # bot seats play from a background thread

    install_bots(app)
    from api.live import install_live  # new events pushed to live WebSocket connections

    install_live(app)
    from api.web import install as install_web  # pages, static files, /docs

    install_web(app)
    security_headers.install(app)  # outermost: every answer, a 500 included
    return app
