"""Operations of the read side: exactly-once application, restarts, concurrent runners,
rebuild equals live, the CLI (rebuild with a progress bar, export), read-your-writes."""

from __future__ import annotations

import csv
import dataclasses
import os
import random

import orjson
import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from api.cli import main
from api.errors import status_of
from projections.readside import PROJECTION_CLASSES, ReadSide
from tests.support import api_count, dice_duel  # noqa: F401  (register the test games)
from tests.support.api_client import TestGame


@pytest.fixture
def cli_env(settings, monkeypatch):
    """The CLI's environment: this test's Redis and prefix, the test games, lenient game loading
    (a game package being written by someone else must not break the read side's tests)."""
    import api.app

    real_load_games = api.app.load_games
    monkeypatch.setattr(api.app, "load_games", lambda s: real_load_games(dataclasses.replace(s, strict_games=False)))
    monkeypatch.setenv("REDIS_URL", settings.redis_url)
    monkeypatch.setenv("REDIS_KEY_PREFIX", settings.key_prefix)
    monkeypatch.setenv("HEIRLOOM_EXTRA_GAMES", "tests.support.dice_duel,tests.support.api_count")


def play_some_games(client, count: int = 3, seed: int = 0) -> list[TestGame]:
    """Finished and unfinished dice duels, one with an undo, one reopened by an undo."""
    chooser = random.Random(seed)
    games = []
    for index in range(count):
        game = TestGame.create(client, "dice_duel", 2, seed=seed + index, names=[f"n{index % 2}", f"n{index % 3 + 5}"])
        moves = 0
        while game.get()["status"] == "active" and not (index == 0 and moves == 4):
            seat = game.get()["to_act"][0]
            game.move(seat, chooser.choice(game.legal(seat)["moves"]))
            moves += 1
            if index == 1 and moves == 3:
                assert game.undo("referee", 2).json()["status"] == "applied"
        games.append(game)
    last = games[-1]
    assert game.undo("referee", last.get()["move_count"]).json()["status"] == "applied"
    return games


def dumps(read_side: ReadSide) -> dict:
    return {name: projection.view.dump() for name, projection in read_side.projections.items()}


def rebuilt(service, settings, suffix: str = "-rebuilt") -> ReadSide:
    fresh = ReadSide(service, name_suffix=suffix)
    for name in PROJECTION_CLASSES:
        fresh.rebuild(name, show_progress=False)
    return fresh


def test_rebuild_from_scratch_equals_the_live_projections(client, service, read_side, settings):
    play_some_games(client)
    read_side.sync()
    live = dumps(read_side)
    assert live["replay"] and live["scoreboard"] and live["analytics"]
    assert dumps(rebuilt(service, settings)) == live


def test_an_event_is_applied_once_even_when_offered_twice(client, service, settings):
    game = TestGame.create(client, "dice_duel", 2, seed=1)
    game.move(0, {"type": "roll"})
    side = ReadSide(service, name_suffix="-once")
    side.catch_up()
    before = dumps(side)
    projection = side.projections["scoreboard"]
    notification = service.recorder.select_notifications(2, 1)[0]
    with pytest.raises(IntegrityError):
        projection.process_event(service.mapper.to_domain_event(notification), Tracking(service.name, 2))
    assert dumps(side) == before


def test_a_restarted_runner_resumes_where_it_stopped(client, service, settings):
    play_some_games(client, count=2, seed=3)
    game = TestGame.create(client, "api_count", 2, seed=8, options={"target": 10_000})
    for move_no in range(5):
        game.move(move_no % 2, {"type": "add", "amount": 1})
    first = ReadSide(service, name_suffix="-restart")
    first.catch_up()
    for move_no in range(5, 5 + 2 * first.checkpoint_every):  # after the "crash", past checkpoints
        game.move(move_no % 2, {"type": "add", "amount": 2})
    second = ReadSide(service, name_suffix="-restart")  # a new process: empty caches, same views
    second.catch_up()
    assert dumps(second) == dumps(rebuilt(service, settings))


def test_a_failed_batch_writes_nothing_and_is_applied_on_retry(client, service, settings, monkeypatch):
    TestGame.create(client, "dice_duel", 2, seed=1).move(0, {"type": "roll"})
    side = ReadSide(service, name_suffix="-crash")
    view = side.projections["replay"].view
    original = type(view).commit

    def crash(self, tracking, ops, after=None):
        raise ConnectionError("redis went away")

    monkeypatch.setattr(type(view), "commit", crash)
    with pytest.raises(ConnectionError):
        side.catch_up()
    assert view.max_tracking_id(service.name) is None and view.dump() == {}
    monkeypatch.setattr(type(view), "commit", original)
    side.catch_up()
    assert dumps(side) == dumps(rebuilt(service, settings))


def test_two_runners_on_the_same_views_apply_each_event_once(client, service, settings):
    one = ReadSide(service, name_suffix="-twice").start()
    two = ReadSide(service, name_suffix="-twice").start()
    try:
        play_some_games(client, count=3, seed=7)
        one.sync(timeout=10)
        two.sync(timeout=10)
    finally:
        one.stop()
        two.stop()
    assert dumps(one) == dumps(rebuilt(service, settings))


def test_cli_rebuild_shows_progress_and_equals_live(client, service, read_side, cli_env, capsys):
    play_some_games(client, count=2, seed=11)
    read_side.sync()
    live = dumps(read_side)
    read_side.stop()  # the API's runner would race the rebuild (it would still be correct, see above)
    assert main(["projections", "rebuild"]) == 0
    err = capsys.readouterr().err
    for name in PROJECTION_CLASSES:
        assert f"{name}: rebuilt from" in err
    assert "100.0%" in err and "events" in err
    assert dumps(read_side) == live
    assert main(["projections", "status"]) == 0
    status = orjson.loads(capsys.readouterr().out)
    assert all(p["lag"] == 0 for p in status["projections"].values())
    # One log on a single Redis: partition 0 is all of it; another partition is refused, by name.
    assert main(["projections", "rebuild", "scoreboard", "--partition", "0", "--quiet"]) == 0
    assert "scoreboard: rebuilt from" in capsys.readouterr().err and dumps(read_side) == live
    assert main(["projections", "rebuild", "--partition", "1"]) == 2
    assert "partition 1 does not exist: the log has 1 partition(s)" in capsys.readouterr().err


def test_cli_export_writes_json_lines_and_csv(client, service, cli_env, tmp_path):
    games = play_some_games(client, count=3, seed=5)
    assert main(["export", "--out", str(tmp_path)]) == 0
    lines = [orjson.loads(line) for line in (tmp_path / "games.jsonl").read_bytes().splitlines()]
    finished = [g.id for g in games if g.get()["status"] == "finished"]
    assert sorted(line["game_id"] for line in lines) == sorted(finished)
    for line in lines:
        live = TestGame(client, line["game_id"], [], "").get()
        assert line["scores"] == live["scores"] and line["winners"] == live["winners"]
    rows = list(csv.DictReader((tmp_path / "moves.csv").open(encoding="utf-8")))
    assert len(rows) == sum(len(line["moves"]) for line in lines)
    assert {row["undone"] for row in rows} <= {"True", "False"}
    assert main(["export", "--out", str(tmp_path / "all"), "--include-active", "--format", "jsonl"]) == 0
    assert len((tmp_path / "all" / "games.jsonl").read_bytes().splitlines()) == len(games)


def test_cli_export_of_running_games_is_private_to_its_owner(client, service, cli_env, tmp_path):
    """Running games' hands and decks are in an --include-active export: 0600 files in a 0700 folder
    (issue 30.8), whatever the umask, also over files and a folder that were there before."""
    play_some_games(client, count=2, seed=5)
    out = tmp_path / "hidden"
    out.mkdir(mode=0o755)
    (out / "moves.csv").write_text("old")
    (out / "moves.csv").chmod(0o644)
    previous = os.umask(0o022)
    try:
        assert main(["export", "--out", str(out), "--include-active", "--records"]) == 0
    finally:
        os.umask(previous)
    assert oct(out.stat().st_mode & 0o777) == "0o700"
    assert oct((out / "records").stat().st_mode & 0o777) == "0o700"
    written = [out / "games.jsonl", out / "moves.csv", *sorted((out / "records").iterdir())]
    assert all(oct(path.stat().st_mode & 0o777) == "0o600" for path in written), \
        {path.name: oct(path.stat().st_mode & 0o777) for path in written}


def test_reads_after_a_write_reflect_it(client, read_side):
    read_side.runner.poll_interval = 5.0  # the runner would not look again on its own soon
    game = TestGame.create(client, "api_count", 2, seed=1)
    for move_no in range(1, 6):
        game.move((move_no - 1) % 2, {"type": "add", "amount": 1})
        assert client.get(f"/games/{game.id}/replay").json()["steps"] == move_no
        assert client.get(f"/games/{game.id}/scores").json()["history"][-1]["move_no"] == move_no


def test_rebuild_while_the_api_runner_follows_the_same_views(client, service, read_side, settings):
    play_some_games(client, count=2, seed=13)
    read_side.sync()
    operator = ReadSide(service)  # e.g. `heirloom projections rebuild` in another process
    for name in PROJECTION_CLASSES:
        operator.rebuild(name, show_progress=False)
        play_some_games(client, count=1, seed=20 + len(name))  # the API keeps writing meanwhile
    read_side.sync(timeout=10)
    assert dumps(read_side) == dumps(rebuilt(service, settings))


RUN_PROJECTIONS = """
import dataclasses, sys
import api.app
real = api.app.load_games
api.app.load_games = lambda s: real(dataclasses.replace(s, strict_games=False))
from api.cli import main
sys.exit(main(["projections", "run"]))
"""


def test_projections_run_in_a_separate_process_serve_an_external_api(settings, monkeypatch):
    import os
    import signal
    import subprocess
    import sys

    from fastapi.testclient import TestClient

    from tests.support.api_client import make_app

    monkeypatch.setenv("HEIRLOOM_PROJECTIONS", "external")
    app = make_app(settings)
    env = dict(os.environ, REDIS_URL=settings.redis_url, REDIS_KEY_PREFIX=settings.key_prefix,
               HEIRLOOM_EXTRA_GAMES="tests.support.dice_duel,tests.support.api_count", PYTHONPATH=os.getcwd())
    runner = subprocess.Popen([sys.executable, "-c", RUN_PROJECTIONS], env=env, stderr=subprocess.PIPE, text=True)
    started = runner.stderr.readline()  # the runner follows the log (its start may take seconds on a busy machine)
    try:
        with TestClient(app) as client:
            assert not app.state.projections.runner.running  # nothing applies events in the API
            game = TestGame.create(client, "api_count", 2, seed=1)
            for move_no in range(1, 4):
                game.move((move_no - 1) % 2, {"type": "add", "amount": 1})
                assert client.get(f"/games/{game.id}/replay").json()["steps"] == move_no
            assert client.get(f"/games/{game.id}/scores").json()["history"][-1]["move_no"] == 3
    finally:
        runner.send_signal(signal.SIGTERM)
        try:
            _, err = runner.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            runner.kill()
            _, err = runner.communicate()
    assert runner.returncode == 0, err
    assert "following the log" in started + err


def test_the_librarys_projection_runner_drives_the_same_projections(client, service, settings):
    """The projections are eventsourcing `Projection`s: the library's runner (subscription
    to the Redis notification stream, one `process_event` per event) builds the same view."""
    from eventsourcing.projection import BaseProjectionRunner

    from domain.service import GameService
    from projections.replay import ReplayProjection, ReplayView

    view = ReplayView(service.recorder.datastore.client, settings.key_prefix, "replay-library")
    projection = ReplayProjection(view)
    runner = BaseProjectionRunner(projection=projection, application_class=GameService,
                                  tracking_recorder=projection.view, topics=(), env=settings.service_env())
    with runner:
        play_some_games(client, count=2, seed=17)
        runner.wait(service.recorder.max_notification_id(), timeout=10)
    assert projection.view.dump() == rebuilt(service, settings).projections["replay"].view.dump()


def test_a_read_waits_at_most_the_read_timeout_for_a_lagging_projection(settings, monkeypatch):
    from fastapi.testclient import TestClient

    from tests.support.api_client import make_app

    monkeypatch.setenv("HEIRLOOM_PROJECTIONS", "external")  # and no external runner is running
    monkeypatch.setenv("HEIRLOOM_READ_TIMEOUT", "0.3")
    with TestClient(make_app(settings)) as client:
        game = TestGame.create(client, "api_count", 2, seed=1)
        response = client.get(f"/games/{game.id}/replay")
        assert response.status_code == 503
        assert response.json()["error"] == "projection_lagging"
        assert client.get("/projections").json()["projections"]["replay"]["lag"] == 1


def test_a_game_whose_event_cannot_be_applied_is_set_aside_and_the_others_go_on(client, service, settings):
    from domain.engine import get_rules
    from domain.service import SPECTATOR_CALLER
    from projections.readside import GameSetAside

    class RollsBreakEvolve:
        """Count Up whose evolve fails on a roll: a read-side bug in one game type."""

        def __init__(self, rules):
            self.rules = rules

        def __getattr__(self, name):
            return getattr(self.rules, name)

        def evolve(self, state, record):
            if record["type"] == "Rolled":
                raise KeyError("no such counter")
            return self.rules.evolve(state, record)

    def rules_for(game_type):
        rules = get_rules(game_type)
        return RollsBreakEvolve(rules) if game_type == "api_count" else rules

    good = TestGame.create(client, "dice_duel", 2, seed=1)
    bad = TestGame.create(client, "api_count", 2, seed=1)
    bad.move(0, {"type": "add", "amount": 1})
    bad.move(1, {"type": "roll"})
    good.move(0, {"type": "roll"})
    side = ReadSide(service, name_suffix="-aside", rules_for=rules_for)
    side.catch_up()  # no error escapes
    head = service.recorder.max_notification_id()
    assert all(side.runner.position(name) == head for name in PROJECTION_CLASSES)
    assert side.replay(good.id, None, SPECTATOR_CALLER)["steps"] == 1
    with pytest.raises(GameSetAside) as refused:
        side.replay(bad.id, 1, SPECTATOR_CALLER)
    assert status_of(refused.value) == 503 and "KeyError" in refused.value.detail
    assert set(side.status()["projections"]["replay"]["games_set_aside"]) == {bad.id}
    bad.move(0, {"type": "add", "amount": 2})
    good.move(1, {"type": "roll"})
    side.catch_up()
    assert side.replay(good.id, None, SPECTATOR_CALLER)["steps"] == 2
    assert side.scores(good.id)["history"][-1]["move_no"] == 2


def test_an_idle_runner_reads_nothing_and_wakes_on_a_new_event(client, read_side, monkeypatch):
    """While the log is idle the runner's threads block (the store's log watcher, an XREAD
    BLOCK): no notification or view reads. A move, which does not poke the runner, is
    applied promptly anyway: the append wakes the watcher, far below the 5 s safety net."""
    import time

    runner = read_side.runner
    assert runner.running and runner.idle_timeout >= 5.0
    game = TestGame.create(client, "api_count", 2, seed=1)
    read_side.sync()
    recorder = read_side.app.recorder
    reads = {"log": 0, "views": 0}

    def counted(kind, method):
        def call(*args, **kwargs):
            reads[kind] += 1
            return method(*args, **kwargs)
        return call

    monkeypatch.setattr(recorder, "select_notifications", counted("log", recorder.select_notifications))
    for projection in runner.projections.values():
        view = projection.view
        monkeypatch.setattr(view, "max_tracking_id", counted("views", view.max_tracking_id))
    time.sleep(0.3)  # the threads finish their last look and settle into their wait
    before = dict(reads)
    time.sleep(1.2)  # a 50 ms poll would read the log about 24 times per projection here
    assert reads == before, "the idle runner read the log or its views"

    head = recorder.max_notification_id()
    sent = time.monotonic()
    game.move(0, {"type": "add", "amount": 1})
    positions = {name: 0 for name in runner.projections}
    while time.monotonic() - sent < runner.idle_timeout + 1.0:
        positions = {name: runner.position(name) for name in runner.projections}
        if all(p > head for p in positions.values()):
            break
        time.sleep(0.002)
    latency = time.monotonic() - sent
    assert all(p > head for p in positions.values()), positions
    # Woken by the append, not by the safety net; the margin is generous because a loaded
    # machine (CI on 2 cores) can take seconds to schedule the threads at all.
    assert latency < runner.idle_timeout - 1.0, f"the runner took {latency:.3f}s to apply a new event"
    # (The event itself is usually not read from the log: the service hands what it saved to
    # the runner in memory, projections/runner.py `_on_saved`.)


def test_cli_export_writes_private_parquet_files(client, service, cli_env, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    games = play_some_games(client, count=3, seed=5)
    out = tmp_path / "pq"
    assert main(["export", "--out", str(out), "--format", "parquet"]) == 0
    assert oct(out.stat().st_mode & 0o777) == "0o700"
    finished = sorted(g.id for g in games if g.get()["status"] == "finished")
    for name in ("games", "moves", "features"):
        assert oct((out / f"{name}.parquet").stat().st_mode & 0o777) == "0o600"
    ids = sorted(r[0] for r in duckdb.connect().execute(f"select game_id from '{out / 'games.parquet'}'").fetchall())
    assert ids == finished
