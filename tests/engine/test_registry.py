"""Every hosted game is registered with the metadata the API contract promises."""

from __future__ import annotations

import pytest

from domain.engine import get_rules
from domain.games import GAME_PACKAGES, load_all

EXPECTED = {
    "my_fathers_work": ("My Father's Work", False),
    "abomination": ("Abomination: The Heir of Frankenstein", False),
    "adas_dream": ("Ada's Dream", False),
    "heredity": ("Heredity: The Book of Swan", True),
}


def test_the_four_games_are_listed():
    assert set(GAME_PACKAGES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_game_is_registered_with_its_metadata(name):
    loaded = load_all()
    if name not in loaded:
        pytest.fail(f"game package domain.games.{name} is missing")
    meta = get_rules(name).meta
    title, cooperative = EXPECTED[name]
    assert meta.name == name
    assert meta.title == title
    assert meta.cooperative is cooperative
    assert 1 <= meta.min_players <= meta.max_players <= 4
