"""The bot tests that use the HTTP app get its fixtures (a real Redis, one key prefix per test)."""

from tests.support.api_fixtures import *  # noqa: F403  (fixtures)
