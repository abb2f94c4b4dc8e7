"""`heirloom migrate`: bring a store written by an earlier release to the compact layout, in place.

Nothing in the earlier layout is unreadable: one batch string per append, every snapshot ever
taken, v1/v2 aggregate snapshots (upcast on load) all still load, replay, verify and play on,
so the server starts on an unmigrated store. What the migration adds is the memory saving the
new release gets for new games: for every aggregate of the application it keeps the latest
snapshot only (older ones were kept forever before) and folds a finished game's events into
one compressed record (`RedisAggregateRecorder.compact`). It is idempotent (a second run finds
nothing to do) and safe while servers run (every change is one script that checks the
aggregate did not move meanwhile), and shows a progress bar on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import redis


def aggregate_ids(client: redis.Redis, prefix: str, name: str) -> list[str]:
    """Every aggregate id with events under ``<prefix>:<name>:{<id>}:events``."""
    head = f"{prefix}:{name}:{{"
    ids = []
    for key in client.scan_iter(match=f"{head}*}}:events", count=1000):
        text = key.decode()
        ids.append(text[len(head):text.rindex("}:events")])
    return sorted(ids)


def prune_snapshots(client: redis.Redis, index: str) -> int:
    """Keep the latest snapshot of an aggregate; return how many older ones were removed.
    (A snapshot written meanwhile is newer than every member read here: it stays.)"""
    members = client.zrange(index, 0, -1)
    if len(members) <= 1:
        return 0
    pipe = client.pipeline(transaction=True)
    for member in members[:-1]:
        pipe.unlink(f"{index}:{member.decode()}")
        pipe.zrem(index, member)
    pipe.execute()
    return len(members) - 1


def migrate(app: Any, *, is_finished: Callable[[str], bool], stream: TextIO | None = None,
            show_progress: bool = True) -> dict[str, int]:
    """Prune snapshots and compact finished games of `app` (a GameService on the Redis store)."""
    from projections.runner import ProgressBar

    recorder = app.recorder
    client, prefix = recorder.datastore.client, recorder.datastore.prefix
    ids = aggregate_ids(client, prefix, recorder.name)
    progress = ProgressBar(len(ids), "migrate", stream if stream is not None else sys.stderr) if show_progress else None
    done = {"aggregates": len(ids), "snapshots_removed": 0, "games_compacted": 0, "errors": 0}
    for n, oid in enumerate(ids, 1):
        try:
            index = f"{prefix}:{recorder.name}:{{{oid}}}:snapshots"
            done["snapshots_removed"] += prune_snapshots(client, index)
            if is_finished(oid) and recorder.compact(oid):
                done["games_compacted"] += 1
        except Exception as error:  # noqa: BLE001 - one broken game must not stop the rest
            done["errors"] += 1
            print(f"\nmigrate: game {oid}: {type(error).__name__}: {error}", file=stream or sys.stderr)
        if progress is not None:
            progress.update(n)
    if progress is not None:
        progress.close()
    return done
