"""Shared pytest setup: the `rule` marker and the whole registry of games."""

from __future__ import annotations

import os

import pytest

#: Bots move at once in tests (the table's pacing, TABLE-BOT-02, is tested where it is measured);
#: servers the tests start inherit it.
os.environ.setdefault("HEIRLOOM_BOT_DELAY", "0")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): the catalog rule ID(s) this test checks")
