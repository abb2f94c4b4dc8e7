"""Deterministic randomness derived from (game seed, move number).

Every random outcome of a move comes from ``Rng(seed, move_no)``. Undoing to before
move n and playing again gives the same stream, so undo cannot be used to re-roll, and
a replay never needs randomness at all because outcomes are recorded as facts.
"""

from __future__ import annotations

import hashlib
import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def derive_seed(seed: int, stream: int | str) -> int:
    """A 64-bit integer that depends only on the game seed and the stream (move number)."""
    digest = hashlib.sha256(f"heirloom:{seed}:{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Rng:
    """A private random stream; never the module-level `random` functions.

    The generator is seeded on first use: most moves draw nothing, and a fork needs only the
    seed and the stream (the numbers drawn are the same as with an eager seed)."""

    __slots__ = ("_generator", "seed", "stream")

    def __init__(self, seed: int, stream: int | str) -> None:
        self.seed = seed
        self.stream = stream
        self._generator: random.Random | None = None

    @property
    def _random(self) -> random.Random:
        if self._generator is None:
            self._generator = random.Random(derive_seed(self.seed, self.stream))
        return self._generator

    def die(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return self._random.choice(list(items))

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy; the input is left alone."""
        copy = list(items)
        self._random.shuffle(copy)
        return copy

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._random.sample(list(items), k)

    def random(self) -> float:
        return self._random.random()

    def fork(self, label: str) -> "Rng":
        """An independent stream for one sub-step (e.g. 'shuffle-discards')."""
        return Rng(self.seed, f"{self.stream}/{label}")
