"""A bounded load test: N client processes play real games against a real `heirloom serve`.

    .venv/bin/python ops/load/run.py                      # 16 clients, 30 s, its own server
    .venv/bin/python ops/load/run.py --clients 4 --seconds 5
    .venv/bin/python ops/load/run.py --url http://127.0.0.1:8000   # a server already running

Without ``--url`` it starts ``heirloom serve`` on a free loopback port with its embedded
Redis in a temporary data folder (``appendfsync always``, the default), and stops it at the
end. Each client is one process with one keep-alive httpx connection, in a closed loop:
it creates a game (the game types in turn), then until the time is up reads the game as
its seat to act (``GET /games/{id}``), reads that seat's legal moves and posts one of them
(seeded random choice) with ``expected_version``, and every few moves reads the replay and
the scores; a finished game is followed by a new one. Every request counts; a failure is a
transport error or any status but the expected one (no client ever races another: each plays
its own game, so even a 409 is a failure).

Prints requests, failures (with the first few), requests per second, and p50/p99 per
operation and overall; exits 1 when anything failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("adas_dream", "my_fathers_work", "abomination", "heredity")
READ_EVERY = 5


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Client:
    """One player process: plays games, records (operation, seconds, failure or None)."""

    def __init__(self, url: str, index: int, deadline: float, games: tuple[str, ...]) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        self.index = index
        self.deadline = deadline
        self.games = games
        self.random = random.Random(index)
        self.records: list[tuple[str, float, str | None]] = []

    def call(self, operation: str, method: str, path: str, expected: int, **kwargs) -> dict | None:
        started = time.perf_counter()
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            self.records.append((operation, time.perf_counter() - started, f"{operation}: {error!r}"))
            return None
        elapsed = time.perf_counter() - started
        if response.status_code != expected:
            self.records.append((operation, elapsed, f"{operation} {path}: {response.status_code} {response.text[:200]}"))
            return None
        self.records.append((operation, elapsed, None))
        return response.json()

    def new_game(self, number: int) -> tuple[str, list[str]] | None:
        game = self.games[(self.index + number) % len(self.games)]
        created = self.call("create", "POST", "/games", 201, json={
            "game": game, "players": 2, "seed": self.index * 1000 + number,
            "names": [f"load{self.index}a{number}", f"load{self.index}b{number}"]})
        if created is None:
            return None
        return created["id"], [seat["token"] for seat in created["seats"]]

    def play(self) -> None:
        number = 0
        while time.monotonic() < self.deadline:
            started = self.new_game(number)
            number += 1
            if started is None:
                return
            game_id, tokens = started
            moves = 0
            while time.monotonic() < self.deadline:
                view = self.call("game", "GET", f"/games/{game_id}", 200)
                if view is None:
                    return
                if view["status"] == "finished" or not view["to_act"]:
                    break
                seat = view["to_act"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                legal = self.call("legal-moves", "GET", f"/games/{game_id}/legal-moves", 200, headers=auth)
                if legal is None:
                    return
                if not legal["moves"]:
                    self.records.append(("legal-moves", 0.0, f"seat {seat} to act in {game_id} has no legal move"))
                    return
                move = self.random.choice(legal["moves"])
                if self.call("move", "POST", f"/games/{game_id}/moves", 201, headers=auth,
                             json={"move": move, "expected_version": legal["version"]}) is None:
                    return
                moves += 1
                if moves % READ_EVERY == 0:
                    if self.call("replay", "GET", f"/games/{game_id}/replay", 200) is None:
                        return
                    if self.call("scores", "GET", f"/games/{game_id}/scores", 200) is None:
                        return


def run_client(url: str, index: int, deadline_in: float, games: tuple[str, ...], results) -> None:
    client = Client(url, index, time.monotonic() + deadline_in, games)
    try:
        client.play()
    except Exception as error:  # noqa: BLE001 - report, never hang the parent
        client.records.append(("client", 0.0, f"client {index} crashed: {error!r}"))
    results.put(client.records)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`heirloom serve` on the loopback with its embedded Redis in a temporary folder."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="heirloom-load-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": "", "HEIRLOOM_DATA_DIR": f"{self.folder}/data",
               "HEIRLOOM_RATE_LIMITS": "off"}  # every client comes from the loopback: no quota on creating games
        self.log = open(f"{self.folder}/server.log", "w")
        self.process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())",
             "serve", "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"heirloom serve exited: {Path(self.folder, 'server.log').read_text()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("heirloom serve did not answer /healthz within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # stops its embedded Redis too
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def report(records: list[tuple[str, float, str | None]], seconds: float, clients: int, wall: float) -> int:
    failures = [failure for _, _, failure in records if failure]
    by_operation: dict[str, list[float]] = defaultdict(list)
    for operation, elapsed, failure in records:
        if failure is None:
            by_operation[operation].append(elapsed)
    every = [elapsed for _, elapsed, failure in records if failure is None]
    print(f"load: {clients} clients x {seconds:.0f} s each ({wall:.1f} s wall), {len(records)} requests, "
          f"{len(failures)} failures, {len(records) / seconds:.0f} requests/s")
    for operation in sorted(by_operation):
        samples = by_operation[operation]
        print(f"  {operation:<12} n={len(samples):<6} p50={percentile(samples, 0.50) * 1000:7.1f} ms"
              f"  p99={percentile(samples, 0.99) * 1000:7.1f} ms")
    print(f"  {'all':<12} n={len(every):<6} p50={percentile(every, 0.50) * 1000:7.1f} ms"
          f"  p99={percentile(every, 0.99) * 1000:7.1f} ms")
    for failure in failures[:10]:
        print(f"  FAILED {failure}")
    return 1 if failures or not records else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--url", help="a running server (default: start heirloom serve)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma list of game types to play in turn")
    args = parser.parse_args(argv)
    games = tuple(name.strip() for name in args.games.split(",") if name.strip())
    server = None if args.url else Server()
    url = args.url or server.url
    try:
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        started = time.monotonic()
        workers = [context.Process(target=run_client, args=(url, index, args.seconds, games, results))
                   for index in range(args.clients)]
        for worker in workers:
            worker.start()
        records = []
        for _ in workers:
            records.extend(results.get(timeout=args.seconds + 120))
        for worker in workers:
            worker.join(timeout=30)
        elapsed = time.monotonic() - started
    finally:
        if server is not None:
            server.stop()
    return report(records, args.seconds, args.clients, elapsed)


if __name__ == "__main__":
    sys.exit(main())
