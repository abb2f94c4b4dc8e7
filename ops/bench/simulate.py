"""Simulations on worker processes (issue 27.1-2): simulated games per minute with 1 and with 2
`heirloom worker` processes, side by side (the ratio is the figure), and POST /moves p50/p99
while a simulation runs vs idle.

    .venv/bin/python ops/bench/simulate.py [--rounds 2] [--games 24] [--game my_fathers_work]
                                           [--bots random] [--phase-seconds 6]

Processes: a redis-server of our own (AOF everysec, ops/redis.conf's production setting), the
workers (`heirloom worker`, each its own process), and for the moves part `heirloom serve` with
its built-in worker turned off (HEIRLOOM_WORKER=off) so the workers counted are exactly the ones
started here. Rounds alternate which worker count goes first. A worker is a process: on a machine
with C free cores, N workers can reach min(N, C) times one worker's rate; the ratio says how much
of the second worker the machine gave (the load average printed with every figure says how busy
it was with other work).

Moves part: one client plays the test game `api_count` (`expected_version`, one move at a time,
as a person's client does) in phases of `--phase-seconds`, alternating: idle (the simulation's
two workers stopped with SIGSTOP) and while the simulation runs (SIGCONT); each side's p50 and
p99 over all its phases. The workers run at their default niceness (10, `heirloom worker --nice`).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.append(str(HERE))
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from domain.games import load_all  # noqa: E402
import redis  # noqa: E402

from common import free_port, load_average, own_redis, percentile  # noqa: E402

CLI = [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())"]


def env_for(redis_url: str, prefix: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": prefix,
            "HEIRLOOM_EXTRA_GAMES": "tests.support.api_count", "HEIRLOOM_STRICT_GAMES": "0",
            "HEIRLOOM_WORKER": "off", "HEIRLOOM_BOT_DELAY": "0"}


def start_workers(count: int, env: dict[str, str]) -> list[subprocess.Popen]:
    return [subprocess.Popen(CLI + ["worker", "--log-level", "warning"], cwd=ROOT, env=env) for _ in range(count)]


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


def simulations_on(redis_url: str, prefix: str):
    from api.jobs.queue import JobQueue
    from api.jobs.simulations import Simulations

    queue = JobQueue(redis.Redis.from_url(redis_url), prefix)
    return queue, Simulations(queue)


def wait_workers(queue, count: int) -> None:
    deadline = time.monotonic() + 90
    while len(queue.live_workers()) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{count} workers did not start")
        time.sleep(0.2)


def games_per_minute(redis_url: str, workers: int, args: argparse.Namespace) -> float:
    """Start `workers` workers on a fresh key prefix, run one simulation, time it."""
    prefix = f"bench-sim-{uuid.uuid4().hex[:8]}"
    env = env_for(redis_url, prefix)
    processes = start_workers(workers, env)
    try:
        queue, simulations = simulations_on(redis_url, prefix)
        wait_workers(queue, workers)
        started = time.monotonic()
        status = simulations.create(args.game, 2, args.bots.split(","), args.games, seed=1)
        while status["status"] in ("queued", "running"):
            time.sleep(0.2)
            status = simulations.status(status["id"])
        elapsed = time.monotonic() - started
        if status["status"] != "done":
            raise RuntimeError(f"simulation ended {status['status']}: {status['failures']}")
        return args.games / elapsed * 60
    finally:
        stop(processes)


def move_latencies(url: str, moves: int, seconds: float | None = None) -> list[float]:
    """POST /moves wall times of one client playing api_count games, one move at a time
    (`moves` of them, or as many as `seconds` allow)."""
    samples: list[float] = []
    until = None if seconds is None else time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=30) as client:
        while (len(samples) < moves) if until is None else (time.monotonic() < until):
            game = client.post("/games", json={"game": "api_count", "players": 2,
                                               "options": {"target": 10000}}).json()
            tokens = [seat["token"] for seat in game["seats"]]
            version = game["version"]
            for n in range(100 if until is not None else min(100, moves - len(samples))):
                started = time.perf_counter()
                answer = client.post(f"/games/{game['id']}/moves", headers={"Authorization": f"Bearer {tokens[n % 2]}"},
                                     json={"move": {"type": "add", "amount": 1}, "expected_version": version})
                samples.append(time.perf_counter() - started)
                if answer.status_code != 201:
                    raise RuntimeError(answer.text)
                version = answer.json()["version"]
    return samples


def moves_part(redis_url: str, args: argparse.Namespace) -> None:
    prefix = f"bench-sim-{uuid.uuid4().hex[:8]}"
    env = env_for(redis_url, prefix)
    port = free_port()
    server = subprocess.Popen(CLI + ["serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
                              cwd=ROOT, env=env)
    workers = start_workers(2, env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.2)
        queue, simulations = simulations_on(redis_url, prefix)
        wait_workers(queue, 2)
        move_latencies(url, 20)                                   # warm up
        status = simulations.create(args.game, 2, args.bots.split(","), 2000, seed=2)
        samples: dict[str, list[float]] = {"idle": [], "during a simulation": []}
        loads: dict[str, list[str]] = {"idle": [], "during a simulation": []}
        for round_no in range(args.rounds * 2):
            # The simulation is paused (its workers stopped, SIGSTOP) for the idle side and runs
            # for the other; the sides alternate, so both see the same machine.
            side = ("idle", "during a simulation")[(round_no + (round_no // 2)) % 2]
            for worker in workers:
                os.kill(worker.pid, signal.SIGSTOP if side == "idle" else signal.SIGCONT)
            time.sleep(1.0)
            samples[side] += move_latencies(url, 0, args.phase_seconds)
            loads[side].append(load_average().split(",")[0])
        for worker in workers:
            os.kill(worker.pid, signal.SIGCONT)
        progress = simulations.status(status["id"])
        print(f"POST /moves, one client, phases of {args.phase_seconds:g} s, {args.rounds} phases a side, alternating:")
        for side, values in samples.items():
            print(f"  {side:<20} p50 {percentile(values, 0.5) * 1000:6.1f} ms   p99 {percentile(values, 0.99) * 1000:6.1f} ms"
                  f"   ({len(values)} moves; 1-minute load average per phase {', '.join(loads[side])})")
        idle, busy = samples["idle"], samples["during a simulation"]
        print(f"  p99 ratio (simulation / idle): {percentile(busy, 0.99) / percentile(idle, 0.99):.2f}; "
              f"p50 ratio {percentile(busy, 0.5) / percentile(idle, 0.5):.2f} "
              f"({progress['games_done']} simulated games were played meanwhile)")
    finally:
        stop(workers + [server])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--game", default="my_fathers_work")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--phase-seconds", type=float, default=6.0, help="length of one phase of the moves part")
    parser.add_argument("--skip-moves", action="store_true", help="only the games-per-minute part")
    parser.add_argument("--skip-rate", action="store_true", help="only the POST /moves part")
    args = parser.parse_args()
    load_all()
    print(f"load average before: {load_average()} ({os.cpu_count()} cores)")
    with own_redis() as redis_url:
        rates: dict[int, list[float]] = {1: [], 2: []}
        for round_no in range(0 if args.skip_rate else args.rounds):
            order = (1, 2) if round_no % 2 == 0 else (2, 1)
            for workers in order:
                rate = games_per_minute(redis_url, workers, args)
                rates[workers].append(rate)
                print(f"round {round_no + 1}: {workers} worker(s): {rate:6.1f} games/min "
                      f"({args.games} games of {args.game}, bots {args.bots}; load average {load_average()})")
        if not args.skip_rate:
            one, two = statistics.median(rates[1]), statistics.median(rates[2])
            print(f"games per minute, median of {args.rounds}: 1 worker {one:.1f}, 2 workers {two:.1f}; "
                  f"ratio 2/1 = {two / one:.2f}")
        if not args.skip_moves:
            moves_part(redis_url, args)
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
