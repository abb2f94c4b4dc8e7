"""Heirloom's WebSocket move path against boardgame.io 0.50, 16 concurrent matches, side by side.

    .venv/bin/python ops/bench/ws_vs_boardgameio.py [--rounds 5] [--seconds 4] [--matches 16]

boardgame.io is installed with npm into a folder outside the repository (default
``$TMPDIR/heirloom-bench-boardgameio``; never committed): ``npm install boardgame.io@0.50``.
Its side: the in-memory server (`boardgameio/server.js`) with a trivial two-player game
(`boardgameio/game.js`: add 1 or 2 to a counter, validated, run on the server only), driven
by its own socket.io client (`boardgameio/load.js`). Heirloom's side: `heirloom serve` on a
redis-server of our own with AOF ``appendfsync everysec``, the equivalent test game
`api_count`, every move fully validated (token, turn, rules, expected version, hash chain,
one append) over /games/{id}/ws, driven by ops/bench/loadgen.py. Each side has its own server
process and load-generator process; rounds alternate which goes first. A move is timed from
sending it to its answer reaching the mover. Target (issue 13): Heirloom >= 1.0x boardgame.io's
moves per second.

What each side guarantees per move: boardgame.io keeps the match in the server's memory
(lost when it stops; no durability, no audit chain, no optimistic concurrency beyond its
turn check); Heirloom has the move in Redis' AOF (written before the answer, fsynced within
a second), checked against the expected version, chained into the audit hash, idempotent
under a retried key, and projected to the read side off the request path.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.append(str(HERE))

from common import fmt, free_port, own_redis, verdict  # noqa: E402
from http_moves import load, servers, stop  # noqa: E402


def boardgameio_folder(folder: Path) -> Path:
    if not (folder / "node_modules" / "boardgame.io").exists():
        folder.mkdir(parents=True, exist_ok=True)
        print(f"installing boardgame.io@0.50 into {folder} (npm) ...", flush=True)
        subprocess.run(["npm", "install", "boardgame.io@0.50", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=folder, check=True)
    return folder / "node_modules"


def start_boardgameio(modules: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "NODE_PATH": str(modules)}
    process = subprocess.Popen(["node", str(HERE / "boardgameio" / "server.js"), str(port)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    if "ready" not in line:
        raise RuntimeError(f"boardgame.io server did not start: {line}")
    return process, f"http://127.0.0.1:{port}"


def load_boardgameio(modules: Path, url: str, matches: int, seconds: float) -> dict:
    import json

    env = {**os.environ, "NODE_PATH": str(modules)}
    out = subprocess.run(["node", str(HERE / "boardgameio" / "load.js"), url, str(matches), str(seconds)],
                         env=env, capture_output=True, text=True, timeout=seconds * 10 + 120)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--boardgameio-dir", default=str(Path(tempfile.gettempdir()) / "heirloom-bench-boardgameio"))
    args = parser.parse_args()
    if not shutil.which("node") or not shutil.which("npm"):
        print("node and npm are needed for the boardgame.io side")
        return 2
    modules = boardgameio_folder(Path(args.boardgameio_dir))
    with own_redis(appendonly=True, fsync="everysec") as redis_url:
        processes, heirloom, _bare = servers(redis_url)
        bgio, bgio_url = start_boardgameio(modules)
        processes.append(bgio)
        try:
            load("ws-moves", heirloom, 2, 1.0)  # warm up both
            load_boardgameio(modules, bgio_url, 2, 1.0)
            rows: dict[str, list[dict]] = {"boardgame.io": [], "heirloom ws": []}
            for r in range(args.rounds):
                sides = [("boardgame.io", lambda: load_boardgameio(modules, bgio_url, args.matches, args.seconds)),
                         ("heirloom ws", lambda: load("ws-moves", heirloom, args.matches, args.seconds))]
                for name, run in sides if r % 2 == 0 else sides[::-1]:
                    rows[name].append(run())
            print(f"\n== {args.matches} concurrent matches, {args.rounds} interleaved rounds of {args.seconds:g} s")
            for name, side in rows.items():
                print(f"{name:>13}: {fmt([s['per_second'] for s in side], ' moves/s', 0)}; "
                      f"p50 {fmt([s['p50_ms'] for s in side], ' ms')}; p99 {fmt([s['p99_ms'] for s in side], ' ms')}")
            errors = [s["errors"] for side in rows.values() for s in side if s["errors"]]
            if errors:
                print(f"errors: {errors}")
            ratio = [h["per_second"] / b["per_second"] for h, b in zip(rows["heirloom ws"], rows["boardgame.io"])]
            print(f"moves/s heirloom/boardgame.io: {fmt(ratio, 'x')}")
            print(verdict("Heirloom WebSocket moves/s vs boardgame.io at 16 matches", statistics.median(ratio), 1.0, True))
        finally:
            for process in processes:
                stop(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
