"""`heirloom migrate`: keep the latest snapshot only and compact finished games, in place
(domain/eventstore/migrate.py), and their read side (projections/compaction.py). Idempotent,
with a progress bar; safe while servers run."""

from __future__ import annotations

import argparse
import sys

from api.cli import open_read_side, register_command


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _run(args: argparse.Namespace) -> int:
    from domain.eventstore.migrate import migrate

    with open_read_side() as read_side:
        service = read_side.app
        if not hasattr(service.recorder, "compact"):
            print("heirloom migrate: the store is not the Redis event store; nothing to do", file=sys.stderr)
            return 0

        def finished(game_id: str) -> bool:
            try:
                return bool(service.game(game_id).finished)
            except Exception:  # noqa: BLE001 - not a Game, or rules not loaded: leave it as it is
                return False

        result = migrate(service, is_finished=finished, show_progress=not args.quiet)
        views = read_side.projections
        read = {"compacted": 0}
        if "replay" in views and "scoreboard" in views:  # the read side of finished games too
            from projections.compaction import compact_finished_games

            read = compact_finished_games(views["replay"].view, views["scoreboard"].view)
    print(f"migrated: {result['aggregates']} aggregates, {result['snapshots_removed']} old snapshots removed, "
          f"{result['games_compacted']} finished games compacted, {read['compacted']} finished games' read side "
          f"compacted, {result['errors']} errors", file=sys.stderr)
    return 1 if result["errors"] else 0


register_command("migrate", "compact the store in place (latest snapshots, finished games); idempotent",
                 _arguments, _run)
