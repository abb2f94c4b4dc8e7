"""Tables that never stall (issue 28.1-2): clocks kept from the events' times, deadlines served by the
workers' clock keepers with real time (short clocks, seconds), timeouts played by a bot and recorded,
a bank with its increment, forfeit, a deadline served twice expiring once, a restart in the middle of
a clock, and leaving a seat to a bot."""

from __future__ import annotations

import threading
import time

import pytest

from api.jobs.clocks import ClockKeeper, DeadlineBook
from domain.app import errors
from domain.app.clocks import clock_option, deadlines, new_clock, remaining, tick
from tests.bots.test_bot_seats import wait_for
from tests.support.api_client import TestGame, bearer


def test_a_clock_is_checked_in_words():
    assert clock_option({"per_move_s": 60}, None) == ({"per_move_s": 60.0}, "bot")
    assert clock_option({"bank_s": 900}, "forfeit") == ({"bank_s": 900.0, "increment_s": 0.0}, "forfeit")
    for clock, words in [({"per_move_s": 0}, "from 1"), ({"bank_s": 10, "per_move_s": 3}, "either per_move_s"),
                         ({"bank_s": "ten"}, "number of seconds"), ([], "A clock is")]:
        with pytest.raises(errors.InvalidGameSetup, match=words):
            clock_option(clock, None)
    with pytest.raises(errors.InvalidGameSetup, match="on_timeout"):
        clock_option(None, "shrug")


def test_a_bank_runs_only_while_its_seat_is_asked_and_gains_the_increment():
    table = {"bank_s": 60.0, "increment_s": 5.0}
    clock = new_clock(table, 2)
    tick(clock, table, 1000.0, [0], None)          # setup: seat 0 asked
    assert remaining(clock, table, 0, 1010.0) == 50.0 and remaining(clock, table, 1, 1010.0) == 60.0
    tick(clock, table, 1012.0, [1], 0)             # seat 0 moved after 12 s: 48 + 5
    assert clock["banks"]["0"] == 53.0 and remaining(clock, table, 1, 1015.0) == 57.0
    assert deadlines(clock, table) == {1: 1012.0 + 60.0}
    tick(clock, table, 1020.0, [], 1)              # the game waits on nobody: every clock stands
    assert deadlines(clock, table) == {} and remaining(clock, table, 1, 5000.0) == 57.0


def first_move(game: TestGame, seat: int) -> None:
    game.move(seat, game.legal(seat)["moves"][0])


@pytest.mark.slow
def test_a_per_move_timeout_is_played_by_a_bot_and_recorded(client):
    game = TestGame.create(client, "adas_dream", 2, seed=3, names=["ann", "bo"], clock={"per_move_s": 4})
    view = game.get()
    assert view["table"]["clock"] == {"per_move_s": 4.0} and view["table"]["on_timeout"] == "bot"
    assert 0 < view["seats"][0]["clock_s"] <= 4
    first_move(game, 0)
    asked = game.get()["to_act"]
    expired = wait_for(lambda: [e for e in game.events(0) if e["type"] == "ClockExpired"], timeout=20)
    seat = expired[0]["seat"]
    assert seat in asked and expired[0]["payload"]["action"] == "bot"
    after = expired[0]["version"]
    played = wait_for(lambda: [e for e in game.events(0) if e["type"] == "MovePlayed" and e["version"] > after],
                      timeout=30)
    assert played[0]["seat"] == seat and played[0]["actor"] == "clock:bot:normal"
    assert client.get(f"/games/{game.id}/audit/verify").json()["ok"] is True


@pytest.mark.slow
def test_a_bank_with_increment_and_a_forfeit(client):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 1000},
                           clock={"bank_s": 30, "increment_s": 5})
    time.sleep(0.5)
    game.move(0, {"type": "add", "amount": 1})
    left = game.get()["seats"][0]["clock_s"]
    assert 33.5 <= left <= 34.6, left                  # 30 - ~0.5 + 5, standing while seat 1 is asked
    lost = TestGame.create(client, "adas_dream", 2, seed=3, clock={"per_move_s": 3}, on_timeout="forfeit")
    first_move(lost, 0)
    seats = wait_for(lambda: (lambda s: s if s[1]["forfeited"] else None)(lost.get()["seats"]), timeout=20)
    assert seats[1]["left"] and seats[1]["bot"] == "normal" and seats[1]["clock_s"] is None
    assert wait_for(lambda: [e for e in lost.events(0) if e["type"] == "MovePlayed" and e["actor"] == "bot:normal"],
                    timeout=30)


def test_a_deadline_served_twice_expires_once_and_survives_a_restart(client, service, app):
    game = TestGame.create(client, "api_count", 2, seed=3, options={"target": 1000}, clock={"per_move_s": 600})
    game.move(0, {"type": "add", "amount": 1})
    due = service.next_deadline(game.id)
    assert due is not None and abs(due - (time.time() + 600)) < 5
    from api.settings import Settings  # noqa: F401  (the restart: a service that never saw the game)
    from domain.app import GameService

    fresh = GameService(env=dict(service.env))
    assert fresh.next_deadline(game.id) == pytest.approx(due, abs=0.01)   # folded from the events' times
    results: list[list[int]] = []
    barrier = threading.Barrier(2)

    def serve(svc):
        barrier.wait()
        results.append(svc.expire_clocks(game.id, due + 1))
    threads = [threading.Thread(target=serve, args=(svc,)) for svc in (service, fresh)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(tuple, results)) == [(), (1,)]
    assert [e["seat"] for e in game.events(0) if e["type"] == "ClockExpired"] == [1]
    book = DeadlineBook(*__import__("projections.readside", fromlist=["redis_of"]).redis_of(service))
    book.set("some-game", 10.0)
    assert [book.claim("some-game", 11.0), book.claim("some-game", 11.0)] == [True, False]


@pytest.mark.slow
def test_leaving_hands_the_seat_to_a_bot_and_the_game_no_longer_counts(client):
    game = TestGame.create(client, "adas_dream", 2, seed=3, names=["ann", "bo"])
    first_move(game, 0)
    assert client.post(f"/games/{game.id}/leave").status_code == 403          # a spectator has no seat
    answer = client.post(f"/games/{game.id}/leave", headers=bearer(game.token(0)))
    assert answer.status_code == 200, answer.text
    assert answer.json()["bot"] == "normal"
    seats = game.get()["seats"]
    assert seats[0]["left"] and seats[0]["bot"] == "normal" and not seats[1]["left"]
    again = client.post(f"/games/{game.id}/leave", headers=bearer(game.token(0)))
    assert again.status_code == 422 and again.json()["rule"] == "TABLE-LEAVE-01"
    taken = [e for e in game.events(0) if e["type"] == "SeatTakenOver"]
    assert taken and taken[0]["seat"] == 0 and taken[0]["payload"]["reason"] == "left"
    played = wait_for(lambda: [e for e in game.events(0) if e["type"] == "MovePlayed"
                               and e["version"] > taken[0]["version"]], timeout=60)
    assert played[0]["actor"] == "bot:normal"
