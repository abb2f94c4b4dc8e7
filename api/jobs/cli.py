"""`heirloom worker` and `heirloom simulate` (registered into `heirloom` by api/cli.py's plugin list)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import time
from contextlib import contextmanager
from typing import Iterator

from api.cli import check_store, register_command

log = logging.getLogger("heirloom.worker")


@contextmanager
def open_service() -> Iterator:
    """The write side on the configured store (as `heirloom serve` opens it); closed on exit."""
    from api import app as api_app
    from api.settings import Settings
    from domain.app import GameService

    settings = Settings.from_env()
    check_store(settings)
    api_app.load_games(settings)
    service = GameService(env=settings.service_env())
    try:
        yield service
    finally:
        service.close()
        if settings.embedded:
            from domain.eventstore.embedded import shutdown_embedded
            shutdown_embedded(settings.data_dir)


def _worker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--schedule", action="store_true",
                        help="also follow the event log and queue the bots' moves (when no server does: "
                             "servers run with HEIRLOOM_BOTS=off)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--nice", type=int, default=None,
                        help="lower this process's CPU priority by N (default HEIRLOOM_WORKER_NICE, else 10): "
                             "on a machine it shares with a server, the server's requests go first")


def worker_niceness(value: int | None) -> int:
    if value is not None:
        return value
    raw = (os.environ.get("HEIRLOOM_WORKER_NICE") or "").strip()
    return int(raw) if raw.lstrip("-").isdigit() else 10


def _worker(args: argparse.Namespace) -> int:
    from api.jobs.worker import Worker

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    niceness = worker_niceness(args.nice)
    if niceness > 0:
        os.nice(niceness)   # bots, analysis and simulations yield the CPU to the API's requests
    with open_service() as service:
        worker = Worker(service)
        scheduler = None
        if args.schedule:
            from api.bot_runner import BotScheduler

            scheduler = BotScheduler(service, worker.queue).start()

        def stop(signum: int, frame: object) -> None:
            worker.stop()   # the job in hand is finished first
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        log.info("worker %s taking jobs", worker.name)
        try:
            worker.run()
        finally:
            if scheduler is not None:
                scheduler.stop()
        log.info("worker %s stopped after %s", worker.name, worker.done)
    return 0


register_command("worker", "take jobs (bots' moves, analyses, simulation games) from the store's queue",
                 _worker_arguments, _worker)


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game type, e.g. adas_dream")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--bots", default="normal,random", help="comma-separated levels, dealt round the seats")
    parser.add_argument("--games", type=int, default=100, help="how many games (at most 5,000)")
    parser.add_argument("--seed", type=int, default=None, help="makes the simulation reproducible")
    parser.add_argument("--no-wait", action="store_true", help="print the simulation's id and return at once")
    parser.add_argument("--json", action="store_true", help="print the final status as JSON")


def _simulate(args: argparse.Namespace) -> int:
    from api.jobs.queue import JobQueue
    from api.jobs.simulations import InvalidSimulation, Simulations, SimulationsBusy
    from api.jobs.worker import WorkerThread
    from projections.readside import redis_of
    from projections.runner import ProgressBar

    with open_service() as service:
        queue = JobQueue(*redis_of(service))
        simulations = Simulations(queue, service)
        try:
            status = simulations.create(args.game, args.players, args.bots, args.games, args.seed)
        except (InvalidSimulation, SimulationsBusy) as error:
            print(f"heirloom simulate: {error.detail}", file=sys.stderr)
            return 2
        simulation_id = status["id"]
        print(f"simulation {simulation_id}: {args.games} games of {args.game}", file=sys.stderr)
        if args.no_wait:
            print(simulation_id)
            return 0
        local = None
        if not queue.live_workers():
            time.sleep(2.0)   # a worker may be starting
            if not queue.live_workers():
                print("no worker is running: playing the games in this process "
                      "(start `heirloom worker` processes to share the work)", file=sys.stderr)
                local = WorkerThread(service).start()
        bar = ProgressBar(status["games"], "simulate", unit="games")
        try:
            while status["status"] in ("queued", "running"):
                time.sleep(0.5)
                status = simulations.status(simulation_id)
                bar.advance(status["games_done"] - bar.done)
        except KeyboardInterrupt:
            bar.close()
            print(f"stopped watching; the workers go on with simulation {simulation_id}", file=sys.stderr)
            return 130
        finally:
            if local is not None:
                local.stop()
        bar.close()
        if args.json:
            print(json.dumps(status, indent=2))
        else:
            print(summary_table(status))
        return 0 if status["status"] == "done" else 1


def summary_table(status: dict) -> str:
    """The simulation's figures in a few plain lines."""
    lines = [f"simulation {status['id']}: {status['status']}, {status['games_done']}/{status['games']} games"
             + (f" ({status['games_failed']} failed)" if status["games_failed"] else "")]
    report = status.get("report")
    if report:
        lines.append(f"mean length: {report['mean_moves']} moves")
        for seat in report["seats"]:
            lines.append(f"seat {seat['seat']}: wins {seat['win_rate'] * 100:5.1f}%  mean score {seat['mean_score']}")
        for bot in report["bots"]:
            rate = "-" if bot["win_rate"] is None else f"{bot['win_rate'] * 100:5.1f}%"
            lines.append(f"bot {bot['level']}: wins {rate} of {bot['seats_played']} seats played")
    return "\n".join(lines)


register_command("simulate", "play many bot games on the workers and report (the lab)",
                 _simulate_arguments, _simulate)
