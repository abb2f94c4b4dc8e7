"""Seeded random playouts to the end for 2, 3 and 4 players, and hidden-information checks."""

from __future__ import annotations

import orjson
import pytest

from domain.engine import SPECTATOR, new_game, play
from domain.games.abomination import RULES
from tests.support.playout import random_playout

SEEDS = range(20)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.rule("ABOM-ENDGAME-04", "ABOM-SETUP-01")
def test_random_playouts_terminate_and_replay(players):
    for seed in SEEDS:
        result = random_playout(RULES, players, seed, check_every_legal_move=seed < 8)
        assert RULES.is_over(result["state"])
        assert result["winners"]
        assert set(result["scores"]) == set(range(players))


def _play_some(players, seed, moves):
    import random
    chooser = random.Random(seed)
    state, _ = new_game(RULES, players, {}, seed)
    for k in range(moves):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, k + 1)
    return state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.rule("ABOM-EVENT-07", "ABOM-SETUP-05", "ABOM-SETUP-16", "ABOM-AMB-38")
def test_views_hide_hands_decks_and_held_encounters(players):
    for seed in range(6):
        for moves in (5, 60, 150):
            state = _play_some(players, seed, moves)
            for viewer in [SPECTATOR] + list(range(players)):
                v = RULES.view(state, viewer)
                assert "decks" not in v and "removedObjectives" not in v
                for seat, p in enumerate(v["p"]):
                    if seat != viewer:
                        assert all(isinstance(x, int) for x in p["hands"].values())
                for h in v["held"]:
                    if h["holder"] != viewer:
                        assert set(h) == {"holder"}
                blob = orjson.dumps(v)
                for seat, p in enumerate(state["p"]):
                    if seat != viewer:
                        for card in p["hands"]["research"] + p["hands"]["humanity"]:
                            shown = state["displays"]["academy"] + state["displays"]["saintRoch"]
                            if card not in shown:
                                assert card.encode() not in blob
                assert all(len(v["displays"]["hospital"]) <= 1 for _ in [0])


@pytest.mark.rule("ABOM-SETUP-19", "ABOM-EVENT-13")
def test_playouts_with_options():
    for seed in range(4):
        random_playout(RULES, 2, seed, options={"firstTwoPlayerGame": True, "manualAnnounce": True},
                       check_every_legal_move=seed < 2)
        random_playout(RULES, 4, seed, options={"manualAnnounce": True}, check_every_legal_move=False)


PRIORITY = {"build": 0, "alive": 0, "mitigate": 0, "switch": 1, "damage": 1, "cadaver": 1, "draw": 1, "hire": 1,
            "place": 2, "ability": 3, "play": 3, "preserve": 5, "done": 9}
SUPPLY = ("morgue", "hospital", "cemetery", "foundry", "publicSquare", "market")


def _useful(state, seat, move):
    """A mitigation worth playing: not a reroll of a die already showing ALIVE."""
    if move["type"] != "mitigate":
        return True
    return state["p"][seat]["roll"]["dice"][move["die"]]["face"] != "ALIVE"


def _greedy(chooser, legal, state=None, seat=None):
    if state is not None:
        legal = [m for m in legal if _useful(state, seat, m)]
        parts = state["p"][seat]["parts"]
        damage = [m for m in legal if m["type"] == "damage"]
        if damage:  # spare the parts that are (or can become) alive
            return min(damage, key=lambda m: (parts[m["part"]]["alive"], parts[m["part"]]["side"] == "skin"))
    best = min(PRIORITY.get(m["type"], 4) for m in legal)
    moves = [m for m in legal if PRIORITY.get(m["type"], 4) == best]
    if moves[0]["type"] == "switch":
        moves = [max(moves, key=lambda m: (m["jars"], m.get("blue", 0)))]
    if moves[0]["type"] == "build":  # each part's freshest payment (listed first)
        first = {}
        for m in moves:
            first.setdefault((m["part"], m["side"], m.get("target")), m)
        moves = list(first.values())
    if moves[0]["type"] == "cadaver":
        moves = [m for m in moves if m["option"] == "materials"] or moves
    if moves[0]["type"] == "place":
        moves = [m for m in moves if m["space"].split(".")[0] in SUPPLY or "generator" in m["space"]] or moves
    return chooser.choice(moves)


@pytest.mark.rule("ABOM-ENDGAME-02", "ABOM-LAB-07")
def test_a_builder_brings_a_monster_to_life_in_a_full_game():
    import random
    from domain.engine import copy_state, fold
    chooser = random.Random(1)
    state, log = new_game(RULES, 4, {}, 1)
    initial = RULES.initial_state(4, {})
    k = 0
    while not RULES.is_over(state):
        seat = chooser.choice(list(RULES.decision(state).seats))
        k += 1
        state, facts = play(RULES, state, seat, _greedy(chooser, RULES.legal_moves(state, seat), state, seat), 1, k)
        log += facts
    assert state["end"] == "monster" and state["captain"] < 13
    assert any(all(x["alive"] for x in p["parts"]) and len(p["parts"]) == 6 for p in state["p"])
    assert fold(RULES.evolve, copy_state(initial), orjson.loads(orjson.dumps(log))) == state
