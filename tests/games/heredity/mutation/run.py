"""Mutation check of tests/games/heredity (a developer tool, not collected by pytest).

    rm -rf /tmp/her_mut && cp -r /work/main /tmp/her_mut
    /work/main/.venv/bin/python tests/games/heredity/mutation/run.py /tmp/her_mut [mutant ids...]

For each mutant it rewrites one module of the COPY's engine, runs only the tests marked with the mutant's rule
ID (plugin below), restores the module and prints CAUGHT / SURVIVED / APPLY-FAIL (the text no longer matches).
"""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PLUGIN = '''import os
def pytest_collection_modifyitems(config, items):
    want = set(os.environ["HER_RULE"].split(","))
    keep = [it for it in items if want & {a for m in it.iter_markers("rule") for a in m.args}]
    config.hook.pytest_deselected(items=[it for it in items if it not in keep])
    items[:] = keep
'''


def main() -> None:
    copy = pathlib.Path(sys.argv[1]).resolve()
    only = set(sys.argv[2:])
    sys.path.insert(0, str(HERE))
    from mutants import M
    plug = copy / ".her_mut_plugin"
    plug.mkdir(exist_ok=True)
    (plug / "herrule.py").write_text(PLUGIN)
    pkg = copy / "domain" / "games" / "heredity"
    caught = total = 0
    for mid, rule, module, reps in M:
        if only and mid not in only:
            continue
        path = pkg / module
        original = path.read_text()
        text = original
        if any(text.count(old) != 1 for old, _ in reps):
            print(f"{mid:9} {rule:18} APPLY-FAIL", flush=True)
            continue
        for old, new in reps:
            text = text.replace(old, new)
        total += 1
        try:
            path.write_text(text)
            env = dict(os.environ, HER_RULE=rule, PYTHONPATH=f"{copy}:{plug}")
            proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "tests/games/heredity",
                                   "-p", "no:cacheprovider", "-p", "herrule"], cwd=copy, env=env,
                                  capture_output=True, text=True, timeout=600)
        finally:
            path.write_text(original)
        status = {0: "SURVIVED", 1: "CAUGHT", 5: "NO-TESTS"}.get(proc.returncode, f"rc{proc.returncode}")
        caught += status == "CAUGHT"
        print(f"{mid:9} {rule:18} {status}", flush=True)
    print(f"caught {caught} of {total}")


if __name__ == "__main__":
    main()
