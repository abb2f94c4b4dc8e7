"""Hidden information (hands, deck order, secret bids, the seed, token hashes) never reaches
a caller who may not see it: not in /games, /games/{id}, legal-moves, moves or events."""

from __future__ import annotations

import hashlib

import orjson

from tests.support.api_client import TestGame, bearer

SEED = 918273645546372819  # distinctive: its digits must never appear in any answer


def all_answers(game: TestGame, who) -> list[bytes]:
    headers = bearer(game.token(who))
    client = game.client
    paths = ["/games", f"/games/{game.id}", f"/games/{game.id}/events?limit=1000"]
    if who not in (None, "spectator"):
        paths.append(f"/games/{game.id}/legal-moves")
    bodies = []
    for path in paths:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        bodies.append(response.content)
    return bodies


def secrets_of(game: TestGame) -> list[bytes]:
    hashes = [hashlib.sha256(t.encode()).hexdigest() for t in game.seat_tokens + [game.referee_token]]
    return [str(SEED).encode()] + [h.encode() for h in hashes]


def test_seed_and_token_hashes_never_appear(client):
    game = TestGame.create(client, "dice_duel", 2, seed=SEED)
    seats = [0, 1]
    bodies = []
    while game.get()["status"] == "active":
        for who in (None, "referee", 0, 1):
            bodies += all_answers(game, who)
        seat = game.get()["to_act"][0]
        move = game.legal(seat)["moves"][0]
        bodies.append(game.post_move(seat, move).content)
        seats.reverse()
    for who in (None, "referee", 0, 1):
        bodies += all_answers(game, who)
    for body in bodies:
        for secret in secrets_of(game):
            assert secret not in body


def test_hands_and_deck_are_hidden_from_spectators_referee_and_opponents(client, service):
    game = TestGame.create(client, "dice_duel", 2, seed=SEED)
    live = service.game(game.id).state
    hand0, hand1 = live["hands"]
    for who in (None, "referee"):
        state = game.get(who)["state"]
        assert state["hands"] == [2, 2] and state["deck"] is None
    assert game.get(0)["state"]["hands"] == [hand0, 2]
    assert game.get(1)["state"]["hands"] == [2, hand1]
    for who, hidden_seats in ((None, [0, 1]), ("referee", [0, 1]), (0, [1]), (1, [0])):
        created = game.events(who)[0]
        assert "seed" not in created["payload"] and "seat_token_hashes" not in created["payload"]
        for fact in created["facts"]:
            assert "deck" not in fact  # the deck order is seen by nobody while the game runs
            if fact["type"] == "CardsDealt" and fact["seat"] in hidden_seats:
                assert "cards" not in fact and "private_to" not in fact


def test_a_drawn_card_is_seen_only_by_its_owner(client):
    game = TestGame.create(client, "dice_duel", 2, seed=SEED)
    card = game.legal(0)["moves"][0]["card"]
    answer = game.move(0, {"type": "play", "card": card})
    drawn = next(f for f in answer["facts"] if f["type"] == "CardDrawn")
    assert "card" in drawn
    for who in (None, "referee", 1):
        move_event = game.events(who)[-1]
        facts = {f["type"]: f for f in move_event["facts"]}
        assert facts["CardDrawn"] == {"type": "CardDrawn", "seat": 0}
        assert move_event["move"]["hidden"] is True


def test_secret_bid_is_hidden_until_revealed_and_everything_shows_at_the_end(client):
    game = TestGame.create(client, "dice_duel", 2, seed=SEED)
    for _ in range(6):
        seat = game.get()["to_act"][0]
        game.move(seat, {"type": "roll"})
    game.move(0, {"type": "bid", "points": 2})
    for who in (None, "referee", 1):
        assert game.get(who)["state"]["bids"][0] is True
        event = game.events(who)[-1]
        assert event["move"] == {"type": "bid", "hidden": True}
        assert orjson.dumps(event["facts"]) == b'[{"type":"BidCommitted","seat":0}]'
    assert game.get(0)["state"]["bids"][0] == 2
    game.move(1, {"type": "bid", "points": 0})
    for who in (None, "referee", 0, 1):
        view = game.get(who)
        assert view["status"] == "finished" and view["winners"]
        assert all(isinstance(hand, list) for hand in view["state"]["hands"])
        assert view["state"]["deck"] is not None
        created = game.events(who)[0]
        assert any("deck" in fact for fact in created["facts"])
        assert game.events(who)[-2]["move"] == {"type": "bid", "points": 2}
