"""Seeded random playouts: every player count, to the end, replay == live, every legal move accepted."""

import orjson
import pytest

from domain.engine import SPECTATOR, new_game, visible_facts
from domain.games.heredity import RULES
from tests.support.playout import random_playout


@pytest.mark.rule("HER-GEN-06")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_end(players):
    outcomes = set()
    for seed in range(20):
        result = random_playout(RULES, players, seed, check_every_legal_move=seed < 1)
        state = result["state"]
        assert state["over"] in ("victory", "defeat")
        outcomes.add(state["over"])
        scores = RULES.scores(state)
        assert sorted(scores) == list(range(players)) and len(set(scores.values())) == 1
        assert RULES.winners(state) == (list(range(players)) if state["over"] == "victory" else [])
    assert outcomes


@pytest.mark.rule("HER-HIDDEN-01", "HER-HIDDEN-07", "HER-HIDDEN-08", "HER-HIDDEN-12")
def test_views_hide_decks_and_karma_order():
    state, facts = new_game(RULES, 2, {}, 11)
    for viewer in (0, 1, SPECTATOR):
        v = RULES.view(state, viewer)
        text = orjson.dumps(v).decode()
        assert "deck\"" not in text.replace("deck_count", "")
        assert v["karma"]["deck_count"] == 9 and sorted(v["karma"]["composition"]) == list(range(901, 910))
        assert "seed" not in text
        # cards never taken (e.g. the Secrets setup card, the chest, the hounds) are not described
        for hidden in ("122", "131", "132", "950"):
            assert hidden not in v["cards"]
        shown = visible_facts(facts, viewer)
        for f in shown:
            if f["type"] == "KarmaShuffled":
                assert "order" not in f
