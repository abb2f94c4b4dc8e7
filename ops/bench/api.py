"""p50/p99 latency of POST /games/{id}/moves against a bare FastAPI endpoint, side by side.

One process: uvicorn serves the Heirloom app (real Redis, unique key prefix, deleted at the
end) in a background thread, with one extra bare route (`POST /bench/bare`, a pydantic body
and a small JSON answer, no store). httpx sends requests over a real socket, alternating a
bare request and a move so both see the same conditions.

    .venv/bin/python ops/bench/api.py [--moves 2000] [--game api_count|dice_duel|<any game>]

`api_count` (the default) has trivial rules, so it measures the platform: auth, the cached
aggregate, the append with its version check, snapshots every 50 events. Other games play
random legal moves (the GET legal-moves before each move is not timed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis  # noqa: E402
import uvicorn  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from api.app import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from tests.support.api_server import free_port  # noqa: E402


class BareBody(BaseModel):
    move: dict
    expected_version: int | None = None


def build_app(redis_url: str, prefix: str):
    settings = Settings(redis_url=redis_url, key_prefix=prefix,
                        extra_games=("tests.support.dice_duel", "tests.support.api_count"))
    app = create_app(settings)

    @app.post("/bench/bare", status_code=201)
    def bare(body: BareBody) -> dict:
        return {"version": 1, "move_no": 1, "facts": [{"type": "Nothing"}]}

    return app


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--game", default="api_count")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--projections", choices=["inline", "external"], default="inline",
                        help="inline (the server default) runs the read side in the same process")
    args = parser.parse_args()
    os.environ["HEIRLOOM_PROJECTIONS"] = args.projections

    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    prefix = f"bench-api-{uuid.uuid4().hex[:10]}"
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(build_app(redis_url, prefix), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    chooser = random.Random(1)
    bare_times: list[float] = []
    move_times: list[float] = []
    game: dict = {}

    def new_game() -> None:
        players = 2
        body = {"game": args.game, "players": players, "seed": chooser.randrange(10 ** 9)}
        if args.game == "api_count":
            body["options"] = {"target": 10000}
        created = http.post("/games", json=body)
        created.raise_for_status()
        data = created.json()
        game.update(id=data["id"], auth=[{"Authorization": f"Bearer {s['token']}"} for s in data["seats"]])

    def one_move(record: bool) -> None:
        if args.game == "api_count":
            view = http.get(f"/games/{game['id']}").json() if "version" not in game else None
            version = game.get("version") or view["version"]
            seat = (version - 1) % 2
            move = {"type": "add", "amount": 1}
        else:
            view = http.get(f"/games/{game['id']}").json()
            if view["status"] == "finished":
                new_game()
                game.pop("version", None)
                view = http.get(f"/games/{game['id']}").json()
            seat = chooser.choice(view["to_act"])
            legal = http.get(f"/games/{game['id']}/legal-moves", headers=game["auth"][seat]).json()
            move, version = chooser.choice(legal["moves"]), legal["version"]
        body = {"move": move, "expected_version": version}
        start = time.perf_counter()
        bare = http.post("/bench/bare", json=body)
        middle = time.perf_counter()
        answer = http.post(f"/games/{game['id']}/moves", json=body, headers=game["auth"][seat])
        end = time.perf_counter()
        assert bare.status_code == 201 and answer.status_code == 201, answer.text
        game["version"] = answer.json()["version"]
        if answer.json()["status"] == "finished":
            new_game()
            game.pop("version", None)
        if record:
            bare_times.append(middle - start)
            move_times.append(end - middle)

    try:
        new_game()
        for index in range(args.warmup + args.moves):
            one_move(record=index >= args.warmup)
    finally:
        http.close()
        server.should_exit = True
        thread.join(timeout=10)
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.unlink(*keys)

    rows = [("bare FastAPI POST", bare_times), (f"POST /moves ({args.game})", move_times)]
    print(f"{args.moves} requests each, one process, uvicorn over 127.0.0.1, Redis {redis_url}, "
          f"projections {args.projections}")
    for label, samples in rows:
        print(f"  {label:<28} p50 {percentile(samples, 0.5) * 1000:7.3f} ms   p99 {percentile(samples, 0.99) * 1000:7.3f} ms"
              f"   mean {statistics.fmean(samples) * 1000:7.3f} ms")
    print(f"  ratio moves/bare              p50 {percentile(move_times, 0.5) / percentile(bare_times, 0.5):5.2f}x"
          f"        p99 {percentile(move_times, 0.99) / percentile(bare_times, 0.99):5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
