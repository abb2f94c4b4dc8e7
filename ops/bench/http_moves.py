"""POST /games/{id}/moves against a bare FastAPI endpoint: throughput and p50/p99 at 1 and
16 clients, each side in its own process, side by side in one run.

    .venv/bin/python ops/bench/http_moves.py [--rounds 5] [--seconds 4] [--clients 1,16]

Processes: a redis-server of our own (AOF on, appendfsync everysec: ops/redis.conf's
production setting), `heirloom serve` on it (the read side in-process, as by default), the
bare endpoint (ops/bench/bare_server.py: same uvicorn, same body validation, no store), and
for every measurement a fresh load generator (ops/bench/loadgen.py, closed loop, one
keep-alive connection per client). Rounds alternate which side goes first. With
``--projections external`` the read side runs in a `heirloom projections run` process of its
own (the server's CPU then serves requests only; the command count includes it). Each move is a
real move of the test game `api_count` with `expected_version`: token check, rules, hash
chain, one append with its version check, an AOF write. Targets (issue 13): moves reach at
least 50% of the bare endpoint's throughput, and their p99 at most 3x its p99.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.append(str(HERE))

import httpx  # noqa: E402

from common import fmt, free_port, own_redis, verdict  # noqa: E402


def start(command: list[str], env: dict[str, str], url: str) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{command} exited: {process.stderr.read().decode()[-2000:]}")
        try:
            httpx.get(url, timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{command} did not start")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def servers(redis_url: str, projections: str = "inline", workers: int = 1) -> tuple[list[subprocess.Popen], str, str]:
    """`heirloom serve [--workers N]` (N processes on one port: one server), the bare endpoint
    and, with projections="external", a `heirloom projections run` process applying the read
    side (the server then only reads it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_url, "HEIRLOOM_RATE_LIMITS": "off",
           "REDIS_KEY_PREFIX": f"bench-{uuid.uuid4().hex[:8]}", "HEIRLOOM_EXTRA_GAMES": "tests.support.api_count",
           "HEIRLOOM_STRICT_GAMES": "0", "HEIRLOOM_PROJECTIONS": projections}
    extra: list[subprocess.Popen] = []
    if projections == "external":
        extra.append(subprocess.Popen([sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())",
                                       "projections", "run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    heirloom_port, bare_port = free_port(), free_port()
    heirloom = start([sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())", "serve",
                      "--host", "127.0.0.1", "--port", str(heirloom_port), "--log-level", "warning",
                      "--workers", str(workers)],
                     env, f"http://127.0.0.1:{heirloom_port}/healthz")
    bare = start([sys.executable, str(HERE / "bare_server.py"), str(bare_port)], env,
                 f"http://127.0.0.1:{bare_port}/docs")
    return [heirloom, bare, *extra], f"http://127.0.0.1:{heirloom_port}", f"http://127.0.0.1:{bare_port}"


def load(kind: str, url: str, clients: int, seconds: float) -> dict:
    out = subprocess.run([sys.executable, str(HERE / "loadgen.py"), kind, url, str(clients), str(seconds)],
                         cwd=ROOT, capture_output=True, text=True, timeout=seconds * 10 + 120)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def commands_per_move(redis_url: str, heirloom: str) -> None:
    """Redis commands per accepted move through the whole server, read side and bots included
    (INFO commandstats of our own Redis: it counts the commands run inside scripts too)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    time.sleep(1.0)  # the read side settles
    client.config_resetstat()
    result = load("http-moves", heirloom, 1, 3.0)
    time.sleep(1.0)
    stats = {k[len("cmdstat_"):]: v["calls"] for k, v in client.info("commandstats").items()}
    client.close()
    moves = max(1, result["requests"])
    sent = stats.get("evalsha", 0) + stats.get("xread", 0) + stats.get("sort", 0)
    total = sum(v for k, v in stats.items() if k not in ("config|resetstat", "info"))
    # The write side: one append script per move (EVALSHA, and inside it ZREVRANGE, ZADD, SET,
    # PUBLISH, INCRBY, XADD: one each; XADD is the append's alone). Everything else is the
    # read side's (its XREAD, its commit script and what that runs), snapshots included.
    appends = stats.get("xadd", 0)
    write = 2 * appends + sum(stats.get(k, 0) for k in ("zrevrange", "zadd", "publish", "incrby", "xadd"))
    by_command = ", ".join(f"{k} {v / moves:.2f}" for k, v in sorted(stats.items(), key=lambda kv: -kv[1])
                           if k not in ("config|resetstat", "info"))
    print(f"Redis commands per accepted move over HTTP (1 client, {moves} moves, read side settled): "
          f"EVALSHA {stats.get('evalsha', 0) / moves:.2f}, XREAD {stats.get('xread', 0) / moves:.2f} "
          f"(sent: {sent / moves:.2f}); with the commands inside scripts: {total / moves:.2f} "
          f"= write side {write / moves:.2f} + read side {(total - write) / moves:.2f} ({by_command})")
    print(verdict("Redis commands sent per accepted move", sent / moves, 4.0, False))
    print(verdict("read-side Redis commands per accepted move, in all", (total - write) / moves, 4.0, False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--clients", default="1,16")
    parser.add_argument("--projections", choices=["inline", "external"], default="inline",
                        help="the read side in the server process (default) or in `heirloom projections run`")
    args = parser.parse_args()
    print(f"read side: {args.projections}")
    with own_redis(appendonly=True, fsync="everysec") as redis_url:
        processes, heirloom, bare = servers(redis_url, args.projections)
        try:
            load("http-moves", heirloom, 2, 1.0)  # warm up both
            load("http-bare", bare, 2, 1.0)
            commands_per_move(redis_url, heirloom)
            for clients in [int(c) for c in args.clients.split(",")]:
                rows: dict[str, list[dict]] = {"bare": [], "moves": []}
                for r in range(args.rounds):
                    order = [("bare", "http-bare", bare), ("moves", "http-moves", heirloom)]
                    for name, kind, url in order if r % 2 == 0 else order[::-1]:
                        rows[name].append(load(kind, url, clients, args.seconds))
                errors = [row["errors"] for side in rows.values() for row in side if row["errors"]]
                ratio = [m["per_second"] / b["per_second"] for m, b in zip(rows["moves"], rows["bare"])]
                p99 = [m["p99_ms"] / b["p99_ms"] for m, b in zip(rows["moves"], rows["bare"])]
                print(f"\n== {clients} client(s), {args.rounds} interleaved rounds of {args.seconds:g} s")
                for name in ("bare", "moves"):
                    side = rows[name]
                    print(f"{name:>6}: {fmt([s['per_second'] for s in side], '/s', 0)}; "
                          f"p50 {fmt([s['p50_ms'] for s in side], ' ms')}; p99 {fmt([s['p99_ms'] for s in side], ' ms')}")
                print(f"throughput moves/bare: {fmt(ratio, 'x')}; p99 moves/bare: {fmt(p99, 'x')}")
                if errors:
                    print(f"errors: {errors}")
                print(verdict(f"throughput ratio at {clients} clients", statistics.median(ratio), 0.5, True))
                print(verdict(f"p99 ratio at {clients} clients", statistics.median(p99), 3.0, False))
        finally:
            for process in processes:
                stop(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
