"""Bots at the table (issue 15.2): a bot seat moves by itself, off the request path, as
`bot:<level>`; GET /game-types lists the levels; a restarted server finds games whose bot
must act; bad bot setups are 4xx naming what is wrong."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from api.bot_runner import BotRunner
from tests.support.api_client import make_app


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_game_types_list_the_bot_levels(client):
    for row in client.get("/game-types").json():
        assert row["bot_levels"] == ["random", "easy", "normal"]


def test_a_bot_seat_moves_by_itself_and_is_recorded_as_a_bot(client):
    created = client.post("/games", json={"game": "adas_dream", "players": 2, "seed": 4,
                                          "bots": {"1": "easy"}}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/games/{game_id}").json()["bots"] == {"1": "easy"}
    for _ in range(6):                                    # the person plays; the bot answers each time
        def my_turn():
            listed = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
            return listed if listed["moves"] else None
        listed = wait_for(my_turn)
        answer = client.post(f"/games/{game_id}/moves", headers=auth,
                             json={"move": listed["moves"][0], "expected_version": listed["version"]})
        assert answer.status_code == 201, answer.text
    events = wait_for(lambda: [e for e in client.get(f"/games/{game_id}/events?limit=500").json()["events"]
                               if e["type"] == "MovePlayed" and e["seat"] == 1])
    assert {e["actor"] for e in events} == {"bot:easy"}
    people = [e for e in client.get(f"/games/{game_id}/events?limit=500").json()["events"]
              if e["type"] == "MovePlayed" and e["seat"] == 0]
    assert {e["actor"] for e in people} == {"seat:0"}
    assert client.get(f"/games/{game_id}/audit/verify").json()["ok"] is True


def test_bots_play_a_whole_game_between_them(client):
    created = client.post("/games", json={"game": "my_fathers_work", "players": 2, "seed": 9,
                                          "bots": {"0": "random", "1": "random"}}).json()
    game = wait_for(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/games/{created['id']}").json()), timeout=120)
    assert game["move_count"] > 50


def test_a_restarted_server_finds_the_games_whose_bot_must_act(settings, monkeypatch):
    monkeypatch.setenv("HEIRLOOM_BOTS", "off")
    app = make_app(settings)
    with TestClient(app) as client:
        created = client.post("/games", json={"game": "abomination", "players": 2, "seed": 5,
                                              "bots": {"0": "random", "1": "random"}}).json()
        time.sleep(0.5)
        assert client.get(f"/games/{created['id']}").json()["move_count"] == 0   # nobody plays the bots
    runner = BotRunner(app.state.service).start()                  # "restart": a runner reading from the start
    try:
        wait_for(lambda: app.state.service.game(created["id"]).last_move_no > 5)
    finally:
        runner.stop()
    assert not runner.errors


def test_bad_bot_setups_are_refused_naming_the_problem(client):
    for bots, words in (({"5": "normal"}, "seat 5"), ({"1": "grandmaster"}, "grandmaster"),
                        ({"x": "normal"}, "'x'")):
        answer = client.post("/games", json={"game": "adas_dream", "players": 2, "bots": bots})
        assert answer.status_code in (400, 422), answer.text
        assert words in answer.json()["detail"]
