"""The WebSocket move channel (/games/{id}/ws) on a real `heirloom serve` socket and a real Redis.

Moves in, the same answers as POST /moves (errors with the same bodies); every new event out
to every connection, redacted per connection exactly as the events listing redacts it.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from tests.support.api_server import RunningServer, server_env

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(redis_url):
    from tests.support.redis_fixtures import delete_prefix, new_prefix
    import redis

    prefix = new_prefix()
    with RunningServer(server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=prefix)) as running:
        yield running
    client = redis.Redis.from_url(redis_url)
    delete_prefix(client, prefix)
    client.close()


def ws_url(server, game_id: str, after: int | None = None) -> str:
    url = server.url.replace("http://", "ws://") + f"/games/{game_id}/ws"
    return url if after is None else f"{url}?after={after}"


async def receive(ws, timeout: float = 10.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


STASH: dict[int, list[dict]] = {}  # events received while waiting for answers, per connection


def is_event(message: dict) -> bool:
    return "type" in message and "version" in message


async def answer(ws) -> dict:
    """The next message that is not an event (an answer or an error); events are stashed."""
    while True:
        message = await receive(ws)
        if not is_event(message):
            return message
        STASH.setdefault(id(ws), []).append(message)


async def events_until(ws, version: int) -> list[dict]:
    """Every event this connection received, up to the event of `version`."""
    seen = STASH.pop(id(ws), [])
    while not seen or seen[-1]["version"] < version:
        message = await receive(ws)
        if is_event(message):
            seen.append(message)
    return seen


def test_seats_play_over_the_socket_and_every_connection_sees_its_own_redaction(server):
    http = httpx.Client(base_url=server.url, timeout=10)
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "seed": 3}).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]

    async def scenario() -> None:
        async with websockets.connect(ws_url(server, game_id, after=0)) as seat0, \
                websockets.connect(ws_url(server, game_id, after=0)) as seat1, \
                websockets.connect(ws_url(server, game_id, after=0)) as spectator:
            await seat0.send(json.dumps({"token": tokens[0]}))
            await seat1.send(json.dumps({"token": tokens[1]}))
            await spectator.send(json.dumps({"token": None}))  # a spectator that need not wait
            for ws in (seat0, seat1, spectator):  # `Created`: each connection follows the game now
                assert [e["version"] for e in await events_until(ws, 1)] == [1]
                STASH[id(ws)] = []
            # Same errors as POST /moves, same bodies.
            await seat1.send(json.dumps({"move": {"type": "roll"}, "expected_version": 1}))
            refused = await answer(seat1)
            http_refused = http.post(f"/games/{game_id}/moves", json={"move": {"type": "roll"}, "expected_version": 1},
                                     headers={"Authorization": f"Bearer {tokens[1]}"})
            assert http_refused.status_code == 403 and refused == http_refused.json()
            await seat0.send(json.dumps({"move": {"type": "roll"}, "expected_version": 7}))
            conflict = await answer(seat0)
            assert conflict["error"] == "version_conflict" and conflict["current_version"] == 1
            await seat0.send(json.dumps({"move": {"type": "play", "card": 99}, "expected_version": 1}))
            illegal = await answer(seat0)
            assert illegal["error"] == "illegal_move" and illegal["rule"] == "DUEL-PLAY-01"
            await seat0.send(json.dumps({"move": "roll"}))
            invalid = await answer(seat0)
            assert invalid["error"] == "invalid_request" and "move" in invalid["detail"]
            await seat0.send("not json")
            assert (await answer(seat0))["error"] == "invalid_request"

            # Moves over the socket: the answer is POST /moves' 201 body.
            version = 1
            state = http.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            for turn in range(6):
                seat, ws = (turn % 2, (seat0, seat1)[turn % 2])
                hand = http.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
                cards = hand["state"]["hands"][seat]
                move = {"type": "play", "card": cards[0]} if turn < 2 and cards else {"type": "roll"}
                await ws.send(json.dumps({"move": move, "expected_version": version,
                                          "idempotency_key": f"k{turn}"}))
                reply = await answer(ws)
                assert reply["version"] == version + 1 and reply["move_no"] == turn + 1
                assert reply["replayed"] is False and reply["status"] == "active"
                version = reply["version"]
            # A retry with the same key answers the first answer again and stores nothing.
            await seat1.send(json.dumps({"move": {"type": "roll"}, "expected_version": 6, "idempotency_key": "k5"}))
            again = await answer(seat1)
            assert again["replayed"] is True and again["version"] == version
            for bid_seat, ws in ((0, seat0), (1, seat1)):
                await ws.send(json.dumps({"move": {"type": "bid", "points": 2 - bid_seat},
                                          "expected_version": version}))
                reply = await answer(ws)
                version = reply["version"]
            assert reply["status"] == "finished"

            # Every connection got every event, as the events listing shows it to that caller
            # (the last events once finished: in full, for everybody).
            pushed = {
                "seat0": await events_until(seat0, version),
                "seat1": await events_until(seat1, version),
                "spectator": await events_until(spectator, version),
            }
            for who in pushed:
                assert [e["version"] for e in pushed[who]] == list(range(2, version + 1)), who
            assert state["version"] == 1
            return pushed

    pushed = asyncio.run(scenario())
    finished_listing = http.get(f"/games/{game_id}/events").json()["events"]
    last = finished_listing[-1]
    for who in pushed:
        assert pushed[who][-1] == last, who
    # While the game ran, seat 0's secret bid was hidden from seat 1 and the spectator, never from seat 0.
    bid = next(e for e in pushed["seat0"] if e["type"] == "MovePlayed" and e["move_no"] == 7)
    assert bid["move"] == {"type": "bid", "points": 2}
    for who in ("seat1", "spectator"):
        hidden = next(e for e in pushed[who] if e["type"] == "MovePlayed" and e["move_no"] == 7)
        assert hidden["move"].get("hidden") is True and "points" not in json.dumps(hidden["facts"]), who
    # The card seat 0 drew: seen by seat 0 only while the game runs.
    def drawn(who: str) -> dict:
        move = next(e for e in pushed[who] if e["type"] == "MovePlayed" and e["move_no"] == 1)
        return next(f for f in move["facts"] if f["type"] == "CardDrawn")
    assert "card" in drawn("seat0") and "card" not in drawn("seat1") and "card" not in drawn("spectator")
    http.close()


def test_a_bad_token_is_refused_with_the_http_error_body(server):
    http = httpx.Client(base_url=server.url, timeout=10)
    created = http.post("/games", json={"game": "api_count", "players": 1}).json()

    async def scenario() -> tuple[dict, dict]:
        async with websockets.connect(ws_url(server, created["id"])) as ws:
            await ws.send(json.dumps({"token": "not-a-token"}))
            refused = await receive(ws)
        async with websockets.connect(ws_url(server, "no-such-game")) as ws:
            missing = await receive(ws)
        return refused, missing

    refused, missing = asyncio.run(scenario())
    assert refused == http.get(f"/games/{created['id']}", headers={"Authorization": "Bearer not-a-token"}).json()
    assert refused["error"] == "invalid_token"
    assert missing["error"] == "game_not_found"
    http.close()


def test_a_spectator_cannot_move(server):
    http = httpx.Client(base_url=server.url, timeout=10)
    created = http.post("/games", json={"game": "api_count", "players": 1}).json()

    async def scenario() -> dict:
        async with websockets.connect(ws_url(server, created["id"])) as ws:
            await ws.send(json.dumps({"move": {"type": "add", "amount": 1}, "expected_version": 1}))
            return await receive(ws)

    answer = asyncio.run(scenario())
    assert answer == http.post(f"/games/{created['id']}/moves",
                               json={"move": {"type": "add", "amount": 1}, "expected_version": 1}).json()
    assert answer["error"] == "token_required"
    http.close()
