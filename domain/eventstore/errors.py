"""Errors of the Redis event store that a person can act on.

`EventStoreUnavailable` is raised when the store cannot be opened: the configured
Redis (``REDIS_URL``) does not answer, or the embedded server cannot start in the
data folder (``HEIRLOOM_DATA_DIR``). Its message says what was tried and what to do;
front ends (the ``heirloom`` CLI) print ``str(error)`` and exit non-zero instead of
showing a traceback. There is never a silent fallback from one to the other.
"""

from __future__ import annotations

import re

from eventsourcing.persistence import OperationalError


class EventStoreUnavailable(OperationalError):
    """The event store cannot be reached or started (configuration problem)."""


class DataDirUnusable(EventStoreUnavailable):
    """HEIRLOOM_DATA_DIR cannot be created or written."""


class RedisUnreachable(EventStoreUnavailable):
    """The Redis configured by REDIS_URL does not answer."""


class StoreFull(OperationalError):
    """Redis refuses writes for lack of room and serves reads: ``OOM`` (``maxmemory`` reached;
    the policy is ``noeviction``, an event store never evicts), ``MISCONF`` (it cannot write
    its files) or ``NOREPLICAS`` (the embedded Redis's supervisor refuses writes while the data
    folder's disk is full, embedded.py; or a production Redis lacks the replicas it requires).
    Writes are refused whole until there is room (a script is refused at its first write)."""


#: The error codes of those replies, alone or inside a script's error ("... -NOREPLICAS ...").
FULL_REPLY = re.compile(r"(?:^|[\s-])(?:OOM|MISCONF|NOREPLICAS)\s")


def is_store_full(error: BaseException | str) -> bool:
    """True for Redis's answers meaning "writes refused, reads served" (see `StoreFull`). redis-py
    turns ``OOM`` into an ``OutOfMemoryError`` whose text has lost its code, so the error itself
    is asked first."""
    if isinstance(error, BaseException):
        if type(error).__name__ == "OutOfMemoryError" or getattr(error, "status_code", None) in ("OOM", "MISCONF",
                                                                                             "NOREPLICAS"):
            return True
        error = str(error)
    return FULL_REPLY.search(error) is not None or "when used memory > 'maxmemory'" in error
