"""The lab's report (issue 27.3): intervals by their textbook numbers, and a report over stored games
whose every figure is recomputed here from the games themselves (GET /games/{id}), forks and imports
left out, filters applied."""

from __future__ import annotations

import random

import pytest

from projections.lab import features, newcombe, percentile, report, select, wilson
from tests.support import dice_duel  # noqa: F401  (registers the test game)
from tests.support.api_client import TestGame, bearer


def test_wilson_and_newcombe_give_the_published_numbers():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    # Newcombe (1998), table II, example (a): 56/70 vs 48/80 -> 0.0524 to 0.3339 (method 10)
    low, high = newcombe(56, 70, 48, 80)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_percentiles_interpolate_and_features_need_both_sides():
    assert percentile([1, 2, 3, 4], 0.5) == 2.5 and percentile([7], 0.9) == 7
    rows = [{"players": 2, "winners": [0], "features": {"0": ["card:a"], "1": []}} for _ in range(6)]
    rows += [{"players": 2, "winners": [1], "features": {"0": [], "1": []}} for _ in range(6)]
    listed = {f["key"]: f for f in features(rows, {"card:a": "The A card"})}
    a = listed["card:a"]
    assert a["name"] == "The A card" and a["games_with"] == 6 and a["games_without"] == 18
    assert a["win_rate_with"] == 1.0 and a["win_rate_without"] == round(6 / 18, 4)
    assert a["ci95"][0] < a["delta"] < a["ci95"][1]


def finished_dice_duel(client, seed: int) -> TestGame:
    game = TestGame.create(client, "dice_duel", 2, seed=seed, names=["ann", "bo"])
    assert game.play_randomly(200, seed)
    return game


def test_the_report_equals_the_figures_of_the_stored_games(client):
    games = [finished_dice_duel(client, seed) for seed in range(1, 13)]
    fork = client.post(f"/games/{games[0].id}/fork", json={"step": 2})
    assert fork.status_code == 201, fork.text
    forked = TestGame(client, fork.json()["id"], [s.get("token") for s in fork.json()["seats"]],
                      fork.json()["referee_token"], fork.json())
    assert forked.play_randomly(200, 99)
    imported = client.post("/games/import", json=client.get(f"/games/{games[1].id}/record").json())
    assert imported.status_code == 201, imported.text
    got = client.get("/analytics/dice_duel/report")
    assert got.status_code == 200, got.text
    got = got.json()
    views = [g.get() for g in games]                                   # recomputed from the games
    assert got["games"] == len(games)                                   # no fork, no import
    for seat in (0, 1):
        wins = sum(1 for v in views if seat in v["winners"])
        advantage = got["seat_advantage"][seat]
        assert advantage["n"] == len(games) and advantage["win_rate"] == round(wins / len(games), 4)
        assert [round(x, 4) for x in wilson(wins, len(games))] == advantage["ci95"]
        scores = sorted(float(v["scores"][str(seat)]) for v in views)
        assert got["scores"][str(seat)]["p50"] == percentile(scores, 0.5)
    lengths = sorted(v["move_count"] for v in views)
    assert got["length"]["p50"] == percentile(lengths, 0.5)
    assert sum(b["games"] for b in got["length"]["histogram"]) == len(games)
    for feature in got["features"]:
        assert feature["games_with"] + feature["games_without"] == 2 * len(games)
        assert feature["ci95"][0] <= feature["delta"] <= feature["ci95"][1]
        assert ":" not in feature["name"] or feature["kind"] == "action"
    assert client.get("/analytics/dice_duel/report?players=3").json()["games"] == 0
    assert client.get("/analytics/dice_duel/report?bots=only").json()["games"] == 0
    assert client.get("/analytics/dice_duel/report?bots=exclude").json()["games"] == len(games)
    assert client.get("/analytics/dice_duel/report?bots=maybe").status_code == 422
    assert client.get("/analytics/no_such_game/report").status_code == 404


def test_parquet_tables_are_typed_and_read_back_by_duckdb(client, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    games = [finished_dice_duel(client, seed) for seed in (21, 22, 23)]
    running = TestGame.create(client, "dice_duel", 2, seed=24)
    running.move(0, {"type": "roll"})
    files = {}
    for table in ("games", "moves", "features"):
        answer = client.get(f"/analytics/dice_duel/export.parquet?table={table}")
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/vnd.apache.parquet"
        files[table] = tmp_path / f"{table}.parquet"
        files[table].write_bytes(answer.content)
    db = duckdb.connect()
    rows = db.execute(f"select game_id, players, moves, score_0, score_1, result_0, name_0 "
                      f"from '{files['games']}' order by game_id").fetchall()
    assert sorted(r[0] for r in rows) == sorted(g.id for g in games)   # finished games only
    for row in rows:
        view = client.get(f"/games/{row[0]}").json()
        assert row[1] == 2 and row[2] == view["move_count"]
        assert (row[3], row[4]) == (float(view["scores"]["0"]), float(view["scores"]["1"]))   # numbers
        assert row[5] == ("win" if 0 in view["winners"] else "loss") and row[6] == "ann"
    kinds = {row[0]: row[1] for row in db.execute(f"describe select * from '{files['moves']}'").fetchall()}
    assert kinds["move_no"] == "INTEGER" and kinds["score_0"] == "DOUBLE" and kinds["recorded_at"].startswith("TIMESTAMP")
    moves = db.execute(f"select count(*) from '{files['moves']}'").fetchone()[0]
    assert moves == sum(client.get(f"/games/{g.id}").json()["move_count"] for g in games)
    won = db.execute(f"select count(*) from '{files['features']}' where won").fetchone()[0]
    assert won > 0
    assert client.get("/analytics/dice_duel/export.parquet?table=secrets").status_code == 422


def test_a_kind_of_action_is_the_first_step_of_the_tree_not_the_whole_path():
    from domain.engine import get_rules, new_game, play
    from domain.games import load_all
    from projections.lab import action_kind

    load_all()
    rules = get_rules("adas_dream")
    state, _ = new_game(rules, 2, {}, 3)
    chooser, kinds = random.Random(3), set()
    for move_no in range(1, 61):
        seat = rules.decision(state).seats[0]
        move = chooser.choice(rules.legal_moves(state, seat))
        kinds.add(action_kind(rules, state, seat, move))
        state, _ = play(rules, state, seat, move, 3, move_no)
    # a step, never the joined path ("Actions turn: The grey 3 from your Store: ...: Into Mill row 3")
    assert 2 <= len(kinds) <= 40 and all(len(kind) <= 120 and kind.count(": ") <= 1 for kind in kinds), kinds
