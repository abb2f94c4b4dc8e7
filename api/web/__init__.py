"""Heirloom in the browser: pages, their static files and the offline API docs.

`install(app)` mounts `/static` and adds the page routes (`/`, `/ui/...`) and `/docs`.
Pages are server-rendered shells that hold nothing secret: a seat's or referee's token
lives only in the URL fragment and the tab's sessionStorage, and the page's scripts send
it as `Authorization: Bearer` to the JSON API (see ../shared/UI.md).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"


def install(app: FastAPI) -> None:
    """Serve the web app from the same origin as the API (create the app with docs_url=None)."""
    from . import docs, pages

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(docs.router)
    app.include_router(pages.router)
