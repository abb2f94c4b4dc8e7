"""Redis Cluster mode of the event store (``REDIS_CLUSTER=1``): client, partitions, routing.

In cluster mode the notification log is split into ``HEIRLOOM_LOG_PARTITIONS`` partitions;
an aggregate's partition is fixed by its id (``crc32(str(id)) % P``, stable across
processes and releases). Every key of a partition (its aggregates' events and snapshots,
its sequence, stream and tracking keys) carries the partition's hash tag
``{<app>:p<k>}``, so each Lua script touches one slot and an append stays one atomic
script on one master. Scripts are sent to the master owning that slot.

Retries: a command refused before it ran (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) is retried
after refreshing the slot map, reads and writes alike (nothing was applied). A lost
connection or a timeout retries reads only: a write whose outcome is unknown is reported
(OperationalError, HTTP 503 ``store_unavailable``; a retry with the same Idempotency-Key
is safe). After every acknowledged write, ``WAIT <replicas> <timeout>`` on the same
connection (pipelined with the script, no extra round trip): when fewer replicas
confirm, `ReplicationUnconfirmed` is raised (also 503) although the master applied it.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster

T = TypeVar("T")

# Refused before running: nothing was applied, so any command may be sent again.
REFUSED = (
    redis.exceptions.MovedError,
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
)
UNKNOWN_OUTCOME = (redis.ConnectionError, redis.TimeoutError, OSError)
ATTEMPTS = 8


class ReplicationUnconfirmed(redis.RedisError):
    """The master applied a write but no replica confirmed it within the WAIT timeout."""


def partition_of(originator_id: object, partitions: int) -> int:
    """The log partition of an aggregate: stable (crc32 of its id's text)."""
    if partitions <= 1:
        return 0
    return zlib.crc32(str(originator_id).encode()) % partitions


def startup_nodes(url: str) -> list[ClusterNode]:
    """``redis://h1:p1,redis://h2:p2`` (or ``h1:p1,h2:p2``) -> cluster startup nodes."""
    nodes = []
    for part in url.split(","):
        part = part.strip()
        if not part:
            continue
        if "://" not in part:
            part = "redis://" + part
        parts = urlsplit(part)
        nodes.append(ClusterNode(parts.hostname or "127.0.0.1", parts.port or 6379))
    return nodes


def open_cluster(url: str, **common: Any) -> RedisCluster:
    """A RedisCluster client from one or several comma-separated node URLs."""
    first = urlsplit(url.split(",")[0].strip() if "://" in url else "redis://" + url.split(",")[0])
    if first.password:
        common.setdefault("password", first.password)
    if first.username:
        common.setdefault("username", first.username)
    # Not require_full_coverage: while a master fails over, the other masters' slots serve on.
    return RedisCluster(
        startup_nodes=startup_nodes(url), require_full_coverage=False, **common
    )


class Router:
    """Sends commands for a key to the master owning its slot, with the retries above."""

    def __init__(self, client: RedisCluster, wait_replicas: int, wait_timeout_ms: int) -> None:
        self.client = client
        self.wait: tuple[int, int] | None = (
            (wait_replicas, wait_timeout_ms) if wait_replicas > 0 else None
        )

    def node(self, key: str) -> redis.Redis:
        node = self.client.get_node_from_key(key)
        if node.redis_connection is None:
            self.client.nodes_manager.create_redis_connections([node])
        return node.redis_connection

    def node_address(self, key: str) -> tuple[str, int]:
        node = self.client.get_node_from_key(key)
        return node.host, int(node.port)

    def refresh(self) -> None:
        try:
            self.client.nodes_manager.initialize()
        except Exception:  # noqa: BLE001 - RedisClusterException is no RedisError
            pass  # the next attempt refreshes again

    def route(self, key: str, action: Callable[[redis.Redis], T], *, write: bool) -> T:
        error: Exception | None = None
        for attempt in range(ATTEMPTS):
            try:
                return action(self.node(key))
            except REFUSED as e:
                error = e
            except UNKNOWN_OUTCOME as e:
                if write:
                    self.refresh()
                    raise
                error = e
            except redis.exceptions.RedisClusterException as e:  # e.g. slot not covered
                error = e
            self.refresh()
            time.sleep(min(0.05 * 2**attempt, 1.0))
        if isinstance(error, redis.RedisError):
            raise error
        raise redis.ConnectionError(f"Redis Cluster unavailable for {key!r}: {error}")
