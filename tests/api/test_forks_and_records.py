"""Forks (a new unrated game from a position, fresh randomness) and verifiable game records."""

from __future__ import annotations

import random

import orjson
import pytest

from domain.engine.legacy import FIRST_RELEASE, RULES_RELEASE
from domain.games import load_all
from tests.support.api_client import TestGame, bearer, replay_from_store

load_all()


def finish(game: TestGame, seed: int, limit: int = 3000) -> None:
    assert game.play_randomly(limit, seed), "no end"


def dice_game(client, moves: int = 4) -> TestGame:
    game = TestGame.create(client, "dice_duel", 2, seed=9, names=["ann", "bo"])
    chooser = random.Random(1)
    for _ in range(moves):
        view = game.get()
        if view["status"] == "finished":
            break
        seat = view["to_act"][0]
        game.move(seat, chooser.choice(game.legal(seat)["moves"]))
    return game


def test_a_referee_forks_a_running_game_from_a_step(client, service):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 100})
    for seat, amount in [(0, 1), (1, 2), (0, 2), (1, 1)]:
        game.move(seat, {"type": "add", "amount": amount})
    response = client.post(f"/games/{game.id}/fork", json={"step": 2}, headers=bearer(game.referee_token))
    assert response.status_code == 201, response.text
    fork = response.json()
    assert fork["forked_from"] == {"id": game.id, "step": 2} and fork["id"] != game.id
    assert len(fork["seats"]) == 2 and fork["referee_token"]
    view = client.get(f"/games/{fork['id']}").json()
    assert view["state"]["count"] == 3 and view["move_count"] == 0 and view["to_act"] == [0]
    forked = TestGame(client, fork["id"], [s["token"] for s in fork["seats"]], fork["referee_token"], fork)
    forked.move(0, {"type": "add", "amount": 1})
    assert forked.get()["state"]["count"] == 4
    assert service.game(fork["id"]).state == replay_from_store(service, fork["id"])
    assert game.get()["state"]["count"] == 6  # the source is untouched
    assert client.get(f"/games/{fork['id']}/audit/verify").json()["ok"] is True


def test_only_the_referee_forks_a_running_game_and_the_step_must_exist(client):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 100})
    game.move(0, {"type": "add", "amount": 1})
    for who in (None, 0):
        response = client.post(f"/games/{game.id}/fork", json={"step": 1}, headers=bearer(game.token(who)))
        assert response.status_code == 403, response.text
    response = client.post(f"/games/{game.id}/fork", json={"step": 2}, headers=bearer(game.referee_token))
    assert response.status_code == 422 and response.json()["error"] == "step_out_of_range"


def test_anyone_forks_a_finished_game_and_the_fork_is_unrated(client):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 3}, names=["fork-src-a", "fork-src-b"])
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    assert game.get()["status"] == "finished"
    fork = client.post(f"/games/{game.id}/fork", json={"step": 1}).json()
    tokens = [s["token"] for s in fork["seats"]]
    client.post(f"/games/{fork['id']}/moves", json={"move": {"type": "add", "amount": 1}}, headers=bearer(tokens[1]))
    assert client.get(f"/games/{fork['id']}").json()["status"] == "finished"
    leaders = {e["player"]: e for e in client.get("/scoreboard/api_count").json()["leaders"]}
    assert leaders["fork-src-a"]["games"] == 1 and leaders["fork-src-b"]["games"] == 1  # the fork did not count


def test_a_fork_has_fresh_randomness(client):
    """The same roll from the same position gives outcomes that follow a new seed."""
    game = TestGame.create(client, "dice_duel", 2, seed=9)
    outcomes = set()
    for _ in range(6):
        fork = client.post(f"/games/{game.id}/fork", json={"step": 0}, headers=bearer(game.referee_token)).json()
        token = fork["seats"][0]["token"]
        answer = client.post(f"/games/{fork['id']}/moves", json={"move": {"type": "roll"}}, headers=bearer(token))
        outcomes.add(orjson.dumps(answer.json()["facts"]))
    assert len(outcomes) > 1


@pytest.mark.parametrize("game_type", ["my_fathers_work", "abomination", "adas_dream", "heredity"])
def test_a_finished_games_record_imports_to_the_same_game(client, service, game_type):
    game = TestGame.create(client, game_type, 2, seed=21)
    finish(game, seed=4)
    record = client.get(f"/games/{game.id}/record").json()
    assert isinstance(record["seed"], int) and len(record["moves"]) == game.get()["move_count"]
    response = client.post("/games/import", json=record)
    assert response.status_code == 201, response.text[:500]
    copy = response.json()["id"]
    assert client.get(f"/games/{copy}").json()["scores"] == game.get()["scores"]
    assert service.game(copy).state == service.game(game.id).state
    original = [m["description"] for m in client.get(f"/games/{game.id}/moves-log").json()]
    assert [m["description"] for m in client.get(f"/games/{copy}/moves-log").json()] == original


@pytest.mark.slow
def test_a_record_with_ada_choices_in_the_old_pick_shape_imports(client, service):
    """Ada's Dream RULINGS R-16: records written before issue 18 name a choice's option `pick`; the
    import reads each move through the game's `upcast_move`, and the copy stores today's shape."""
    game = TestGame.create(client, "adas_dream", 2, seed=21)
    finish(game, seed=4)
    record = client.get(f"/games/{game.id}/record").json()
    old = orjson.loads(orjson.dumps(record))
    for entry in old["moves"]:
        if entry["move"]["type"] == "choose":
            entry["move"] = {"type": "choose", "pick": entry["move"].pop("option")}
    assert any("pick" in entry["move"] for entry in old["moves"])
    response = client.post("/games/import", json=old)
    assert response.status_code == 201, response.text[:500]
    copy = response.json()["id"]
    assert service.game(copy).state == service.game(game.id).state
    assert client.get(f"/games/{copy}/record").json()["moves"] == record["moves"]


def test_an_altered_record_is_refused_naming_the_first_move_that_differs(client):
    game = TestGame.create(client, "dice_duel", 2, seed=9)
    finish(game, seed=2)
    record = client.get(f"/games/{game.id}/record").json()
    before = len(client.get("/games").json())
    altered = orjson.loads(orjson.dumps(record))
    altered["moves"][2]["facts"][0] = {**altered["moves"][2]["facts"][0], "forged": True}
    response = client.post("/games/import", json=altered)
    assert response.status_code == 422 and response.json()["error"] == "record_mismatch"
    assert response.json()["move_no"] == 3
    reseeded = {**record, "seed": record["seed"] + 1}
    response = client.post("/games/import", json=reseeded)
    assert response.status_code == 422 and response.json()["move_no"] in range(0, len(record["moves"]) + 1)
    assert len(client.get("/games").json()) == before  # nothing stored


def test_a_record_names_its_rules_release_and_an_unknown_one_is_refused(client):
    """domain/engine/legacy.py: a record says which release's rules decided it; absent means release 1
    (records of earlier releases), which today's rules check as well (exactly, here: nothing changed)."""
    game = TestGame.create(client, "dice_duel", 2, seed=9)
    finish(game, seed=2)
    record = client.get(f"/games/{game.id}/record").json()
    assert record["rules_release"] == RULES_RELEASE
    for bad in (0, RULES_RELEASE + 1, "2", True):
        response = client.post("/games/import", json={**record, "rules_release": bad})
        assert response.status_code == 422 and response.json()["error"] == "invalid_record", bad
    old = {key: value for key, value in record.items() if key != "rules_release"}
    response = client.post("/games/import", json=old)
    assert response.status_code == 201 and response.json()["rules_release"] == FIRST_RELEASE
    assert "rule_fixes" not in response.json()


def test_a_running_games_record_is_redacted_and_has_no_seed(client):
    game = dice_game(client, moves=1)
    record = client.get(f"/games/{game.id}/record").json()
    assert "seed" not in record and record["moves"]
    seat_record = client.get(f"/games/{game.id}/record", headers=bearer(game.seat_tokens[0])).json()
    assert "seed" not in seat_record
    response = client.post("/games/import", json=record)
    assert response.status_code == 422 and response.json()["error"] == "invalid_record"


def test_garbage_records_are_4xx(client):
    for body in ({}, {"game": "nope", "players": 2, "seed": 1, "moves": []},
                 {"game": "dice_duel", "players": 2, "seed": "1", "moves": []},
                 {"game": "dice_duel", "players": 2, "seed": 1, "moves": [{"seat": 0}]},
                 {"game": "dice_duel", "players": 2, "seed": 1, "moves": [{"seat": 5, "move": {"type": "roll"}}]}):
        response = client.post("/games/import", json=body)
        assert 400 <= response.status_code < 500, (body, response.text)


def test_heirloom_export_records_and_import_them(client, settings, monkeypatch, tmp_path, capsys):
    import dataclasses

    import api.app
    from api.cli import main

    real_load_games = api.app.load_games
    monkeypatch.setattr(api.app, "load_games", lambda s: real_load_games(dataclasses.replace(s, strict_games=False)))
    monkeypatch.setenv("REDIS_URL", settings.redis_url)
    monkeypatch.setenv("REDIS_KEY_PREFIX", settings.key_prefix)
    monkeypatch.setenv("HEIRLOOM_EXTRA_GAMES", "tests.support.dice_duel,tests.support.api_count")
    game = TestGame.create(client, "dice_duel", 2, seed=9)
    finish(game, seed=2)
    dice_game(client, moves=1)  # a running game: no record written
    assert main(["export", "--out", str(tmp_path), "--records", "--format", "jsonl"]) == 0
    files = sorted((tmp_path / "records").glob("*.json"))
    assert [f.stem for f in files] == [game.id]
    capsys.readouterr()
    assert main(["import", str(files[0])]) == 0
    copy = capsys.readouterr().out.split("imported as game ")[1].split()[0]
    assert client.get(f"/games/{copy}").json()["scores"] == game.get()["scores"]
    altered = orjson.loads(files[0].read_bytes())
    altered["moves"][0]["facts"] = []
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(altered))
    assert main(["import", str(bad)]) == 1
    assert "refused (move 1)" in capsys.readouterr().err
