"""`/docs`: Swagger UI with every asset served by this server (vendored under
static/vendor/swagger-ui/, Apache-2.0), so the API page works with no internet."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

VENDOR = "/static/vendor/swagger-ui"


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui(request: Request) -> HTMLResponse:
    app = request.app
    return get_swagger_ui_html(
        openapi_url=app.openapi_url or "/openapi.json",
        title=f"{app.title} API",
        swagger_js_url=f"{VENDOR}/swagger-ui-bundle.js",
        swagger_css_url=f"{VENDOR}/swagger-ui.css",
        swagger_favicon_url=f"{VENDOR}/favicon-32x32.png",
        oauth2_redirect_url="/docs/oauth2-redirect",
    )


@router.get("/docs/oauth2-redirect", response_class=HTMLResponse)
def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()
