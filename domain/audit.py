"""The audit hash chain over a game's stored events.

Every stored `Game` event carries ``prev_hash`` (the previous event's ``hash``; 64 zeros
for ``Created``) and ``hash``::

    hash = sha256(prev_hash_hex.encode() + canonical_bytes(event_type, version, fields))

where ``canonical_bytes`` is orjson with sorted keys of ``{"type": event_type,
"version": version, **fields}``, and ``fields`` are the event's domain attributes
excluding ``hash``, ``timestamp`` and the library's bookkeeping attributes (originator
id/version/topic). ``event_type`` is the short class name (``"MovePlayed"``), ``version``
the aggregate version. Changing, removing or reordering any event breaks the chain.

The write side (domain/service.py) and the audit read model (projections) both use
`event_hash` and `verify_chain`, so there is exactly one definition of the chain.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable, Mapping

import orjson

GENESIS = "0" * 64

#: Attributes never hashed: the hash itself, the clock, and eventsourcing's bookkeeping
#: (the version is hashed explicitly, the id is implied by the chain's first event).
EXCLUDED_FIELDS = frozenset({"hash", "timestamp", "originator_id", "originator_version", "originator_topic"})


def canonical_bytes(event_type: str, version: int, fields: Mapping[str, Any]) -> bytes:
    """The bytes that are hashed for one event (see the module docstring)."""
    payload = {key: value for key, value in fields.items() if key not in EXCLUDED_FIELDS}
    payload["type"] = event_type
    payload["version"] = version
    return orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)


def chain_hash(prev_hash: str, event_type: str, version: int, fields: Mapping[str, Any]) -> str:
    """The hash of one event given its predecessor's hash."""
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_bytes(event_type, version, fields)).hexdigest()


def event_hash(event_type: str, version: int, fields: Mapping[str, Any]) -> str:
    """Recompute an event's hash from its stored fields (which include ``prev_hash``)."""
    return chain_hash(fields["prev_hash"], event_type, version, fields)


def verify_chain(events: Iterable[tuple[str, int, Mapping[str, Any]]]) -> tuple[bool, int, str, str]:
    """Check (event_type, version, fields) records of one game in version order.

    Returns ``(ok, events_checked, head_hash, problem)``; ``problem`` is "" when ok and
    otherwise names the first version that does not fit.
    """
    expected_prev = GENESIS
    expected_version = 1
    count = 0
    for event_type, version, fields in events:
        if version != expected_version:
            return False, count, expected_prev, f"version {version} found where {expected_version} was expected"
        if fields.get("prev_hash") != expected_prev:
            return False, count, expected_prev, f"version {version}: prev_hash does not match the previous hash"
        actual = event_hash(event_type, version, fields)
        if fields.get("hash") != actual:
            return False, count, expected_prev, f"version {version}: hash does not match its content"
        expected_prev = actual
        expected_version += 1
        count += 1
    return True, count, expected_prev, ""
