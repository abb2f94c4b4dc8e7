"""The baseline of ops/bench/http_moves.py: a bare FastAPI endpoint, no store, run by uvicorn exactly
as `heirloom serve` runs the app (same host, one process, default loop and HTTP parser).

    python ops/bench/bare_server.py PORT

`POST /bench/bare` validates the same body as POST /games/{id}/moves (a pydantic model with a
move object and an expected version) and answers a small JSON object shaped like a move's."""

from __future__ import annotations

import sys
from typing import Any

import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, Field

app = FastAPI()


class Body(BaseModel):
    move: dict[str, Any]
    expected_version: int | None = Field(default=None, strict=True, ge=0)


@app.post("/bench/bare", status_code=201)
def bare(body: Body) -> dict:
    version = (body.expected_version or 0) + 1
    return {"version": version, "move_no": version - 1, "facts": [{"type": "Added", "seat": 0, "amount": 1}],
            "status": "active", "replayed": False}


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
