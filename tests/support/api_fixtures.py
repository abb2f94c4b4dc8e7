"""pytest fixtures for tests of the HTTP app on a real Redis (one key prefix per test).

Use from a conftest.py::

    from tests.support.api_fixtures import *  # noqa: F403  (fixtures)

- ``settings``: `api.settings.Settings` on ``redis_url`` with a unique ``key_prefix`` and the
  test games (dice_duel, api_count) loaded; game packages that fail to import are skipped.
- ``app``: `create_app(settings)`; ``client``: a TestClient that runs the app's lifespan;
  ``service``: the app's `GameService`.
Also re-exports the event store's fixtures (``redis_url``, ``key_prefix``, ``store_mode``...).
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
