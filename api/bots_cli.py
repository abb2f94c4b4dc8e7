"""`heirloom bots duel ...` (strength of the bots) and `heirloom analyse GAME_ID` (engine analysis).

Registered into `heirloom` by api/cli.py's plugin list.
"""

from __future__ import annotations

import argparse
import json

from api.cli import register_command


def _bots_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="bots_command", required=True, metavar="ACTION")
    duel = sub.add_parser("duel", help="bots play each other: win counts, mean scores, decision times")
    duel.add_argument("game", help="game type, e.g. adas_dream")
    duel.add_argument("--players", type=int, default=2)
    duel.add_argument("--games", type=int, default=10)
    duel.add_argument("--bots", default="normal,random", help="comma-separated levels, dealt round the seats")
    duel.add_argument("--seed", type=int, default=1)
    duel.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    duel.add_argument("--json", action="store_true", help="print the summary as JSON")


def _bots(args: argparse.Namespace) -> int:
    from api.bots_duel import duel, table

    summary = duel(args.game, args.players, args.games, [b.strip() for b in args.bots.split(",") if b.strip()],
                   args.seed, args.jobs)
    print(json.dumps(summary, indent=2) if args.json else table(summary))
    return 0


register_command("bots", "bots: `bots duel GAME` measures their strength", _bots_arguments, _bots)
