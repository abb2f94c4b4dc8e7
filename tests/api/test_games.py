"""Game types, creating, listing and inspecting games over HTTP."""

from __future__ import annotations

import uuid

from tests.support.api_client import TestGame, bearer


def test_healthz_and_openapi(client):
    assert client.get("/healthz").json()["ok"] is True
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/game-types", "/games", "/games/{game_id}", "/games/{game_id}/moves",
                 "/games/{game_id}/legal-moves", "/games/{game_id}/events", "/games/{game_id}/undo",
                 "/games/{game_id}/undo/{request_id}/votes"):
        assert path in paths


def test_game_types_lists_registered_games(client):
    types = {t["name"]: t for t in client.get("/game-types").json()}
    listed = types["dice_duel"]
    assert {k: listed[k] for k in ("name", "title", "min_players", "max_players", "cooperative", "content_version")} == {
        "name": "dice_duel", "title": "Dice Duel (test game)", "min_players": 2, "max_players": 2,
        "cooperative": False, "content_version": "1"}
    # the traits are data, as the game declares them
    assert (listed["hidden_information"], listed["chance"], listed["simultaneous"]) == (True, True, True)


def test_create_returns_tokens_and_version_one(client):
    game = TestGame.create(client, "dice_duel", 2, seed=1, names=["ann", "bob"])
    assert game.created["version"] == 1 and game.created["game"] == "dice_duel"
    assert [s["seat"] for s in game.created["seats"]] == [0, 1]
    assert len(set(game.seat_tokens + [game.referee_token])) == 3
    view = game.get()
    assert view["status"] == "active" and view["to_act"] == [0] and view["move_count"] == 0
    assert view["scores"] == {"0": 0, "1": 0} and view["winners"] == []
    assert view["names"] == ["ann", "bob"]


def test_unknown_game_type_is_named(client):
    response = client.post("/games", json={"game": "chess", "players": 2})
    assert response.status_code == 422
    assert response.json()["error"] == "unknown_game_type" and "chess" in response.json()["detail"]


def test_wrong_player_count_is_422(client):
    response = client.post("/games", json={"game": "dice_duel", "players": 3})
    assert response.status_code == 422 and response.json()["rule"] == "ENGINE-PLAYERS-01"
    response = client.post("/games", json={"game": "dice_duel", "players": 2, "names": ["only one"]})
    assert response.status_code == 422 and response.json()["error"] == "invalid_game"


def test_unknown_game_id_is_404(client):
    for game_id in (str(uuid.uuid4()), "not-a-uuid"):
        response = client.get(f"/games/{game_id}")
        assert response.status_code == 404
        assert response.json() == {"error": "game_not_found", "detail": f"no game {game_id!r}"}


def test_listing_filters_by_game_and_status(client):
    duel = TestGame.create(client, "dice_duel", 2, seed=3)
    count = TestGame.create(client, "api_count", 1, options={"target": 2})
    count.move(0, {"type": "add", "amount": 2})
    listing = {g["id"]: g for g in client.get("/games").json()}
    assert listing[duel.id] == {**listing[duel.id], "game": "dice_duel", "status": "active", "version": 1,
                                "players": 2}
    assert listing[count.id]["status"] == "finished" and listing[count.id]["version"] == 2
    assert [g["id"] for g in client.get("/games", params={"status": "finished"}).json()] == [count.id]
    assert [g["id"] for g in client.get("/games", params={"game": "dice_duel"}).json()] == [duel.id]
    assert client.get("/games", params={"status": "weird"}).status_code == 422


def test_tokens_work_only_on_their_own_game(client):
    first = TestGame.create(client, "dice_duel", 2, seed=4)
    second = TestGame.create(client, "dice_duel", 2, seed=4)
    response = client.get(f"/games/{second.id}", headers=bearer(first.seat_tokens[0]))
    assert response.status_code == 401 and response.json()["error"] == "invalid_token"
    response = second.client.post(f"/games/{second.id}/moves", json={"move": {"type": "roll"}},
                                  headers=bearer(first.seat_tokens[0]))
    assert response.status_code == 401
    assert client.get(f"/games/{second.id}", headers={"Authorization": "Basic abc"}).status_code == 401
