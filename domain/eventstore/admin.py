"""Maintenance helpers for the Redis event store."""

from __future__ import annotations

import redis


def delete_prefix(client: redis.Redis, prefix: str, batch_size: int = 1000) -> int:
    """Delete every key under ``<prefix>:`` with SCAN + UNLINK; return how many.

    Used by tests and benchmarks to clean up their own REDIS_KEY_PREFIX (never FLUSHALL a
    shared server).
    """
    if not prefix or "*" in prefix or "?" in prefix or "[" in prefix:
        msg = f"refusing to delete by an empty or wildcard prefix: {prefix!r}"
        raise ValueError(msg)
    deleted = 0
    batch: list[bytes] = []
    for key in client.scan_iter(match=f"{prefix}:*", count=batch_size):
        batch.append(key)
        if len(batch) >= batch_size:
            deleted += client.unlink(*batch)
            batch.clear()
    if batch:
        deleted += client.unlink(*batch)
    return deleted
