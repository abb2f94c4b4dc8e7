"""Quotas per client (issue 30.5): creating games (POST /games, fork, import), joining, undo
and analysis requests answer 429 `rate_limited` with Retry-After beyond the quota, counted in
Redis (shared by every API process), never on moves; GET /games is paginated."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.rate_limit import parse_limits
from api.settings import ConfigurationError
from tests.support.api_client import bearer, make_app, make_settings


@pytest.fixture
def small(redis_url, key_prefix):
    """A client of an app with small quotas, and a factory of more apps on the same store."""
    def open_client(address: str = "203.0.113.7", limits: str = "create=3/60,join=2/60,undo=2/60,analysis=2/60"):
        app = make_app(make_settings(redis_url, key_prefix, rate_limits=limits))
        client = TestClient(app, client=(address, 40000))
        opened.append(client.__enter__())
        return client
    opened: list[TestClient] = []
    yield open_client
    for client in opened:
        client.__exit__(None, None, None)


def create(client, **body):
    return client.post("/games", json={"game": "api_count", "players": 2, "options": {"target": 1000}, **body})


def assert_limited(response, what: str):
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["error"] == "rate_limited" and what in body["detail"] and "retry in" in body["detail"]
    assert int(response.headers["retry-after"]) >= 1


def test_creating_games_forks_and_imports_share_one_quota_and_moves_are_never_counted(small):
    client = small()
    first = create(client)
    assert first.status_code == 201
    game = first.json()
    assert create(client).status_code == 201
    fork = client.post(f"/games/{game['id']}/fork", json={"step": 0}, headers=bearer(game["referee_token"]))
    assert fork.status_code == 201, fork.text
    assert_limited(create(client), "games created")
    assert_limited(client.post(f"/games/{game['id']}/fork", json={"step": 0},
                               headers=bearer(game["referee_token"])), "games created")
    assert_limited(client.post("/games/import", json={"format": "x"}), "games created")
    # a running game's moves go on, far past any quota
    tokens = [seat["token"] for seat in game["seats"]]
    for number in range(12):
        played = client.post(f"/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                             headers=bearer(tokens[number % 2]))
        assert played.status_code == 201, played.text


def test_the_quota_is_per_address_and_shared_by_every_process(small):
    one, same_address_other_process = small("198.51.100.1"), small("198.51.100.1")
    assert create(one).status_code == 201
    assert create(same_address_other_process).status_code == 201
    assert create(one).status_code == 201
    assert_limited(create(same_address_other_process), "games created")  # 3 of 3 used across both apps
    assert create(small("198.51.100.2")).status_code == 201  # another address has its own


def test_joining_is_limited_per_address(small):
    client = small()
    game = create(client, seating="invite", players=2).json()
    codes = [invite["invite"] for invite in game["invites"]]
    assert client.post(f"/games/{game['id']}/join", json={"invite": codes[0], "name": "ann"}).status_code == 201
    assert client.post(f"/games/{game['id']}/join", json={"invite": "wrong", "name": "bo"}).status_code == 403
    assert_limited(client.post(f"/games/{game['id']}/join", json={"invite": codes[1], "name": "bo"}), "seats joined")


def test_undo_requests_are_limited_per_address_and_token(small):
    client = small()
    game = create(client).json()
    tokens = [seat["token"] for seat in game["seats"]]
    for number in range(4):
        client.post(f"/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                    headers=bearer(tokens[number % 2])).raise_for_status()
    asked = [client.post(f"/games/{game['id']}/undo", json={"to_move": 4}, headers=bearer(tokens[0]))
             for _ in range(3)]
    assert [a.status_code for a in asked[:2]] != [429, 429]
    assert_limited(asked[2], "undo requests")
    other_seat = client.post(f"/games/{game['id']}/undo", json={"to_move": 4}, headers=bearer(tokens[1]))
    assert other_seat.status_code != 429, other_seat.text  # the other seat of this hot-seat table has its own


def test_analysis_requests_are_limited(small):
    client = small()
    game = client.post("/games", json={"game": "api_count", "players": 2, "options": {"target": 2}}).json()
    token = game["seats"][0]["token"]
    client.post(f"/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 2}},
                headers=bearer(token)).raise_for_status()  # finished: open to analysis
    for _ in range(2):
        assert client.post(f"/games/{game['id']}/analysis", headers=bearer(token)).status_code == 202
    assert_limited(client.post(f"/games/{game['id']}/analysis", headers=bearer(token)), "analysis requests")


def test_quotas_off_and_wrong_settings():
    assert parse_limits("off") is None
    assert parse_limits("create=5/10")["create"].burst == 5
    assert parse_limits("")["create"].burst >= 60  # a person never meets the default
    for wrong in ("create=5", "creat=5/10", "create=0/10", "create=five/10"):
        with pytest.raises(ConfigurationError):
            parse_limits(wrong)


def test_the_429_is_documented_with_retry_after(client):
    spec = client.get("/openapi.json").json()
    for path, method in (("/games", "post"), ("/games/{game_id}/fork", "post"), ("/games/import", "post"),
                         ("/games/{game_id}/join", "post"), ("/games/{game_id}/undo", "post"),
                         ("/games/{game_id}/analysis", "post")):
        answer = spec["paths"][path][method]["responses"]["429"]
        assert answer["headers"]["Retry-After"]["required"] is True
    assert "429" not in spec["paths"]["/games/{game_id}/moves"]["post"]["responses"]


# ---------------------------------------------------------------- GET /games pages


def test_get_games_is_paginated_with_a_cursor(client):
    created = [create(client).json()["id"] for _ in range(5)]
    seen, url, pages = [], "/games?limit=2", 0
    while url:
        page = client.get(url)
        assert page.status_code == 200 and isinstance(page.json(), list) and len(page.json()) <= 2
        seen += [game["id"] for game in page.json()]
        pages += 1
        link = page.headers.get("link")
        if link:
            assert link.endswith('>; rel="next"') and page.headers["x-next-cursor"] in link
            url = link[1:link.index(">")]
        else:
            url = None
    assert seen == created and pages == 3
    assert len(client.get("/games").json()) == 5 and "link" not in client.get("/games").headers
    assert client.get("/games", params={"limit": 501}).status_code == 422
    assert client.get("/games", params={"limit": 0}).status_code == 422
    wrong = client.get("/games", params={"cursor": "no-such-game"})
    assert wrong.status_code == 422 and "cursor" in wrong.json()["detail"]
    filtered = client.get("/games", params={"status": "active", "limit": 4, "cursor": created[0]})
    assert [g["id"] for g in filtered.json()] == created[1:]


def test_the_analysis_queue_is_bounded_per_client(redis_url, key_prefix, monkeypatch):
    """One client may have 3 analyses queued or running; a 4th is 429 analysis_queue_full until one
    is done (no worker runs here, so they stay queued). Asking again for one already queued counts
    nothing, and another client is not held back."""
    monkeypatch.setenv("HEIRLOOM_WORKER", "off")
    app = make_app(make_settings(redis_url, key_prefix))
    with TestClient(app, client=("192.0.2.10", 1)) as client, TestClient(app, client=("192.0.2.11", 1)) as other:
        games = []
        for _ in range(5):
            game = client.post("/games", json={"game": "api_count", "players": 2, "options": {"target": 2}}).json()
            client.post(f"/games/{game['id']}/moves", json={"move": {"type": "add", "amount": 2}},
                        headers=bearer(game["seats"][0]["token"])).raise_for_status()
            games.append(game["id"])
        for game_id in games[:3]:
            assert client.post(f"/games/{game_id}/analysis").json()["status"] == "queued"
        assert client.post(f"/games/{games[0]}/analysis").status_code == 202  # the same one again
        full = client.post(f"/games/{games[3]}/analysis")
        assert full.status_code == 429 and full.json()["error"] == "analysis_queue_full", full.text
        assert int(full.headers["retry-after"]) >= 1
        assert other.post(f"/games/{games[3]}/analysis").status_code == 202  # another client
        # one of the client's analyses is done: its slot is free again
        from projections.analysis import AnalysisStore, EVERYONE
        from projections.readside import redis_of

        store = AnalysisStore(*redis_of(app.state.service))
        store.put(games[0], EVERYONE, {**store.get(games[0], EVERYONE), "status": "done"})
        assert client.post(f"/games/{games[4]}/analysis").status_code == 202
