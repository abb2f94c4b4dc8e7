"""No refusal a person did not cause (issue 25.2, TABLE-BOT-01, TABLE-MOVE-01): a person clicking at
(nearly) human speed against bots in all four games is never refused. The same client as
ops/bench/refusals.py (which measures it against a running server at 1-2 s a click)."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

SPEC = importlib.util.spec_from_file_location(
    "refusals", pathlib.Path(__file__).resolve().parents[2] / "ops" / "bench" / "refusals.py")
refusals = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(refusals)


@pytest.mark.slow
@pytest.mark.rule("TABLE-BOT-01", "TABLE-MOVE-01")
@pytest.mark.parametrize("game, players", [("heredity", 3), ("my_fathers_work", 3), ("abomination", 3),
                                           ("adas_dream", 3)])
def test_a_person_at_human_speed_is_never_refused(client, game, players):
    row = refusals.play_table(client, game, players, "random", clicks=6, think=(0.3, 0.6), seed=3,
                              page_retry=True, pass_rate=0.3)
    assert row["clicks"] >= 4, row
    assert row["refused_seen"] == 0, row            # what a person sees on the page (it retries a 409)
    assert row["refused"] == 0, row                 # and the server itself refused nothing
