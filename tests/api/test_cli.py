"""`heirloom serve` refuses an unusable store in one line with exit status 2."""

from __future__ import annotations

import subprocess

from api.cli import COMMANDS, build_parser, register_command
from tests.support.api_server import ROOT, cli_command, free_port, server_env


def run_cli(env, *args):
    return subprocess.run(cli_command(*args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_unreachable_redis_url_exits_2_with_one_line():
    port = free_port()
    result = run_cli(server_env(REDIS_URL=f"redis://127.0.0.1:{port}/0"), "serve", "--port", str(free_port()))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "REDIS_URL" in result.stderr


def test_unusable_data_dir_exits_2_with_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_cli(server_env(REDIS_URL="", HEIRLOOM_DATA_DIR=str(blocker / "data")), "serve",
                     "--port", str(free_port()))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "HEIRLOOM_DATA_DIR" in result.stderr


def test_subcommands_are_registered_from_a_list():
    register_command("hello", "say hello", lambda parser: parser.add_argument("--name"), lambda args: 0)
    try:
        args = build_parser().parse_args(["hello", "--name", "x"])
        assert args.name == "x" and args.run(args) == 0
    finally:
        COMMANDS[:] = [c for c in COMMANDS if c[0] != "hello"]
