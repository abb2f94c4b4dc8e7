"""Timeouts and takeovers in words (issue 28): the moves-log, the replay, the history and the events
listing say that a bot played for a seat whose clock ran out, or whose player left; a record of such
a game says who played each move and imports again (the bot's recorded move is the clock's outcome,
not re-decided from wall time)."""

from __future__ import annotations

import pytest

from domain.app.records import build_record
from domain.engine import EVERYONE
from domain.app.game import json_native
from projections.actor_words import actor_note, event_words
from tests.bots.test_bot_seats import wait_for
from tests.support.api_client import TestGame, bearer


def test_actors_and_events_in_words():
    names = ["ann", "bo"]
    assert actor_note("seat:0", names, 0) == "" and actor_note("bot:normal", names, 1) == ""   # a bot seat
    assert actor_note("clock:bot:normal", names, 0) == "played by a bot: ann's clock ran out"
    assert actor_note("clock:skip", names, 1) == "a pass for bo: bo's clock ran out"
    assert actor_note("bot:normal", names, 1, {"1": "left"}) == "played by a bot: bo left the game"
    assert actor_note("bot:normal", names, 1, {"1": "forfeit"}) == "played by a bot: bo forfeited on time"
    assert event_words("ClockExpired", {"seat": 1, "action": "forfeit"}, names).startswith("bo's clock ran out: bo forfeits")
    assert "ann left the game: a normal bot plays the seat" in event_words(
        "SeatTakenOver", {"seat": 0, "level": "normal", "reason": "left"}, names)


def first_move(game, seat):
    game.move(seat, game.legal(seat)["moves"][0])


@pytest.mark.slow
def test_a_timeout_and_a_takeover_read_in_words_and_the_record_imports(client, service):
    names = ["ann", "bo"]
    game = TestGame.create(client, "adas_dream", 2, seed=3, names=names, clock={"per_move_s": 2})
    first_move(game, 0)
    expired = wait_for(lambda: [e for e in game.events(0) if e["type"] == "ClockExpired"], timeout=20)
    late = expired[0]["seat"]
    name = names[late]
    assert expired[0]["description"] == f"{name}'s clock ran out: a bot plays that decision for {name}."
    timed_out = wait_for(lambda: [entry for entry in client.get(f"/games/{game.id}/moves-log").json()
                                  if entry["actor"] == "clock:bot:normal"], timeout=30)
    assert timed_out[0]["seat"] == late and timed_out[0]["actor_note"] == f"played by a bot: {name}'s clock ran out"
    assert client.get(f"/games/{game.id}/moves-log").json()[0]["actor_note"] == ""
    step = client.get(f"/games/{game.id}/replay", params={"step": timed_out[0]["move_no"]}).json()
    assert step["actor_note"] == f"played by a bot: {name}'s clock ran out"
    history = client.get(f"/games/{game.id}/history").json()
    assert any(e["actor_note"] == f"played by a bot: {name}'s clock ran out" for e in history["effective"])

    assert client.post(f"/games/{game.id}/leave", headers=bearer(game.token(0))).status_code == 200
    taken = [e for e in game.events(0) if e["type"] == "SeatTakenOver"]
    assert taken[0]["description"].startswith("ann left the game: a normal bot plays the seat from here")
    later = wait_for(lambda: [entry for entry in client.get(f"/games/{game.id}/moves-log").json()
                              if entry["seat"] == 0 and entry["actor"] == "bot:normal"], timeout=60)
    assert later[0]["actor_note"] == "played by a bot: ann left the game"

    shown = client.get(f"/games/{game.id}/record", headers=bearer(game.token(1))).json()
    assert "clock:bot:normal" in [entry.get("actor") for entry in shown["moves"]]
    # The complete record, as a finished game's would read (the running game's keeps hidden cards and
    # the seed back): the test chose the seed (seed=3).
    aggregate = service.game(game.id)
    record = json_native(build_record(aggregate, service._effective_moves(aggregate), EVERYONE))
    record["seed"] = 3
    actors = [entry.get("actor") for entry in record["moves"]]
    assert "clock:bot:normal" in actors and "bot:normal" in actors
    imported = client.post("/games/import", json=record)
    assert imported.status_code == 201, imported.text
    copy = client.get(f"/games/{imported.json()['id']}/moves-log").json()
    assert [e["actor"] for e in copy[:len(actors)]] == [a or f"seat:{e['seat']}" for a, e in zip(actors, record["moves"])]
    assert f"played by a bot: {name}'s clock ran out" in [e["actor_note"] for e in copy]

    forged = {**record, "moves": [{**record["moves"][0], "actor": "referee"}, *record["moves"][1:]]}
    refused = client.post("/games/import", json=forged)
    assert refused.status_code == 422 and "moves[0].actor" in refused.text
