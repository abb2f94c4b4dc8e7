"""Fixtures of the API tests: every test gets its own key prefix on a real Redis.

`redis_url`, `key_prefix` (deleted afterwards), `store_mode`/`embedded_data_dir` come from
the event store's shared fixtures (tests/support/redis_fixtures.py).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.support.api_client import make_app, make_settings
from tests.support.redis_fixtures import *  # noqa: F403  (fixtures)


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
