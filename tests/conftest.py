"""Shared pytest setup: the `rule` marker and the whole registry of games."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): the catalog rule ID(s) this test checks")
