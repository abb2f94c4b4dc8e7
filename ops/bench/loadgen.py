"""The load generator of ops/bench/http_moves.py and ops/bench/ws.py, in a process of its own.

    python ops/bench/loadgen.py http-bare|http-moves|ws-moves URL CLIENTS SECONDS

Each client is one keep-alive connection sending one request at a time (a closed loop):
`http-bare` posts the move body to the bare endpoint, `http-moves` plays moves of its own
1-player `api_count` game (created first, untimed) with `expected_version`, `ws-moves` plays
a 2-seat `api_count` match over /games/{id}/ws (two connections per match, the seat to move
sends, the answer ends the timed move). HTTP is written and parsed by hand on asyncio streams,
so the generator costs little CPU. Prints one JSON line: requests, seconds, latencies'
p50 / p99 in ms, errors.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from urllib.parse import urlsplit

MOVE = {"type": "add", "amount": 1}


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    body = await reader.readexactly(length) if length else b""
    return status, body


def request(method: str, path: str, host: str, body: bytes = b"", token: str | None = None) -> bytes:
    headers = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Content-Type: application/json",
               f"Content-Length: {len(body)}"]
    if token:
        headers.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + body


async def http_client(kind: str, url: str, until_box: list, latencies: list, errors: list) -> int:
    parts = urlsplit(url)
    host = parts.netloc
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    token = None
    version = None
    path = "/bench/bare"
    if kind == "http-moves":
        body = json.dumps({"game": "api_count", "players": 1, "options": {"target": 10000}}).encode()
        writer.write(request("POST", "/games", host, body))
        status, raw = await read_response(reader)
        created = json.loads(raw)
        token, version = created["seats"][0]["token"], created["version"]
        path = f"/games/{created['id']}/moves"
    else:
        version = 1
    await until_box[1].wait()  # every client ready: start together
    done = 0
    while time.monotonic() < until_box[0]:
        payload = json.dumps({"move": MOVE, "expected_version": version}).encode()
        started = time.perf_counter()
        writer.write(request("POST", path, host, payload, token))
        status, raw = await read_response(reader)
        latencies.append(time.perf_counter() - started)
        if status != 201:
            errors.append(status)
            break
        version = json.loads(raw)["version"] if kind == "http-moves" else version + 1
        done += 1
        if kind == "http-moves" and version > 9990:
            break
    writer.close()
    return done


async def ws_match(url: str, until_box: list, latencies: list, errors: list) -> int:
    import websockets

    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    body = json.dumps({"game": "api_count", "players": 2, "options": {"target": 10000}}).encode()
    writer.write(request("POST", "/games", parts.netloc, body))
    _, raw = await read_response(reader)
    writer.close()
    created = json.loads(raw)
    base = url.replace("http://", "ws://") + f"/games/{created['id']}/ws"
    seats = [await websockets.connect(base) for _ in range(2)]
    for seat, ws in zip(created["seats"], seats):
        await ws.send(json.dumps({"token": seat["token"]}))
    version = created["version"]
    await until_box[1].wait()
    done = 0
    turn = 0
    while time.monotonic() < until_box[0] and version < 9990:
        ws = seats[turn % 2]
        started = time.perf_counter()
        await ws.send(json.dumps({"move": MOVE, "expected_version": version}))
        while True:  # events of earlier moves may come first: the answer has "replayed"
            message = json.loads(await ws.recv())
            if "replayed" in message or "error" in message:
                break
        latencies.append(time.perf_counter() - started)
        if "error" in message:
            errors.append(message["error"])
            break
        version = message["version"]
        turn += 1
        done += 1
    for ws in seats:
        await ws.close()
    return done


async def run(kind: str, url: str, clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors: list = []
    start = asyncio.Event()
    until_box = [0.0, start]
    if kind == "ws-moves":
        tasks = [asyncio.ensure_future(ws_match(url, until_box, latencies, errors)) for _ in range(clients)]
    else:
        tasks = [asyncio.ensure_future(http_client(kind, url, until_box, latencies, errors)) for _ in range(clients)]
    await asyncio.sleep(0.5 + 0.05 * clients)  # set-up (game creation, connections) is not timed
    begun = time.monotonic()
    until_box[0] = begun + seconds
    start.set()
    counts = await asyncio.gather(*tasks)
    elapsed = time.monotonic() - begun
    latencies.sort()

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1e3 if latencies else 0.0

    return {"requests": sum(counts), "seconds": elapsed, "per_second": sum(counts) / elapsed,
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), "errors": errors[:5]}


if __name__ == "__main__":
    kind, url, clients, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    print(json.dumps(asyncio.run(run(kind, url, clients, seconds))))
