"""Committed randomness and creator-chosen seeds (issue 30 item 4, finding 5; API.md "Seeds";
domain/app/seeds.py): the server commits to its seed material at creation, seats add entropy when
they join, the finished record carries what verifies the commitment, `heirloom verify` and the
import check it; a seed of the creator's choosing is refused where the creator would not hold
every seat, and shown where it stays."""

from __future__ import annotations

import hashlib
import random

import orjson
import pytest

from domain.app.seeds import move_seed, setup_seed
from tests.support.api_client import TestGame, bearer


def invited(client, game="dice_duel", **extra):
    response = client.post("/games", json={"game": game, "players": 2, "seating": "invite", **extra})
    assert response.status_code == 201, response.text
    return response.json()


def join(client, created, seat, name, entropy=None):
    body = {"invite": created["invites"][seat]["invite"], "name": name}
    if entropy is not None:
        body["entropy"] = entropy
    response = client.post(f"/games/{created['id']}/join", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def play_out(client, game_id, tokens, seed=1, roll=False):
    """Random moves to the end (`roll`: a Dice Duel seat rolls whenever it may: random facts)."""
    chooser = random.Random(seed)
    for _ in range(50):
        view = client.get(f"/games/{game_id}").json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        moves = client.get(f"/games/{game_id}/legal-moves", headers=bearer(tokens[seat])).json()["moves"]
        if roll and {"type": "roll"} in moves:
            moves = [{"type": "roll"}]
        answer = client.post(f"/games/{game_id}/moves", json={"move": chooser.choice(moves)},
                             headers=bearer(tokens[seat]))
        assert answer.status_code == 201, answer.text
    raise AssertionError("the game did not finish")


@pytest.mark.rule("TABLE-SEED-01")
def test_a_seed_of_the_creators_choosing_is_refused_with_invitations(client):
    """Finding 5: a creator-chosen seed was accepted in every seating (the creator knew every hand)."""
    before = client.get("/games").json()
    response = client.post("/games", json={"game": "dice_duel", "players": 2, "seating": "invite", "seed": 13579})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "invalid_game" and body.get("rule") == "TABLE-SEED-01"
    assert "seed" in body["detail"] and body["detail"].endswith(".")
    assert len(client.get("/games").json()) == len(before)          # nothing stored


@pytest.mark.rule("TABLE-SEED-01")
def test_a_chosen_seed_stays_in_the_default_seating_and_is_shown(client):
    game = TestGame.create(client, "dice_duel", 2, seed=13579)
    table = game.get()["table"]
    assert table["seed_chosen"] is True and table["seed_commitment"] is None
    play_out(client, game.id, game.seat_tokens)
    record = client.get(f"/games/{game.id}/record").json()
    assert record["seed_chosen"] is True and record["seed"] == 13579 and "seed_commitment" not in record


@pytest.mark.rule("TABLE-SEED-02")
def test_the_server_commits_to_its_seed_and_the_seats_entropy_makes_the_move_seed(client, service):
    created = invited(client)
    shown = client.get(f"/games/{created['id']}").json()
    promise = shown["table"]["seed_commitment"]
    assert len(promise) == 64 and int(promise, 16) >= 0 and shown["table"]["seed_chosen"] is False
    events = client.get(f"/games/{created['id']}/events").json()["events"]
    assert events[0]["type"] == "Created" and events[0]["payload"]["seed_commitment"] == promise
    material = service.game(created["id"]).seed_material
    assert hashlib.sha256(material.encode()).hexdigest() == promise
    tokens = [join(client, created, 0, "ann", "ann's dice")["token"],
              join(client, created, 1, "bo", "bo rolls")["token"]]
    game = service.game(created["id"])
    assert game.seed == setup_seed(material)
    contributions = [{"seat": 0, "entropy": "ann's dice"}, {"seat": 1, "entropy": "bo rolls"}]
    assert game.contributions == contributions and game.move_seed == move_seed(material, contributions)
    assert game.move_seed != move_seed(material, [])                 # the server alone does not choose it
    for who in (None, tokens[0], tokens[1], created["referee_token"]):   # nothing secret while it runs
        for path in ("", "/events", "/record"):
            answer = client.get(f"/games/{created['id']}{path}", headers=bearer(who)).content
            assert material.encode() not in answer and b"bo rolls" not in answer
    play_out(client, created["id"], tokens)
    record = client.get(f"/games/{created['id']}/record").json()
    assert record["seed_commitment"] == promise and record["seed_material"] == material
    assert record["contributions"] == contributions and record["seed"] == setup_seed(material)
    late = join(client, invited(client), 0, "cy", "after")              # counted before the first move only
    assert late["entropy_counted"] is True


def test_a_join_after_the_first_move_adds_no_entropy(client, service):
    created = invited(client, game="api_count", options={"target": 100})
    token = join(client, created, 0, "ann")["token"]
    assert client.post(f"/games/{created['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                       headers=bearer(token)).status_code == 201
    before = service.game(created["id"]).move_seed
    assert join(client, created, 1, "bo", "too late")["entropy_counted"] is False
    assert service.game(created["id"]).move_seed == before
    response = client.post(f"/games/{invited(client)['id']}/join", json={"invite": "x", "name": "z", "entropy": 5})
    assert response.status_code == 422


@pytest.mark.rule("TABLE-SEED-02")
def test_verify_and_import_check_the_commitment(client, settings, monkeypatch, tmp_path, capsys):
    from api.cli import main

    monkeypatch.setenv("HEIRLOOM_EXTRA_GAMES", "tests.support.dice_duel,tests.support.api_count")
    created = invited(client)
    tokens = [join(client, created, 0, "ann", "a")["token"], join(client, created, 1, "bo", "b")["token"]]
    play_out(client, created["id"], tokens, seed=3, roll=True)
    record = client.get(f"/games/{created['id']}/record").json()
    good = tmp_path / "good.json"
    good.write_bytes(orjson.dumps(record))
    capsys.readouterr()
    assert main(["verify", str(good)]) == 0
    assert "the server committed to" in capsys.readouterr().out
    assert client.post("/games/import", json=record).status_code == 201

    forged = dict(record, seed_material="0" * 64)                    # another material: not the one promised
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(forged))
    assert main(["verify", str(bad)]) == 1
    assert "does not hash to the commitment" in capsys.readouterr().err
    answer = client.post("/games/import", json=forged)
    assert answer.status_code == 422 and "commitment" in answer.json()["detail"]

    other = dict(record, contributions=[{"seat": 0, "entropy": "a"}, {"seat": 1, "entropy": "B"}])
    assert any(f.get("type") == "DieRolled" for m in record["moves"] for f in m["facts"])
    assert client.post("/games/import", json=other).status_code == 422   # other entropy: other dice
    bad.write_bytes(orjson.dumps(other))
    assert main(["verify", str(bad)]) == 1
    assert "(move 1)" in capsys.readouterr().err


def test_records_of_earlier_releases_without_a_commitment_still_import(client):
    game = TestGame.create(client, "dice_duel", 2, seed=9)
    play_out(client, game.id, game.seat_tokens)
    record = client.get(f"/games/{game.id}/record").json()
    for key in ("seed_chosen", "seed_commitment"):
        record.pop(key, None)
    assert client.post("/games/import", json=record).status_code == 201
