"""Committed randomness (TABLE-SEED-02; issue 30 item 4, API.md "Seeds"): neither the server nor the
creator alone chooses a game's randomness, and anyone can check it afterwards.

At creation the server draws secret **seed material** (32 random bytes, hex) and publishes its
**commitment**, the SHA-256 hex of the material (`table.seed_commitment`, in the `Created` event).
What is derived, and when:

- the **setup seed** (`Created.seed`, the deal of the table, random stream 0; a fork's re-deal) is
  derived from the material alone, at creation: the table must be dealt before anyone joins;
- each seat may add its own **entropy** (a string) when it joins (`POST /games/{id}/join`), until
  the first move is played; it is recorded in `SeatJoined`;
- the **move seed** (every move's randomness: `Rng(move seed, move number)`) is derived from the
  material AND the seats' entropy (in seat order), so the server, which committed before it saw the
  entropy, cannot choose it, and the creator, who never sees the material, cannot either. It is
  fixed from the first move on (a join after it adds nothing).

The finished record carries the material and the contributions; `heirloom verify RECORD` and
`POST /games/import` check that the material hashes to the commitment and that the seeds are the
ones derived from it. A seed the creator chose (default seating only, `seed_chosen: true`) and games
stored before this existed have no commitment: their one seed is both the setup and the move seed.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Iterable

import orjson

#: Entropy a seat may add when it joins: at most this many characters.
MAX_ENTROPY = 200


def new_material() -> str:
    """Fresh secret seed material: 32 random bytes, hex."""
    return secrets.token_hex(32)


def commitment(material: str) -> str:
    """The public commitment to `material`: its SHA-256, hex."""
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _seed(*parts: Any) -> int:
    digest = hashlib.sha256(orjson.dumps(list(parts))).digest()
    return int.from_bytes(digest[:8], "big") >> 1          # 63 bits: what a seed is everywhere else


def setup_seed(material: str) -> int:
    """The seed of the setup (and of a fork's re-deal): the material alone."""
    return _seed("heirloom/setup", material)


def move_seed(material: str, contributions: Iterable[dict]) -> int:
    """The seed of every move: the material and each seat's entropy, in seat order."""
    entropy = sorted((int(c["seat"]), str(c["entropy"])) for c in contributions)
    return _seed("heirloom/moves", material, entropy)


def checked_entropy(entropy: Any) -> str:
    """A seat's entropy as given, or ValueError in words."""
    if entropy is None:
        return ""
    if not isinstance(entropy, str) or len(entropy) > MAX_ENTROPY:
        raise ValueError(f"entropy is a string of at most {MAX_ENTROPY} characters")
    return entropy
