"""The job tests use the HTTP app's fixtures (a real Redis, one key prefix per test)."""

from tests.support.api_fixtures import *  # noqa: F403  (fixtures)
