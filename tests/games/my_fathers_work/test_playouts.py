"""Seeded random playouts to the end for 2, 3 and 4 players (replay == live, every legal move accepted)."""

from __future__ import annotations

import random

import pytest

from domain.engine import EVERYONE, SPECTATOR, copy_state, fold, new_game, play
from domain.engine.rng import Rng
from domain.games.my_fathers_work import RULES
from tests.support.playout import random_playout


@pytest.mark.rule("MFW-SAVE-01", "MFW-ROUND-01", "MFW-ENDGAME-01")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(20))
def test_random_playout_terminates_and_replays(players, seed):
    result = random_playout(RULES, players, seed, check_every_legal_move=seed < 3)
    state = result["state"]
    assert state["over"] and state["gen"] == 3 and state["round"] == 3
    assert RULES.winners(state)


def _eager(chooser, legal):
    """A client that rarely passes, so deep rules (C, D, Vanity, Insanity end) are reached."""
    exp = [m for m in legal if m["type"] == "place" and m["loc"] == "perform_experiment"]
    if exp and chooser.random() < 0.9:
        return chooser.choice(exp)
    busy = [m for m in legal if m["type"] not in ("pass", "end_turn")]
    if busy and chooser.random() < 0.93:
        return chooser.choice(busy)
    return chooser.choice(legal)


@pytest.mark.rule("MFW-SAVE-01")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_eager_playout_with_options_replays(players, seed):
    options = {"choose_masterwork": seed % 2 == 0, "journal_occult_insanity": seed % 3 == 0,
               "scenario": "scn-parish" if seed == 5 else "scn-lantern"}
    chooser = random.Random(seed)
    state, log = new_game(RULES, players, options, seed)
    initial = RULES.initial_state(players, options)
    moves = 0
    while not RULES.is_over(state):
        seat = chooser.choice(list(RULES.decision(state).seats))
        legal = RULES.legal_moves(state, seat)
        assert legal
        if seed == 0:
            for candidate in legal:
                RULES.decide(copy_state(state), seat, candidate, Rng(seed, moves + 1))
        moves += 1
        state, facts = play(RULES, state, seat, _eager(chooser, legal), seed, moves)
        log += facts
        assert moves < 5000
    assert fold(RULES.evolve, copy_state(initial), log) == state


def _hidden_from(state, viewer) -> set:
    """Card ids `viewer` must not see: other hands/Estate Affairs draws/Compulsions and deck contents,
    minus what is public (completed, stored, Masterworks, row) or the viewer's own."""
    hidden = set()
    for seat, pl in enumerate(state["players"]):
        if seat != viewer:
            hidden |= set(pl["hand"]) | set(pl["ea"]) | {c["id"] for c in pl["comps"]}
    for deck in ("A", "B", "C", "comp", "mal", "tiles"):
        hidden |= set(state["decks"][deck])
    public = set(state["row"])
    for seat, pl in enumerate(state["players"]):
        public |= set(pl["completed"]) | set(pl["stored"]) | {pl["masterwork"]} | set(pl["mals"])
        if seat == viewer:
            public |= set(pl["hand"]) | set(pl["ea"]) | {c["id"] for c in pl["comps"]}
    pend = state["pending"]
    if pend and pend.get("seat") == viewer:
        public |= {o for o in pend["options"] if isinstance(o, str)}
    if pend and pend.get("kind") == "pay_plan":
        public.add(pend["card"])  # announced by the public placement on Perform Experiment
    return hidden - public


@pytest.mark.rule("MFW-HIDDEN-01", "MFW-HIDDEN-02", "MFW-HIDDEN-03", "MFW-HIDDEN-05", "MFW-HIDDEN-16")
@pytest.mark.parametrize("seed", range(3))
def test_views_never_show_other_seats_secrets(seed):
    chooser = random.Random(seed)
    state, _ = new_game(RULES, 3, {}, seed)
    moves = 0
    while not RULES.is_over(state) and moves < 400:
        for viewer in (0, 1, 2, SPECTATOR):
            text = repr(RULES.view(state, viewer))
            for card in _hidden_from(state, viewer):
                assert f"'{card}'" not in text, (moves, viewer, card)
        seat = chooser.choice(list(RULES.decision(state).seats))
        moves += 1
        state, _ = play(RULES, state, seat, _eager(chooser, RULES.legal_moves(state, seat)), seed, moves)
    assert RULES.view(state, EVERYONE)["players"][0]["hand"] == state["players"][0]["hand"]


@pytest.mark.rule("MFW-HIDDEN-04", "MFW-HIDDEN-12", "MFW-HIDDEN-13", "MFW-HIDDEN-15", "MFW-FAQ-01")
@pytest.mark.parametrize("seed", range(2))
def test_redacted_facts_never_name_hidden_cards(seed):
    """Every fact that is private to some seats shows the others no card id and no queued work."""
    from domain.engine import visible_fact
    from tests.games.my_fathers_work.helpers import all_facts, full_game
    state, log = full_game(3, seed=seed)
    private = [f for f in all_facts(log) if "private_to" in f]
    assert {f["type"] for f in private} >= {"CardDrawn", "ResolverSaved", "Committed", "CompulsionDrawn"}
    for f in private:
        for viewer in (0, 1, 2, SPECTATOR):
            if viewer in f["private_to"]:
                continue
            text = repr(visible_fact(f, viewer))
            assert "exp-" not in text and "cmp-" not in text and "'queue'" not in text, f
            if f["type"] == "Message":
                assert "text" not in visible_fact(f, viewer)


GARBAGE = [{"type": "place"}, {"type": "place", "loc": {"a": 1}, "pieces": "self"},
           {"type": "place", "loc": "loc-commons", "pieces": [["self"]]}, {"type": "free", "source": {"x": 1}},
           {"type": "keep", "card": ["x"]}, {"type": "choose", "option": {"no": 1}}, {"type": "commit", "option": [1]},
           {"type": "choose"}, {"type": "warp"}, {"type": "place", "loc": "record_knowledge", "pieces": ["self"],
                                                  "track": ["occult"]},
           {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": {"id": 1}},
           {"type": "choose", "option": ["Reliquary"]}, {"type": "choose", "option": "row:9"},
           {"type": "choose", "option": "expand:9"}, {"type": "commit", "option": {"a": 1}}]


@pytest.mark.parametrize("seed", range(3))
def test_garbage_moves_are_refused_cleanly(seed):
    from domain.engine import IllegalMove
    chooser = random.Random(seed)
    state, _ = new_game(RULES, 3, {}, seed)
    for moves in range(1, 2000):
        seat = chooser.choice(list(RULES.decision(state).seats))
        for bad in GARBAGE:
            try:
                RULES.decide(copy_state(state), seat, bad, Rng(seed, moves))
            except IllegalMove:
                pass
        state, _ = play(RULES, state, seat, _eager(chooser, RULES.legal_moves(state, seat)), seed, moves)
        if RULES.is_over(state):
            break


@pytest.mark.rule("MFW-SAVE-01")
def test_folding_never_alters_a_recorded_fact():
    """The event log is the save: evolve must copy what it keeps, so a stored fact reads the same later."""
    from domain.engine import fold
    chooser = random.Random(4)
    state, setup = new_game(RULES, 3, {}, 4)
    recorded = [(f, copy_state(f)) for f in setup]
    for moves in range(1, 400):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        move = _eager(chooser, RULES.legal_moves(state, seat))
        facts = RULES.decide(state, seat, move, Rng(4, moves))
        recorded += [(f, copy_state(f)) for f in facts]
        state = fold(RULES.evolve, state, facts)
    assert all(f == snap for f, snap in recorded)
