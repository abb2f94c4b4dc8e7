"""ABOM-SETUP-*, ABOM-ROUND-*, worked examples EX-01..03."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, SPECTATOR
from domain.games.abomination import RULES
from domain.games.abomination.content import C
from domain.games.abomination.effects import ice_in_supply, jars_in_supply

from .helpers import blank, do, game, lab, rejects


def shuffled_fact(facts):
    return next(f for f in facts if f["type"] == "DecksShuffled")


def dealt_fact(facts):
    return next(f for f in facts if f["type"] == "TableDealt")


@pytest.mark.rule("ABOM-SETUP-01")
def test_player_counts():
    for n in (2, 3, 4):
        assert RULES.initial_state(n, {})["n"] == n
    for n in (1, 5, 0):
        with pytest.raises(IllegalMove) as err:
            RULES.initial_state(n, {})
        assert err.value.rule_id == "ABOM-SETUP-01"
    assert (RULES.meta.min_players, RULES.meta.max_players) == (2, 4)


@pytest.mark.rule("ABOM-SETUP-02", "ABOM-SETUP-03", "ABOM-SETUP-06")
def test_cadaver_decks_sorted_shuffled_and_special_card_aside():
    orders = set()
    for seed in range(5):
        state, facts = game(3, seed)
        decks = shuffled_fact(facts)["decks"]
        for deck in ("cemetery", "morgue", "hospital", "publicSquare"):
            assert all(C.cadavers[c]["deck"] == deck for c in decks[deck])
        dealt = dealt_fact(facts)
        everywhere = [c for d in decks.values() for c in d]
        assert C.set_aside not in everywhere and dealt["setAside"] == [C.set_aside]
        orders.add(tuple(decks["cemetery"]))
        assert state["displays"]["publicSquare"] == [] or state["round"] >= 1
        assert dealt_fact(facts)["displays"].get("publicSquare") is None
    assert len(orders) > 1  # each deck is shuffled


@pytest.mark.rule("ABOM-SETUP-04", "ABOM-SETUP-05", "ABOM-SETUP-13")
def test_morgue_top_public_cemetery_and_event_deck_hidden():
    state, _ = game(3, 1)
    for viewer in (0, 1, SPECTATOR):
        v = RULES.view(state, viewer)
        assert v["morgueTop"] == state["decks"]["morgue"][0]
        assert "decks" not in v
        assert v["deckSizes"]["cemetery"] == len(state["decks"]["cemetery"])
        assert v["deckSizes"]["event"] == len(state["decks"]["event"])
        assert state["decks"]["cemetery"][0] not in str(v)


@pytest.mark.rule("ABOM-SETUP-07", "ABOM-SETUP-08", "ABOM-SETUP-09", "ABOM-SETUP-10", "ABOM-EX-02")
def test_displays_dealt():
    for n in (2, 3, 4):
        state, facts = game(n, n)
        d = dealt_fact(facts)["displays"]
        assert len(d["hospital"]) == n and len(d["docks"]) == 3 and len(d["academy"]) == 2 and len(d["saintRoch"]) == 2
        assert all(c in C.scoundrels for c in d["docks"])
        assert all(c in C.research for c in d["academy"]) and all(c in C.humanity for c in d["saintRoch"])
        assert state["displays"]["hospital"] == d["hospital"]


@pytest.mark.rule("ABOM-SETUP-11", "ABOM-SETUP-12", "ABOM-EX-03")
def test_event_deck_built_from_6_plus_4_with_2_events_on_top():
    for seed in range(25):
        _, facts = game(4, seed)
        deck = shuffled_fact(facts)["decks"]["event"]
        assert len(deck) == 12 == len(set(deck))
        assert sum(c in C.events for c in deck) == 8 and sum(c in C.encounters for c in deck) == 4
        assert deck[0] in C.events and deck[1] in C.events


@pytest.mark.rule("ABOM-SETUP-14", "ABOM-ROUND-03")
def test_captain_on_first_space_round_1():
    state, _ = game(2, 0)
    assert state["captain"] == 1 and state["round"] == 1


@pytest.mark.rule("ABOM-SETUP-15", "ABOM-BUMP-06")
def test_bump_track_by_player_count():
    for n in (2, 3, 4):
        state, _ = game(n, 0)
        assert len(state["bump"]) == len(C.bump[n])
    assert C.bump[4] != C.bump[2]


@pytest.mark.rule("ABOM-SETUP-16")
def test_four_of_six_objectives_and_removed_hidden():
    seen = set()
    for seed in range(10):
        state, _ = game(3, seed)
        assert len(state["objectives"]) == 4 and len(set(state["objectives"])) == 4
        assert set(state["objectives"]) | set(state["removedObjectives"]) == set(C.objectives)
        assert "removedObjectives" not in RULES.view(state, 0)
        seen.add(tuple(sorted(state["objectives"])))
    assert len(seen) > 1


@pytest.mark.rule("ABOM-SETUP-17")
def test_general_supply():
    state, _ = game(4, 0)
    assert jars_in_supply(state) == 16 and ice_in_supply(state) == 4
    assert set(C.dice) == {"grey", "blue"}


@pytest.mark.rule("ABOM-SETUP-18", "ABOM-SETUP-19")
def test_random_distinct_characters_and_first_game_option():
    flagged = {c for c, d in C.characters.items() if d["notForFirstTwoPlayerGames"]}
    got_flagged = False
    for seed in range(30):
        state, _ = game(2, seed)
        chars = [p["character"] for p in state["p"]]
        assert len(set(chars)) == 2
        got_flagged |= bool(flagged & set(chars))
        state, _ = game(2, seed, {"firstTwoPlayerGame": True})
        assert not flagged & {p["character"] for p in state["p"]}
    assert got_flagged  # the option is off by default
    with pytest.raises(IllegalMove):
        RULES.initial_state(2, {"nonsense": True})


@pytest.mark.rule("ABOM-SETUP-20", "ABOM-SETUP-22", "ABOM-SETUP-23", "ABOM-SETUP-24", "ABOM-SETUP-25",
                  "ABOM-SETUP-27", "ABOM-SETUP-21", "ABOM-EX-01", "ABOM-EX-02")
def test_player_boards():
    for n in (2, 3, 4):
        state, _ = game(n, 7)
        for p in state["p"]:
            assert p["attr"] == {"humanity": 0, "reputation": 1, "expertise": 1}
            assert p["card"] == {"scientist": 1, "assistant": 2} and p["reserve"] == {"scientist": 3, "assistant": 1}
            assert p["vp"] == 0 and p["francs"] == n
            assert p["jars"] == [] and p["ice"] == [] and p["parts"] == [] and p["bone"] == 0
            assert all(v == 0 for s in p["decay"].values() for v in s.values())
            assert p["hands"] == {"humanity": [], "research": []}
            assert list(p["decay"]) == ["I", "II", "III", "IV"]


@pytest.mark.rule("ABOM-SETUP-26", "ABOM-CITY-01")
def test_random_first_player_and_city_starts_with_first():
    firsts = set()
    for seed in range(12):
        state, facts = game(4, seed)
        firsts.add(state["first"])
        turns = [f["seat"] for f in facts if f["type"] == "CityTurn"]
        assert turns[0] == state["first"]
    assert len(firsts) > 1


@pytest.mark.rule("ABOM-ROUND-01", "ABOM-ROUND-04")
def test_phase_order_event_city_lab_reset_then_event():
    state, facts = game(2, 3)
    phases = [f["phase"] for f in facts if f["type"] == "PhaseStarted"]
    assert phases == ["event", "city"]
    st = lab(blank(2))
    st, facts = do(st, 0, {"type": "done"})
    st, facts = do(st, 1, {"type": "done"})
    phases = [f["phase"] for f in facts if f["type"] == "PhaseStarted"]
    assert phases[:3] == ["reset", "event", "city"]
    assert st["round"] == 2


@pytest.mark.rule("ABOM-ROUND-02")
def test_moves_of_other_phases_rejected():
    st = blank(2)
    rejects(st, 0, {"type": "build", "part": "leg", "side": "muscle", "pay": []}, "ABOM-ROUND-02")
    st = lab(blank(2))
    rejects(st, 0, {"type": "place", "kind": "scientist", "space": "market.stall"}, "ABOM-ROUND-02")
