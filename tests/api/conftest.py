"""Fixtures of the API tests: every test gets its own key prefix on a real Redis
(see tests/support/api_fixtures.py and tests/support/redis_fixtures.py)."""

from tests.support.api_fixtures import *  # noqa: F403  (fixtures)
