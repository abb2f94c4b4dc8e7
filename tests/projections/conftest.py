"""Fixtures of the read-side tests: an app on a real Redis with a unique key prefix.

`redis_url`, `key_prefix` (deleted afterwards) come from tests/support/redis_fixtures.py.
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
    """Entering the client runs the lifespan, so the projection runner runs in the app."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def service(app):
    return app.state.service


@pytest.fixture
def read_side(app):
    return app.state.projections
