"""Redis event store for eventsourcing: ``PERSISTENCE_MODULE=domain.eventstore``.

See ``domain/eventstore/README.md`` for the key layout, durability and cluster notes.
Exactly one InfrastructureFactory subclass is exported, as the library requires.
"""

from domain.eventstore.errors import DataDirUnusable, EventStoreUnavailable, RedisUnreachable
from domain.eventstore.factory import RedisFactory
from domain.eventstore.recorders import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
)
from domain.eventstore.tracking import RedisProcessRecorder, RedisTrackingRecorder
from domain.eventstore.transcoder import OrjsonTranscoder

Factory = RedisFactory

__all__ = [
    "DataDirUnusable",
    "EventStoreUnavailable",
    "Factory",
    "OrjsonTranscoder",
    "RedisAggregateRecorder",
    "RedisApplicationRecorder",
    "RedisFactory",
    "RedisProcessRecorder",
    "RedisTrackingRecorder",
    "RedisUnreachable",
]
