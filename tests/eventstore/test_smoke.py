"""The fixture module and the factory work together (both ways of running Redis)."""

from __future__ import annotations

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Counter(Aggregate):
    def __init__(self) -> None:
        self.n = 0

    @event("Incremented")
    def inc(self, by: int) -> None:
        self.n += by


def test_application_round_trip(store_env: dict[str, str]) -> None:
    app = Application(env=store_env)
    try:
        c = Counter()
        c.inc(2)
        c.inc(3)
        app.save(c)
        again = app.repository.get(c.id)
        assert again.n == 5 and again.version == 3
        ids = [n.id for n in app.notification_log.select(start=1, limit=10)]
        assert ids == [1, 2, 3]
    finally:
        app.close()
