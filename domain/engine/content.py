"""Loading game content (TOML packaged beside each game) with clear schema errors.

This is the kernel's single, deliberate exception to "no I/O": it reads read-only data
files shipped inside the package, deterministically, once at import. The purity test
allows it here and nowhere else in domain/engine and domain/games.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any, Iterable

from .errors import ContentError


def load_toml(package: str, filename: str) -> dict[str, Any]:
    """Parse `content/<filename>` of `package` (e.g. 'domain.games.adas_dream')."""
    try:
        text = resources.files(package).joinpath("content", filename).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError(f"{package}: content file content/{filename} is missing") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ContentError(f"{package}: content/{filename} is not valid TOML: {error}") from None


def require(record: dict, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """record[key], checked for presence and type; ContentError says where it is wrong."""
    if key not in record:
        raise ContentError(f"{where}: missing field {key!r}")
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ContentError(f"{where}: field {key!r} should be {expected}, got {value!r}")
    return value


def require_one_of(record: dict, key: str, allowed: Iterable[Any], where: str) -> Any:
    allowed = list(allowed)
    value = require(record, key, object, where)
    if value not in allowed:
        raise ContentError(f"{where}: field {key!r} is {value!r}; allowed: {allowed}")
    return value


def require_count(items: list, expected: int, where: str) -> None:
    if len(items) != expected:
        raise ContentError(f"{where}: expected {expected} entries, found {len(items)}")


def require_unique_ids(items: list[dict], where: str, key: str = "id") -> None:
    seen: set = set()
    for index, item in enumerate(items):
        ident = require(item, key, (str, int), f"{where}[{index}]")
        if ident in seen:
            raise ContentError(f"{where}: duplicate {key} {ident!r}")
        seen.add(ident)
