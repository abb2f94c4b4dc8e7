"""ops/rule_coverage.py: it counts IDs in the code as well as in the tests, and never reports zero
rules as a result when the catalogs are missing."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

SPEC = importlib.util.spec_from_file_location(
    "rule_coverage", pathlib.Path(__file__).resolve().parents[2] / "ops" / "rule_coverage.py")
coverage = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(coverage)


def test_missing_catalogs_fail_loudly(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        coverage.main(["--catalogs", str(tmp_path / "nowhere")])
    assert stop.value.code == 2
    assert "no rule catalogs" in capsys.readouterr().err


def test_ids_in_code_and_catalog_exclusions(tmp_path):
    catalog = tmp_path / "game.md"
    catalog.write_text("- **GAM-MOVE-01** a rule\n- **GAM-MOVE-02** another\n- **GAM-AMB-01** unclear\n"
                       "- **GAM-EX-01** example\n- **GAM-MOVE-03** (withdrawn)\n")
    assert coverage.catalog_ids(catalog) == {"GAM-MOVE-01", "GAM-MOVE-02"}
    code = tmp_path / "domain"
    code.mkdir()
    (code / "rules.py").write_text("# GAM-MOVE-01: enforced here\n# GAM-MOVE-02..04 is a range, not an ID list\n")
    assert coverage.code_ids(code) == {"GAM-MOVE-01", "GAM-MOVE-02"}


def test_the_report_names_the_ids_not_in_the_code(tmp_path, capsys):
    (tmp_path / "zz_game.md").write_text("- **ZZQ-MOVE-01** never written anywhere\n")
    assert coverage.main(["--catalogs", str(tmp_path), "--missing", "--min-code", "50"]) == 1
    out = capsys.readouterr().out
    assert "not in code: ZZQ-MOVE-01" in out and "0.0%" in out
