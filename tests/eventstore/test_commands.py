"""Redis commands per accepted move, counted on a redis-server of our own (so every count is
ours): at most 3 round trips on the request path of a move, none for the read side, and at
most 4 commands per move in all once the read side has settled (issue 13.1).

Counted two ways: `MONITOR` separates the commands clients send (a script call is one) from
those scripts run inside Redis; `INFO commandstats` counts both, and is printed too.
"""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest
import redis

from tests.support import api_count  # noqa: F401 - registers the test game

MOVES = 60


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def own_url(tmp_path: Path):
    port = free_port()
    process = subprocess.Popen(["/usr/bin/redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
                                "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(500):
        try:
            client.ping()
            break
        except redis.RedisError:
            time.sleep(0.01)
    yield url
    client.close()
    process.terminate()
    process.wait(timeout=20)


class Monitor:
    """Every command the server runs, while active: (sent by a client, name)."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.commands: list[tuple[bool, str]] = []
        self.active = False
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(5)

    def _run(self) -> None:
        with self.client.monitor() as monitor:
            self._ready.set()
            for entry in monitor.listen():
                if entry["command"].startswith("QUIT"):
                    return
                if self.active:
                    by_client = entry.get("client_type") != "lua"
                    self.commands.append((by_client, entry["command"].split(" ", 1)[0].upper()))

    def stop(self) -> None:
        self.active = False
        self.client.execute_command("QUIT")  # ends listen() (seen by the monitor itself)


def sent(commands: list[tuple[bool, str]]) -> list[str]:
    return [name for by_client, name in commands if by_client and name not in ("CONFIG", "INFO", "QUIT")]


def test_an_accepted_move_costs_one_round_trip_and_at_most_four_commands_in_all(own_url: str) -> None:
    from domain.app import GameService
    from projections.readside import ReadSide

    env = {"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": own_url, "REDIS_KEY_PREFIX": "count"}
    service = GameService(env=env)
    read_side = ReadSide(service)
    client = redis.Redis.from_url(own_url)
    monitor = Monitor(own_url)
    try:
        created = service.create_game("api_count", 2, options={"target": 1000})
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        version = created["version"]

        def move(n: int) -> None:
            nonlocal version
            version = service.play(game_id, tokens[n % 2], {"type": "add", "amount": 1}, expected_version=version)["version"]

        for n in range(2):  # warm up: the scripts get loaded into this fresh server
            move(n)
        time.sleep(0.3)  # MONITOR lines arrive asynchronously: the warm-up's are not counted
        # 1. The request path alone (the read side is not running): one EVALSHA per move,
        #    the snapshot every 50 versions inside it.
        monitor.active = True
        for n in range(2, 2 + MOVES):
            move(n)
        time.sleep(0.3)  # MONITOR lines arrive asynchronously
        monitor.active = False
        request_path = sent(monitor.commands)
        monitor.commands.clear()

        # 2. Everything, the read side included, settled after every move.
        read_side.start()
        read_side.sync()
        base = service.recorder.max_notification_id()
        time.sleep(0.3)  # the follower settles into its wait on the log
        client.config_resetstat()
        monitor.active = True
        for i, n in enumerate(range(2 + MOVES, 2 + 2 * MOVES)):
            move(n)
            read_side.runner.wait(base + i + 1, timeout=10)  # settled (in memory: no command)
            time.sleep(0.05)  # the follower back in its wait: the next move is counted alone
        time.sleep(0.3)
        monitor.stop()
        stats = client.info("commandstats")
    finally:
        read_side.stop()
        service.close()
        client.close()
    in_all = sent(monitor.commands)
    inside = [name for by_client, name in monitor.commands if not by_client]
    total_stats = sum(v["calls"] for k, v in stats.items() if k not in ("cmdstat_config|resetstat", "cmdstat_info"))
    print(f"\nrequest path: {len(request_path) / MOVES:.2f} commands per move ({', '.join(sorted(set(request_path)))}); "
          f"in all, settled: {len(in_all) / MOVES:.2f} sent ({', '.join(sorted(set(in_all)))}), "
          f"{len(inside) / MOVES:.2f} more run inside scripts; INFO commandstats (both): {total_stats / MOVES:.2f}")
    assert request_path == ["EVALSHA"] * MOVES  # one round trip per move, none for the read side
    assert len(in_all) / MOVES <= 4.0, in_all[:40]
