"""domain/engine, domain/games and domain/bots stay pure: no I/O, no clock, no global randomness.

An AST check over every module: forbidden imports and calls fail the build. The one
allowed exception is domain/engine/content.py (read-only packaged TOML), and the one
place allowed to import `random` is domain/engine/rng.py (a private seeded stream).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PURE_DIRS = [ROOT / "domain" / "engine", ROOT / "domain" / "games", ROOT / "domain" / "bots"]
FORBIDDEN_MODULES = {
    "os", "sys", "time", "datetime", "random", "socket", "subprocess", "threading", "asyncio",
    "uuid", "secrets", "pathlib", "shutil", "io", "tempfile", "logging", "redis", "fastapi",
    "requests", "httpx", "urllib", "http", "sqlite3", "eventsourcing", "importlib", "tomllib",
    "multiprocessing", "signal", "glob",
}
ALLOWED = {
    ("domain/engine/rng.py", "random"),
    ("domain/engine/content.py", "importlib"),
    ("domain/engine/content.py", "tomllib"),
    ("domain/games/__init__.py", "importlib"),
}
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval", "__import__"}


def pure_modules():
    for folder in PURE_DIRS:
        yield from sorted(folder.rglob("*.py"))


def violations(path: pathlib.Path) -> list[str]:
    relative = path.relative_to(ROOT).as_posix()
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=relative)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module.split(".")[0]]
        for name in names:
            if name in FORBIDDEN_MODULES and (relative, name) not in ALLOWED:
                found.append(f"{relative}:{node.lineno} imports {name}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append(f"{relative}:{node.lineno} calls {node.func.id}()")
    return found


@pytest.mark.parametrize("path", list(pure_modules()), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_is_pure(path):
    assert violations(path) == []


def test_the_check_catches_io(tmp_path):
    bad = ROOT / "domain" / "engine" / "_purity_probe.py"
    bad.write_text("import time\nopen('x')\n")
    try:
        assert len(violations(bad)) == 2
    finally:
        bad.unlink()
