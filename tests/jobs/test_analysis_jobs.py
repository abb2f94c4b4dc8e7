"""Analysis as the workers do it (projections/analysis.py): in slices, each taking up where the
last stopped, with the same result as in one go; over HTTP it is queued, never run in the API."""

from __future__ import annotations

from domain.bots.analysis import analyse
from domain.engine import EVERYONE
from projections.analysis import analyse_slice, new_record
from tests.bots.test_analysis import CHEAP, random_game


def test_an_analysis_in_slices_equals_the_analysis_in_one_go():
    rules, setup, moves, _ = random_game("adas_dream", 6, limit=14)
    whole = list(analyse(rules, 2, {}, setup, moves, EVERYONE, 5, ["ann", "bob"], budget=CHEAP))
    history = {"rules": rules, "players": 2, "options": {}, "setup_facts": setup, "moves": moves, "seed": 5,
               "names": ["ann", "bob"], "version": 99, "finished": True}
    record, slices = new_record(EVERYONE, 99, "running"), 0
    while record["status"] != "done":
        record = analyse_slice(history, EVERYONE, record, seconds=0.0, budget=CHEAP)   # one step a slice
        slices += 1
    assert slices == len(moves) + 1
    assert record["steps"] == whole[:-1]
    summary = whole[-1]
    assert {key: record[key] for key in summary} == summary and "partial" not in record
