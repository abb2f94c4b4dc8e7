"""How many catalog rule IDs have a @pytest.mark.rule test, and how many are written in the code.

Run:  python ops/rule_coverage.py [--missing] [--catalogs DIR] [--min-code PCT]

Reads every `<game>.md` catalog (IDs like ADA-WORKSHOP-03; ambiguity `-AMB-` and worked-example
`-EX-` IDs and lines marked "(withdrawn" excluded), every `mark.rule(...)` under tests/, and every
rule ID written in the Python code under domain/ (a rule is "in the code" when its full ID appears
at the place that enforces it; in a range such as ABOM-CITY-02..07 only the first ID counts).

The catalogs live outside the repository: `--catalogs`, else $HEIRLOOM_RULES, else
/work/shared/rules, else ../shared/rules beside the repository. When none of these holds a
catalog the script says where it looked and exits with status 2 (a report of zero rules is
never printed as if it were a result). `--min-code` exits 1 when a game's share of IDs in the
code is below the given percentage.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULE_ID = r"\b([A-Z]{2,5}-[A-Z]+-\d{2,3}[a-z]?)\b"
EXCLUDED_KINDS = ("-AMB-", "-EX-")


def catalog_ids(path: pathlib.Path) -> set[str]:
    """The rule IDs a catalog defines, without ambiguities, worked examples and withdrawn rules."""
    text = path.read_text()
    withdrawn = {ids[0] for line in text.splitlines() if "(withdrawn" in line
                 for ids in [re.findall(RULE_ID, line)] if ids}
    return {i for i in re.findall(RULE_ID, text) if not any(k in i for k in EXCLUDED_KINDS)} - withdrawn


def marked_ids(tests: pathlib.Path) -> set[str]:
    """Every ID named in a `mark.rule(...)` call under `tests`."""
    marked: set[str] = set()
    for path in tests.rglob("*.py"):
        for call in re.findall(r"mark\.rule\(([^)]*)\)", path.read_text(errors="ignore")):
            marked.update(re.findall(r"[\"']" + RULE_ID[2:-2] + r"[\"']", call))
    return marked


def code_ids(domain: pathlib.Path) -> set[str]:
    """Every full rule ID written in the Python code under `domain` (comments and docstrings count:
    they are how an ID is written at the code that enforces it)."""
    found: set[str] = set()
    for path in domain.rglob("*.py"):
        found.update(re.findall(RULE_ID, path.read_text(errors="ignore")))
    return found


def candidate_dirs(explicit: str | None) -> list[pathlib.Path]:
    if explicit:
        return [pathlib.Path(explicit)]
    out = []
    if os.environ.get("HEIRLOOM_RULES"):
        out.append(pathlib.Path(os.environ["HEIRLOOM_RULES"]))
    out += [pathlib.Path("/work/shared/rules"), ROOT.parent / "shared" / "rules"]
    return out


def find_catalogs(explicit: str | None) -> list[pathlib.Path]:
    """The catalogs of the first place that has any; exits 2 saying where it looked otherwise."""
    looked = candidate_dirs(explicit)
    for folder in looked:
        catalogs = sorted(folder.glob("*.md")) if folder.is_dir() else []
        if catalogs:
            return catalogs
    where = ", ".join(str(p) for p in looked)
    print(f"rule_coverage: no rule catalogs (*.md) found; looked in: {where}. "
          "Pass --catalogs DIR (or set HEIRLOOM_RULES).", file=sys.stderr)
    raise SystemExit(2)


def report(catalogs: list[pathlib.Path], missing: bool) -> dict[str, tuple[int, int, int]]:
    """Print one line per catalog; return {game: (ids, tested, in_code)}."""
    marked = marked_ids(ROOT / "tests")
    in_code = code_ids(ROOT / "domain")
    totals: dict[str, tuple[int, int, int]] = {}
    print(f"{'game':<18}{'rules':>6}{'tested':>14}{'in domain/':>16}")
    for catalog in catalogs:
        ids = catalog_ids(catalog)
        if not ids:
            continue
        tested, coded = ids & marked, ids & in_code
        totals[catalog.stem] = (len(ids), len(tested), len(coded))
        print(f"{catalog.stem:<18}{len(ids):>6}{len(tested):>7} {100 * len(tested) / len(ids):5.1f}%"
              f"{len(coded):>9} {100 * len(coded) / len(ids):5.1f}%")
        if missing:
            if ids - tested:
                print("   no test:   ", " ".join(sorted(ids - tested)))
            if ids - coded:
                print("   not in code:", " ".join(sorted(ids - coded)))
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalogs", "--rules", dest="catalogs", default=None,
                        help="folder holding the <game>.md rule catalogs")
    parser.add_argument("--missing", action="store_true", help="list the IDs without a test or not in the code")
    parser.add_argument("--min-code", type=float, default=None,
                        help="fail (exit 1) when a game has fewer than this percentage of its IDs in domain/")
    args = parser.parse_args(argv)
    totals = report(find_catalogs(args.catalogs), args.missing)
    if not totals:
        print("rule_coverage: the catalogs hold no rule IDs", file=sys.stderr)
        return 2
    if args.min_code is not None:
        low = [g for g, (n, _, coded) in totals.items() if 100 * coded / n < args.min_code]
        if low:
            print(f"rule_coverage: below {args.min_code}% of IDs in domain/: {', '.join(low)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
