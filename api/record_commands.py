"""``heirloom import FILE...``: turn game records back into games, every move re-decided;
``heirloom verify RECORD...``: check records (committed randomness, every move) without a store.

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


def verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="RECORD", help="record files (JSON) of finished games")


def run_verify(args: argparse.Namespace) -> int:
    """``heirloom verify RECORD...``: check records without a store: the committed randomness (the seed
    material hashes to the commitment the game published at its start and gives its seed) and every
    move re-decided with today's rules; one line per file, exit 1 when any does not verify."""
    from api.app import load_games
    from api.settings import Settings
    from domain.app import ServiceError
    from domain.app.records import verify_record

    load_games(Settings.from_env())          # the games this server would load (HEIRLOOM_EXTRA_GAMES too)
    failed = 0
    for name in args.files:
        try:
            result = verify_record(orjson.loads(Path(name).read_bytes()))
        except (OSError, orjson.JSONDecodeError) as error:
            print(f"{name}: cannot read: {error}", file=sys.stderr)
            failed += 1
        except ServiceError as error:
            where = f" (move {error.extra['move_no']})" if "move_no" in error.extra else ""
            print(f"{name}: does NOT verify{where}: {error.detail}", file=sys.stderr)
            failed += 1
        else:
            how = ("its seed is the one the server committed to" if result["committed"] else
                   "its seed was chosen by its creator" if result["seed_chosen"] else
                   "it has no seed commitment (a game of an earlier release)")
            print(f"{name}: verifies: {result['game']}, {result['moves']} moves re-decided; {how}")
    return 1 if failed else 0
