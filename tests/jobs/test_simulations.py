"""Simulations over HTTP (API.md "The lab"), played by the app's built-in worker (a thread here;
a child process under `heirloom serve`, tests/jobs/test_worker_processes.py): exactly the games
asked for, stored as ordinary unrated games tagged with the simulation; bad requests are 422s
in plain sentences and store nothing."""

from __future__ import annotations

import time

import pytest

from api.jobs.simulations import MAX_GAMES, game_id_of, seat_levels
from tests.support.waiting import eventually


def simulated_events(service) -> list:
    """Every `Simulated` event in the store's log."""
    found, position = [], 0
    while True:
        notes = service.recorder.select_notifications(position, 500, inclusive_of_start=False)
        for note in notes:
            position = note.id
            if note.topic.endswith("Game.Simulated"):
                found.append(service.mapper.to_domain_event(note))
        if len(notes) < 500:
            return found


def wait_done(client, simulation_id: str, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = client.get(f"/simulations/{simulation_id}").json()
        if status["status"] not in ("queued", "running"):
            return status
        time.sleep(0.2)
    raise AssertionError(f"simulation not done: {status}")


def test_a_simulation_plays_exactly_the_games_asked_for(client, service):
    answer = client.post("/simulations", json={"game": "api_count", "players": 2, "bots": ["random"],
                                              "games": 20, "seed": 7})
    assert answer.status_code == 202, answer.text
    started = answer.json()
    assert started["status"] in ("queued", "running") and started["games"] == 20 and started["games_done"] == 0
    done = wait_done(client, started["id"])
    assert done["status"] == "done" and done["games_done"] == 20 and done["progress"] == 1.0
    assert done["games_failed"] == 0 and done["workers"] >= 1       # the app's own worker
    report = done["report"]
    assert report["games"] == 20 and [s["seat"] for s in report["seats"]] == [0, 1]
    assert report["bots"] == [{"level": "random", "seats_played": 40, "win_rate": 0.5}]   # one winner a game

    tags = [e for e in simulated_events(service) if e.simulation_id == started["id"]]
    assert sorted(e.index for e in tags) == list(range(20))            # each game once, none twice
    for index in range(20):
        game = service.game(str(game_id_of(started["id"], index)))
        assert game.finished and game.unrated and game.simulation == {"id": started["id"], "index": index}
        levels = {"0": "random", "1": "random"}
        assert game.bots == levels
        view = client.get(f"/games/{game.id}").json()                  # an ordinary game for every endpoint
        assert view["status"] == "finished" and view["bots"] == levels
    assert client.get("/scoreboard/api_count").json()["leaders"] == []   # unrated: no leaderboard entry


def test_the_same_seed_plays_the_same_games(client, service):
    ids = [client.post("/simulations", json={"game": "dice_duel", "players": 2, "bots": ["random"],
                                            "games": 3, "seed": 11}).json()["id"] for _ in range(2)]
    for simulation_id in ids:
        wait_done(client, simulation_id)
    scores = [[service.game(str(game_id_of(s, i))).scores for i in range(3)] for s in ids]
    assert scores[0] == scores[1]


def test_bots_are_dealt_round_the_seats_and_shifted_each_game():
    assert [seat_levels(["normal", "random"], 3, index) for index in range(3)] == [
        {"0": "normal", "1": "random", "2": "normal"}, {"0": "random", "1": "normal", "2": "random"},
        {"0": "normal", "1": "random", "2": "normal"}]


@pytest.mark.parametrize("body, words", [
    ({"game": "dice_duel", "players": 2, "bots": ["easy"], "games": 3}, "only at level random, not 'easy'"),
    ({"game": "chess", "players": 2, "bots": ["normal"], "games": 3}, "no game type 'chess'"),
    ({"game": "dice_duel", "players": 3, "bots": ["normal"], "games": 3}, "dice_duel takes 2 to 2 players, not 3"),
    ({"game": "dice_duel", "players": 2, "bots": ["grandmaster"], "games": 3}, "'grandmaster' is not a bot level"),
    ({"game": "dice_duel", "players": 2, "bots": ["random", "easy", "normal"], "games": 3}, "at most one per seat"),
    ({"game": "dice_duel", "players": 2, "bots": [], "games": 3}, "bots"),
    ({"game": "dice_duel", "players": 2, "bots": ["random"], "games": MAX_GAMES + 1}, "games"),
    ({"game": "dice_duel", "players": 2, "bots": ["random"], "games": 0}, "games"),
    ({"game": "dice_duel", "players": 2, "bots": ["random"], "games": "many"}, "games"),
    ({"game": "dice_duel", "players": 2, "bots": ["random"], "games": 2, "seed": -1}, "seed"),
    ({"players": 2, "bots": ["random"], "games": 2}, "game"),
])
def test_a_bad_simulation_request_is_refused_in_plain_words_and_stores_nothing(client, service, body, words):
    answer = client.post("/simulations", json=body)
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"], answer.json()
    from projections.readside import redis_of

    redis_client, prefix = redis_of(service)
    assert not list(redis_client.scan_iter(f"{prefix}:{{jobs}}:sim:*"))


def test_an_unknown_simulation_is_404(client):
    for simulation_id in ("0" * 32, "nope", "%2e%2e"):
        answer = client.get(f"/simulations/{simulation_id}")
        assert answer.status_code == 404 and answer.json()["error"] == "simulation_not_found", answer.text


def test_a_bot_job_of_a_simulation_game_is_left_to_the_simulation(client, service):
    """A table's bot job never plays a simulation's game (its own slices do, in turn with others)."""
    from api.jobs.queue import JobQueue
    from api.jobs.simulations import Simulations
    from api.jobs.worker import bot_job
    from projections.readside import redis_of

    queue = JobQueue(*redis_of(service))
    simulation = Simulations(queue, service)
    created = simulation.spec  # noqa: F841 - the store is the app's
    simulation_id = client.post("/simulations", json={"game": "dice_duel", "players": 2, "bots": ["random"],
                                                     "games": 1}).json()["id"]
    game_id = str(game_id_of(simulation_id, 0))
    eventually(lambda: service.game(game_id) if _exists(service, game_id) else None)
    assert bot_job(service, queue, {"game": game_id}) is False
    wait_done(client, simulation_id)


def _exists(service, game_id: str) -> bool:
    try:
        service.game(game_id)
    except Exception:  # noqa: BLE001 - not created yet
        return False
    return True
