"""orjson-rendered JSON responses (FastAPI's own ORJSONResponse is deprecated upstream)."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response


class OrjsonResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
