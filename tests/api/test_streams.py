"""Event streams (SSE) woken by the store, not polling it, and capped per client (issue 30.8),
on a real `heirloom serve` and the real Redis: an idle stream sends no command to Redis (seen
with MONITOR), a move still reaches it at once, with the read side's follower in the process
or without it (HEIRLOOM_PROJECTIONS=external), and one client holds at most N live streams."""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest
import redis
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.support.api_server import RunningServer, server_env

pytestmark = pytest.mark.slow

CAP = 3


@pytest.fixture(scope="module", params=["inline", "external"])
def server(request, redis_url):
    from tests.support.redis_fixtures import delete_prefix, new_prefix

    prefix = new_prefix()
    # No worker in this server: its job queue and clock keeper poll Redis on their own (XAUTOCLAIM,
    # ZRANGEBYSCORE), which is the workers' cost, not the streams' that this module counts.
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefix, HEIRLOOM_MAX_STREAMS_PER_CLIENT=str(CAP),
                     HEIRLOOM_WORKER="off",
                     HEIRLOOM_PROJECTIONS=request.param)
    extra = []
    if request.param == "external":  # the read side in a process of its own, as with --workers
        from tests.support.api_server import cli_command, ROOT
        import subprocess

        extra.append(subprocess.Popen(cli_command("projections", "run"), cwd=ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    with RunningServer(env) as running:
        running.prefix = prefix
        yield running
    for process in extra:
        process.terminate()
        process.wait(timeout=20)
    client = redis.Redis.from_url(redis_url)
    delete_prefix(client, prefix)
    client.close()


def new_game(server) -> dict:
    response = httpx.post(f"{server.url}/games", json={"game": "api_count", "players": 2,
                                                         "options": {"target": 1000}})
    assert response.status_code == 201, response.text
    return response.json()


def commands_on(redis_url: str, prefix: str, seconds: float) -> list[str]:
    """Every command Redis runs on keys of `prefix` for `seconds` (MONITOR)."""
    seen: list[str] = []
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + seconds
    with client.monitor() as monitor:
        connection = monitor.connection
        while time.monotonic() < deadline:
            if not connection.can_read(timeout=0.1):
                continue
            command = monitor.next_command()["command"]
            if prefix in command:
                seen.append(command)
    client.close()
    return seen


class Stream:
    """An SSE stream on a plain socket, read in a thread (closing it is a real disconnect)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=20)
        self.sock.sendall(f"GET {parts.path}?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.received = b""
        self.status: int | None = None
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.opened.wait(20)

    def _read(self) -> None:
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.received += chunk
                if self.status is None and b"\r\n" in self.received:
                    self.status = int(self.received.split(b" ", 2)[1])
                    self.opened.set()
        except OSError:
            pass
        finally:
            self.opened.set()

    @property
    def text(self) -> str:
        return self.received.decode(errors="replace")

    def wait_for(self, text: str, seconds: float) -> float:
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if text in self.text:
                return time.monotonic() - started
            time.sleep(0.01)
        raise AssertionError(f"{text!r} not received in {seconds} s: {self.text[-300:]}")

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(5)


def test_an_idle_stream_sends_nothing_to_redis_and_a_move_wakes_it(server, redis_url):
    game = new_game(server)
    stream = Stream(f"{server.url}/games/{game['id']}/stream")
    try:
        assert stream.status == 200
        stream.wait_for("event: Created", 10)
        time.sleep(0.5)  # caught up: now idle
        idle = commands_on(redis_url, server.prefix, 2.0)
        # polling 10 times a second would be ~20 reads; the followers' blocking waits may renew
        assert len(idle) <= 4, idle
        move = httpx.post(f"{server.url}/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                          headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
        assert move.status_code == 201, move.text
        assert stream.wait_for("event: MovePlayed", 5) < 5
    finally:
        stream.close()


def open_when_free(url: str, seconds: float = 10) -> Stream:
    deadline = time.monotonic() + seconds
    while True:
        stream = Stream(url)
        if stream.status == 200:
            return stream
        stream.close()
        assert time.monotonic() < deadline, "no stream slot came back"
        time.sleep(0.2)


def test_a_client_holds_at_most_the_cap_of_live_streams(server):
    game = new_game(server)
    url = f"{server.url}/games/{game['id']}/stream"
    streams = [open_when_free(url) for _ in range(CAP)]  # the earlier test's stream may still be closing
    try:
        refused = httpx.get(url, timeout=10)
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_streams"
        assert int(refused.headers["retry-after"]) >= 1
        with pytest.raises(InvalidStatus):  # a WebSocket counts as a live stream too
            connect(server.url.replace("http://", "ws://") + f"/games/{game['id']}/ws", open_timeout=10)
        streams.pop().close()  # one closed: its slot comes back
        streams.append(open_when_free(url))
    finally:
        for stream in streams:
            stream.close()
