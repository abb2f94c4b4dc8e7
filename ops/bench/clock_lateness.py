"""How late a timeout fires (issue 28): a real `heirloom serve` (its built-in worker's ClockKeeper)
on the real Redis, N games with a short per-move clock started at once; for each, the time between
the seat's deadline and the recorded `ClockExpired` (its `recorded_at`). Prints p50/p90/max and the
machine's load average. Run: PYTHONPATH=. python ops/bench/clock_lateness.py [games] [per_move_s]"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime

import httpx
import redis

from domain.eventstore.admin import delete_prefix
from tests.support.api_server import RunningServer, server_env
from tests.support.redis_fixtures import find_redis_url, new_prefix


def main(games: int = 30, per_move_s: float = 3.0) -> None:
    url, prefix = find_redis_url(), new_prefix()
    try:
        with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as server, \
                httpx.Client(base_url=server.url, timeout=30) as http:
            ids = []
            for _ in range(games):
                created = http.post("/games", json={"game": "api_count", "players": 2, "options": {"target": 1000},
                                                    "clock": {"per_move_s": per_move_s}, "on_timeout": "forfeit"}).json()
                ids.append(created["id"])
            time.sleep(per_move_s + 3)
            late = []
            for game_id in ids:
                for event in http.get(f"/games/{game_id}/events").json()["events"]:
                    if event["type"] == "ClockExpired":
                        at = datetime.fromisoformat(event["recorded_at"]).timestamp()
                        late.append(at - event["payload"]["deadline"])
            late.sort()
            pick = lambda q: late[min(len(late) - 1, int(q * len(late)))] * 1000  # noqa: E731
            print(f"{len(late)}/{games} timeouts; lateness ms p50 {pick(.5):.0f} p90 {pick(.9):.0f} "
                  f"max {late[-1] * 1000:.0f}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        client = redis.Redis.from_url(url)
        delete_prefix(client, prefix)
        client.close()


if __name__ == "__main__":
    main(*(int(sys.argv[1]),) if len(sys.argv) > 1 else (), *(float(sys.argv[2]),) if len(sys.argv) > 2 else ())
