"""A game's aggregate and snapshot stay bounded however long it gets; moves are decided on the
cached aggregate without reading the store first, and a cache that another process made stale
costs a retry, never a wrong answer (issue 13.1, 13.3). Real Redis, own key prefix."""

from __future__ import annotations

import uuid

import orjson
import pytest

from domain.app import GameService, IdempotencyKeyReused, VersionConflict
from domain.app.game import WINDOW, key_digest
from tests.support import api_count  # noqa: F401 - registers the test game
from tests.support.api_client import replay_from_store


#: The snapshot bytes one remembered Idempotency-Key may cost.
KEY_BYTES = 24


@pytest.fixture
def service(app_env):
    app = GameService(env=app_env)
    yield app
    app.close()


def play(service, game_id, tokens, moves, version, key_prefix=None):
    for n in range(moves):
        key = f"{key_prefix}{n}" if key_prefix else None
        seat = service.game(game_id).state["active"]
        version = service.play(game_id, tokens[seat], {"type": "add", "amount": 1},
                               expected_version=version, idempotency_key=key)["version"]
    return version


def snapshot_bytes(service, game_id) -> int:
    snapshot = list(service.snapshots.get(uuid.UUID(game_id)))[-1]
    return len(orjson.dumps(snapshot.state, default=str))


def test_the_aggregate_and_its_snapshot_do_not_grow_with_the_game(service):
    created = service.create_game("api_count", 2, options={"target": 10000}, seed=3)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    version = play(service, game_id, tokens, 99, created["version"], key_prefix="a")
    short = snapshot_bytes(service, game_id)  # the snapshot at version 100
    version = play(service, game_id, tokens, 400, version, key_prefix="b")
    long = snapshot_bytes(service, game_id)  # at version 500
    assert [s.originator_version for s in service.snapshots.get(uuid.UUID(game_id))] == [500]  # latest only
    # Only the Idempotency-Keys grow, on purpose (kept for the game's life, issue 30.8): a
    # digest and a version each, about 20 bytes per keyed move.
    assert long <= short * 1.1 + 400 * KEY_BYTES, (short, long)
    game = service.game(game_id)
    assert len(game.runs) == 1 and game.last_move_no == 499
    assert len(game.idempotency) == 499 and key_digest("b399") in game.idempotency and key_digest("a0") in game.idempotency
    assert len(game.window) < 2 * WINDOW
    # An undo inside the window refolds by itself; one far back refolds from the store.
    for to_move in (495, 100):
        assert service.request_undo(game_id, created["referee_token"], to_move)["status"] == "applied"
        live = service.game(game_id)
        assert live.last_move_no == to_move - 1
        assert live.state == replay_from_store(service, game_id)
        assert service.rebuilt(game_id).state == live.state
    undone = service.game(game_id).undone_versions
    assert set(range(496, 501)) <= undone and set(range(101, 496)) <= undone
    version = play(service, game_id, tokens, 3, service.game(game_id).version)
    assert service.game(game_id).state == replay_from_store(service, game_id)


def test_a_stale_cache_costs_a_retry_never_a_wrong_answer(app_env):
    first, second = GameService(env=app_env), GameService(env=app_env)  # two processes
    try:
        created = first.create_game("api_count", 2, options={"target": 1000}, seed=4)
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        assert second.game(game_id).version == 1  # cached in the second process
        v = play(first, game_id, tokens, 3, 1)  # the second's copy is now behind
        answer = second.play(game_id, tokens[(v - 1) % 2], {"type": "add", "amount": 2}, expected_version=v)
        assert answer["version"] == v + 1 and answer["replayed"] is False
        # A client that saw an old version gets the conflict with the real version.
        v = play(first, game_id, tokens, 1, v + 1)
        with pytest.raises(VersionConflict) as conflict:
            second.play(game_id, tokens[(v - 1) % 2], {"type": "add", "amount": 1}, expected_version=v - 1)
        assert conflict.value.extra["current_version"] == v
        # An Idempotency-Key used in the first process answers the first answer in the second.
        keyed = first.play(game_id, tokens[(v - 1) % 2], {"type": "add", "amount": 1}, expected_version=v,
                           idempotency_key="once")
        again = second.play(game_id, tokens[(v - 1) % 2], {"type": "add", "amount": 1}, expected_version=v,
                            idempotency_key="once")
        assert again["replayed"] is True and again["version"] == keyed["version"]
        assert first.game(game_id).version == second.game(game_id).version == keyed["version"]
        assert second.game(game_id).state == replay_from_store(second, game_id)
    finally:
        first.close()
        second.close()


def test_a_late_retry_of_a_keyed_move_is_answered_never_appended_twice(service):
    """Issue 30.8: keys were kept for the last 64 moves only, so a retry of an older keyed move
    that was still legal was appended a second time. Now it is answered as the first time, for
    the game's whole life, also after a restart (the snapshot keeps the keys)."""
    created = service.create_game("api_count", 2, options={"target": 10000}, seed=3)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    first = service.play(game_id, tokens[0], {"type": "add", "amount": 1}, expected_version=1, idempotency_key="early")
    version = play(service, game_id, tokens, 150, first["version"], key_prefix="k")
    seat = service.game(game_id).state["active"]
    assert seat == 1  # seat 0 could play "add 1" again now: a retry of "early" must not
    version = play(service, game_id, tokens, 1, version)
    assert service.game(game_id).state["active"] == 0
    fresh = GameService(env=service.env)  # a freshly started process: the snapshot, then the events
    for svc in (service, fresh):
        retry = svc.play(game_id, tokens[0], {"type": "add", "amount": 1}, idempotency_key="early")
        assert retry["replayed"] is True and retry["version"] == first["version"] and retry["move_no"] == 1
        assert svc.game(game_id).version == version  # nothing appended
        with pytest.raises(IdempotencyKeyReused):
            svc.play(game_id, tokens[0], {"type": "add", "amount": 2}, idempotency_key="early")
    fresh.close()
