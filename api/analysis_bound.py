"""How many analyses one client may have waiting or running at once (issue 30.8).

Analysis is the most expensive thing a client can ask for (seconds of engine search per step),
and the queue (api/jobs/queue.py, worked by `heirloom worker`) serves everybody in turn: without a
bound, one anonymous client could queue every finished game and make the others wait behind
it. So each client address may have at most ``HEIRLOOM_ANALYSIS_PER_CLIENT`` (default 3)
analyses queued or running; one more is ``429 analysis_queue_full`` until one of them is done.
(An analysis already asked for, or already done, is answered as before and counts nothing.)

Kept at the API edge, beside the queue rather than in it: a sorted set per client in Redis
(``<prefix>:analysis-clients:<address>``, shared by every API process) of the analyses it
started, each dropped once its stored record says done or failed, or after `FORGET_SECONDS`.
"""

from __future__ import annotations

import os
import time
from typing import Any

import orjson
from starlette.exceptions import HTTPException

DEFAULT_PER_CLIENT = 3
#: An analysis still listed after this long (a job lost with its worker) no longer counts.
FORGET_SECONDS = 15 * 60
RETRY_SECONDS = 10


def per_client() -> int:
    raw = (os.environ.get("HEIRLOOM_ANALYSIS_PER_CLIENT") or "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_PER_CLIENT


class AnalysisBound:
    def __init__(self, client: Any, prefix: str, store: Any, limit: int) -> None:
        self.client = client
        self.prefix = prefix
        self.store = store  # projections.analysis.AnalysisStore: the job's status record
        self.limit = limit

    def key(self, address: str) -> str:
        return f"{self.prefix}:analysis-clients:{address}"

    def admit(self, address: str, game_id: str, viewer_key: str) -> None:
        """Count this analysis for `address`, or refuse it (429) when the client has `limit`
        others unfinished."""
        key, member, now = self.key(address), f"{game_id}|{viewer_key}", time.time()
        self.client.zremrangebyscore(key, "-inf", now - FORGET_SECONDS)
        unfinished = []
        for listed in self.client.zrange(key, 0, -1):
            listed = listed.decode() if isinstance(listed, bytes) else listed
            if listed == member:
                continue
            record = self._record(*listed.split("|", 1))
            if record is not None and record.get("status") in ("queued", "running"):
                unfinished.append(listed)
            else:
                self.client.zrem(key, listed)
        if len(unfinished) >= self.limit:
            raise HTTPException(status_code=429, headers={"Retry-After": str(RETRY_SECONDS)}, detail={
                "error": "analysis_queue_full",
                "detail": f"this client has {len(unfinished)} analyses queued or running (at most {self.limit}); "
                          f"retry in {RETRY_SECONDS} s or once one of them is done"})
        self.client.zadd(key, {member: now})
        self.client.expire(key, FORGET_SECONDS)

    def _record(self, game_id: str, viewer_key: str) -> dict | None:
        """The job's status record, as projections/analysis.py `AnalysisStore` keeps it."""
        raw = self.client.get(f"{self.store.prefix}:analysis:{{{game_id}}}:{viewer_key}")
        return orjson.loads(raw) if raw else None
