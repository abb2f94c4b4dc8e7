"""`heirloom worker` as real processes on a real Redis (api/jobs): a worker SIGKILLed during a
simulation loses nothing (its job is taken over; exactly the games asked for, none twice, each
move once), two workers share the work, and under `heirloom serve` the API process stays light
while its built-in worker plays a simulation."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx
import pytest
import redis

from api.jobs.queue import GROUP, JobQueue
from api.jobs.simulations import Simulations, game_id_of
from domain.app import GameService
from domain.games import load_all
from tests.support.api_server import ROOT, RunningServer, cli_command, server_env
from tests.support.redis_fixtures import application_env

from .test_simulations import simulated_events

load_all()


def start_worker(env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(cli_command("worker", "--log-level", "warning"), cwd=ROOT, env=env)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (from /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as children:
            found += [int(child) for child in children.read().split()]
    return found


def wait_for(check, timeout: float, what: str, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def check_games(service: GameService, simulation_id: str, games: int) -> None:
    """Exactly `games` games tagged with the simulation, each once, finished, each move once."""
    tags = sorted(e.index for e in simulated_events(service) if e.simulation_id == simulation_id)
    assert tags == list(range(games))
    for index in range(games):
        game_id = game_id_of(simulation_id, index)
        events = [service.mapper.to_domain_event(e) for e in service.recorder.select_events(game_id)]
        assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
        moves = [e for e in events if type(e).__name__ == "MovePlayed"]
        assert [m.move_no for m in moves] == list(range(1, len(moves) + 1))   # no move twice
        assert moves and moves[-1].finished and all(m.actor == "bot:random" for m in moves)


@pytest.mark.slow
def test_a_worker_killed_mid_simulation_loses_nothing_and_two_workers_share_the_work(redis_url, key_prefix):
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix, HEIRLOOM_JOB_CLAIM_IDLE="2")
    service = GameService(env=application_env(redis_url, key_prefix))
    client = redis.Redis.from_url(redis_url)
    queue = JobQueue(client, key_prefix)
    simulations = Simulations(queue, service)
    workers = [start_worker(env), start_worker(env)]
    try:
        wait_for(lambda: len(queue.live_workers()) == 2, 60, "two workers")
        status = simulations.create("my_fathers_work", 2, ["random"], 10, seed=3)
        simulation_id = status["id"]
        wait_for(lambda: simulations.status(simulation_id)["games_done"] >= 2, 120, "two games done")
        victim = workers[0]
        victim_name = next(name for name in queue.live_workers() if f":{victim.pid}:" in name)
        for _ in range(200):              # freeze it while it holds a game's slice, then kill it there
            victim.send_signal(signal.SIGSTOP)
            held = client.xpending_range(queue.stream("sims"), GROUP, "-", "+", 50, consumername=victim_name)
            if held:
                break
            victim.send_signal(signal.SIGCONT)
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        assert held, "the killed worker held a job"                  # it dies holding a game's slice
        done = wait_for(lambda: (lambda s: s if s["status"] != "running" else None)(simulations.status(simulation_id)),
                        240, "the simulation to finish")
        assert done["status"] == "done" and done["games_done"] == 10 and done["games_failed"] == 0, done
        assert not client.xpending_range(queue.stream("sims"), GROUP, "-", "+", 50)   # nothing left in anyone's hands
        check_games(service, simulation_id, 10)
        shares = {name: kinds.get("sim", 0) for name, kinds in queue.stats().items()}
        survivor = next(name for name in shares if f":{workers[1].pid}:" in name)
        assert shares[victim_name] > 0 and shares[survivor] > 0, shares   # both did part of it
    finally:
        for worker in workers:
            stop(worker)
        service.close()
        client.close()


@pytest.mark.slow
def test_the_api_process_stays_light_while_its_builtin_worker_plays_a_simulation(redis_url, key_prefix):
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix)
    with RunningServer(env) as server:
        api_pid = server.process.pid
        worker_pid = wait_for(lambda: children_of(api_pid), 30, "the built-in worker")[0]
        api_before, worker_before = cpu_seconds(api_pid), cpu_seconds(worker_pid)
        with httpx.Client(base_url=server.url, timeout=20) as http:
            started = http.post("/simulations", json={"game": "my_fathers_work", "players": 2,
                                                      "bots": ["easy", "random"], "games": 3, "seed": 5})
            assert started.status_code == 202, started.text
            simulation_id = started.json()["id"]
            done = wait_for(lambda: (lambda s: s if s["status"] not in ("queued", "running") else None)(
                http.get(f"/simulations/{simulation_id}").json()), 240, "the simulation")
        api_cpu, worker_cpu = cpu_seconds(api_pid) - api_before, cpu_seconds(worker_pid) - worker_before
    assert done["status"] == "done" and done["games_done"] == 3
    print(f"CPU during the simulation: API process {api_cpu:.2f} s, built-in worker {worker_cpu:.2f} s")
    # The API process only serves requests and keeps the read side (projections) up to date; the
    # bots' thinking is all in the worker. (Before, it all ran in threads of the API process.)
    assert api_cpu < 0.3 * worker_cpu, (api_cpu, worker_cpu)


@pytest.mark.slow
def test_all_bot_games_do_not_starve_a_persons_bot_opponent(redis_url, key_prefix):
    """Issue 30's finding: after 6 all-bot games a person's bot opponent did not move for 89 s.
    Bot work is one decision per job and each game re-queues itself at the tail: the opponent
    waits for at most one decision of each other game."""
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix, HEIRLOOM_BOT_DELAY="0")
    waits = []
    with RunningServer(env) as server, httpx.Client(base_url=server.url, timeout=20) as http:
        busy = [http.post("/games", json={"game": "my_fathers_work", "players": 2, "seed": n,
                                          "bots": {"0": "normal", "1": "normal"}}).json()["id"] for n in range(6)]
        wait_for(lambda: all(http.get(f"/games/{g}").json()["move_count"] > 0 for g in busy), 60, "the bot games")
        created = http.post("/games", json={"game": "my_fathers_work", "players": 2, "seed": 99,
                                            "bots": {"1": "normal"}}).json()
        game_id, auth = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        while len(waits) < 4:
            view = wait_for(lambda: (lambda v: v if 0 in v["to_act"] or v["status"] == "finished" else None)(
                http.get(f"/games/{game_id}").json()), 60, "the person's turn")
            if view["status"] == "finished":
                break
            listed = http.get(f"/games/{game_id}/legal-moves", headers=auth).json()
            played = http.post(f"/games/{game_id}/moves", headers=auth,
                               json={"move": listed["moves"][0], "expected_version": listed["version"]})
            assert played.status_code == 201, played.text
            after = played.json()["move_no"]
            if http.get(f"/games/{game_id}").json()["to_act"] != [1]:
                continue                                   # still the person's turn
            started = time.monotonic()
            wait_for(lambda: http.get(f"/games/{game_id}").json()["move_count"] > after, 60, "the bot's move", every=0.1)
            waits.append(time.monotonic() - started)
        still_busy = [http.get(f"/games/{g}").json()["status"] for g in busy]
    print("bot opponent's waits (s):", [round(w, 2) for w in waits], "all-bot games:", still_busy)
    assert "active" in still_busy          # the all-bot games were still playing meanwhile
    assert waits and max(waits) < 4.0, waits    # was 89 s; on a quiet machine well under 1 s


@pytest.mark.slow
def test_heirloom_simulate_shows_progress_and_plays_alone_when_no_worker_runs(redis_url, key_prefix):
    env = server_env(REDIS_URL=redis_url, REDIS_KEY_PREFIX=key_prefix)
    done = subprocess.run(cli_command("simulate", "api_count", "--players", "2", "--bots", "random",
                                      "--games", "3", "--seed", "4"),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "no worker is running" in done.stderr and "3/3 games" in done.stderr     # the progress bar
    assert "done, 3/3 games" in done.stdout and "seat 0: wins" in done.stdout
    bad = subprocess.run(cli_command("simulate", "api_count", "--players", "2", "--bots", "genius", "--games", "3"),
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "'genius' is not a bot level" in bad.stderr
