from tests.support.redis_fixtures import *  # noqa: F403 - fixtures
