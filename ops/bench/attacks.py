"""Issue 30's attacks repeated against a real `heirloom serve` (shared Redis, own key prefix):

    .venv/bin/python ops/bench/attacks.py [--flood-seconds 30] [--clients 16] [--streams 1000]

1. game flood: N threads creating games for S seconds from one address (default quotas);
2. idle streams: M idle SSE streams (the per-client cap raised for the bench), then /healthz
   p50/p99 over 200 requests.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.api_server import RunningServer, server_env  # noqa: E402
from tests.support.redis_fixtures import delete_prefix, new_prefix  # noqa: E402


def flood(url: str, clients: int, seconds: float) -> dict[int, int]:
    counts: dict[int, int] = {}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def run() -> None:
        with httpx.Client(timeout=30) as client:
            while time.monotonic() < deadline:
                status = client.post(f"{url}/games", json={"game": "api_count", "players": 2}).status_code
                with lock:
                    counts[status] = counts.get(status, 0) + 1
    threads = [threading.Thread(target=run) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts


def idle_streams(url: str, count: int) -> tuple[list[socket.socket], int]:
    game = httpx.post(f"{url}/games", json={"game": "api_count", "players": 2}).json()
    host, port = url.removeprefix("http://").split(":")
    sockets, opened = [], 0
    for _ in range(count):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /games/{game['id']}/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sockets.append(sock)
    for sock in sockets:
        sock.settimeout(10)
        if b" 200 " in sock.recv(4096)[:20]:
            opened += 1
    return sockets, opened


def health(url: str, n: int = 200) -> tuple[float, float]:
    times = []
    with httpx.Client(timeout=30) as client:
        for _ in range(n):
            started = time.perf_counter()
            client.get(f"{url}/healthz")
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flood-seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--streams", type=int, default=1000)
    args = parser.parse_args()
    redis_url = "redis://127.0.0.1:6379/0"
    prefixes = [new_prefix(), new_prefix()]
    try:
        return attack(redis_url, prefixes, args)
    finally:
        import redis

        client = redis.Redis.from_url(redis_url)
        for prefix in prefixes:
            delete_prefix(client, prefix)
        client.close()


def attack(redis_url: str, prefixes: list[str], args: argparse.Namespace) -> int:
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefixes[0], HEIRLOOM_RATE_LIMITS="")
    with RunningServer(env) as server:
        counts = flood(server.url, args.clients, args.flood_seconds)
        print(f"game flood, {args.clients} clients x {args.flood_seconds:.0f} s, one address: {counts}")
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefixes[1],
                     HEIRLOOM_MAX_STREAMS_PER_CLIENT=str(args.streams + 10))
    with RunningServer(env) as server:
        p50, p99 = health(server.url)
        print(f"/healthz without streams: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        sockets, opened = idle_streams(server.url, args.streams)
        time.sleep(3)
        p50, p99 = health(server.url)
        print(f"/healthz with {opened} idle SSE streams: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        for sock in sockets:
            sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
