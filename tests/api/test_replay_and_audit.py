"""Replaying the stored log equals the live state after every move; snapshots; the hash chain."""

from __future__ import annotations

import random
import uuid

from domain.audit import GENESIS, verify_chain
from domain.engine import EVERYONE, get_rules
from domain.service import GameService
from tests.support.api_client import TestGame, replay_from_store


def test_replay_equals_live_state_after_every_move(client, service):
    chooser = random.Random(3)
    game = TestGame.create(client, "dice_duel", 2, seed=21)
    moves = 0
    while game.get()["status"] == "active":
        seat = chooser.choice(game.get()["to_act"])
        game.move(seat, chooser.choice(game.legal(seat)["moves"]))
        moves += 1
        if moves == 3:
            game.undo("referee", 2)
        live = service.game(game.id)
        assert replay_from_store(service, game.id) == live.state
        assert service.rebuilt(game.id).state == live.state
        assert game.get("referee")["state"] == get_rules("dice_duel").view(live.state, "spectator") \
            or live.finished
    assert game.get()["state"] == get_rules("dice_duel").view(service.game(game.id).state, EVERYONE)


def test_long_game_uses_snapshots_and_a_fresh_process_sees_the_same_game(client, service, settings):
    game = TestGame.create(client, "api_count", 2, seed=8, options={"target": 10000})
    for move_no in range(120):
        game.move(move_no % 2, {"type": "add", "amount": 1})
    snapshots = list(service.snapshots.get(uuid.UUID(game.id)))
    assert [s.originator_version for s in snapshots] == [100]  # the latest only
    fresh = GameService(env=settings.service_env())
    assert fresh.game(game.id).state == service.game(game.id).state
    assert fresh.game(game.id).version == 121
    # An undo across snapshots: the state is refolded from the store, live and fresh alike.
    assert game.undo("referee", 31).json()["status"] == "applied"
    for move_no in range(30, 78):
        game.move(move_no % 2, {"type": "add", "amount": 2})
    assert game.get()["state"]["count"] == 30 + 2 * 48 and game.get()["version"] == 171
    assert [s.originator_version for s in service.snapshots.get(uuid.UUID(game.id))] == [150]
    again = GameService(env=settings.service_env())
    assert again.game(game.id).state == service.game(game.id).state == replay_from_store(service, game.id)
    assert service.rebuilt(game.id).state == service.game(game.id).state


def chain_of(service, game_id: str):
    return [(type(e).__name__, e.originator_version, dict(vars(e))) for e in service.events.get(uuid.UUID(game_id))]


def test_hash_chain_links_every_event_and_detects_tampering(client, service):
    game = TestGame.create(client, "api_count", 2, seed=8)
    game.move(0, {"type": "add", "amount": 1})
    game.move(1, {"type": "roll"})
    game.undo(0, 1)
    events = chain_of(service, game.id)
    ok, count, head, problem = verify_chain(events)
    assert (ok, count, problem) == (True, 4, "")
    listing = game.events()
    assert listing[0]["prev_hash"] == GENESIS and listing[-1]["hash"] == head
    assert [e["prev_hash"] for e in listing[1:]] == [e["hash"] for e in listing[:-1]]

    altered = [list(e) for e in events]
    altered[1][2] = {**altered[1][2], "move": {"type": "add", "amount": 2}}
    assert verify_chain(altered)[0] is False
    assert verify_chain(events[:1] + events[2:])[0] is False
    assert verify_chain([events[0], events[2], events[1], events[3]])[0] is False
