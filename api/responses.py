"""orjson-rendered JSON responses (FastAPI's own ORJSONResponse is deprecated upstream).

What orjson cannot render natively (a set, a pydantic model) goes through FastAPI's
`jsonable_encoder`, so a route may return this response directly (skipping the encoder
pass FastAPI makes over a returned dict) and still render what that pass would."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.encoders import jsonable_encoder
from starlette.responses import Response


class OrjsonResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, default=jsonable_encoder, option=orjson.OPT_NON_STR_KEYS)
