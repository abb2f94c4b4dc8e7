"""A finished game's read side in two compressed strings (projections/compaction.py), on a real Redis.

- the follower compacts a game's replay and score history once its finishing move is
  committed, and every read answers exactly as before (replay steps, moves log, history,
  scores); the whole game then takes at most 20 KB of Redis, read side included;
- a compacted game that is reopened (the referee's undo) is expanded back to its plain keys
  in the same commit, and its views go on exactly as if it had never been compacted;
- `heirloom migrate` compacts the read side of the golden store's finished games (stored by
  earlier releases, read side rebuilt by today's code), idempotently, answers unchanged.
"""

from __future__ import annotations

import pytest

from domain.service import SPECTATOR_CALLER, GameService
from projections.readside import ReadSide
from tests.support import api_count  # noqa: F401 - registers the test game

MOVES = 100


def answers(read_side: ReadSide, game_id: str) -> dict:
    steps = read_side.scores(game_id)["history"]
    return {
        "replay": [read_side.replay(game_id, step, SPECTATOR_CALLER) for step in range(0, len(steps), 7)],
        "last": read_side.replay(game_id, len(steps) - 1, SPECTATOR_CALLER),
        "moves": read_side.moves_log(game_id, SPECTATOR_CALLER),
        "history": read_side.history(game_id, SPECTATOR_CALLER),
        "scores": read_side.scores(game_id),
    }


def game_keys(client, prefix: str, game_id: str) -> dict[str, int]:
    return {key.decode()[len(prefix) + 1:]: client.memory_usage(key, samples=0)
            for key in client.scan_iter(match=f"{prefix}:*{game_id}*")}


def play(service: GameService, moves: int, target: int | None = None) -> tuple[str, dict]:
    created = service.create_game("api_count", 2, options={"target": target or moves})
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    version = created["version"]
    for n in range(moves):
        version = service.play(game_id, tokens[n % 2], {"type": "add", "amount": 1}, expected_version=version)["version"]
    return game_id, created


def test_a_finished_game_is_compacted_and_reads_the_same(app_env, redis_client, key_prefix):
    service = GameService(env=app_env)
    read_side = ReadSide(service)
    read_side.runner.compact_finished = False  # first the plain views, to compare with
    read_side.start()
    try:
        game_id, _ = play(service, MOVES)
        read_side.sync()
        before = answers(read_side, game_id)
        assert any(key.endswith(":moves") for key in game_keys(redis_client, key_prefix, game_id))
        read_side.runner._compact([{"type": "MovePlayed", "finished": True, "game_id": game_id}])
        keys = game_keys(redis_client, key_prefix, game_id)
        assert not [key for key in keys if key.endswith((":moves", ":eff", ":ckpt", ":status", ":history"))], keys
        assert answers(read_side, game_id) == before
        total = sum(keys.values())
        assert total <= 20 * 1024, f"{total} bytes in {len(keys)} keys: {keys}"
        # A second compaction finds nothing to do.
        from projections.compaction import compact_game
        views = read_side.projections
        assert not compact_game(views["replay"].view, views["scoreboard"].view, game_id)
    finally:
        read_side.stop()
        service.close()


def test_a_compacted_game_reopened_by_an_undo_goes_on_as_if_never_compacted(app_env, redis_client, key_prefix):
    service = GameService(env=app_env)
    read_side = ReadSide(service)
    read_side.start()
    try:
        game_id, created = play(service, 30)
        read_side.sync()
        assert any(key.endswith(":z") for key in game_keys(redis_client, key_prefix, game_id))
        answer = service.request_undo(game_id, created["referee_token"], 21, "compaction: reopen")
        assert answer["status"] == "applied"
        tokens = [seat["token"] for seat in created["seats"]]
        version = service.game(game_id).version
        for n in range(3):  # play on after the undo
            seat = service.game_view(game_id, None)["to_act"][0]
            version = service.play(game_id, tokens[seat], {"type": "add", "amount": 2}, expected_version=version)["version"]
        read_side.sync()
        reopened = answers(read_side, game_id)
        keys = game_keys(redis_client, key_prefix, game_id)
        assert not [key for key in keys if key.endswith(":z")], keys  # expanded back
        # The same game's views rebuilt from the log, never compacted: identical.
        for name in read_side.projections:
            read_side.rebuild(name, show_progress=False)
        assert answers(read_side, game_id) == reopened
        live = service.game(game_id)
        assert reopened["last"]["step"] == live.last_move_no and reopened["scores"]["scores"] == live.scores
    finally:
        read_side.stop()
        service.close()


@pytest.mark.slow
def test_migrate_compacts_the_read_side_of_the_golden_store(redis_url, monkeypatch):
    from api.cli import main
    from tests.golden.test_golden_store import GAMES_V2, restored

    with restored(redis_url, 2) as service:
        read_side = ReadSide(service)
        for name in read_side.projections:
            read_side.rebuild(name, show_progress=False)  # today's read side of yesterday's games: plain keys
        finished = [game for game in GAMES_V2 if game["status"] == "finished"]
        before = {game["id"]: answers(read_side, game["id"]) for game in finished}
        datastore = service.recorder.datastore
        client, prefix = datastore.client, datastore.prefix
        monkeypatch.setenv("REDIS_URL", redis_url)
        monkeypatch.setenv("REDIS_KEY_PREFIX", prefix)
        monkeypatch.setenv("HEIRLOOM_PROJECTIONS", "external")
        assert main(["migrate", "--quiet"]) == 0
        for game in finished:
            keys = game_keys(client, prefix, game["id"])
            assert any(key.endswith(":replay:g:" + game["id"] + ":z") for key in keys), keys
            assert not [key for key in keys if key.endswith((":moves", ":eff", ":ckpt"))], keys
            assert answers(read_side, game["id"]) == before[game["id"]]
            steps = game["step_scores"]
            for step in (0, len(steps) // 2, len(steps) - 1):
                assert read_side.replay(game["id"], step, SPECTATOR_CALLER)["scores"] == steps[step]
        snapshot = {key: client.dump(key) for key in client.scan_iter(match=f"{prefix}:proj:*:g:*")}
        assert main(["migrate", "--quiet"]) == 0  # idempotent: nothing left to fold
        assert {key: client.dump(key) for key in client.scan_iter(match=f"{prefix}:proj:*:g:*")} == snapshot
