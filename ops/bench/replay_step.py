"""Replay viewer step change: GET /replay?step=N + GET /board.svg?step=N, against GET /healthz.

A step change in the replay viewer (`/ui/games/{id}/replay`) asks the server for those two
answers. Target: p50 of the pair <= 100 ms for a 300-move game. The server is a real
`heirloom serve` in its own process on the real Redis (a unique key prefix, deleted at the
end); a game of `--moves` effective moves is played first by random legal moves over HTTP
(new games are started until one lasts that long). Then rounds are interleaved: each round
picks a random step and times /healthz (the baseline: HTTP, auth-free routing, one Redis
read), the replay step and the board picture, over the same keep-alive connection.

    .venv/bin/python ops/bench/replay_step.py [--game adas_dream] [--moves 300] [--rounds 300]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis  # noqa: E402

from domain.eventstore.admin import delete_prefix  # noqa: E402
from tests.support.api_server import RunningServer, server_env  # noqa: E402
from tests.support.redis_fixtures import find_redis_url, new_prefix  # noqa: E402


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def long_game(http: httpx.Client, game: str, players: int, moves: int, rng: random.Random) -> tuple[str, int]:
    """Play random legal moves until a game has `moves` effective moves; (id, its length)."""
    best = ("", -1)
    for attempt in range(6):
        created = http.post("/games", json={"game": game, "players": players, "seed": rng.randrange(2 ** 31)}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        played = 0
        while played < moves:
            view = http.get(f"/games/{created['id']}").json()
            if view["status"] == "finished" or not view["to_act"]:
                break
            seat = rng.choice(view["to_act"])
            listing = http.get(f"/games/{created['id']}/legal-moves", headers=auth(tokens[seat])).json()
            if not listing["moves"]:
                break
            answer = http.post(f"/games/{created['id']}/moves", json={"move": rng.choice(listing["moves"])},
                               headers=auth(tokens[seat]))
            if answer.status_code == 201:
                played += 1
        if played > best[1]:
            best = (created["id"], played)
        if played >= moves:
            break
        print(f"  game {attempt + 1} ended after {played} moves; starting another", file=sys.stderr)
    return best


def timed(http: httpx.Client, path: str) -> float:
    start = time.perf_counter()
    answer = http.get(path)
    elapsed = time.perf_counter() - start
    if answer.status_code != 200:
        raise SystemExit(f"{path} answered {answer.status_code}: {answer.text[:200]}")
    return elapsed * 1000


def describe(name: str, samples: list[float], baseline_p50: float) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    q1, q3 = ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]
    return (f"{name:<22} p50 {p50:7.2f} ms   p90 {p90:7.2f} ms   IQR {q1:6.2f}-{q3:6.2f} ms   "
            f"x{p50 / baseline_p50:6.1f} of /healthz")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="adas_dream")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    url = os.environ.get("REDIS_URL") or find_redis_url()
    prefix = new_prefix()
    try:
        with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as server:
            with httpx.Client(base_url=server.url, timeout=60) as http:
                print(f"playing a {args.moves}-move {args.game} game ...", file=sys.stderr)
                game_id, length = long_game(http, args.game, args.players, args.moves, rng)
                steps = http.get(f"/games/{game_id}/replay").json()["steps"]
                print(f"game {game_id}: {length} moves played, {steps} steps", file=sys.stderr)
                samples: dict[str, list[float]] = {"healthz": [], "replay": [], "board": [], "step change": []}
                for round_no in range(args.rounds + 20):
                    step = rng.randint(0, steps)
                    base = timed(http, "/healthz")
                    replay = timed(http, f"/games/{game_id}/replay?step={step}")
                    board = timed(http, f"/games/{game_id}/board.svg?step={step}")
                    if round_no < 20:
                        continue  # warm-up
                    samples["healthz"].append(base)
                    samples["replay"].append(replay)
                    samples["board"].append(board)
                    samples["step change"].append(replay + board)
    finally:
        client = redis.Redis.from_url(url)
        delete_prefix(client, prefix)
        client.close()
    baseline = statistics.median(samples["healthz"])
    print(f"replay step change, {args.game}, {steps} steps, {args.rounds} interleaved rounds "
          f"(client wall time over loopback, separate server process)")
    for name in ("healthz", "replay", "board", "step change"):
        print(describe(name, samples[name], baseline))
    p50 = statistics.median(samples["step change"])
    print(f"step change p50 {p50:.1f} ms (target <= 100 ms): {'ok' if p50 <= 100 else 'OVER'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
