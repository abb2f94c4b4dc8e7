"""The table's rules (issue 25, api/README.md "Table rules"): take-back policies, requests that
settle, results that stand, no engine during play, stale moves that still mean the same."""

from __future__ import annotations

import pytest

from tests.support.api_client import TestGame, bearer


def count_game(client, players: int = 3, target: int = 100, **table) -> TestGame:
    return TestGame.create(client, "api_count", players, seed=5, options={"target": target}, **table)


def add(game: TestGame, *seats: int) -> None:
    for seat in seats:
        game.move(seat, {"type": "add", "amount": 1})


def refused(response, status: int, rule: str) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert body.get("rule") == rule, body
    assert body["detail"].endswith(".") and "_" not in body["detail"].split("(")[0], body  # a sentence
    return body


# ---- GET /games/{id}: the table and the seats


def test_the_table_and_its_seats_are_shown(client):
    game = count_game(client, players=2, undo_policy="own_turn", names=["Ada", "Bo"])
    view = game.get()
    options = ("undo_policy", "analysis_during_play")       # (the table also shows its seeding: test_seeds.py)
    assert {key: view["table"][key] for key in options} == {"undo_policy": "own_turn", "analysis_during_play": False}
    keys = ("seat", "name", "bot", "clock_s", "left")        # API.md's fields (others may be added)
    assert [{k: seat[k] for k in keys} for seat in view["seats"]] == [
        {"seat": 0, "name": "Ada", "bot": None, "clock_s": None, "left": False},
        {"seat": 1, "name": "Bo", "bot": None, "clock_s": None, "left": False}]
    assert all("online" in seat for seat in view["seats"])
    default = count_game(client).get()["table"]
    assert {key: default[key] for key in options} == {"undo_policy": "consent", "analysis_during_play": False}
    created = [e for e in game.events() if e["type"] == "Created"]
    assert created and game.get("referee")["table"]["undo_policy"] == "own_turn"


# ---- undo_policy


@pytest.mark.rule("TABLE-UNDO-01")
def test_consent_takes_back_at_once_or_after_every_other_seats_approval(client):
    game = count_game(client)
    add(game, 0)
    assert game.undo(0, 1).json()["status"] == "applied"
    add(game, 0, 1)
    asked = game.undo(0, 1).json()
    assert asked["status"] == "pending" and asked["waiting_for"] == [1, 2]


@pytest.mark.rule("TABLE-UNDO-02")
def test_own_turn_takes_back_only_the_seats_moves_since_anybody_else_moved(client):
    game = count_game(client, players=2, undo_policy="own_turn")
    add(game, 0)
    assert game.undo(0, 1).json()["status"] == "applied"      # its own move, nobody moved since: at once
    add(game, 0, 1)
    refused(game.undo(0, 1), 422, "TABLE-UNDO-02")              # seat 1 moved since
    refused(game.undo(1, 1), 422, "TABLE-UNDO-02")              # not its move
    assert game.undo(1, 2).json()["status"] == "applied"
    game.move(1, {"type": "roll"})
    refused(game.undo(1, 2), 422, "TABLE-UNDO-02")              # a roll revealed something random
    assert game.get()["move_count"] == 2


@pytest.mark.rule("TABLE-UNDO-03")
def test_referee_policy_leaves_take_backs_to_the_referee(client):
    game = count_game(client, players=2, undo_policy="referee")
    add(game, 0)
    refused(game.undo(0, 1), 422, "TABLE-UNDO-03")
    assert game.undo("referee", 1).json()["status"] == "applied"


@pytest.mark.rule("TABLE-UNDO-04")
def test_none_policy_refuses_every_take_back(client):
    game = count_game(client, players=2, undo_policy="none")
    add(game, 0)
    refused(game.undo(0, 1), 422, "TABLE-UNDO-04")
    refused(game.undo("referee", 1), 422, "TABLE-UNDO-04")
    assert game.get()["move_count"] == 1


def test_an_unknown_policy_is_refused_in_words(client):
    response = client.post("/games", json={"game": "api_count", "players": 2, "undo_policy": "sometimes"})
    assert response.status_code == 422
    assert "undo_policy" in response.json()["detail"] and "consent" in response.json()["detail"]


# ---- results stand


@pytest.mark.rule("TABLE-UNDO-05")
def test_a_finished_game_is_not_reopened_by_a_seat(client):
    game = count_game(client, players=1, target=2)
    game.move(0, {"type": "add", "amount": 2})
    assert game.get()["status"] == "finished"
    refused(game.undo(0, 1), 422, "TABLE-UNDO-05")
    two = count_game(client, players=2, target=2)
    add(two, 0)
    two.move(1, {"type": "add", "amount": 1})
    assert two.get()["status"] == "finished"
    refused(two.undo(1, 2), 422, "TABLE-UNDO-05")
    refused(two.undo(0, 1), 422, "TABLE-UNDO-05")
    assert two.get()["status"] == "finished" and two.get()["move_count"] == 2


@pytest.mark.rule("TABLE-UNDO-05")
def test_a_lost_solo_heredity_chapter_stays_lost(client):
    game = TestGame.create(client, "heredity", 1, seed=3)
    for _ in range(60):
        listed = game.legal(0)
        if not listed["moves"]:
            break
        moves = listed["moves"]
        pick = next((m for m in moves if m["type"] == "end_window"), None) or \
            next((m for m in moves if m["type"] == "choose"), moves[0])
        game.move(0, pick, expected_version=listed["version"])
    view = game.get()
    assert view["status"] == "finished"
    refused(game.undo(0, view["move_count"], "I lost"), 422, "TABLE-UNDO-05")
    assert game.get()["status"] == "finished"


# ---- requests that settle


@pytest.mark.rule("TABLE-UNDO-06")
def test_one_pending_request_per_seat(client):
    game = count_game(client)
    add(game, 0, 1)
    first = game.undo(0, 1).json()
    body = refused(game.undo(0, 2), 409, "TABLE-UNDO-06")
    assert body["error"] == "undo_pending" and body["request_id"] == first["request_id"]
    game.vote(0, first["request_id"], False)                    # withdrawn: a new one may be asked
    assert game.undo(0, 2).status_code == 201


@pytest.mark.rule("TABLE-UNDO-07")
def test_a_second_request_for_the_same_move_is_a_conflict(client):
    game = count_game(client)
    add(game, 0, 1)
    first = game.undo(0, 1).json()
    body = refused(game.undo(1, 1), 409, "TABLE-UNDO-07")
    assert body["request_id"] == first["request_id"]
    assert len(game.get()["undo_requests"]) == 1


@pytest.mark.rule("TABLE-UNDO-08")
def test_a_request_expires_after_its_time_with_a_reason(client, service):
    game = count_game(client)
    add(game, 0, 1)
    asked = service.request_undo(game.id, game.token(0), 1, "misclick", now=1000.0)
    assert asked["status"] == "pending"
    shown = service.game_view(game.id, None, now=1000.0)["undo_requests"][0]
    assert shown["expires_at"] == "1970-01-01T00:26:40+00:00"   # 1000 + 600 s
    lapsed = service.game_view(game.id, None, now=1000.0 + 601)  # shown as expired before the event is written
    assert lapsed["undo_requests"] == [] and lapsed["undo_history"][-1]["status"] == "expired"
    assert service.game_view(game.id, None, now=1000.0 + 599)["undo_requests"][0]["status"] == "pending"
    answer = service.vote_undo(game.id, game.token(1), asked["request_id"], True, now=1000.0 + 601)
    assert answer["status"] == "expired" and "10 minutes" in answer["outcome"]
    expired = [e for e in game.events() if e["type"] == "UndoExpired"]
    assert expired and expired[0]["payload"] == {"request_id": asked["request_id"],
                                                 "reason": "not settled within 10 minutes"}
    assert game.get()["undo_requests"] == [] and game.get()["move_count"] == 2


@pytest.mark.rule("TABLE-UNDO-08")
def test_a_move_closes_a_pending_request_with_a_reason_and_a_log_line(client):
    game = count_game(client)
    add(game, 0, 1)
    request_id = game.undo(0, 1).json()["request_id"]
    add(game, 2)
    kinds = [e["type"] for e in game.events()]
    assert kinds[-2:] == ["UndoExpired", "MovePlayed"]
    closing = game.events()[-2]["payload"]
    assert closing["request_id"] == request_id and "played move 3" in closing["reason"]
    history = client.get(f"/games/{game.id}/history").json()
    closed = {r["request_id"]: r for r in history["undo_requests"]}[request_id]
    assert closed["status"] == "expired" and "played move 3" in closed["outcome"]


@pytest.mark.rule("TABLE-UNDO-09")
def test_a_referee_undo_closes_the_requests_it_makes_moot(client):
    game = count_game(client)
    add(game, 0, 1, 2, 0)
    moot = game.undo(1, 3).json()["request_id"]                 # about moves 3.. (pending)
    still = game.undo(2, 1).json()["request_id"]                # about moves 1.. (pending)
    assert game.undo("referee", 2).json()["status"] == "applied"
    views = {r["request_id"]: r for r in game.get()["undo_requests"]}
    assert list(views) == [still]
    expired = [e for e in game.events() if e["type"] == "UndoExpired"]
    assert [e["payload"]["request_id"] for e in expired] == [moot]
    assert "taken back" in expired[0]["payload"]["reason"]
    assert settled_status(game.vote(2, moot, True)) == "expired"


def settled_status(response) -> str:
    return response.json()["status"]


@pytest.mark.rule("TABLE-UNDO-10")
def test_a_reason_has_at_most_200_characters(client, service):
    game = count_game(client)
    add(game, 0, 1)
    response = game.undo(0, 1, "x" * 201)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "200 characters" in detail and "body." not in detail and "String should" not in detail
    assert game.undo(0, 1, "y" * 200).status_code == 201
    from domain.app.errors import InvalidUndo
    with pytest.raises(InvalidUndo) as refusal:                 # the domain says so too (other clients)
        service.request_undo(game.id, game.token(1), 2, "z" * 201)
    assert refusal.value.extra["rule"] == "TABLE-UNDO-10"


# ---- no engine help during play


@pytest.mark.rule("TABLE-ANALYSIS-01")
def test_analysis_is_locked_while_a_game_runs(client):
    game = count_game(client, players=2, target=3)
    add(game, 0)
    for who in (None, 0, 1, "referee"):
        response = client.post(f"/games/{game.id}/analysis", headers=bearer(game.token(who)))
        assert response.status_code == 403 and response.json()["error"] == "analysis_locked", response.text
        assert response.json()["rule"] == "TABLE-ANALYSIS-01"
        shown = client.get(f"/games/{game.id}/analysis", headers=bearer(game.token(who))).json()
        assert shown["status"] == "none" and shown["locked"] is True    # a page can say why
    fork = client.post(f"/games/{game.id}/fork", json={"step": 1}, headers=bearer(game.referee_token))
    assert fork.status_code == 201, fork.text
    assert client.post(f"/games/{fork.json()['id']}/analysis").status_code == 202   # a fork: always
    open_table = count_game(client, players=2, target=3, analysis_during_play=True)
    add(open_table, 0)
    assert open_table.get()["table"]["analysis_during_play"] is True
    assert client.post(f"/games/{open_table.id}/analysis").status_code == 202
    game.move(1, {"type": "add", "amount": 2})
    assert game.get()["status"] == "finished"
    assert client.post(f"/games/{game.id}/analysis").status_code == 202              # finished: always


# ---- stale versions


@pytest.mark.rule("TABLE-MOVE-01")
def test_a_move_behind_only_take_back_bookkeeping_is_accepted(client):
    game = count_game(client)
    add(game, 0, 1)
    version = game.get()["version"]
    request_id = game.undo(0, 1).json()["request_id"]
    game.vote(1, request_id, False)                             # versions moved; the position did not
    answer = game.post_move(2, {"type": "add", "amount": 1}, expected_version=version)
    assert answer.status_code == 201, answer.text
    assert answer.json()["rebased_from"] == version


@pytest.mark.rule("TABLE-MOVE-01")
def test_a_move_behind_another_seats_move_in_a_single_turn_step_is_still_a_conflict(client):
    game = count_game(client)
    add(game, 0)
    stale = game.get()["version"] - 1
    answer = game.post_move(1, {"type": "add", "amount": 1}, expected_version=stale)
    assert answer.status_code == 409 and answer.json()["error"] == "version_conflict"


# ---- words


@pytest.mark.parametrize("body, words", [
    ({"game": "adas_dream", "players": 99}, "Ada's Dream is for 2 to 4 players; you asked for 99."),
    ({"game": "adas_dream", "players": 0}, "Ada's Dream is for 2 to 4 players; you asked for 0."),
    ({"game": "adas_dream", "players": -3}, "Ada's Dream is for 2 to 4 players; you asked for -3."),
    ({"game": "adas_dream", "players": 2, "names": ["a<b", "c"]}, "Player 1's name may not contain '<'."),
    ({"game": "adas_dream", "players": 2, "names": ["ann", "Ann"]}, "Player 2's name 'Ann' is already"),
    ({"game": "adas_dream"}, "Say how many players (players) are at the table."),
    ({"game": "adas_dream", "players": "two"}, "players must be a whole number, not a string."),
    ({"players": 2}, "Say which game to play (game)."),
    ({"game": "chess", "players": 2}, "There is no game called 'chess'"),
])
def test_the_lobbys_refusals_read_as_sentences(client, body, words):
    response = client.post("/games", json=body)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail.startswith(words) or words in detail, detail
    for pydantic_words in ("body.", "Input should", "Value error", "String should", "names[0]"):
        assert pydantic_words not in detail, detail
    assert client.get("/games").status_code == 200
