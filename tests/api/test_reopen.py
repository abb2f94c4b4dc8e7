"""A game whose hidden information was published is never played on with it (issue 30 item 2,
finding 3): the referee reopens a finished game only with a reason, and the position there is dealt
again from a spectator's knowledge with a new secret seed (`Reopened`, TABLE-REOPEN-01/02); an
imported prefix of a public record is an unrated practice game (TABLE-PRACTICE-01)."""

from __future__ import annotations

import orjson
import pytest

from domain.engine import SPECTATOR, copy_state, fold, get_rules
from domain.games import load_all
from tests.support.api_client import TestGame, bearer, replay_from_store

load_all()


def finished(client, game_type: str, seed: int, players: int = 2, **extra) -> TestGame:
    game = TestGame.create(client, game_type, players, seed=seed, **extra)
    assert game.play_randomly(4000, seed=seed), "no end"
    return game


def reopen(client, game: TestGame, to_move: int, reason="a misread rule", token=None):
    body = {"to_move": to_move} if reason is None else {"to_move": to_move, "reason": reason}
    return client.post(f"/games/{game.id}/undo", json=body,
                       headers=bearer(token if token is not None else game.referee_token))


def state_from_record(record: dict, step: int) -> dict:
    """What anybody computes from a finished game's public record: the position after `step` moves."""
    rules = get_rules(record["game"])
    facts = list(record["setup_facts"]) + [f for m in record["moves"][:step] for f in m["facts"]]
    return fold(rules.evolve, rules.initial_state(record["players"], record["options"]), copy_state(facts))


@pytest.mark.slow
@pytest.mark.rule("TABLE-REOPEN-01")
def test_a_reopened_game_deals_again_what_its_published_record_showed(client, service):
    """Finding 3: after a reopening a spectator holding the record knew every hand and the next draws."""
    rules = get_rules("adas_dream")
    game = finished(client, "adas_dream", seed=5)
    record = client.get(f"/games/{game.id}/record").json()
    assert "seed" in record                               # published
    step = 6
    published = state_from_record(record, step)
    old_seed = service.game(game.id).move_seed
    answer = reopen(client, game, step + 1)
    assert answer.status_code == 201, answer.text
    live = service.game(game.id)
    assert live.status == "active" and live.last_move_no == step
    assert rules.view(live.state, SPECTATOR) == rules.view(published, SPECTATOR)   # what everybody saw, kept
    assert [p["hand"] for p in live.state["players"]] != [p["hand"] for p in published["players"]]
    assert live.state["stacks"] != published["stacks"] and live.move_seed != old_seed
    shown = game.get()
    assert shown["table"]["reopened"]["reason"] == "a misread rule" and shown["table"]["reopened"]["at"] == step
    material = live.reopened["seed_material"]
    for who in (None, game.token(0), game.token(1), game.referee_token):   # nothing of the new deal leaks
        for path in ("", "/events?limit=1000", "/record"):
            text = client.get(f"/games/{game.id}{path}", headers=bearer(who)).content
            assert material.encode() not in text
    events = game.events()
    reopened = [e for e in events if e["type"] == "Reopened"]
    assert len(reopened) == 1 and reopened[0]["payload"]["reason"] == "a misread rule"
    assert "position" not in orjson.dumps(reopened[0]).decode()
    position = copy_state(live.state)
    game.play_randomly(3, seed=9)                         # it plays on, and replays to what was played
    assert service.game(game.id).state == replay_from_store(service, game.id)
    assert service.rebuilt(game.id).state == service.game(game.id).state
    assert client.get(f"/games/{game.id}/audit/verify").json()["ok"] is True
    step_shown = client.get(f"/games/{game.id}/replay", params={"step": step + 1}, headers=bearer(game.token(0)))
    assert step_shown.status_code == 200
    assert reopen(client, game, step).status_code == 422               # TABLE-REOPEN-02: before it, never
    undone = client.post(f"/games/{game.id}/undo", json={"to_move": step + 1, "reason": "again"},
                         headers=bearer(game.referee_token))
    assert undone.status_code == 201, undone.text
    assert service.game(game.id).state == position       # back to the position dealt again, not the published one


@pytest.mark.rule("TABLE-REOPEN-01")
def test_only_the_referee_reopens_and_only_with_a_reason(client, service):
    game = finished(client, "dice_duel", seed=3)
    refused = reopen(client, game, 2, reason=None)
    assert refused.status_code == 422 and refused.json()["rule"] == "TABLE-REOPEN-01"
    assert "reason" in refused.json()["detail"]
    assert reopen(client, game, 2, reason="   ").status_code == 422
    assert reopen(client, game, 2, token=game.token(0)).status_code == 422           # a seat: results stand
    assert game.get()["status"] == "finished" and game.get()["table"]["reopened"] is None
    before = service.game(game.id).move_seed
    assert reopen(client, game, 2).status_code == 201
    after = game.get()
    assert after["status"] == "active" and after["move_count"] == 1
    assert after["table"]["reopened"]["by"] == "referee" and service.game(game.id).move_seed != before
    listed = [g for g in client.get("/games").json() if g["id"] == game.id]
    assert listed and listed[0].get("reopened") is True


@pytest.mark.rule("TABLE-REOPEN-02")
def test_a_reopened_game_that_finishes_again_counts_once(client):
    names = ["reo-ann", "reo-bo"]
    game = TestGame.create(client, "api_count", 2, seed=1, names=names, options={"target": 6})
    for seat, amount in [(0, 2), (1, 2), (0, 2)]:
        game.move(seat, {"type": "add", "amount": amount})
    assert game.get()["status"] == "finished"

    def games_of() -> dict:
        leaders = client.get("/scoreboard/api_count").json()["leaders"]
        return {entry["player"]: entry["games"] for entry in leaders if entry["player"] in names}
    assert games_of() == {"reo-ann": 1, "reo-bo": 1}
    assert reopen(client, game, 3, reason="the last move was a slip").status_code == 201
    refused = reopen(client, game, 1)                      # TABLE-REOPEN-02: the moves before it stand
    assert refused.status_code == 422 and refused.json()["rule"] == "TABLE-REOPEN-02"
    game.move(0, {"type": "add", "amount": 2})
    assert game.get()["status"] == "finished"
    assert games_of() == {"reo-ann": 1, "reo-bo": 1}      # one result per game id


@pytest.mark.rule("TABLE-PRACTICE-01")
def test_an_imported_prefix_of_a_public_record_is_an_unrated_practice_game(client):
    game = finished(client, "dice_duel", seed=4)
    record = client.get(f"/games/{game.id}/record").json()
    whole = client.post("/games/import", json=record)
    assert whole.status_code == 201, whole.text
    assert client.get(f"/games/{whole.json()['id']}").json()["table"]["practice"] is False
    prefix = dict(record, moves=record["moves"][:3])
    answer = client.post("/games/import", json=prefix)
    assert answer.status_code == 201, answer.text
    copy = client.get(f"/games/{answer.json()['id']}").json()
    assert copy["status"] == "active" and copy["move_count"] == 3 and copy["table"]["practice"] is True
    listed = [g for g in client.get("/games").json() if g["id"] == answer.json()["id"]]
    assert listed and listed[0].get("practice") is True
    shown = client.get(f"/games/{answer.json()['id']}/record").json()
    assert shown.get("practice") is True
