"""Redis commands per accepted move, counted on a redis-server of our own (so every count is
ours): one round trip on the request path of a move, none for the read side; once the read
side has settled, few commands sent per move; and the read side's commands in all (those
its scripts run inside Redis included) stay at most 4 per move when it applies pages of
several moves, because a page writes each key of a game once (issue 29.4).

Counted two ways: `MONITOR` separates the commands clients send (a script call is one) from
those scripts run inside Redis (listed right after their call); `INFO commandstats` counts
both, and is printed too.
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
        self.lines: list[tuple[bool, str]] = []  # (sent by a client, the whole command line)
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
                    self.lines.append((by_client, entry["command"]))

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
    # Settled after every move: the append, the follower's XREAD and its commit; the page is
    # not read back (the follower takes the events this process saved: projections/runner.py),
    # save for the odd page the follower starts before the save's hand-over (a loaded machine).
    assert len(in_all) / MOVES <= 3.5, in_all[:40]


def write_and_read_side(lines: list[tuple[bool, str]], append_shas: set[str]) -> tuple[int, int]:
    """(commands of the appends, commands of everything else) among `lines`: a command run
    inside a script belongs to the script call before it (Redis runs one thing at a time)."""
    write = read = 0
    in_append = False
    for by_client, line in lines:
        words = line.replace('"', "").split(" ")
        if by_client:
            if words[0].upper() in ("CONFIG", "INFO", "QUIT"):
                continue
            in_append = words[0].upper() == "EVALSHA" and words[1] in append_shas
        if in_append:
            write += 1
        else:
            read += 1
    return write, read


BURST = 5


def test_the_read_side_writes_a_page_of_moves_in_at_most_four_commands_a_move(own_url: str) -> None:
    from domain.app import GameService
    from domain.eventstore.scripts import APPEND, APPEND_ONE
    from projections.readside import ReadSide

    env = {"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": own_url, "REDIS_KEY_PREFIX": "pages"}
    service = GameService(env=env)
    read_side = ReadSide(service)
    read_side.runner.linger = 2.0  # each page waits for the whole burst (the poke below ends the wait)
    monitor = Monitor(own_url)
    try:
        read_side.start()
        created = service.create_game("api_count", 2, options={"target": 1000})
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        version = created["version"]
        read_side.runner.wait_current(timeout=10)
        time.sleep(0.3)
        monitor.active = True
        played = 0
        for _ in range(MOVES // BURST):
            for _ in range(BURST):
                version = service.play(game_id, tokens[played % 2], {"type": "add", "amount": 1},
                                       expected_version=version)["version"]
                played += 1
            read_side.runner.wait(service.recorder.max_notification_id(), timeout=10)
            time.sleep(0.05)
        time.sleep(0.3)
        monitor.stop()
    finally:
        read_side.stop()
        service.close()
    write, read = write_and_read_side(monitor.lines, {APPEND.sha, APPEND_ONE.sha})
    print(f"\npages of {BURST} moves: write side {write / played:.2f} commands per move (the append and what it "
          f"runs), read side {read / played:.2f} in all (sent and run inside its scripts)")
    assert 6 <= write / played <= 8  # the append script: EVALSHA, ZREVRANGE, ZADD, SET, PUBLISH, INCRBY, XADD
    assert read / played <= 4.0, [line[:100] for _, line in monitor.lines[:60]]
