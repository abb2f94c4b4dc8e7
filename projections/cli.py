"""The read side's subcommands of `heirloom`, as plain functions (composed in `api/cli.py`).

    heirloom projections run [NAME ...]       follow the log in this process until Ctrl-C
    heirloom projections rebuild [NAME ...]   clear and rebuild from scratch, with a progress bar
        [--partition K]                       only log partition K's games (partitioned cluster log)
    heirloom projections status               position and lag of every projection
    heirloom export --out DIR [--game TYPE] [--format jsonl|csv|both|parquet] [--include-active]

Each ``run_*`` takes ``open_read_side(names)``, a context manager giving a `ReadSide` on
the configured store (the CLI builds it from the server's settings), so this package does
not depend on the HTTP layer. Run the API with HEIRLOOM_PROJECTIONS=external when
``projections run`` applies the events instead.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from contextlib import AbstractContextManager
from typing import Callable, Iterable

import orjson

from .readside import PROJECTION_CLASSES, ReadSide

OpenReadSide = Callable[[Iterable[str] | None], AbstractContextManager[ReadSide]]


def projection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["run", "rebuild", "status"])
    parser.add_argument("names", nargs="*", metavar="NAME", choices=[[], *PROJECTION_CLASSES],
                        help=f"projections (default: all of {', '.join(PROJECTION_CLASSES)})")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--partition", type=int, default=None, metavar="K",
                        help="rebuild: only log partition K's games (a partitioned cluster log; default: all)")


def run_projections(args: argparse.Namespace, open_read_side: OpenReadSide) -> int:
    names = list(dict.fromkeys(args.names)) or list(PROJECTION_CLASSES)
    with open_read_side(names) as read_side:
        return _act(args.action, names, read_side, quiet=args.quiet, partition=getattr(args, "partition", None))


def _act(action: str, names: list[str], read_side: ReadSide, quiet: bool, partition: int | None = None) -> int:
    if action == "status":
        print(orjson.dumps(read_side.status(), option=orjson.OPT_INDENT_2).decode())
        return 0
    if action == "rebuild":
        for name in names:
            try:
                done = read_side.rebuild(name, show_progress=not quiet, partition=partition)
            except ValueError as error:
                print(f"heirloom projections rebuild: {error}", file=sys.stderr)
                return 2
            where = "" if partition is None else f" of partition {partition}"
            print(f"{name}: rebuilt from {done} events{where}", file=sys.stderr)
        return 0
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    read_side.start()
    print(f"following the log with projections {', '.join(names)} (Ctrl-C stops)", file=sys.stderr)
    try:
        while not stop.wait(1.0):
            pass
    finally:
        read_side.stop()
    return 0


def export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="heirloom-export", help="output folder (default ./heirloom-export)")
    parser.add_argument("--game", default=None, help="only this game type")
    parser.add_argument("--format", choices=["jsonl", "csv", "both", "parquet"], default="both",
                        help="parquet: games, moves and features tables for analysts (finished games only)")
    parser.add_argument("--include-active", action="store_true",
                        help="also running games, IN FULL (hidden information included; operators only)")
    parser.add_argument("--records", action="store_true",
                        help="also one verifiable record per finished game, records/<id>.json "
                             "(what GET /games/{id}/record answers; `heirloom import` reads them)")


def run_export(args: argparse.Namespace, open_read_side: OpenReadSide) -> int:
    from .export import export

    if args.format == "parquet":
        from .parquet import export_parquet

        with open_read_side(["replay", "analytics"]) as read_side:
            written = export_parquet(read_side, args.out, args.game)
        print(f"exported {written['games']} games, {written['moves']} moves: {', '.join(written['files'])}",
              file=sys.stderr)
        return 0
    formats = ("jsonl", "csv") if args.format == "both" else (args.format,)
    with open_read_side(["replay"]) as read_side:
        written = export(read_side, args.out, game_type=args.game, include_active=args.include_active,
                         formats=formats)
        if getattr(args, "records", False):
            written["files"].append(export_records(read_side, args.out, args.game))
    print(f"exported {written['games']} games, {written['moves']} moves: {', '.join(written['files'])}",
          file=sys.stderr)
    return 0


def export_records(read_side: ReadSide, out_dir: str, game_type: str | None) -> str:
    """Write the record of every finished game (of `game_type`) as ``records/<id>.json``."""
    from pathlib import Path

    from .export import private_file, private_folder

    folder = private_folder(Path(out_dir) / "records")
    for entry in read_side.list_games(game_type, "finished"):
        record = read_side.app.record(entry["id"], None)
        with private_file(folder / f"{entry['id']}.json") as handle:
            handle.write(orjson.dumps(record, option=orjson.OPT_INDENT_2))
    return str(folder)
