"""`/docs`: Swagger UI with every asset served by this server (vendored under
static/vendor/swagger-ui/, Apache-2.0), so the API page works with no internet."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

VENDOR = "/static/vendor/swagger-ui"


INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


def docs_policy(page: bytes) -> str:
    """The page's Content-Security-Policy: its own assets, and its inline scripts (the Swagger UI
    set-up FastAPI writes into the page) allowed by their SHA-256 only."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
                      for script in INLINE_SCRIPT.findall(page))
    return (f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'")


def with_policy(response: HTMLResponse) -> HTMLResponse:
    response.headers["Content-Security-Policy"] = docs_policy(response.body)
    return response


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui(request: Request) -> HTMLResponse:
    app = request.app
    return with_policy(get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} API",
        swagger_js_url=f"{VENDOR}/swagger-ui-bundle.js",
        swagger_css_url=f"{VENDOR}/swagger-ui.css",
        swagger_favicon_url=f"{VENDOR}/favicon-32x32.png",
        oauth2_redirect_url="/docs/oauth2-redirect",
        swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from swagger.io
    ))


@router.get("/docs/oauth2-redirect", response_class=HTMLResponse)
def swagger_ui_redirect() -> HTMLResponse:
    return with_policy(get_swagger_ui_oauth2_redirect_html())
