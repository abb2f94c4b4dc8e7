"""Seeded random playouts to the end: replay == live after every move, every legal move accepted."""

import pytest

from domain.engine import EVERYONE, SPECTATOR, new_game, play
from domain.games.adas_dream import RULES
from tests.support.playout import random_playout


@pytest.mark.rule("ADA-END-01", "ADA-END-02", "ADA-TURN-01")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(20))
def test_random_playout_terminates_and_replays(players, seed):
    result = random_playout(RULES, players, seed, check_every_legal_move=seed < 6)
    state = result["state"]
    assert state["over"]
    assert state["end_triggered"]
    # ADA-END-02: everybody has taken the same number of turns.
    assert len(set(state["turns"])) == 1
    assert len(result["winners"]) == 1


def test_randomised_mode_playout():
    result = random_playout(RULES, 3, 99, options={"mode": "randomised"}, check_every_legal_move=False)
    assert result["state"]["over"]


def _hidden_strings(state, seat):
    p = state["players"][seat]
    return set(p["hand"]) | set(p["deck"])


@pytest.mark.rule("ADA-SETUP-26")
def test_view_hides_hands_and_decks():
    state, _ = new_game(RULES, 3, {}, seed=5)
    import orjson
    for viewer in (1, SPECTATOR):
        text = orjson.dumps(RULES.view(state, viewer)).decode()
        for card in state["players"][0]["hand"] + state["players"][0]["deck"]:
            assert card not in text
        for card in state["stacks"]["meet"] + state["stacks"]["prog"] + state["stacks"]["assign"]:
            assert f'"{card}"' not in text
    own = RULES.view(state, 0)
    assert own["players"][0]["hand"] == state["players"][0]["hand"]
    assert "deck" not in own["players"][0]
    assert RULES.view(state, EVERYONE)["players"][0]["deck"] == state["players"][0]["deck"]


JUNK = [{}, {"type": 3}, {"type": "workshop"}, {"type": "workshop", "space": 1.0, "die": 0, "push": 0},
        {"type": "workshop", "space": 0, "die": True, "push": 0, "extra": "yes"}, {"type": "adjust", "delta": 1.0},
        {"type": "adjust", "space": 0, "die": 0, "delta": 1.0}, {"type": "actions", "die": "0"},
        {"type": "actions", "die": 0, "slot": 0, "action": "dance"}, {"type": "choose"}, {"type": "choose", "option": {}},
        {"type": "choose", "option": [[]]}, {"type": "build", "gear": ["add"], "space": 0.0},
        {"type": "build", "gear": "add", "space": True}, {"type": "publish", "area": []}, {"type": "play", "card": 7},
        {"type": "draft", "card": "x"}, {"type": "end_turn", "defer_build": True}, {"type": "decline_build"},
        {"type": "advanced"}, {"type": "skip"}, {"type": "pass"}]


def test_garbage_moves_are_refused_cleanly():
    import random

    from domain.engine import IllegalMove
    from domain.engine.rng import Rng
    state, _ = new_game(RULES, 3, {}, 17)
    chooser = random.Random(17)
    for move_no in range(1, 120):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        for junk in JUNK:
            for who in range(3):
                try:
                    facts = RULES.decide(state, who, junk, Rng(17, move_no))
                except IllegalMove:
                    continue
                assert junk in RULES.legal_moves(state, who) or junk.get("type") in ("choose", "skip", "pass",
                                                                                      "end_turn", "advanced",
                                                                                      "decline_build")
                assert all(isinstance(f, dict) for f in facts)
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), 17, move_no)


def test_views_never_leak_hands_decks_or_stacks_during_play():
    import random

    import orjson
    state, _ = new_game(RULES, 3, {}, 23)
    chooser = random.Random(23)
    move_no = 0
    while not RULES.is_over(state) and move_no < 250:
        if move_no % 10 == 0:
            for viewer in (0, 1, 2, SPECTATOR):
                text = orjson.dumps(RULES.view(state, viewer)).decode()
                for seat, p in enumerate(state["players"]):
                    secret = p["deck"] + ([] if viewer == seat else p["hand"])
                    assert not [c for c in secret if f'"{c}"' in text], (viewer, seat)
                for stack in state["stacks"].values():
                    assert not [c for c in stack if f'"{c}"' in text]
                assert not [c for c in state.get("unused_tier1", []) if f'"{c}"' in text]
        seat = chooser.choice(list(RULES.decision(state).seats))
        move_no += 1
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), 23, move_no)
