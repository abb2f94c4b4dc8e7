"""Clock deadlines (issue 28.1): when each table's next clock runs out, and who serves it.

The deadlines live in one Redis sorted set, ``<prefix>:clock:deadlines`` (member: the game's id,
score: epoch seconds of its next deadline). The bot scheduler, which follows the log, sets a game's
entry whenever the game changes (`DeadlineBook.set`); every worker process runs a `ClockKeeper`
that looks at the set a few times a second, claims each due entry (an atomic remove, so of two
workers only one serves it) and asks the service to expire the clocks that ran out
(`GameService.expire_clocks`: `ClockExpired`, then the table's `on_timeout`). That is idempotent on
its own too: a seat whose time ran out is no longer a person asked, so a deadline served twice, by
two processes or after a restart, expires once. A bot then plays the seat's decision (a bot job).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger("heirloom.clocks")

CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


class DeadlineBook:
    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.key = f"{prefix}:clock:deadlines"
        self._claim = client.register_script(CLAIM)

    def set(self, game_id: str, at: float | None) -> None:
        if at is None:
            self.client.zrem(self.key, game_id)
        else:
            self.client.zadd(self.key, {game_id: at})

    def due(self, now: float, limit: int = 50) -> list[str]:
        found = self.client.zrangebyscore(self.key, "-inf", now, start=0, num=limit)
        return [g.decode() if isinstance(g, bytes) else g for g in found]

    def claim(self, game_id: str, now: float) -> bool:
        return bool(self._claim(keys=[self.key], args=[game_id, now]))


class ClockKeeper:
    """Serves due deadlines (see the module docstring); a thread of each worker process."""

    def __init__(self, service: Any, queue: Any, *, every: float = 0.2) -> None:
        from projections.readside import redis_of

        self.service = service
        self.queue = queue
        self.book = DeadlineBook(*redis_of(service))
        self.every = every
        self.stop_event = threading.Event()
        self.expired = 0
        self.lateness: list[float] = []   # seconds past the deadline at which each expiry was recorded

    def serve(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        served = 0
        for game_id in self.book.due(now):
            if not self.book.claim(game_id, now):
                continue            # another worker took it
            try:
                due = self.service.next_deadline(game_id)
                seats = self.service.expire_clocks(game_id, time.time())
                if seats:
                    served += len(seats)
                    self.expired += len(seats)
                    if due is not None:
                        self.lateness.append(max(0.0, time.time() - due))
                    self.queue.enqueue_bot(game_id, all_bots=False)
                self.book.set(game_id, self.service.next_deadline(game_id))
            except Exception as error:  # noqa: BLE001 - one game's trouble must not stop the clocks
                log.warning("clock of game %s: %s", game_id, error)
        return served

    def run(self) -> None:
        while not self.stop_event.wait(self.every):
            try:
                self.serve()
            except Exception as error:  # noqa: BLE001 - the store may be away a moment
                log.warning("clock keeper: %s", error)

    def start(self) -> "ClockKeeper":
        threading.Thread(target=self.run, name="clock-keeper", daemon=True).start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
