"""Engine analysis (issue 15.4): per step each seat's win probability and expected score, the
mistakes graded by documented thresholds; a running game analysed only for what the caller sees."""

from __future__ import annotations

import random
import time

from domain.bots.analysis import ENGINE_VERSION, GRADES, analyse, grade
from domain.bots.levels import Level
from domain.engine import EVERYONE, get_rules, new_game, play

from domain.games import load_all

from .test_bot_seats import wait_for

load_all()

CHEAP = Level("test", iterations=8, rollout_depth=4, per_move=4)


def random_game(game: str, seed: int, players: int = 2, limit: int = 10_000):
    rules = get_rules(game)
    chooser = random.Random(seed)
    state, setup = new_game(rules, players, {}, seed)
    moves = []
    while not rules.is_over(state) and len(moves) < limit:
        seat = rules.decision(state).seats[0]
        move = chooser.choice(rules.legal_moves(state, seat))
        state, facts = play(rules, state, seat, move, seed, len(moves) + 1)
        moves.append({"seat": seat, "move": move, "facts": facts})
    return rules, setup, moves, state


def test_the_grades_and_their_thresholds():
    assert GRADES == ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
    assert [grade(x) for x in (0.05, 0.1, 0.25, 0.31)] == [None, "inaccuracy", "mistake", "blunder"]


def test_a_finished_game_gets_a_value_for_every_step_and_graded_mistakes():
    rules, setup, moves, final = random_game("my_fathers_work", 4)
    records = list(analyse(rules, 2, {}, setup, moves, EVERYONE, 1, ["ann", "bob"], budget=CHEAP))
    steps, mistakes = records[:-1], records[-1]["mistakes"]
    assert [r["step"] for r in steps] == list(range(len(moves) + 1))
    for r in steps[:-1]:
        assert set(r["win_probability"]) == {"0", "1"}
        assert abs(sum(r["win_probability"].values()) - 1) < 0.01     # a competitive game: someone wins
        assert set(r["expected_score"]) == {"0", "1"}
    winners = rules.winners(final)
    assert steps[-1]["win_probability"] == {str(s): (1.0 / len(winners) if s in winners else 0.0) for s in (0, 1)}
    assert mistakes, "random play makes mistakes"
    for m in mistakes:
        assert m["grade"] == grade(m["loss"]) and m["loss"] >= 0.10
        assert m["better"] != m["played"] and m["better_label"] and m["played_label"]
        assert moves[m["move_no"] - 1]["move"] == m["played"] and moves[m["move_no"] - 1]["seat"] == m["seat"]


def test_a_running_game_is_judged_only_for_the_viewers_own_moves():
    rules, setup, moves, _ = random_game("adas_dream", 6, limit=30)
    records = list(analyse(rules, 2, {}, setup, moves, 0, 1, budget=CHEAP))
    assert len(records) == len(moves) + 2
    assert all(m["seat"] == 0 for m in records[-1]["mistakes"])


def test_analysis_over_http_for_a_running_game_is_the_callers_own(client):
    created = client.post("/games", json={"game": "adas_dream", "players": 2, "seed": 12,
                                          "analysis_during_play": True}).json()   # TABLE-ANALYSIS-01
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    chooser = random.Random(3)
    for _ in range(12):
        to_act = client.get(f"/games/{game_id}").json()["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[to_act]}"}
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
        assert client.post(f"/games/{game_id}/moves", headers=auth,
                           json={"move": chooser.choice(listed["moves"])}).status_code == 201
    seat0 = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.get(f"/games/{game_id}/analysis", headers=seat0).json()["status"] == "none"
    started = client.post(f"/games/{game_id}/analysis", headers=seat0)
    assert started.status_code == 202 and started.json()["status"] in ("queued", "running", "done")
    done = wait_for(lambda: (lambda r: r if r["status"] == "done" else None)(
        client.get(f"/games/{game_id}/analysis", headers=seat0).json()), timeout=240)
    assert done["engine"] == ENGINE_VERSION and len(done["steps"]) == 13
    assert all(m["seat"] == 0 for m in done["mistakes"])
    # another caller does not get seat 0's analysis (it was made from seat 0's hand)
    assert client.get(f"/games/{game_id}/analysis").json()["status"] == "none"
    hand1 = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[1]}"}).json()
    public = str(client.get(f"/games/{game_id}").json()["state"])
    hidden = [card for card in hand1["state"]["players"][1]["hand"] if f"'{card}'" not in public]
    assert hidden, "seat 1 holds cards nobody else has seen"
    assert not [card for card in hidden if f"'{card}'" in str(done)]


def test_analysis_of_an_unknown_game_is_404(client):
    answer = client.post("/games/00000000-0000-0000-0000-000000000000/analysis")
    assert answer.status_code == 404 and answer.json()["error"]
