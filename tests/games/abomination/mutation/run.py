"""Mutation check of the Abomination tests (not collected by pytest).

Each mutant in mutants.json is [name, [rule IDs], file in domain/games/abomination, old text, new text(, n-th
occurrence)]. The runner applies one mutant at a time to a COPY of the repository and runs only the tests marked
with one of its rule IDs (the long random playouts excluded); a mutant is CAUGHT when one of them fails.
Two mutants are equivalent (no behaviour can tell them apart) and are expected to survive:
amb26_lab_triggers (a lab space's location "lab" is never an encounter's trigger location, which content
validation keeps to Paris locations) and amb54_city_card_pending (a move during a pending decision never
reaches d_play: decide() answers the pending decision first).

    rm -rf /tmp/abom_mut && cp -r /work/main /tmp/abom_mut
    MUT_ROOT=/tmp/abom_mut python3 tests/games/abomination/mutation/run.py [mutant names...]
"""

import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = pathlib.Path(os.environ.get("MUT_ROOT", "/tmp/abom_mut"))
PKG = ROOT / "domain/games/abomination"
PYTHON = os.environ.get("MUT_PYTHON", "/work/main/.venv/bin/python")
SLOW = ["test_random_playouts_terminate_and_replay", "test_playouts_with_options",
        "test_a_builder_brings_a_monster_to_life_in_a_full_game"]


def run_one(mutant):
    name, rules, f, old, new = mutant[:5]
    occ = mutant[5] if len(mutant) > 5 else None
    path = PKG / f
    src = path.read_text()
    k = src.count(old)
    if k == 0 or (k > 1 and occ is None):
        return f"BADPATTERN({k})"
    idx = -1
    for _ in range((occ or 0) + 1):
        idx = src.index(old, idx + 1)
    path.write_text(src[:idx] + new + src[idx + len(old):])
    try:
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=f"{ROOT}:{HERE}", RULE_ID=",".join(rules))
        cmd = [PYTHON, "-m", "pytest", "-q", "-x", "tests/games/abomination", "-p", "no:cacheprovider",
               "-p", "ruleselect"]
        for test in SLOW:
            cmd += ["--deselect", f"tests/games/abomination/test_playouts.py::{test}"]
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        tail = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
        status = "NOTESTS" if r.returncode == 5 else "SURVIVED" if r.returncode == 0 else "CAUGHT"
        return f"{status} :: {tail}"
    finally:
        path.write_text(src)


if __name__ == "__main__":
    only = set(sys.argv[1:])
    for m in json.loads((HERE / "mutants.json").read_text()):
        if not only or m[0] in only:
            print(m[0], "|", " ".join(m[1]), "|", run_one(m), flush=True)
