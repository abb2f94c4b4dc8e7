"""Bots reach what random play never does (issue 15.7), with replay = live after every move.

In 120 random My Father's Work games no C-level bonus was scored; two `normal` bots reach it
(the seed was found by playing seeds 1..22 with two normal bots, after the move lists changed (issue 24): 12 and 17 reach it; the bots are deterministic for a
seed, so the game is the same on every run). Each game stops at the mechanic it is here for.
"""

from __future__ import annotations

import pytest

from domain.games import load_all

from domain.games.heredity.state import card_zone, standees

from .playout import bot_playout
from .test_deeper_heredity import CHEST, WARDEN, chest_plan, swan_first

load_all()


def scored_c_bonus(state, facts):
    return any(f.get("type") == "Scored" and f.get("reason") == "C bonus" for f in facts)


@pytest.mark.slow
@pytest.mark.rule("MFW-SCORE-05")
def test_normal_bots_score_the_c_bonus_in_my_fathers_work():
    result = bot_playout("my_fathers_work", 2, 17, ["normal", "normal"], stop=scored_c_bonus)
    last = result["facts"][-1]
    bonus = [f for f in last if f.get("type") == "Scored" and f.get("reason") == "C bonus"]
    assert bonus, "two normal bots complete a level-C Experiment early enough for its bonus"
    state = result["state"]
    assert bonus[0]["n"] == {1: 8, 2: 4}[state["gen"]]      # MFW-SCORE-05: +8 in Generation 1, +4 in 2


@pytest.mark.slow
@pytest.mark.rule("HER-GEN-06", "HER-NPC-08")
def test_a_team_of_normal_bots_wins_a_heredity_chapter_by_killing_the_warden():
    """The Warden's route (132: her death effect ends in VICTORY). Today's bot wins by the Swan Key
    and the chest (tests/bots/test_deeper_heredity.py); it faces The Warden only when the chest is
    opened without the key, and she anchors only on a free green or blue slot (the storm holds the
    green one, Swan the blue one). So the plan is the test_deeper_heredity nudges: the team first
    attacks Swan (`swan_first`), then Djamal opens the chest with no key to be had (`chest_plan`),
    and from The Warden's arrival the two `normal` bots play alone. Seed 8: 63 moves, victory by
    The Warden's death (seeds 1, 6, 7 and 8 of 1-12 win so; the rest lose to the storm or a dying PC)."""
    seed = 8
    plan = swan_first(chest_plan(seed, with_key=False))

    def nudge(rules, state, seat):
        return None if card_zone(state, WARDEN) != "deck" else plan(rules, state, seat)

    result = bot_playout("heredity", 2, seed, ["normal", "normal"], nudge=nudge)
    state, last = result["state"], result["facts"][-1]
    assert state["over"] == "victory", state["reason"]
    assert state["reason"] == "card 132", "the victory printed on The Warden's death effect"
    # HER-NPC-08: dead, she is off the Terrain and her card off the Timeline, then her Death effect applies
    assert standees(state, WARDEN) == [] and card_zone(state, WARDEN) != "timeline"
    assert card_zone(state, CHEST) != "deck"
    ended = [f for f in last if f.get("type") == "GameEnded"]
    assert ended and ended[0]["outcome"] == "victory"
    assert result["rules"].winners(state) == [0, 1]
