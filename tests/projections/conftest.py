"""Fixtures of the read-side tests: the API fixtures (app on a real Redis, unique key
prefix, projection runner in the app's lifespan) plus the app's read side."""

from __future__ import annotations

import pytest

from tests.support.api_fixtures import *  # noqa: F403  (fixtures)


@pytest.fixture
def read_side(app):
    return app.state.projections
