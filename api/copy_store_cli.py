"""`heirloom copy-store --to URL [--cluster] [--partitions P]`: copy the configured store
(REDIS_URL / REDIS_CLUSTER / HEIRLOOM_LOG_PARTITIONS of this process, or the embedded one)
into another one, e.g. a single node into a Redis Cluster or a cluster to more log
partitions (domain/eventstore/copy_store.py). Idempotent, with a progress bar."""

from __future__ import annotations

import argparse
import sys

from api.cli import register_command


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--to", required=True, metavar="REDIS_URL",
                        help="the destination (a cluster: any node, or several comma-separated)")
    parser.add_argument("--cluster", action="store_true", help="the destination is a Redis Cluster")
    parser.add_argument("--partitions", type=int, default=1,
                        help="log partitions of the destination (cluster only; default 1)")
    parser.add_argument("--to-prefix", default=None,
                        help="REDIS_KEY_PREFIX of the destination (default: the source's)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def destination_env(args: argparse.Namespace, settings) -> dict[str, str]:
    from api.settings import ConfigurationError

    if args.partitions < 1 or (args.partitions > 1 and not args.cluster):
        raise ConfigurationError("--partitions P needs --cluster and P >= 1 (a single node has one log)")
    return {**settings.service_env(), "REDIS_URL": args.to, "REDIS_KEY_PREFIX": args.to_prefix or settings.key_prefix,
            "REDIS_CLUSTER": "1" if args.cluster else "", "HEIRLOOM_LOG_PARTITIONS": str(args.partitions)}


def _run(args: argparse.Namespace) -> int:
    from api import app as api_app
    from api.cli import check_store
    from api.settings import Settings
    from domain.app import GameService
    from domain.eventstore.copy_store import copy_store
    from projections.runner import ProgressBar

    settings = Settings.from_env()
    target = destination_env(args, settings)
    check_store(settings)
    api_app.load_games(settings)
    source = GameService(env=settings.service_env())
    destination = GameService(env=target)
    try:
        if not hasattr(source.recorder, "select_log_partition"):
            print("heirloom copy-store: the source is not the Redis event store", file=sys.stderr)
            return 2
        bar: list[ProgressBar] = []

        def progress(n: int, total: int) -> None:
            if not args.quiet:
                if not bar:
                    bar.append(ProgressBar(total, "copy-store", sys.stderr))
                bar[0].update(n)

        result = copy_store(source.recorder, destination.recorder, on_progress=progress,
                            on_error=lambda oid, error: print(f"\ncopy-store: {oid}: {type(error).__name__}: {error}",
                                                              file=sys.stderr))
        if bar:
            bar[0].close()
    finally:
        source.close()
        destination.close()
        if settings.embedded:
            from domain.eventstore.embedded import shutdown_embedded
            shutdown_embedded(settings.data_dir)
    print(f"copied: {result['aggregates']} aggregates, {result['aggregates_changed']} changed, "
          f"{result['events_copied']} events appended, {result['errors']} errors", file=sys.stderr)
    return 1 if result["errors"] else 0


register_command("copy-store", "copy the store into another one (e.g. into a Redis Cluster); idempotent",
                 _arguments, _run)
