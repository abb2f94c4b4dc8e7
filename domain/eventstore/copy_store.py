"""`heirloom copy-store`: copy every aggregate's events into another store, idempotently.

What it is for: moving a single-node store into a Redis Cluster, or a cluster store to more
log partitions. The key layouts differ (on a cluster every key of a game carries its
partition's hash tag, README "Redis Cluster"), so keys cannot be renamed in place: the
events are *replayed* into the destination through its own recorder, which puts each game
in its partition and gives it notification ids in that partition's log. Stored events are
copied byte for byte (same topics, same states, same versions), so hashes, the audit chain,
tokens and upcasters see exactly what the source held.

- **Which aggregates**: every originator that appears in the source's notification log (all
  its partitions), in log order.
- **Idempotent**: for each aggregate the destination's last version is read; when it equals
  the source's, nothing is written; when the destination holds a prefix (an interrupted run,
  or a game that moved on in the source since), only the missing tail is appended (with the
  recorder's version check). A destination event that differs from the source's at the same
  version is reported as an error and that aggregate is left alone.
- **Not copied**: snapshots (the destination takes new ones as games move on; a game loads
  from its events) and the read side's views, which the destination's projections rebuild
  from its log (`heirloom projections rebuild`, or they catch up by themselves from 0).

Run it with the servers stopped (or read-only) for a consistent cut; a second run after
servers wrote more copies the difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

PAGE = 1000
CHUNK = 500  # events per append into the destination


def source_logs(recorder: Any) -> list[Any]:
    """One recorder per notification-log partition of `recorder` (one on a single node)."""
    if getattr(recorder, "cluster", False) and getattr(recorder, "partitions", 1) > 1:
        return [recorder.log_partition_recorder(k) for k in range(recorder.partitions)]
    return [recorder]


def originators(recorder: Any) -> Iterator[Any]:
    """Every originator id of the source's log, once each, in log order (partition by partition)."""
    seen: set[str] = set()
    for log in source_logs(recorder):
        position = 0
        while True:
            notes = log.select_notifications(position, PAGE, inclusive_of_start=False)
            for note in notes:
                position = note.id
                key = str(note.originator_id)
                if key not in seen:
                    seen.add(key)
                    yield note.originator_id
            if len(notes) < PAGE:
                break


def copy_aggregate(source: Any, destination: Any, originator_id: Any) -> int:
    """Append to `destination` the events of one aggregate it lacks; how many were appended."""
    events = list(source.select_events(originator_id))
    last = destination.select_events(originator_id, desc=True, limit=1)
    have = last[0].originator_version if last else 0
    if have:
        mine = next((e for e in events if e.originator_version == have), None)
        if mine is None or mine.state != last[0].state or mine.topic != last[0].topic:
            raise ValueError(f"the destination's event {have} differs from the source's")
    missing = [e for e in events if e.originator_version > have]
    for start in range(0, len(missing), CHUNK):
        destination.insert_events(missing[start:start + CHUNK])
    return len(missing)


def copy_store(source: Any, destination: Any, *, on_progress: Callable[[int, int], None] | None = None,
               on_error: Callable[[str, BaseException], None] | None = None) -> dict[str, int]:
    """Copy every aggregate of `source` (an application recorder) into `destination`."""
    done = {"aggregates": 0, "events_copied": 0, "aggregates_changed": 0, "errors": 0}
    ids = list(originators(source))
    for originator_id in ids:
        done["aggregates"] += 1
        try:
            copied = copy_aggregate(source, destination, originator_id)
        except Exception as error:  # noqa: BLE001 - one aggregate's trouble must not stop the rest
            done["errors"] += 1
            if on_error is not None:
                on_error(str(originator_id), error)
            continue
        done["events_copied"] += copied
        done["aggregates_changed"] += bool(copied)
        if on_progress is not None:
            on_progress(done["aggregates"], len(ids))
    return done
