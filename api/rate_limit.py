"""Quotas per client on the requests that cost the server something lasting: creating games
(``POST /games``, forks, imports), joining, undo requests and analysis requests.

**Who is a client.** The caller's IP address (as uvicorn gives it: behind the proxy of
ops/deploy/, the address in ``X-Forwarded-For``). Creating and joining are counted per address
only, whatever token is sent, so that tokens from many games do not multiply the allowance.
Undo and analysis requests act with a seat's token: they are counted per address *and* token,
so the seats of one hot-seat table (one browser, one address) each have their own.

**How.** A token bucket per (action, client) in Redis, so that every API process of
``heirloom serve --workers N`` shares it: one Lua script per check (one round trip), which
refills the bucket by the time since it was last used, takes one token or answers how long
until one is back. ``COUNT/SECONDS`` means a burst of COUNT, refilled at COUNT per SECONDS.
A refused request is ``429 {"error": "rate_limited", "detail": ...}`` with ``Retry-After``
(whole seconds) and changes nothing. Moves are never counted.

**Settings.** ``HEIRLOOM_RATE_LIMITS``: ``off``, or ``action=COUNT/SECONDS`` pairs overriding
`DEFAULTS` (e.g. ``create=120/60,undo=10/60``). The defaults are far above what a person (or a
test suite) does, and far below a flood: one address creates at most 60 games at once, then one
a second.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from starlette.exceptions import HTTPException

from api.settings import ConfigurationError

#: action -> (burst, seconds to refill it)
DEFAULTS: dict[str, tuple[int, int]] = {"create": (60, 60), "join": (60, 60), "undo": (20, 60), "analysis": (20, 60)}
#: Counted per address and token (see the module docstring); the others per address only.
PER_TOKEN = ("undo", "analysis")

TOKEN_BUCKET = """
local capacity = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local bucket = redis.call('HMGET', KEYS[1], 't', 'v')
local level = tonumber(bucket[2]) or capacity
local last = tonumber(bucket[1]) or now
level = math.min(capacity, level + math.max(0, now - last) * per_second)
if level < 1 then
  return math.ceil((1 - level) / per_second * 1000)
end
redis.call('HSET', KEYS[1], 't', string.format('%.6f', now), 'v', string.format('%.6f', level - 1))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / per_second * 1000) + 1000)
return 0
"""


@dataclass(frozen=True)
class Quota:
    burst: int
    seconds: int

    @property
    def per_second(self) -> float:
        return self.burst / self.seconds


def parse_limits(raw: str) -> dict[str, Quota] | None:
    """The quotas of ``HEIRLOOM_RATE_LIMITS`` (None: ``off``); a wrong entry is named."""
    limits = {action: Quota(*value) for action, value in DEFAULTS.items()}
    raw = (raw or "").strip()
    if raw.lower() in ("off", "0", "no", "false"):
        return None
    for entry in filter(None, (part.strip() for part in raw.split(","))):
        action, _, value = entry.partition("=")
        count, _, seconds = value.partition("/")
        action = action.strip()
        if action not in DEFAULTS or not count.strip().isdigit() or not seconds.strip().isdigit() \
                or int(count) < 1 or int(seconds) < 1:
            raise ConfigurationError(
                f"HEIRLOOM_RATE_LIMITS: {entry!r} is not ACTION=COUNT/SECONDS with ACTION one of "
                f"{', '.join(DEFAULTS)} and whole numbers of at least 1 (or say 'off')")
        limits[action] = Quota(int(count), int(seconds))
    return limits


def client_of(request: Request, action: str) -> str:
    """Who is counted: the address, plus a digest of the bearer token for per-token actions."""
    client = request.scope.get("client")
    address = client[0] if client else "unknown"
    if action in PER_TOKEN:
        authorization = request.headers.get("authorization") or ""
        token = authorization.strip().partition(" ")[2].strip()
        if token:
            return f"{address}:{hashlib.sha256(token.encode()).hexdigest()[:16]}"
    return address


class Limiter:
    """The quotas of one app, checked against its store's Redis."""

    def __init__(self, client: Any, prefix: str, limits: dict[str, Quota] | None) -> None:
        self.client = client
        self.prefix = prefix
        self.limits = limits
        self.script = client.register_script(TOKEN_BUCKET) if limits else None

    def wait_ms(self, action: str, who: str) -> int:
        """0 when `who` may do `action` now (one token taken), else milliseconds to wait."""
        if self.script is None or action not in self.limits:
            return 0
        quota = self.limits[action]
        key = f"{self.prefix}:quota:{action}:{who}"
        return int(self.script(keys=[key], args=[quota.burst, repr(quota.per_second)]))


def limiter_of(app: Any) -> Limiter:
    limiter = getattr(app.state, "limiter", None)
    if limiter is None:
        from projections.readside import redis_of

        client, prefix = redis_of(app.state.service)
        limiter = app.state.limiter = Limiter(client, prefix, parse_limits(app.state.settings.rate_limits))
    return limiter


def rate_limited(action: str, wait_ms: int, quota: Quota) -> HTTPException:
    retry = max(1, math.ceil(wait_ms / 1000))
    what = {"create": "games created", "join": "seats joined", "undo": "undo requests",
            "analysis": "analysis requests"}[action]
    return HTTPException(status_code=429, headers={"Retry-After": str(retry)}, detail={
        "error": "rate_limited",
        "detail": f"too many {what} from this client (at most {quota.burst} per {quota.seconds} s); "
                  f"retry in {retry} s"})


def quota(action: str):
    """A route dependency counting one `action` of the caller (429 when over the quota)."""
    def check(request: Request) -> None:
        limiter = limiter_of(request.app)
        wait = limiter.wait_ms(action, client_of(request, action))
        if wait:
            raise rate_limited(action, wait, limiter.limits[action])
    check.__name__ = f"quota_{action}"
    return check


def check_settings(raw: str) -> None:
    """Fail at start (one line) on a wrong HEIRLOOM_RATE_LIMITS, not at the first request."""
    parse_limits(raw)
