"""Errors of the Redis event store that a person can act on.

`EventStoreUnavailable` is raised when the store cannot be opened: the configured
Redis (``REDIS_URL``) does not answer, or the embedded server cannot start in the
data folder (``HEIRLOOM_DATA_DIR``). Its message says what was tried and what to do;
front ends (the ``heirloom`` CLI) print ``str(error)`` and exit non-zero instead of
showing a traceback. There is never a silent fallback from one to the other.
"""

from __future__ import annotations

from eventsourcing.persistence import OperationalError


class EventStoreUnavailable(OperationalError):
    """The event store cannot be reached or started (configuration problem)."""


class DataDirUnusable(EventStoreUnavailable):
    """HEIRLOOM_DATA_DIR cannot be created or written."""


class RedisUnreachable(EventStoreUnavailable):
    """The Redis configured by REDIS_URL does not answer."""
