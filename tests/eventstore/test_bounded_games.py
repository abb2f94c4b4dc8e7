"""A game's aggregate and snapshot stay bounded however long it gets; moves are decided on the
cached aggregate without reading the store first, and a cache that another process made stale
costs a retry, never a wrong answer (issue 13.1, 13.3). Real Redis, own key prefix."""

from __future__ import annotations

import uuid

import orjson
import pytest

from domain.app import GameService, VersionConflict
from domain.app.game import IDEMPOTENCY_KEYS, WINDOW
from tests.support import api_count  # noqa: F401 - registers the test game
from tests.support.api_client import replay_from_store


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
    assert long <= short * 1.1, (short, long)
    game = service.game(game_id)
    assert len(game.runs) == 1 and game.last_move_no == 499
    assert len(game.idempotency) == IDEMPOTENCY_KEYS and f"b{399}" in game.idempotency
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
