"""How many catalog rule IDs have a @pytest.mark.rule test, per game.

Run:  .venv/bin/python ops/rule_coverage.py [--missing] [--rules ../shared/rules]

Reads every `rules/*.md` catalog (IDs like ADA-WORKSHOP-03; ambiguity IDs `-AMB-` and
lines marked "(withdrawn" excluded) and every `mark.rule(...)` under tests/.
"""

from __future__ import annotations

import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULE_ID = r"\b([A-Z]{2,5}-[A-Z]+-\d{2,3}[a-z]?)\b"


def catalog_ids(path: pathlib.Path) -> set[str]:
    text = path.read_text()
    withdrawn = {ids[0] for line in text.splitlines() if "(withdrawn" in line for ids in [re.findall(RULE_ID, line)] if ids}
    return {i for i in re.findall(RULE_ID, text) if "-AMB-" not in i} - withdrawn


def marked_ids(tests: pathlib.Path) -> set[str]:
    marked: set[str] = set()
    for path in tests.rglob("*.py"):
        for call in re.findall(r"mark\.rule\(([^)]*)\)", path.read_text(errors="ignore")):
            marked.update(re.findall(r"[\"']" + RULE_ID[2:-2] + r"[\"']", call))
    return marked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=str(ROOT.parent / "shared" / "rules"))
    parser.add_argument("--missing", action="store_true", help="list the IDs without a test")
    args = parser.parse_args()
    marked = marked_ids(ROOT / "tests")
    for catalog in sorted(pathlib.Path(args.rules).glob("*.md")):
        ids = catalog_ids(catalog)
        covered = ids & marked
        print(f"{catalog.stem:<18}{len(covered):>5} / {len(ids):<5} rule IDs have a test")
        if args.missing and ids - covered:
            print("   missing:", " ".join(sorted(ids - covered)))


if __name__ == "__main__":
    main()
