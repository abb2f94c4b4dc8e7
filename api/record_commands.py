"""``heirloom import FILE...``: turn game records back into games, every move re-decided.

Each file holds one record (``GET /games/{id}/record``, or ``heirloom export --records``).
A record whose moves do not re-decide to their recorded facts is refused, naming the move;
the command prints one line per file and exits 1 when any file was refused.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson


def import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files (JSON)")


def run_import(args: argparse.Namespace, open_read_side) -> int:
    from domain.app import ServiceError

    refused = 0
    with open_read_side(["replay"]) as read_side:
        for name in args.files:
            try:
                record = orjson.loads(Path(name).read_bytes())
                created = read_side.app.import_record(record)
            except (OSError, orjson.JSONDecodeError) as error:
                print(f"{name}: cannot read: {error}", file=sys.stderr)
                refused += 1
            except ServiceError as error:
                where = f" (move {error.extra['move_no']})" if "move_no" in error.extra else ""
                print(f"{name}: refused{where}: {error.detail}", file=sys.stderr)
                refused += 1
            else:
                print(f"{name}: imported as game {created['id']}")
    return 1 if refused else 0
