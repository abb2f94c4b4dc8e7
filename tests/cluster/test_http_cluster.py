"""Heirloom over HTTP on a real Redis Cluster (REDIS_CLUSTER=1, one log partition).

Two app instances (two GameServices with their own caches and read sides, in one test
process) share one local cluster of 3 masters and 3 replicas. Moves of a game alternate
between them, so each one's cached aggregate is stale half the time; both must accept
every move in turn, refuse a stale version, and their read sides (listing, game, replay,
all written under the {proj} hash tag on the cluster) must show the finished game.
The same cluster also receives the golden store, copied from a single node by
`heirloom copy-store` (domain/eventstore/copy_store.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.api_client import TestGame, bearer, make_app, make_settings
from tests.support.redis_cluster import start_cluster
from tests.support.waiting import eventually

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster_url() -> Any:
    local = start_cluster()
    yield local.url
    local.stop()




def test_a_game_played_through_two_apps_on_the_cluster(cluster_url: str, monkeypatch) -> None:
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.setenv("REDIS_WAIT_TIMEOUT_MS", "10000")  # replication latency is not under test here
    settings = make_settings(cluster_url)
    with TestClient(make_app(settings)) as a, TestClient(make_app(settings)) as b:
        created = a.post("/games", json={"game": "api_count", "players": 2, "seed": 5,
                                         "options": {"target": 12}})
        assert created.status_code == 201, created.text
        game = created.json()
        game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
        version, moves = game["version"], 0
        status = "active"
        while status == "active":
            server = (a, b)[moves % 2]
            seen = server.get(f"/games/{game_id}")
            assert seen.status_code == 200, seen.text
            seat = seen.json()["to_act"][0]
            answer = server.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                                 json={"move": {"type": "add", "amount": 1}, "expected_version": version})
            assert answer.status_code == 201, answer.text
            moves += 1
            version = answer.json()["version"]
            stale = (b, a)[moves % 2].post(
                f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                json={"move": {"type": "add", "amount": 1}, "expected_version": version - 1})
            assert stale.status_code == 409, stale.text
            status = answer.json().get("status") or server.get(f"/games/{game_id}").json()["status"]
        assert moves == 12
        for server in (a, b):
            final = eventually(lambda: (lambda r: r.json() if r.status_code == 200
                                        and r.json()["status"] == "finished" else None)(
                server.get(f"/games/{game_id}")))
            assert final and final["version"] == version and final["move_count"] == 12
            listed = eventually(lambda: [g for g in server.get("/games").json()
                                         if g["id"] == game_id and g["status"] == "finished"])
            assert listed, server.get("/games").text
            replay = eventually(lambda: (lambda r: r.json() if r.status_code == 200 else None)(
                server.get(f"/games/{game_id}/replay")))
            assert replay and replay["steps"] == 12 and replay["state"]["count"] == 12


def cluster_fingerprint(url: str, prefix: str) -> dict[str, bytes]:
    """Every key under `prefix` on every master of the cluster, with its DUMP (to compare runs)."""
    import redis

    client = redis.RedisCluster.from_url(url.split(",")[0])
    try:
        return {key: client.dump(key) for key in client.scan_iter(match=f"{prefix}:*", count=1000,
                                                                  target_nodes=redis.RedisCluster.PRIMARIES)}
    finally:
        client.close()


def test_the_golden_store_copied_into_the_cluster_plays_on(cluster_url: str, redis_url: str, monkeypatch) -> None:
    """`heirloom copy-store --to <cluster> --cluster --partitions 3` on the golden store (a
    single-node store written by an earlier release): every game loads there, verifies its
    audit chain to the recorded head and (when running) accepts a move; a second run changes
    nothing."""
    import random

    import orjson
    import redis

    from api.cli import main
    from domain.app import GameService
    from domain.eventstore.admin import delete_prefix
    from domain.games import load_all
    from projections.audit import verify_game
    from tests.golden.record import EXPECTATIONS_FILE, load_store, restore_prefix
    from tests.support.redis_fixtures import new_prefix

    load_all()
    games = orjson.loads(EXPECTATIONS_FILE.read_bytes())["games"]
    prefix, single = new_prefix(), redis.Redis.from_url(redis_url)
    restore_prefix(single, prefix, load_store()["keys"])
    for name in ("REDIS_CLUSTER", "HEIRLOOM_LOG_PARTITIONS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REDIS_URL", redis_url)  # the source: this process's configured store
    monkeypatch.setenv("REDIS_KEY_PREFIX", prefix)
    monkeypatch.setenv("REDIS_WAIT_TIMEOUT_MS", "10000")
    command = ["copy-store", "--to", cluster_url, "--cluster", "--partitions", "3", "--quiet"]
    try:
        assert main(command) == 0
        copied = cluster_fingerprint(cluster_url, prefix)
        assert copied
        assert main(command) == 0  # idempotent: the second run finds every game complete
        assert cluster_fingerprint(cluster_url, prefix) == copied

        service = GameService(env={"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": cluster_url,
                                   "REDIS_CLUSTER": "1", "HEIRLOOM_LOG_PARTITIONS": "3",
                                   "REDIS_KEY_PREFIX": prefix, "REDIS_WAIT_TIMEOUT_MS": "10000"})
        try:
            partitions = {service.recorder.partition_of(service.parse_id(g["id"])) for g in games}
            assert len(partitions) > 1  # spread over the partitions
            for expected in games:
                game = service.game(expected["id"])
                assert (game.version, game.status, game.scores) == \
                    (expected["version"], expected["status"], expected["scores"]), expected["label"]
                assert verify_game(service, expected["id"], expected["version"]) == \
                    {"ok": True, "events": expected["events"], "head": expected["audit_head"]}
                if expected["status"] != "active":
                    continue
                view = service.game_view(expected["id"], None)
                seat = view["to_act"][0]
                token = expected["tokens"]["seats"][seat]
                move = random.Random(expected["label"]).choice(service.legal_moves(expected["id"], token)["moves"])
                # + 1, or more where the move first closes a stored pending take-back (TABLE-UNDO-08)
                assert service.play(expected["id"], token, move, view["version"])["version"] >= view["version"] + 1
                assert verify_game(service, expected["id"])["ok"]
        finally:
            service.close()
    finally:
        delete_prefix(single, prefix)
        single.close()


def test_games_over_four_partitions_with_the_read_side_following_every_partition(cluster_url: str,
                                                                                 monkeypatch) -> None:
    """HEIRLOOM_LOG_PARTITIONS=4: dice duels (finished, unfinished, undone, reopened) spread
    over every partition, the app's runner following all four logs. Every game's replay,
    scores and listing are right; the live views equal a rebuild from all partitions; and
    rebuilding any one partition (which replays its games into views spanning games:
    leaderboards, results, analytics counters) changes nothing: no game counts twice."""
    from domain.eventstore.cluster import partition_of
    from projections.readside import PROJECTION_CLASSES
    from tests.projections.test_operations import dumps, play_some_games, rebuilt

    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.setenv("HEIRLOOM_LOG_PARTITIONS", "4")
    monkeypatch.setenv("REDIS_WAIT_TIMEOUT_MS", "10000")
    settings = make_settings(cluster_url)
    with TestClient(make_app(settings)) as client:
        read_side = client.app.state.projections
        service = client.app.state.service
        assert [log.k for log in read_side.runner.logs] == [0, 1, 2, 3]
        games = []
        for seed in range(0, 40, 4):
            games += play_some_games(client, count=4, seed=seed)
            if len({partition_of(g.id, 4) for g in games}) == 4 and len(games) >= 8:
                break
        assert {partition_of(g.id, 4) for g in games} == {0, 1, 2, 3}
        last = TestGame.create(client, "dice_duel", 2, seed=99, names=["n0", "n5"])  # the newest result
        chooser = random.Random(99)
        while last.get()["status"] == "active":
            seat = last.get()["to_act"][0]
            last.move(seat, chooser.choice(last.legal(seat)["moves"]))
        games.append(last)
        read_side.sync(timeout=20)
        status = read_side.status()
        assert set(status["heads"]) == {"0", "1", "2", "3"} and all(int(h) > 0 for h in status["heads"].values())
        for name in PROJECTION_CLASSES:
            assert status["projections"][name]["lag"] == 0, status
        listed = {g["id"]: g for g in client.get("/games").json()}
        finished = 0
        for game in games:
            state = game.get()
            assert listed[game.id]["status"] == state["status"] and listed[game.id]["version"] == state["version"]
            replay = client.get(f"/games/{game.id}/replay")
            assert replay.status_code == 200, replay.text
            assert replay.json()["steps"] == state["move_count"]
            scores = client.get(f"/games/{game.id}/scores").json()
            assert scores["finished"] == (state["status"] == "finished")
            finished += state["status"] == "finished"
        leaders = read_side.leaders("dice_duel")
        assert sum(entry["games"] for entry in leaders) == 2 * finished
        assert read_side.analytics("dice_duel")["games"] == finished

        live = dumps(read_side)
        assert dumps(rebuilt(service, settings)) == live  # live (four logs interleaved) == rebuild
        for k in range(4):
            for name in PROJECTION_CLASSES:
                read_side.rebuild(name, partition=k, show_progress=False)
            assert dumps(read_side) == live, f"rebuilding partition {k} changed the views"
        assert read_side.leaders("dice_duel") == leaders
        # The bot runner follows every partition too: a bot seat plays its game to the end.
        bot_game = client.post("/games", json={"game": "api_count", "players": 2, "seed": 7,
                                               "options": {"target": 6}, "bots": {"1": "random"}}).json()
        token = bot_game["seats"][0]["token"]
        while True:
            seen = eventually(lambda: (lambda v: v if v["status"] == "finished" or 0 in v["to_act"] else None)(
                client.get(f"/games/{bot_game['id']}").json()))
            assert seen, "the bot did not play"
            if seen["status"] == "finished":
                break
            answer = client.post(f"/games/{bot_game['id']}/moves", headers=bearer(token),
                                 json={"move": {"type": "add", "amount": 1}, "expected_version": seen["version"]})
            assert answer.status_code == 201, answer.text
        read_side.sync(timeout=20)
        status = read_side.status()
        health = client.get("/healthz")  # the head of all four partitions
        assert health.status_code == 200 and health.json()["last_notification_id"] == sum(
            int(h) for h in status["heads"].values()), health.text
