"""The Redis side shared by the recorders of one factory: the client, the key naming, routing
(one node, or the master of a slot in cluster mode) and the mapping of redis-py errors to
eventsourcing's exceptions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import redis
from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError, ProgrammingError

from domain.eventstore.cluster import REFUSED
from domain.eventstore.errors import StoreFull, is_store_full

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.eventstore.cluster import Router


def translate(e: redis.RedisError) -> PersistenceError:
    """Map a redis-py error to the eventsourcing exception hierarchy."""
    text = str(e)
    if "HEIRLOOM_CONFLICT" in text or "HEIRLOOM_TRACKING" in text:
        return IntegrityError(text)
    if isinstance(e, (redis.ConnectionError, redis.TimeoutError)):
        return OperationalError(f"Redis is unavailable: {text}")
    if isinstance(e, REFUSED):  # cluster: the slot map kept changing (failover, resharding)
        return OperationalError(f"Redis Cluster is reconfiguring: {text}")
    if isinstance(e, redis.ResponseError) and is_store_full(e):
        return StoreFull(f"Redis refuses writes, it has no room: {text}")
    if isinstance(e, redis.ResponseError):
        return ProgrammingError(text)
    return OperationalError(text)


class RedisDatastore:
    """A redis-py client plus the key naming shared by the recorders of one factory."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        *,
        originator_id_type: str = "uuid",
        open_client: Callable[[], redis.Redis] | None = None,
        description: str = "",
        router: Router | None = None,
        partitions: int = 1,
    ) -> None:
        if "{" in prefix or "}" in prefix:
            msg = f"REDIS_KEY_PREFIX must not contain braces: {prefix!r}"
            raise ValueError(msg)
        self.client = client
        self.prefix = prefix
        self.uuid_ids = originator_id_type.lower() == "uuid"
        # Opens another client to the same server (subscriptions block on their own).
        self._open_client = open_client
        self.description = description
        # Cluster mode (cluster.py): `client` is a RedisCluster, scripts go through the router.
        self.router = router
        self.partitions = partitions if router is not None else 1
        self.wait = router.wait if router is not None else None

    def route(self, key: str, action: Callable[[redis.Redis], Any], *, write: bool = False) -> Any:
        """Run `action(client)` on the Redis holding `key` (the one client on a single node;
        in cluster mode the master of its slot, with cluster.py's retries)."""
        if self.router is None:
            return action(self.client)
        return self.router.route(key, action, write=write)

    def new_client(self, key: str | None = None) -> redis.Redis:
        """Another client, on a connection of its own, to the server holding `key`."""
        if self.router is not None:
            host, port = self.router.node_address(key or "")
            kwargs = self.client.get_connection_kwargs()
            return redis.Redis(
                host=host, port=port, password=kwargs.get("password"),
                username=kwargs.get("username"), socket_connect_timeout=5,
            )
        if self._open_client is not None:
            return self._open_client()
        pool = self.client.connection_pool
        return redis.Redis(
            connection_pool=type(pool)(
                connection_class=pool.connection_class, **pool.connection_kwargs
            )
        )

    def close(self) -> None:
        self.client.close()
        if self.router is None:
            self.client.connection_pool.disconnect()
