"""The minor findings of the adversarial review (issue 30.8), each one as an attack that must
now fail: headers, WebSocket Origin and frame size, bot tokens, Heredity campaign keys.

(The invitation answer is in test_invites.py; WebSockets that are let in, the frame cap and the
log masking, on a real socket, are in test_hardening_server.py.)
"""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.support.api_client import bearer


def create(client, **body):
    response = client.post("/games", json={"game": "api_count", "players": 2, **body})
    assert response.status_code == 201, response.text
    return response.json()


# ---------------------------------------------------------------- headers


def test_every_answer_says_nosniff_and_a_policy(client):
    """nosniff on every answer; a policy that runs nothing on JSON (200, 404, 405, 413, 422)."""
    game = create(client)
    answers = [client.get("/healthz"), client.get(f"/games/{game['id']}"), client.get("/games/nope"),
               client.delete("/games"), client.post("/games", json={"game": 5}),
               client.post("/games", content=b"x" * (2 * 1024 * 1024), headers={"content-type": "application/json"}),
               client.get("/openapi.json")]
    assert [a.status_code for a in answers] == [200, 200, 404, 405, 422, 413, 200]
    for answer in answers:
        assert answer.headers["x-content-type-options"] == "nosniff", answer.request.url
        assert answer.headers["content-security-policy"].startswith("default-src 'none'"), answer.request.url


def test_pictures_pages_and_docs_have_their_own_policy(client):
    game = create(client)
    picture = client.get(f"/games/{game['id']}/board.svg")
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.headers["x-content-type-options"] == "nosniff"
    svg_policy = picture.headers["content-security-policy"]
    assert "default-src 'none'" in svg_policy and "script-src" not in svg_policy  # no script runs in a picture

    lobby = client.get("/")
    assert lobby.status_code == 200 and "script-src 'self'" in lobby.headers["content-security-policy"]
    assert "unsafe-eval" not in lobby.headers["content-security-policy"]

    docs = client.get("/docs")
    policy = docs.headers["content-security-policy"]
    assert docs.headers["x-content-type-options"] == "nosniff"
    # the one inline script (Swagger UI's set-up) is allowed by its hash, nothing else inline
    assert "'sha256-" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    static = client.get("/static/js/api.js")
    assert static.status_code == 200 and static.headers["x-content-type-options"] == "nosniff"


# ---------------------------------------------------------------- WebSocket Origin and frames


def test_a_websocket_from_another_sites_page_is_refused(client):
    game = create(client)
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(f"/games/{game['id']}/ws", headers={"origin": "https://evil.example"}):
            pass
    assert refused.value.code == 1008


# ---------------------------------------------------------------- bot seats


def test_the_creator_gets_no_token_of_a_bot_seat(client):
    created = create(client, bots={"1": "random"})
    seats = {seat["seat"]: seat for seat in created["seats"]}
    assert seats[1]["token"] is None and seats[1]["bot"] == "random"
    assert seats[0]["token"] and seats[0]["bot"] is None
    # nothing the creator holds acts as seat 1
    for token in (seats[0]["token"], created["referee_token"]):
        view = client.get(f"/games/{created['id']}", headers=bearer(token)).json()
        assert view.get("seat") != 1


# ---------------------------------------------------------------- Heredity campaign


@pytest.mark.rule("HER-CAMPAIGN-01")
def test_heredity_refuses_an_unknown_campaign_key_by_name(client):
    assert "heredity" in {kind["name"] for kind in client.get("/game-types").json()}
    response = client.post("/games", json={"game": "heredity", "players": 2,
                                           "options": {"campaign": {"chapter": 2, "karmaa": [901]}}})
    assert response.status_code == 422, response.text
    assert "karmaa" in response.json()["detail"]
    nested = client.post("/games", json={"game": "heredity", "players": 2, "options": {"campaign": {
        "inventories": {"maeve": {"materials": 1, "gold": 3}}}}})
    assert nested.status_code == 422 and "gold" in nested.json()["detail"], nested.text

