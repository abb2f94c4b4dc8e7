"""Capacity figures for ops/cluster/CAPACITY.md: moves/s per API process and per Redis master.

    .venv/bin/python ops/bench/capacity.py [--seconds 6] [--clients 16] [--rounds 2] [--no-cluster]

Each server is a real `heirloom serve [--workers N]` process; every measurement is a fresh
load generator process (ops/bench/loadgen.py `http-moves`: closed loop, one keep-alive
connection per client, each client playing its own `api_count` game with
`expected_version`). Measured, in interleaved rounds:

- **single node**: a redis-server of our own (AOF, appendfsync everysec), `--workers 1` and
  `--workers 2` (read side and bots in worker 0, as by default);
- **cluster**: a local cluster of 3 masters + 3 replicas (tests/support/redis_cluster.py,
  AOF everysec), `REDIS_CLUSTER=1`, one log partition (so every game is on one master:
  the figure is per master), every move waiting for its replica (`WAIT 1`).

For each run it also reads the CPU time the Redis (or the master holding the games) spent
(INFO cpu, user + sys) and divides by the moves: the Redis CPU per move, whose inverse is
what one single-threaded master could take if the API processes were not the limit.
Prints one JSON line per run and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT)]

import redis  # noqa: E402

from common import free_port, own_redis  # noqa: E402
from http_moves import load, start, stop  # noqa: E402

CLI = [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())"]


def redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def serve(env: dict[str, str], workers: int):
    port = free_port()
    process = start([*CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                     "--workers", str(workers)], env, f"http://127.0.0.1:{port}/healthz")
    return process, f"http://127.0.0.1:{port}"


def measure(label: str, url: str, store: redis.Redis, clients: int, seconds: float) -> dict:
    before = redis_cpu(store)
    result = load("http-moves", url, clients, seconds)
    used = redis_cpu(store) - before
    moves = max(1, result["requests"])
    row = {"run": label, "clients": clients, "moves_per_s": round(result["per_second"], 1),
           "p50_ms": round(result["p50_ms"], 2), "p99_ms": round(result["p99_ms"], 2),
           "errors": result["errors"], "redis_cpu_us_per_move": round(used / moves * 1e6, 1),
           "redis_cpu_share": round(used / seconds, 3)}
    print(json.dumps(row), flush=True)
    return row


def base_env(url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": url, "HEIRLOOM_RATE_LIMITS": "off", "REDIS_KEY_PREFIX": f"cap-{uuid.uuid4().hex[:8]}",
            "HEIRLOOM_EXTRA_GAMES": "tests.support.api_count", "HEIRLOOM_STRICT_GAMES": "0", **extra}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-cluster", action="store_true")
    args = parser.parse_args()
    rows: list[dict] = []
    print(f"load average before: {os.getloadavg()}", flush=True)
    with own_redis(appendonly=True, fsync="everysec") as url:
        store = redis.Redis.from_url(url)
        servers = {n: serve(base_env(url), n) for n in (1, 2)}
        try:
            for _, server_url in servers.values():
                load("http-moves", server_url, 2, 1.0)  # warm up
            for r in range(args.rounds):
                for n in (1, 2) if r % 2 == 0 else (2, 1):
                    rows.append(measure(f"single node, {n} worker(s)", servers[n][1], store, args.clients, args.seconds))
        finally:
            for process, _ in servers.values():
                stop(process)
            store.close()
    if not args.no_cluster:
        from tests.support.redis_cluster import start_cluster

        cluster = start_cluster()
        try:
            env = base_env(cluster.url, REDIS_CLUSTER="1", HEIRLOOM_LOG_PARTITIONS="1", REDIS_WAIT_TIMEOUT_MS="10000")
            process, server_url = serve(env, 2)
            try:
                load("http-moves", server_url, 2, 1.0)
                nodes = [node.client() for node in cluster.masters()]
                for r in range(args.rounds):
                    before = [redis_cpu(node) for node in nodes]
                    row = measure("cluster P=1 (WAIT 1), 2 workers", server_url, nodes[0], args.clients, args.seconds)
                    spent = [redis_cpu(node) - b for node, b in zip(nodes, before)]
                    busiest = max(spent)
                    row["busiest_master_cpu_us_per_move"] = round(busiest / max(1, row["moves_per_s"] * args.seconds) * 1e6, 1)
                    print(json.dumps({"masters_cpu_s": [round(s, 2) for s in spent]}), flush=True)
                    rows.append(row)
            finally:
                stop(process)
        finally:
            cluster.stop()
    print(f"load average after: {os.getloadavg()}")
    by_run: dict[str, list[dict]] = {}
    for row in rows:
        by_run.setdefault(row["run"], []).append(row)
    for run, side in by_run.items():
        cpu = [r.get("busiest_master_cpu_us_per_move", r["redis_cpu_us_per_move"]) for r in side]
        print(f"{run}: {statistics.median([r['moves_per_s'] for r in side]):.0f} moves/s, "
              f"p50 {statistics.median([r['p50_ms'] for r in side]):.1f} ms, "
              f"p99 {statistics.median([r['p99_ms'] for r in side]):.1f} ms, "
              f"Redis CPU {statistics.median(cpu):.0f} us/move "
              f"(=> {1e6 / max(1.0, statistics.median(cpu)):.0f} moves/s per master if Redis were the limit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
