"""Waiting in tests for what another process or thread does by itself (a worker, a cluster)."""

from __future__ import annotations

import time
from typing import Any, Callable


def eventually(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """`check()`'s first truthy result, polled every 0.1 s; its last result after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.1)
