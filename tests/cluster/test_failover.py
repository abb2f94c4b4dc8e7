"""Failover on a real Redis Cluster: nothing acknowledged is lost when a master is SIGKILLed.

Four threads append moves to their own games (four log partitions spread over three
masters, every write confirmed by a replica with WAIT before it counts as acknowledged)
while the master of partition 0 is killed with SIGKILL. The cluster promotes its replica;
writers see OperationalError (HTTP 503 store_unavailable) for a while and carry on from
the stored head of their game. Afterwards every acknowledged event is stored byte for
byte, every game's versions run 1..n, and every partition numbers its notifications
1..N without a gap, one per stored event.

Meanwhile two more threads play real games (Count Up, through `GameService`) on the same
cluster, their read side following all four partitions. After the failover every
acknowledged move is in its game, every game's audit chain verifies to its stored head,
the replay view knows every game at its stored version, and the live views equal a
rebuild from the store: nothing applied twice or lost, across the kill.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from eventsourcing.utils import Environment

from domain.eventstore import RedisApplicationRecorder, RedisFactory
from domain.eventstore.cluster import partition_of
from tests.support.redis_cluster import LocalCluster, start_cluster
from tests.support.redis_fixtures import new_prefix

pytestmark = pytest.mark.slow

PARTITIONS = 4


@pytest.fixture(scope="module")
def cluster() -> Any:
    local = start_cluster()
    yield local
    local.stop()


def factory_for(cluster: LocalCluster, **extra: str) -> RedisFactory:
    env = {"REDIS_URL": cluster.url, "REDIS_CLUSTER": "1", "REDIS_KEY_PREFIX": new_prefix(),
           "HEIRLOOM_LOG_PARTITIONS": str(PARTITIONS), **extra}
    return RedisFactory(Environment("Games", env=env))


def test_write_not_confirmed_by_enough_replicas_is_an_operational_error(cluster: LocalCluster) -> None:
    """WAIT cannot be satisfied (2 replicas asked, 1 exists): 503, though the master has it."""
    factory = factory_for(cluster, REDIS_WAIT_REPLICAS="2", REDIS_WAIT_TIMEOUT_MS="50")
    try:
        recorder = factory.application_recorder()
        oid = uuid.uuid4()
        with pytest.raises(OperationalError, match="replica"):
            recorder.insert_events([StoredEvent(oid, 1, "t", b"x")])
        assert [e.state for e in recorder.select_events(oid)] == [b"x"]
    finally:
        factory.close()


class GamePlayer(threading.Thread):
    """Plays Count Up games one after the other through `service`, recording every
    acknowledged move (game id -> its last acknowledged version); rides out failures by
    reading the game again (an unknown outcome may have been applied)."""

    def __init__(self, service: Any, seed: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.service, self.seed, self.stop = service, seed, stop
        self.acknowledged: dict[str, int] = {}
        self.refused = 0

    def retry(self, action: Any) -> Any:
        while not self.stop.is_set():
            try:
                return action()
            except Exception:  # noqa: BLE001 - 503s while the cluster fails over
                self.refused += 1
                time.sleep(0.1)
        return None

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            created = self.retry(lambda: self.service.create_game("api_count", 2, options={"target": 8},
                                                                   seed=self.seed * 1000 + n))
            if created is None:
                return
            game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
            self.acknowledged[game_id] = created["version"]
            while not self.stop.is_set():
                view = self.retry(lambda: self.service.game_view(game_id, None))
                if view is None or view["status"] != "active":
                    break
                try:
                    answer = self.service.play(game_id, tokens[view["to_act"][0]], {"type": "add", "amount": 1},
                                               view["version"])
                except Exception:  # noqa: BLE001 - not acknowledged; read the game again
                    self.refused += 1
                    time.sleep(0.05)
                    continue
                self.acknowledged[game_id] = answer["version"]


def game_service(cluster: LocalCluster) -> Any:
    from domain.app import GameService
    from tests.support import api_count  # noqa: F401  (registers the test game)

    return GameService(env={"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": cluster.url,
                            "REDIS_CLUSTER": "1", "HEIRLOOM_LOG_PARTITIONS": str(PARTITIONS),
                            "REDIS_KEY_PREFIX": new_prefix(), "REDIS_WAIT_TIMEOUT_MS": "500"})


def check_games_and_read_side(service: Any, read_side: Any, players: list[GamePlayer]) -> None:
    """Every acknowledged move stored, every audit chain intact, the read side equal to a rebuild."""
    from projections.audit import verify_game
    from tests.projections.test_operations import dumps, rebuilt

    acknowledged = {gid: v for player in players for gid, v in player.acknowledged.items()}
    assert 0 in {partition_of(service.parse_id(gid), PARTITIONS) for gid in acknowledged}
    stored_versions = {}
    for game_id, version in acknowledged.items():
        versions = [e.originator_version for e in service.recorder.select_events(service.parse_id(game_id))]
        assert versions == list(range(1, len(versions) + 1)) and len(versions) >= version, game_id
        audit = verify_game(service, game_id)
        assert audit["ok"] and audit["events"] == len(versions), (game_id, audit)
        stored_versions[game_id] = len(versions)
    read_side.sync(timeout=30)
    for game_id, version in stored_versions.items():
        assert read_side.replay_view.status(game_id)["version"] == version, game_id
    assert dumps(read_side) == dumps(rebuilt(service, None))


def test_sigkill_of_a_master_loses_nothing_acknowledged(cluster: LocalCluster) -> None:
    from projections.readside import ReadSide

    factory = factory_for(cluster, REDIS_WAIT_TIMEOUT_MS="500")
    service = game_service(cluster)
    read_side = ReadSide(service).start()
    assert len(read_side.runner.logs) == PARTITIONS
    recorder = factory.application_recorder()
    assert isinstance(recorder, RedisApplicationRecorder)
    acknowledged: dict[tuple[uuid.UUID, int], bytes] = {}
    lock = threading.Lock()
    stop = threading.Event()
    counts = Counter()

    def writer(games: list[uuid.UUID]) -> None:
        head = dict.fromkeys(games, 0)
        i = 0
        while not stop.is_set():
            oid = games[i % len(games)]
            i += 1
            v = head[oid] + 1
            state = b"%s:%d:%s" % (str(oid).encode(), v, os.urandom(8).hex().encode())
            try:
                recorder.insert_events([StoredEvent(oid, v, "t", state)])
            except (OperationalError, IntegrityError):
                with lock:
                    counts["refused"] += 1
                # The outcome may be unknown: carry on from what the store holds.
                while not stop.is_set():
                    try:
                        stored = recorder.select_events(oid)
                        head[oid] = stored[-1].originator_version if stored else 0
                        break
                    except OperationalError:
                        time.sleep(0.1)
                continue
            head[oid] = v
            with lock:
                acknowledged[(oid, v)] = state
                counts["acknowledged"] += 1

    # Games for every partition, so some live on the master that dies.
    games = []
    while len({partition_of(g, PARTITIONS) for g in games}) < PARTITIONS or len(games) < 16:
        games.append(uuid.uuid4())
    players = [GamePlayer(service, seed, stop) for seed in (1, 2)]
    threads = [threading.Thread(target=writer, args=(games[k::4],)) for k in range(4)] + players
    for t in threads:
        t.start()
    try:
        time.sleep(1.5)
        host, port = factory.datastore.router.node_address(recorder.partition_keys(0)[0])
        victim = next(n for n in cluster.nodes if n.port == port)
        replica = next(n for n in cluster.nodes if n is not victim and n.role() == "slave"
                       and int(n.client().info("replication")["master_port"]) == port)
        before_kill = counts["acknowledged"]
        victim.kill()
        killed_at = time.monotonic()
        while replica.role() != "master":
            assert time.monotonic() - killed_at < 30, "the replica was not promoted"
            time.sleep(0.1)
        promoted_after = time.monotonic() - killed_at
        cluster.wait_ok(timeout=30)
        at_promotion = counts["acknowledged"]
        time.sleep(3.0)  # writes continue on the new topology
        after_failover = counts["acknowledged"]
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    print(f"acknowledged {counts['acknowledged']} ({before_kill} before the kill, "
          f"{at_promotion} at the promotion), "
          f"refused {counts['refused']}, replica promoted after {promoted_after:.1f} s; "
          f"games: {len({g for p in players for g in p.acknowledged})} played, "
          f"{sum(p.acknowledged[g] for p in players for g in p.acknowledged)} events acknowledged, "
          f"{sum(p.refused for p in players)} refused")
    assert before_kill > 20
    assert after_failover > at_promotion + 20  # the new topology takes writes
    assert counts["refused"] > 0  # the kill was felt

    stored_per_partition: Counter[int] = Counter()
    for oid in games:
        events = recorder.select_events(oid)
        versions = [e.originator_version for e in events]
        assert versions == list(range(1, len(versions) + 1)), oid
        by_version = {e.originator_version: e.state for e in events}
        for (acked_oid, v), state in acknowledged.items():
            if acked_oid == oid:
                assert by_version.get(v) == state, (oid, v)
        stored_per_partition[partition_of(oid, PARTITIONS)] += len(events)
    for k in range(PARTITIONS):
        log = recorder.log_partition_recorder(k)
        notes = log.select_notifications(start=None, limit=100000)
        assert [n.id for n in notes] == list(range(1, len(notes) + 1))
        assert len(notes) == stored_per_partition[k]
        assert log.max_notification_id() == (len(notes) or None)
    factory.close()
    try:
        check_games_and_read_side(service, read_side, players)
    finally:
        read_side.stop()
        service.close()
