"""Bots at the table (issue 15.2): a bot seat moves by itself, off the request path, as
`bot:<level>`; GET /game-types lists the levels; a restarted server finds games whose bot
must act; bad bot setups are 4xx naming what is wrong."""

from __future__ import annotations

import time

import pytest

from fastapi.testclient import TestClient

from api.bot_runner import BotScheduler
from api.jobs.worker import WorkerThread
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
    monkeypatch.setenv("HEIRLOOM_WORKER", "off")
    app = make_app(settings)
    with TestClient(app) as client:
        created = client.post("/games", json={"game": "abomination", "players": 2, "seed": 5,
                                              "bots": {"0": "random", "1": "random"}}).json()
        time.sleep(0.5)
        assert client.get(f"/games/{created['id']}").json()["move_count"] == 0   # nobody plays the bots
    runner = BotScheduler(app.state.service).start()   # "restart": a scheduler reading from the start
    worker = WorkerThread(app.state.service).start()   # and a worker playing what it queues
    try:
        wait_for(lambda: app.state.service.game(created["id"]).last_move_no > 5)
    finally:
        runner.stop()
        worker.stop()
    assert not runner.errors and not worker.worker.errors


def test_bad_bot_setups_are_refused_naming_the_problem(client):
    for bots, words in (({"5": "normal"}, "seat 5"), ({"1": "grandmaster"}, "grandmaster"),
                        ({"x": "normal"}, "'x'")):
        answer = client.post("/games", json={"game": "adas_dream", "players": 2, "bots": bots})
        assert answer.status_code in (400, 422), answer.text
        assert words in answer.json()["detail"]


@pytest.mark.rule("TABLE-BOT-01", "TABLE-BOT-04")
def test_heredity_bots_leave_the_teams_decisions_to_the_person(client):
    """Issue 25: two bots took every "any player may act" decision within 0.15 s. Now people go first:
    the bots wait while the person has a decision, and play (the team's decision included) once the
    person passes the step to them."""
    created = client.post("/games", json={"game": "heredity", "players": 3, "seed": 2,
                                          "bots": {"1": "random", "2": "random"}}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    service = client.app.state.service
    time.sleep(1.0)
    assert service.bots_to_act(game_id) == []
    view = client.get(f"/games/{game_id}").json()
    assert view["status"] == "active" and 0 in view["to_act"] and view["move_count"] == 0  # nobody raced
    listed = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
    assert {"type": "end_window"} in listed["moves"]
    passed = client.post(f"/games/{game_id}/pass", headers=auth)
    assert passed.status_code == 200 and passed.json()["passed"] == [0], passed.text
    assert client.get(f"/games/{game_id}").json()["passed"] in ([0], [])  # [] once a bot used the pass
    bot_moves = wait_for(lambda: [e for e in client.get(f"/games/{game_id}/events?limit=500").json()["events"]
                                  if e["type"] == "MovePlayed"], timeout=30)
    assert all(e["seat"] != 0 and e["actor"] == "bot:random" for e in bot_moves)
    wait_for(lambda: not service.bots_to_act(game_id), timeout=60)    # they stop when the pass is used up
    events = client.get(f"/games/{game_id}/events?limit=1000").json()["events"]
    assert [e["type"] for e in events].count("SeatPassed") == 1
    assert client.post(f"/games/{game_id}/pass").status_code == 401  # a spectator does not pass


@pytest.mark.rule("TABLE-BOT-02")
def test_a_bot_waits_the_pacing_delay_after_a_persons_move(client, monkeypatch):
    from api import bot_pacing

    monkeypatch.setenv("HEIRLOOM_BOT_DELAY", "0.4")
    assert bot_pacing.bot_delay_s() == 0.4
    created = client.post("/games", json={"game": "api_count", "players": 2, "seed": 1,
                                          "options": {"target": 100}, "bots": {"1": "random"}}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    answer = client.post(f"/games/{game_id}/moves", headers=auth, json={"move": {"type": "add", "amount": 1}})
    assert answer.status_code == 201
    events = wait_for(lambda: [e for e in client.get(f"/games/{game_id}/events").json()["events"]
                               if e["type"] == "MovePlayed"][1:])
    person, bot = [e for e in client.get(f"/games/{game_id}/events").json()["events"] if e["type"] == "MovePlayed"][:2]
    from datetime import datetime
    gap = (datetime.fromisoformat(bot["recorded_at"]) - datetime.fromisoformat(person["recorded_at"])).total_seconds()
    assert bot["actor"] == "bot:random" and 0.4 <= gap < 3.0, gap
    assert events
    monkeypatch.setenv("HEIRLOOM_BOT_DELAY", "nonsense")
    assert bot_pacing.bot_delay_s() == bot_pacing.DEFAULT_DELAY_S
