"""`copy_store` (domain/eventstore/copy_store.py) between two single-node stores: a second run
appends only what the source gained since (a game that moved on, a new game), never anything
twice; a destination whose copy differs from the source is reported and left alone. (Into a
real cluster, on the golden store: tests/cluster/test_http_cluster.py.)"""

from __future__ import annotations

import redis

import tests.support.api_count  # noqa: F401 - the test game
from domain.app import GameService
from domain.eventstore.admin import delete_prefix
from domain.eventstore.copy_store import copy_store
from tests.support.redis_fixtures import application_env, new_prefix


def play_one(service: GameService, game: dict) -> None:
    view = service.game_view(game["id"], None)
    token = game["seats"][view["to_act"][0]]["token"]
    service.play(game["id"], token, {"type": "add", "amount": 1}, view["version"])


def test_a_second_copy_appends_only_what_is_missing_and_a_differing_copy_is_refused(redis_url):
    source_prefix, target_prefix = new_prefix(), new_prefix()
    source = GameService(env=application_env(redis_url, source_prefix))
    target = GameService(env=application_env(redis_url, target_prefix))
    client = redis.Redis.from_url(redis_url)
    try:
        games = [source.create_game("api_count", 2, options={"target": 50}, seed=n) for n in range(3)]
        for game in games:
            play_one(source, game)
        first = copy_store(source.recorder, target.recorder)
        assert first == {"aggregates": 3, "events_copied": 6, "aggregates_changed": 3, "errors": 0}
        assert copy_store(source.recorder, target.recorder)["events_copied"] == 0

        play_one(source, games[0])
        play_one(source, games[0])
        late = source.create_game("api_count", 2, seed=9)
        again = copy_store(source.recorder, target.recorder)
        assert again == {"aggregates": 4, "events_copied": 3, "aggregates_changed": 2, "errors": 0}
        for game in [*games, late]:
            assert target.game(game["id"]).version == source.game(game["id"]).version
        assert target.recorder.max_notification_id() == 9  # one notification per event, none twice

        play_one(target, games[1])  # the copy moves on by itself: it now differs from the source
        play_one(source, games[1])
        failed: list[str] = []
        result = copy_store(source.recorder, target.recorder, on_error=lambda oid, error: failed.append(oid))
        assert result["errors"] == 1 and failed == [games[1]["id"]]
        assert target.game(games[1]["id"]).version == 3  # left alone
    finally:
        source.close()
        target.close()
        delete_prefix(client, source_prefix)
        delete_prefix(client, target_prefix)
        client.close()
