"""The bounded load test (ops/load/run.py) in its short form: 4 clients for 5 s against a real
`heirloom serve`, every game type, zero failures (issue 17.7)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.api_server import ROOT

pytestmark = pytest.mark.slow


def test_short_load_run_has_no_failures():
    result = subprocess.run([sys.executable, "ops/load/run.py", "--clients", "4", "--seconds", "5"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failures" in result.stdout and "p99=" in result.stdout
    summary = next(line for line in result.stdout.splitlines() if line.strip().startswith("move"))
    assert int(summary.split("n=")[1].split()[0]) > 10  # it really played
