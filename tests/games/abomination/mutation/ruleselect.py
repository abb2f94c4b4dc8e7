"""pytest plugin: keep only tests marked with rule id in $RULE_ID (comma separated)."""
import os

def pytest_collection_modifyitems(config, items):
    want = set(filter(None, os.environ.get("RULE_ID", "").split(",")))
    if not want:
        return
    keep, drop = [], []
    for it in items:
        ids = set()
        for m in it.iter_markers("rule"):
            ids |= set(m.args)
        (keep if ids & want else drop).append(it)
    items[:] = keep
    config.hook.pytest_deselected(items=drop)
