"""The golden store's tests restore it under their own key prefix on a real Redis."""

from tests.support.redis_fixtures import *  # noqa: F403  (fixtures)
