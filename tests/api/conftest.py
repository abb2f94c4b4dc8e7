"""Fixtures of the API tests: every test gets its own key prefix on a real Redis."""

from __future__ import annotations

import os

import pytest
import redis
from fastapi.testclient import TestClient

from tests.support.api_client import make_app, make_settings, unique_prefix

try:  # the event-store helper's shared fixture (REDIS_URL / local / embedded)
    from tests.support.redis_fixtures import redis_url as _shared_redis_url  # noqa: F401
except ImportError:  # pragma: no cover
    _shared_redis_url = None


def _local_redis_url() -> str:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {url}")
    return url


if _shared_redis_url is None:
    @pytest.fixture(scope="session")
    def redis_url() -> str:
        return _local_redis_url()
else:
    redis_url = _shared_redis_url


@pytest.fixture
def key_prefix() -> str:
    return unique_prefix()


@pytest.fixture
def settings(redis_url, key_prefix):
    return make_settings(redis_url, key_prefix)


@pytest.fixture
def app(settings):
    return make_app(settings)


@pytest.fixture
def client(app):
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def service(app):
    return app.state.service
