"""Heirloom's WebSocket move path against boardgame.io 0.50, 16 concurrent matches, side by side.

    .venv/bin/python ops/bench/ws_vs_boardgameio.py [--rounds 5] [--seconds 4] [--matches 16]
        [--driver auto|drive|load] [--workers 1] [--peer-floor 2000] [--peer-within 0.75]

boardgame.io is installed with npm into a folder outside the repository (default
``$TMPDIR/heirloom-bench-boardgameio``; never committed): ``npm install boardgame.io@0.50``.
Its side: the in-memory server (`boardgameio/server.js`, run with ``NODE_ENV=production`` as
its users deploy it: no per-move development logging) with a trivial two-player game
(`boardgameio/game.js`: add 1 or 2 to a counter, validated, run on the server only), driven
by its own `Client` with the SocketIO transport over websocket only. Two drivers exist:
`drive.js` (matches created over HTTP with a keep-alive node:http agent, a move counts when
both seats' states carry the new ``_stateID``) and the older `load.js` (waits for the mover,
then the other seat); ``--driver auto`` measures both alone, interleaved, and keeps the faster.

Sanity check before any ratio: the peer is first measured ALONE (`--solo-rounds`, Heirloom's
server idle), and in the side-by-side rounds its median must reach ``--peer-floor`` moves/s
or ``--peer-within`` of its own solo best; otherwise the ratio is not printed (a baseline
measured slow makes every ratio a lie) and the exit status is 3.

Heirloom's side: `heirloom serve [--workers N]` (N processes sharing one port count as one
server) on a redis-server of our own with AOF ``appendfsync everysec``, the equivalent test
game `api_count`, every move fully validated (token, turn, rules, expected version, hash
chain, one append) over /games/{id}/ws, driven by ops/bench/loadgen.py. Each side has its
own server process(es) and load-generator process; rounds alternate which goes first.
A move is timed from sending it to its answer reaching the mover. Target (issue 29):
Heirloom >= 1.0x boardgame.io's moves per second. The load average is printed with every figure.

What each side guarantees per move: boardgame.io keeps the match in the server's memory
(lost when it stops; no durability, no audit chain, no optimistic concurrency beyond its
turn check); Heirloom has the move in Redis' AOF (written before the answer, fsynced within
a second), checked against the expected version, chained into the audit hash, idempotent
under a retried key, and projected to the read side off the request path.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.append(str(HERE))

from common import fmt, free_port, load_average, own_redis, verdict  # noqa: E402
from http_moves import load, servers, stop  # noqa: E402

DRIVERS = {"drive": "drive.js", "load": "load.js"}


def boardgameio_folder(folder: Path) -> Path:
    if not (folder / "node_modules" / "boardgame.io").exists():
        folder.mkdir(parents=True, exist_ok=True)
        print(f"installing boardgame.io@0.50 into {folder} (npm) ...", flush=True)
        subprocess.run(["npm", "install", "boardgame.io@0.50", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=folder, check=True)
    return folder / "node_modules"


def node_env(modules: Path) -> dict[str, str]:
    return {**os.environ, "NODE_PATH": str(modules), "NODE_ENV": "production"}


def start_boardgameio(modules: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(["node", str(HERE / "boardgameio" / "server.js"), str(port)], env=node_env(modules),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    if "ready" not in line:
        raise RuntimeError(f"boardgame.io server did not start: {line}")
    # Keep draining its output: on Linux a write to a full pipe blocks node's event loop.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, f"http://127.0.0.1:{port}"


def load_boardgameio(modules: Path, driver: str, url: str, matches: int, seconds: float) -> dict:
    out = subprocess.run(["node", str(HERE / "boardgameio" / DRIVERS[driver]), url, str(matches), str(seconds)],
                         env=node_env(modules), capture_output=True, text=True, timeout=seconds * 10 + 120)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    row = json.loads(out.stdout.strip().splitlines()[-1])
    row["load"] = load_average()
    return row


def solo(modules: Path, url: str, args: argparse.Namespace) -> tuple[str, float]:
    """The peer alone (Heirloom idle): each driver's rounds interleaved; the faster driver and
    its best rate."""
    drivers = ["drive", "load"] if args.driver == "auto" else [args.driver]
    rates: dict[str, list[float]] = {d: [] for d in drivers}
    for r in range(args.solo_rounds):
        for driver in drivers if r % 2 == 0 else drivers[::-1]:
            rates[driver].append(load_boardgameio(modules, driver, url, args.matches, args.seconds)["per_second"])
    print(f"\n== boardgame.io alone, {args.matches} matches, {args.solo_rounds} rounds of {args.seconds:g} s "
          f"(load average {load_average()})")
    for driver, values in rates.items():
        print(f"  driver {DRIVERS[driver]:>8}: {fmt(values, ' moves/s', 0)}; best {max(values):.0f}")
    chosen = max(rates, key=lambda d: statistics.median(rates[d]))
    print(f"  kept: {DRIVERS[chosen]} (the faster median)")
    return chosen, max(rates[chosen])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--driver", choices=["auto", *DRIVERS], default="auto")
    parser.add_argument("--solo-rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="heirloom serve --workers N (one port)")
    parser.add_argument("--peer-floor", type=float, default=2000.0,
                        help="moves/s the peer must reach in the side-by-side rounds ...")
    parser.add_argument("--peer-within", type=float, default=0.75,
                        help="... or this fraction of its own solo best, for a ratio to be printed")
    parser.add_argument("--boardgameio-dir", default=str(Path(tempfile.gettempdir()) / "heirloom-bench-boardgameio"))
    args = parser.parse_args()
    if not shutil.which("node") or not shutil.which("npm"):
        print("node and npm are needed for the boardgame.io side")
        return 2
    modules = boardgameio_folder(Path(args.boardgameio_dir))
    print(f"load average at start: {load_average()} on {os.cpu_count()} CPUs")
    with own_redis(appendonly=True, fsync="everysec") as redis_url:
        processes, heirloom, _bare = servers(redis_url, workers=args.workers)
        bgio, bgio_url = start_boardgameio(modules)
        processes.append(bgio)
        try:
            load("ws-moves", heirloom, 2, 1.0)  # warm up both
            load_boardgameio(modules, "drive", bgio_url, 2, 1.0)
            driver, solo_best = solo(modules, bgio_url, args)
            rows: dict[str, list[dict]] = {"boardgame.io": [], "heirloom ws": []}
            for r in range(args.rounds):
                sides = [("boardgame.io", lambda: load_boardgameio(modules, driver, bgio_url, args.matches, args.seconds)),
                         ("heirloom ws", lambda: load("ws-moves", heirloom, args.matches, args.seconds))]
                for name, run in sides if r % 2 == 0 else sides[::-1]:
                    rows[name].append(run())
                    rows[name][-1].setdefault("load", load_average())
            print(f"\n== {args.matches} concurrent matches, {args.rounds} interleaved rounds of {args.seconds:g} s, "
                  f"heirloom serve --workers {args.workers}, peer driver {DRIVERS[driver]}")
            for name, side in rows.items():
                print(f"{name:>13}: {fmt([s['per_second'] for s in side], ' moves/s', 0)}; "
                      f"p50 {fmt([s['p50_ms'] for s in side], ' ms')}; p99 {fmt([s['p99_ms'] for s in side], ' ms')}")
            print(f"  load average after each round: {[s['load'] for s in rows['heirloom ws']]}")
            errors = [s["errors"] for side in rows.values() for s in side if s["errors"]]
            if errors:
                print(f"errors: {errors}")
            peer = statistics.median(s["per_second"] for s in rows["boardgame.io"])
            sane = peer >= args.peer_floor or peer >= args.peer_within * solo_best
            print(f"peer sanity: boardgame.io {peer:.0f} moves/s side by side; floor {args.peer_floor:.0f}, "
                  f"solo best {solo_best:.0f} (x{args.peer_within:g} = {args.peer_within * solo_best:.0f}): "
                  f"{'SANE' if sane else 'TOO SLOW'}")
            if not sane:
                print("no ratio printed: the peer ran below its own rate in this run (machine busy?); run again")
                return 3
            ratio = [h["per_second"] / b["per_second"] for h, b in zip(rows["heirloom ws"], rows["boardgame.io"])]
            print(f"moves/s heirloom/boardgame.io: {fmt(ratio, 'x')}")
            print(verdict("Heirloom WebSocket moves/s vs boardgame.io at 16 matches", statistics.median(ratio), 1.0, True))
        finally:
            for process in processes:
                stop(process)
            print(f"load average at end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
