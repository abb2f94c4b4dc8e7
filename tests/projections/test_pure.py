"""The read side's pure parts: ratings, timelines with undo, summaries, the audit check."""

from __future__ import annotations

import pytest

import tests.support.dice_duel  # noqa: F401  (registers dice_duel)
from domain.audit import GENESIS, chain_hash
from domain.engine import get_rules, new_game, play
from projections import rating
from projections.audit import verify_events
from projections.summary import analytics_counters, analytics_report, progression, summarize_game
from projections.timeline import build_timeline, state_at


def test_two_player_elo_is_plain_elo():
    entries = rating.replay_results([{"names": ["ann", "bob"], "scores": {"0": 3, "1": 9}, "winners": [1]}])
    assert entries["bob"]["rating"] == pytest.approx(1516.0)
    assert entries["ann"]["rating"] == pytest.approx(1484.0)
    assert (entries["bob"]["wins"], entries["bob"]["games"]) == (1, 1)


def test_multi_player_ratings_are_zero_sum_and_follow_places():
    result = {"names": ["a", "b", "c", "d"], "scores": {"0": 10, "1": 7, "2": 7, "3": 1}, "winners": [0]}
    entries = rating.replay_results([result])
    total = sum(entry["rating"] - rating.INITIAL for entry in entries.values())
    assert total == pytest.approx(0.0)
    assert entries["a"]["rating"] > entries["b"]["rating"] == pytest.approx(entries["c"]["rating"])
    assert entries["c"]["rating"] > entries["d"]["rating"]
    assert entries["a"]["rating"] - rating.INITIAL == pytest.approx(16.0)  # at most K in total


def test_cooperative_games_get_a_team_record_not_a_rating():
    entries = rating.replay_results([
        {"names": ["a", "b"], "scores": {"0": 0, "1": 0}, "winners": [0, 1], "cooperative": True},
        {"names": ["a", "c"], "scores": {"0": 0, "1": 0}, "winners": [], "cooperative": True}])
    assert entries["a"]["rating"] == rating.INITIAL == entries["b"]["rating"]     # issue 27.4: no Elo
    assert rating.leaderboard(entries) == []
    assert rating.team_record(entries) == [
        {"player": "b", "chapters": 1, "won": 1, "win_rate": 1.0},
        {"player": "a", "chapters": 2, "won": 1, "win_rate": 0.5},
        {"player": "c", "chapters": 1, "won": 0, "win_rate": 0.0}]


def test_ratings_depend_on_the_order_games_finished_and_nothing_else():
    results = [{"names": ["a", "b"], "scores": {"0": 1, "1": 0}, "winners": [0]},
               {"names": ["b", "c"], "scores": {"0": 1, "1": 0}, "winners": [0]}]
    assert rating.replay_results(results) == rating.replay_results([dict(r) for r in results])
    board = rating.leaderboard(rating.replay_results(results))
    assert [row["player"] for row in board][0] in ("a", "b")
    assert all(set(row) == {"player", "games", "wins", "rating", "avg_score"} for row in board)


def record(kind, version, **fields):
    return {"type": kind, "game_id": "g", "version": version, "recorded_at": None, **fields}


def played_dice_duel(seed=4, moves=None):
    """Records of a dice_duel game played with the kernel (first legal move each time)."""
    rules = get_rules("dice_duel")
    state, setup = new_game(rules, 2, {}, seed)
    records = [record("Created", 1, game_type="dice_duel", players=2, names=["a", "b"], options={},
                      setup_facts=setup)]
    states = [state]
    move_no = 0
    while not rules.is_over(state) and (moves is None or move_no < moves):
        seat = rules.decision(state).seats[0]
        move = rules.legal_moves(state, seat)[-1]
        move_no += 1
        state, facts = play(rules, state, seat, move, seed, move_no)
        records.append(record("MovePlayed", len(records) + 1, seat=seat, move=move, move_no=move_no, facts=facts,
                              description="", scores={str(k): v for k, v in rules.scores(state).items()},
                              finished=rules.is_over(state)))
        states.append(state)
    return rules, records, states


def test_timeline_after_undo_folds_to_the_state_before_the_undone_moves():
    rules, records, states = played_dice_duel(moves=5)
    records.append(record("UndoRequested", 7, request_id="r1", by="referee", to_move=3, reason="misclick"))
    records.append(record("MovesUndone", 8, request_id="r1", to_move=3, undone_versions=[4, 5, 6]))
    timeline = build_timeline(records)
    assert timeline.steps == 2
    assert [m["version"] for m in timeline.moves if m["undone"]] == [4, 5, 6]
    assert state_at(rules, timeline.meta, timeline.effective, 2) == states[2]
    assert timeline.undo_requests["r1"]["status"] == "applied"


def test_summary_of_a_finished_game_has_the_games_own_scores_and_winners():
    rules, records, states = played_dice_duel()
    summary = summarize_game(rules, build_timeline(records))
    assert summary["finished"]
    assert summary["scores"] == {str(k): v for k, v in rules.scores(states[-1]).items()}
    assert summary["winners"] == sorted(rules.winners(states[-1]))
    assert summary["score_history"][-1]["scores"] == summary["scores"]
    assert len(summary["score_history"]) == summary["moves"] + 1


def test_progression_samples_every_tenth_of_the_game():
    history = [{"move_no": i, "scores": {"0": i, "1": 2 * i}} for i in range(21)]
    assert progression(history) == {"0": list(range(0, 21, 2)), "1": list(range(0, 41, 4))}


def test_analytics_counters_add_up_to_the_report():
    rules, records, _ = played_dice_duel()
    summary = summarize_game(rules, build_timeline(records))
    counters = analytics_counters(summary)
    doubled = {key: 2 * value for key, value in counters.items()}
    report = analytics_report("dice_duel", doubled)
    assert report["games"] == 2
    assert report["avg_moves"] == summary["moves"]
    assert sum(report["action_frequency"].values()) == 2 * summary["moves"]
    assert set(report["seat_win_rate"]) == {"0", "1"}


def chain(n=5):
    events = []
    prev = GENESIS
    for version in range(1, n + 1):
        fields = {"seat": version % 2, "move": {"type": "x", "n": version}, "prev_hash": prev}
        fields["hash"] = chain_hash(prev, "MovePlayed", version, fields)
        prev = fields["hash"]
        events.append((version, type("MovePlayed", (), {})()))
        events[-1][1].__dict__.update(fields)
    return events


def test_verify_accepts_an_intact_chain():
    result = verify_events(chain())
    assert result["ok"] and result["events"] == 5


@pytest.mark.parametrize("tamper, first_bad", [
    ("alter", 3), ("remove", 3), ("reorder", 3), ("insert", 3),
])
def test_verify_names_the_first_bad_version(tamper, first_bad):
    events = chain()
    if tamper == "alter":
        events[2][1].__dict__["move"] = {"type": "x", "n": 99}
    elif tamper == "remove":
        del events[2]
    elif tamper == "reorder":
        events[2], events[3] = (3, events[3][1]), (4, events[2][1])
    elif tamper == "insert":
        fake = type("MovePlayed", (), {})()
        fake.__dict__.update(dict(vars(events[1][1])))
        events = events[:2] + [(3, fake)] + [(v + 1, e) for v, e in events[2:]]
    result = verify_events(events)
    assert not result["ok"]
    assert result["first_bad_version"] == first_bad
