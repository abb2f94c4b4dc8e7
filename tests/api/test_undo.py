"""The undo policy (ARCHITECTURE.md) over HTTP, and that undo cannot re-roll."""

from __future__ import annotations

from tests.support.api_client import TestGame


def settled(response) -> str:
    """The status of a settled request (its answer also says why: `outcome`)."""
    answer = response.json()
    assert answer["waiting_for"] == [] and answer.get("outcome"), answer
    return answer["status"]


def count_game(client, players: int = 3, target: int = 100) -> TestGame:
    return TestGame.create(client, "api_count", players, seed=5, options={"target": target})


def test_own_last_move_without_hidden_or_random_info_is_undone_at_once(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    response = game.undo(0, 1)
    assert response.status_code == 201 and response.json()["status"] == "applied"
    view = game.get()
    assert view["state"]["count"] == 0 and view["to_act"] == [0] and view["move_count"] == 0
    events = game.events()
    assert [e["type"] for e in events] == ["Created", "MovePlayed", "UndoRequested", "MovesUndone"]
    assert events[1]["undone"] is True and events[3]["payload"]["undone_versions"] == [2]


def test_undoing_after_somebody_else_acted_waits_for_every_other_seat(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    response = game.undo(0, 1, "misclick")
    assert response.status_code == 201 and response.json()["status"] == "pending"
    request_id = response.json()["request_id"]
    assert game.get()["state"]["count"] == 3
    assert game.get()["undo_requests"][0]["reason"] == "misclick"
    assert game.vote(1, request_id, True).json() == {"status": "pending", "waiting_for": [2]}
    assert game.get()["state"]["count"] == 3
    assert game.vote(2, request_id, True).json() == {"status": "applied", "waiting_for": []}
    view = game.get()
    assert view["state"]["count"] == 0 and view["move_count"] == 0 and view["undo_requests"] == []
    assert game.vote(2, request_id, True).json() == {"status": "applied", "waiting_for": []}


def test_one_refusal_rejects_the_request(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(1, 1).json()["request_id"]
    assert settled(game.vote(0, request_id, False)) == "rejected"
    assert settled(game.vote(2, request_id, True)) == "rejected"
    assert game.get()["state"]["count"] == 3
    assert [e["type"] for e in game.events()][-3:] == ["UndoRequested", "UndoVoted", "UndoRejected"]


def test_own_last_move_that_revealed_randomness_needs_approval(client):
    game = count_game(client, players=2)
    game.move(0, {"type": "roll"})
    response = game.undo(0, 1)
    assert response.json()["status"] == "pending"
    assert game.vote(1, response.json()["request_id"], True).json() == {"status": "applied", "waiting_for": []}


def test_referee_undoes_at_once(client):
    game = count_game(client)
    for seat, amount in ((0, 1), (1, 2), (2, 1), (0, 2)):
        game.move(seat, {"type": "add", "amount": amount})
    response = game.undo("referee", 2)
    assert response.json()["status"] == "applied"
    view = game.get()
    assert view["state"]["count"] == 1 and view["move_count"] == 1 and view["to_act"] == [1]
    assert [e["undone"] for e in game.events() if e["type"] == "MovePlayed"] == [False, True, True, True]


def test_referee_approves_or_rejects_a_pending_request(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 1})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(0, 1).json()["request_id"]
    assert game.vote("referee", request_id, True).json() == {"status": "applied", "waiting_for": []}
    game.move(0, {"type": "add", "amount": 1})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(0, 1).json()["request_id"]
    assert settled(game.vote("referee", request_id, False)) == "rejected"


def test_undo_errors(client):
    game = count_game(client)
    assert game.undo(0, 1).status_code == 422  # nothing to undo yet
    game.move(0, {"type": "add", "amount": 1})
    assert game.undo(None, 1).status_code == 401
    assert game.undo(0, 2).json()["error"] == "invalid_undo"
    assert game.vote(1, "nope", True).status_code == 404


def test_undo_cannot_reroll(client):
    game = TestGame.create(client, "dice_duel", 2, seed=77)
    first = game.move(0, {"type": "roll"})
    game.move(1, {"type": "roll"})
    assert game.undo("referee", 1).json()["status"] == "applied"
    again = game.move(0, {"type": "roll"})
    assert again["move_no"] == 1
    assert again["facts"][0]["value"] == first["facts"][0]["value"]
    assert game.get()["state"]["score"][0] == first["facts"][0]["value"]


def test_state_after_undo_equals_replay_of_the_remaining_moves(client):
    undone = count_game(client)
    fresh = count_game(client)
    for seat, amount in ((0, 1), (1, 2), (2, 1)):
        undone.move(seat, {"type": "add", "amount": amount})
    fresh.move(0, {"type": "add", "amount": 1})
    undone.undo("referee", 2)
    assert undone.get()["state"] == fresh.get()["state"]


def test_the_same_vote_twice_changes_nothing_and_appends_nothing(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(0, 1).json()["request_id"]
    first = game.vote(1, request_id, True).json()
    before = game.events()
    again = game.vote(1, request_id, True).json()
    assert again == first == {"status": "pending", "waiting_for": [2]}
    assert game.events() == before


def test_a_pending_request_expires_when_a_later_move_is_played(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    request_id = game.undo(0, 1).json()["request_id"]
    game.move(2, {"type": "add", "amount": 1})  # the game went on: the request lapses
    assert game.get()["undo_requests"] == []
    assert settled(game.vote(1, request_id, True)) == "expired"
    assert settled(game.vote(2, request_id, True)) == "expired"
    view = game.get()
    assert view["state"]["count"] == 4 and view["move_count"] == 3  # nothing was undone
    assert game.vote("referee", request_id, True).json()["status"] == "expired"
    assert game.get()["move_count"] == 3
    history = client.get(f"/games/{game.id}/history").json()
    statuses = {r["request_id"]: r["status"] for r in history["undo_requests"]}
    assert statuses[request_id] == "expired"


def test_the_answer_says_who_must_still_approve(client):
    game = count_game(client)
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    asked = game.undo(0, 1).json()
    assert asked["status"] == "pending" and asked["waiting_for"] == [1, 2]
    assert game.get()["undo_requests"][0]["waiting_for"] == [1, 2]
    assert game.vote(2, asked["request_id"], True).json() == {"status": "pending", "waiting_for": [1]}
    assert game.get()["undo_requests"][0]["waiting_for"] == [1]
    assert game.vote(1, asked["request_id"], True).json() == {"status": "applied", "waiting_for": []}
