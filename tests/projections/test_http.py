"""The read side over HTTP against a real Redis: replay, scores, history, audit, live stream.

Random playouts of every registered game: after every move the replay of the newest step
equals the live view (read-your-writes); once finished, every step equals the state the
live game had at that step and the scoreboard's final scores equal the game's own.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import uuid

import orjson
import pytest

from domain.engine import EVERYONE, copy_state, game_types, get_rules
from api.app import load_games
from api.settings import Settings
from tests.support import api_count, dice_duel  # noqa: F401  (register the test games)
from tests.support.api_client import TestGame, bearer

# The games the app serves, so every registered game gets a playout below (leniently, as the
# platform's tests do: a game package being written must not hide the others).
load_games(Settings(strict_games=False))

#: Random playouts over HTTP stop after this many moves (the long games are played to the
#: end by their own playout tests; here the read side is what is checked).
MAX_HTTP_MOVES = 1000


def play_randomly(client, service, game_type: str, players: int, seed: int, max_moves: int = MAX_HTTP_MOVES,
                  check_live_replay_every: int = 1):
    """Play random legal moves over HTTP; return the game and the live state after every step."""
    chooser = random.Random(seed)
    game = TestGame.create(client, game_type, players, seed=seed, names=[f"p{seed}-{s}" for s in range(players)])
    states = [copy_state(service.game(game.id).state)]
    while len(states) <= max_moves:
        view = game.get()
        if view["status"] == "finished" or not view["to_act"]:
            break
        seat = chooser.choice(view["to_act"])
        moves = game.legal(seat)["moves"]
        game.move(seat, chooser.choice(moves))
        states.append(copy_state(service.game(game.id).state))
        if (len(states) - 1) % check_live_replay_every == 0:
            replay = client.get(f"/games/{game.id}/replay", headers=bearer(game.token(seat))).json()
            assert replay["step"] == len(states) - 1
            assert replay["state"] == game.get(seat)["state"]
    return game, states


def registered_games():
    return [(rules.meta.name, rules.meta.min_players) for rules in game_types()]


@pytest.mark.slow
@pytest.mark.parametrize("game_type, players", registered_games())
def test_random_playout_replays_every_step_and_scores_equal_the_games_own(client, service, game_type, players):
    game, states = play_randomly(client, service, game_type, players, seed=11, check_live_replay_every=7)
    rules = get_rules(game_type)
    live = game.get()
    finished = live["status"] == "finished"
    assert finished, f"{game_type}: no end after {MAX_HTTP_MOVES} random moves"
    viewer = EVERYONE if finished else "spectator"
    for step in sorted({0, len(states) - 1, *random.Random(5).sample(range(len(states)), min(12, len(states)))}):
        replay = client.get(f"/games/{game.id}/replay", params={"step": step}).json()
        assert replay["steps"] == len(states) - 1
        assert replay["state"] == rules.view(states[step], viewer), f"step {step}"
        assert replay["scores"] == {str(k): v for k, v in rules.scores(states[step]).items()}
    scores = client.get(f"/games/{game.id}/scores").json()
    assert scores["scores"] == live["scores"]
    assert len(scores["history"]) == len(states)
    if finished:
        scoreboard = client.get(f"/scoreboard/{game_type}").json()
        if rules.meta.cooperative:      # a team record, no rating (issue 27.4)
            board = {row["player"]: {"wins": row["won"]} for row in scoreboard["team_record"]}
            assert scoreboard["leaders"] == []
        else:
            board = {row["player"]: row for row in scoreboard["leaders"]}
        names = [f"p11-{s}" for s in range(players)]
        assert {name: board[name]["wins"] for name in names} == \
            {name: int(seat in live["winners"]) for seat, name in enumerate(names)}
        analytics = client.get(f"/analytics/{game_type}").json()
        assert analytics["games"] == 1 and analytics["avg_moves"] == len(states) - 1
    log = client.get(f"/games/{game.id}/moves-log").json()
    assert [entry["move_no"] for entry in log] == list(range(1, len(states)))
    assert all(isinstance(entry["description"], str) and entry["description"] for entry in log)


def test_every_replay_step_equals_the_live_state_and_the_scoreboard_the_games_scores(client, service):
    for seed in (1, 2, 3):
        game, states = play_randomly(client, service, "dice_duel", 2, seed)
        live = game.get()
        assert live["status"] == "finished"
        rules = get_rules("dice_duel")
        for step, state in enumerate(states):
            for who in (0, 1, None):
                replay = client.get(f"/games/{game.id}/replay", params={"step": step},
                                    headers=bearer(game.token(who))).json()
                assert replay["state"] == rules.view(state, EVERYONE)
        assert client.get(f"/games/{game.id}/scores").json()["scores"] == live["scores"]
    leaders = client.get("/scoreboard/dice_duel").json()["leaders"]
    assert sum(row["games"] for row in leaders) == 6
    assert sum(row["wins"] for row in leaders) >= 3
    analytics = client.get("/analytics/dice_duel").json()
    assert analytics["games"] == 3 and set(analytics["seat_win_rate"]) == {"0", "1"}
    assert analytics["action_frequency"]["bid"] == 6


def test_replay_hides_hidden_information_while_the_game_runs(client, service):
    game = TestGame.create(client, "dice_duel", 2, seed=3)
    game.move(0, {"type": "roll"})
    for who, viewer in ((0, 0), (1, 1), (None, "spectator"), ("referee", "spectator")):
        replay = client.get(f"/games/{game.id}/replay", params={"step": 1}, headers=bearer(game.token(who))).json()
        assert replay["state"] == get_rules("dice_duel").view(service.game(game.id).state, viewer)
        assert replay["state"]["deck"] is None
    first = client.get(f"/games/{game.id}/replay", params={"step": 0}, headers=bearer(game.token(1))).json()
    assert isinstance(first["state"]["hands"][0], int) and isinstance(first["state"]["hands"][1], list)
    assert first["move"] is None and first["description"] == ""


def test_replay_of_a_step_shows_its_move_and_description(client):
    game = TestGame.create(client, "dice_duel", 2, seed=3)
    card = game.legal(0)["moves"][0]
    game.move(0, card)
    game.move(1, {"type": "roll"})
    step = client.get(f"/games/{game.id}/replay", params={"step": 1}, headers=bearer(game.token(0))).json()
    assert step["move"] == card and step["seat"] == 0 and step["move_no"] == 1
    assert step["description"] == f"Seat 0 plays the {card['card']} and scores {card['card']}"
    assert step["steps"] == 2
    # The other seat does not see a move whose facts hide something from it (the card drawn).
    other = client.get(f"/games/{game.id}/replay", params={"step": 1}, headers=bearer(game.token(1))).json()
    assert other["move"] == {"type": "play", "hidden": True}
    assert client.get(f"/games/{game.id}/replay", params={"step": 3}).json()["error"] == "step_out_of_range"
    assert client.get(f"/games/{game.id}/replay", params={"step": -1}).status_code == 422
    assert client.get("/games/not-a-game/replay").status_code == 404


def test_checkpointed_replay_is_correct_across_undone_moves(client, service, read_side):
    every = read_side.checkpoint_every
    game = TestGame.create(client, "api_count", 2, seed=8, options={"target": 10_000})
    states = [copy_state(service.game(game.id).state)]
    for move_no in range(1, 2 * every + 6):
        game.move((move_no - 1) % 2, {"type": "add", "amount": 1 + move_no % 2})
        states.append(copy_state(service.game(game.id).state))
    undo = game.undo("referee", every - 2, reason="misclick")
    assert undo.status_code == 201 and undo.json()["status"] == "applied"
    states = states[:every - 2]
    for move_no in range(every - 2, every + 7):
        seat = (move_no - 1) % 2
        game.move(seat, {"type": "add", "amount": 2 - move_no % 2})
        states.append(copy_state(service.game(game.id).state))
    rules = get_rules("api_count")
    for step, state in enumerate(states):
        replay = client.get(f"/games/{game.id}/replay", params={"step": step}).json()
        assert replay["state"] == rules.view(state, "spectator"), f"step {step}"
    history = client.get(f"/games/{game.id}/history").json()
    assert len(history["undone"]) == 2 * every + 5 - (every - 3)
    assert [m["move_no"] for m in history["effective"]] == list(range(1, len(states)))
    assert history["undo_requests"][0]["status"] == "applied"
    assert history["undo_requests"][0]["reason"] == "misclick"
    log = client.get(f"/games/{game.id}/moves-log").json()
    assert sum(entry["undone"] for entry in log) == len(history["undone"])
    scores = client.get(f"/games/{game.id}/scores").json()
    assert [h["move_no"] for h in scores["history"]] == list(range(len(states)))
    assert scores["scores"] == game.get()["scores"]


def test_undo_of_a_finished_game_reopens_it_on_the_scoreboard(client):
    game = TestGame.create(client, "dice_duel", 2, seed=9, names=["ann", "bob"])
    chooser = random.Random(2)
    while game.get()["status"] == "active":
        seat = game.get()["to_act"][0]
        game.move(seat, chooser.choice(game.legal(seat)["moves"]))
    assert client.get("/analytics/dice_duel").json()["games"] == 1
    assert sum(r["games"] for r in client.get("/scoreboard/dice_duel").json()["leaders"]) == 2
    last = game.get()["move_count"]
    assert game.undo("referee", last).json()["status"] == "applied"
    assert client.get("/analytics/dice_duel").json()["games"] == 0
    leaders = client.get("/scoreboard/dice_duel").json()["leaders"]
    assert all(row["games"] == 0 for row in leaders)
    assert client.get(f"/games/{game.id}/scores").json()["finished"] is False
    history = client.get(f"/games/{game.id}/history").json()
    assert history["undone"][-1]["move_no"] == last and not history["finished"]


def test_per_game_analytics(client):
    game = TestGame.create(client, "dice_duel", 2, seed=3)
    game.move(0, {"type": "roll"})
    game.move(1, {"type": "roll"})
    report = client.get(f"/games/{game.id}/analytics").json()
    assert report["action_counts"] == {"roll": 2}
    assert report["seat_action_counts"] == {"0": {"roll": 1}, "1": {"roll": 1}}
    assert [p["move_no"] for p in report["score_over_time"]] == [0, 1, 2]
    assert client.get("/analytics/no_such_game").status_code == 404
    assert client.get("/scoreboard/no_such_game").json()["error"] == "unknown_game_type"


# --------------------------------------------------------------------------- audit


def tamper(service, redis_client, game_id: str, change) -> None:
    """Rewrite a game's stored events behind the application's back.

    The stored events are read with the recorder, changed by `change` (a list of
    StoredEvent -> a list of StoredEvent), and written back in place of the originals with
    the event store's own packing but without the application (no hashes recomputed, no
    notifications): exactly what somebody with write access to Redis could do.
    """
    from domain.eventstore.recorders import RedisAggregateRecorder

    recorder = service.recorder
    key = uuid.UUID(game_id)
    changed = change(list(recorder.select_events(key)))
    for stored_key in list(redis_client.scan_iter(match=recorder.aggregate_key(key) + "*", count=10_000)):
        redis_client.unlink(stored_key)
    writer = RedisAggregateRecorder(recorder.datastore, name=recorder.name)
    for stored in changed:
        writer.insert_events([stored])


def relabel(stored, version: int, state: bytes | None = None):
    return dataclasses.replace(stored, originator_version=version, state=stored.state if state is None else state)


@pytest.mark.parametrize("how", ["alter", "remove", "insert", "reorder", "remove_last"])
def test_audit_verify_detects_tampering_in_redis(client, service, redis_client, how):
    game = TestGame.create(client, "dice_duel", 2, seed=3)
    for seat, move in ((0, {"type": "roll"}), (1, {"type": "roll"}), (0, {"type": "roll"}), (1, {"type": "roll"})):
        game.move(seat, move)
    ok = client.get(f"/games/{game.id}/audit/verify").json()
    assert ok["ok"] is True and ok["events"] == 5 and len(ok["head"]) == 64
    tamper(service, redis_client, game.id, lambda events: events)  # rewritten unchanged: still intact
    assert client.get(f"/games/{game.id}/audit/verify").json() == ok

    def alter(events):
        state = orjson.loads(events[2].state)
        state["description"] = "Seat 0 rolls a 6"
        return events[:2] + [relabel(events[2], 3, orjson.dumps(state))] + events[3:]

    changes = {
        "alter": (alter, 3),
        "remove": (lambda events: events[:2] + events[3:], 3),
        "insert": (lambda events: events[:2] + [relabel(events[1], 3)] + [relabel(e, e.originator_version + 1)
                                                                           for e in events[2:]], 3),
        "reorder": (lambda events: events[:2] + [relabel(events[3], 3), relabel(events[2], 4)] + events[4:], 3),
        "remove_last": (lambda events: events[:-1], 5),
    }
    change, first_bad = changes[how]
    tamper(service, redis_client, game.id, change)
    result = client.get(f"/games/{game.id}/audit/verify").json()
    assert result["ok"] is False, result
    assert result["first_bad_version"] == first_bad, result
    assert result["problem"]


# --------------------------------------------------------------------------- live


def sse_events(text: str) -> list[dict]:
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            found.append({"id": int(fields["id"]), "event": fields["event"], "data": orjson.loads(fields["data"])})
    return found


def test_stream_sends_every_event_redacted_per_caller_and_resumes_after_last_event_id(client):
    game = TestGame.create(client, "dice_duel", 2, seed=3)
    game.move(0, game.legal(0)["moves"][0])
    game.move(1, {"type": "roll"})
    spectator = sse_events(client.get(f"/games/{game.id}/stream", params={"follow": False}).text)
    assert [e["id"] for e in spectator] == [1, 2, 3]
    assert [e["event"] for e in spectator] == ["Created", "MovePlayed", "MovePlayed"]
    assert spectator[1]["data"]["move"] == {"type": "play", "hidden": True}
    assert all("deck" not in str(f) or f.get("hidden") or "cards" in f for f in spectator[0]["data"]["facts"])
    seat0 = sse_events(client.get(f"/games/{game.id}/stream", params={"follow": False},
                                  headers=bearer(game.token(0))).text)
    assert seat0[1]["data"]["move"]["type"] == "play" and "card" in seat0[1]["data"]["move"]
    assert seat0[1]["data"] == game.events(0)[1]
    resumed = sse_events(client.get(f"/games/{game.id}/stream", params={"follow": False},
                                    headers={"Last-Event-ID": "1"}).text)
    assert [e["id"] for e in resumed] == [2, 3]


def test_stream_follows_moves_appended_while_it_is_open(client):
    game = TestGame.create(client, "dice_duel", 2, seed=3)

    def play_later():
        game.move(0, {"type": "roll"})
        game.move(1, {"type": "roll"})

    writer = threading.Timer(0.3, play_later)
    writer.start()
    response = client.get(f"/games/{game.id}/stream", params={"max_events": 3}, headers={"Last-Event-ID": "0"})
    writer.join()
    assert [e["id"] for e in sse_events(response.text)] == [1, 2, 3]
    assert client.get("/games/nope/stream").status_code == 404
