"""The notification log's partitions as the read side follows them (issue 14, item 2).

On a single Redis, or a cluster with one partition, there is one log, tracked under the
application's name as it always was. On a Redis Cluster with ``HEIRLOOM_LOG_PARTITIONS``
= P > 1 each partition k is its own gapless log (``recorder.log_partition_recorder(k)``);
every projection follows each of them with its own tracking position, the field ``<app>``
(k = 0) or ``<app>:p<k>`` of the view's tracking hash, committed in the same script as the
view changes it covers: exactly once per partition.

`clear_partition` prepares the rebuild of one partition: the per-game keys (``g:<id>…``)
of that partition's games are deleted and its tracking field removed, while the view's
generation is negative (no runner commits meanwhile) and then bumped (runners reload).
Views spanning games keep what they hold for those games; their handlers apply a game's
contribution once (keyed by game id), so replaying the partition does not count it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from domain.eventstore.cluster import partition_of


@dataclass(frozen=True)
class Log:
    """One partition of the notification log: its number, tracking name and recorder."""

    k: int
    name: str
    recorder: Any


def partition_count(app: Any) -> int:
    recorder = app.recorder
    if not getattr(recorder, "cluster", False):
        return 1
    return max(1, int(getattr(recorder, "partitions", 1) or 1))


def tracking_name(app_name: str, k: int) -> str:
    """The tracking field of partition `k` (the application's name for partition 0)."""
    return app_name if k == 0 else f"{app_name}:p{k}"


def logs_of(app: Any) -> list[Log]:
    """Every log the read side follows: one on a single node, P on a partitioned cluster."""
    partitions = partition_count(app)
    if partitions == 1:
        return [Log(0, app.name, app.recorder)]
    return [Log(k, tracking_name(app.name, k), app.recorder.log_partition_recorder(k))
            for k in range(partitions)]


def game_of_key(view: Any, key: str) -> str | None:
    """The game id of a per-game key ``<base>:g:<id>[:…]`` of `view` (None: not per game)."""
    head = f"{view.base}:g:"
    if not key.startswith(head):
        return None
    return key[len(head):].split(":", 1)[0]


def clear_partition(view: Any, k: int, partitions: int, log_name: str,
                    keep: Callable[[str], bool] = lambda suffix: False) -> int:
    """Delete the per-game keys of partition `k`'s games (except those `keep` names, by
    their suffix after the view's base) and its tracking field; return how many keys."""
    generation = abs(view.current_generation()) + 1
    view.client.set(view.generation_key, -generation)
    removed = 0
    batch: list = []
    for raw in view.client.scan_iter(match=f"{view.base}:g:*", count=1000):
        key = raw.decode() if isinstance(raw, bytes) else raw
        game_id = game_of_key(view, key)
        if game_id is None or partition_of(game_id, partitions) != k or keep(key[len(view.base) + 1:]):
            continue
        batch.append(key)
        if len(batch) >= 500:
            view.client.unlink(*batch)
            removed += len(batch)
            batch.clear()
    if batch:
        view.client.unlink(*batch)
        removed += len(batch)
    view.client.hdel(view.tracking_key, log_name)
    view.client.set(view.generation_key, generation)
    view.generation = generation
    return removed


def log_head(recorder: Any) -> int:
    """The last notification id of the log; on a partitioned cluster log the sum of every
    partition's (it grows with every append: enough to see that something was written)."""
    partitions = int(getattr(recorder, "partitions", 1) or 1) if getattr(recorder, "cluster", False) else 1
    if partitions == 1:
        return recorder.max_notification_id() or 0
    return sum(recorder.log_partition_recorder(k).max_notification_id() or 0 for k in range(partitions))
