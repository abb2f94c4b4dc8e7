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


def _analyse_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", help="the game to analyse (a finished game: everything public)")
    parser.add_argument("--json", action="store_true", help="print the whole analysis as JSON")


def _analyse(args: argparse.Namespace) -> int:
    import sys
    import time

    from api.cli import open_read_side
    from domain.engine import EVERYONE, SPECTATOR
    from projections.analysis import AnalysisStore, game_history, run_analysis
    from projections.readside import redis_of

    with open_read_side() as read_side:
        service = read_side.app
        history = game_history(service, args.game_id)
        viewer = EVERYONE if history["finished"] else SPECTATOR   # the command holds no seat token
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            filled = int(30 * done / total)
            sys.stderr.write(f"\ranalysis [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} steps "
                             f"{time.monotonic() - started:5.1f} s")
            sys.stderr.flush()

        result = run_analysis(history, viewer, progress)
        sys.stderr.write("\n")
        client, prefix = redis_of(service)
        AnalysisStore(client, prefix).put(args.game_id, viewer, result)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    last = result["steps"][-1] if result["steps"] else {}
    print(f"{len(result['steps'])} steps analysed in {time.monotonic() - started:.1f} s "
          f"(engine {result['engine']}); final win probability {last.get('win_probability')}")
    for m in result["mistakes"]:
        print(f"  move {m['move_no']:>4} seat {m['seat']}: {m['grade']} (-{m['loss']:.2f}) "
              f"played: {m['played_label']}; better: {m['better_label']}")
    return 0


register_command("analyse", "engine analysis of a game: win chances per step and the mistakes",
                 _analyse_arguments, _analyse)
