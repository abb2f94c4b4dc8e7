"""ABOM-EVENT-*, worked examples EX-04..10."""

from __future__ import annotations

import pytest

from domain.engine import visible_fact
from domain.games.abomination import RULES
from domain.games.abomination.content import C

from .helpers import begin_round, blank, do, lab, rejects, types


@pytest.fixture
def entry99(monkeypatch):
    monkeypatch.setitem(C.entries, 99, {"number": 99, "prompt": "FIXTURE", "effects": [{"op": "francs", "n": 1}]})


@pytest.mark.rule("ABOM-EVENT-01", "ABOM-EVENT-03")
def test_first_player_draws_top_event_and_puts_it_in_play():
    st = blank(3, first=1, phase="event")
    size = len(st["decks"]["event"])
    st, facts = begin_round(st, "ev-04")
    drawn = [f for f in facts if f["type"] == "EventDrawn"]
    assert len(drawn) == 1 and drawn[0]["card"] == "ev-04"
    assert len(st["decks"]["event"]) == size - 1 and st["inPlay"] == ["ev-04"]
    assert visible_fact(drawn[0], 0) == drawn[0]  # revealed to all


@pytest.mark.rule("ABOM-EVENT-02", "ABOM-AMB-04")
def test_face_matches_round():
    st = blank(3, phase="event", rnd=4)
    st, facts = begin_round(st, "ev-03")
    assert st["mods"] == [{"scope": "cemetery", "kind": "closed"}]
    st = blank(3, phase="event", rnd=5)
    st, facts = begin_round(st, "ev-03")
    assert st["mods"] == [{"scope": "cemetery", "kind": "extraCost", "value": 1}]


@pytest.mark.rule("ABOM-EVENT-04", "ABOM-EVENT-05", "ABOM-RESET-05")
def test_immediate_effect_and_round_long_modifier():
    st = blank(3, phase="event", rnd=2)
    francs = [p["francs"] for p in st["p"]]
    st2, _ = begin_round(st, "ev-04")  # Market Day: every player +1 franc at once
    assert [p["francs"] for p in st2["p"]] == [f + 1 for f in francs]
    st = blank(3, phase="event", rnd=2)
    st, _ = begin_round(st, "ev-03")  # cemetery closed this round
    assert st["phase"] == "city"
    rejects(st, st["active"], {"type": "place", "kind": "scientist", "space": "cemetery.gate"}, "ABOM-EVENT-04")
    lab(st)
    for seat in range(3):
        st, facts = do(st, seat, {"type": "done"})
    assert "ev-03" in st["decks"]["event"][-2:] or st["inPlay"] != ["ev-03"]
    assert {"scope": "cemetery", "kind": "closed"} not in st["mods"]


@pytest.mark.rule("ABOM-EVENT-06", "ABOM-EVENT-14", "ABOM-EVENT-16", "ABOM-EX-10", "ABOM-AMB-51", "ABOM-AMB-29")
def test_now_encounter_free_target_reader_and_discard():
    st = blank(3, first=0, phase="event")
    st, facts = begin_round(st, "en-06")
    assert st["pending"][-1]["kind"] == "target" and st["pending"][-1]["candidates"] == [0, 1, 2]
    st, _ = do(st, 0, {"type": "choose", "option": 0})  # first player may target themself
    assert st["pending"][-1]["kind"] == "reader"
    rejects(st, 0, {"type": "choose", "option": 0}, "ABOM-EVENT-16")
    st, _ = do(st, 0, {"type": "choose", "option": 2})
    rec = st["pending"][-1]
    assert rec["kind"] == "entry" and rec["seat"] == 0 and rec["entry"] == 20
    assert "en-06" not in st["decks"]["event"]
    exp = st["p"][0]["attr"]["expertise"]
    st, facts = do(st, 0, {"type": "choose", "option": 0})  # -> entry 21: expertise +1
    assert st["p"][0]["attr"]["expertise"] == exp + 1
    assert st["decks"]["event"][-1] == "en-06"  # to the bottom once resolved
    assert st["phase"] == "city"


@pytest.mark.rule("ABOM-EVENT-15", "ABOM-EX-09")
def test_conditional_target():
    st = blank(3, first=0, phase="event", rnd=7)
    st["p"][1]["attr"]["humanity"] = -2
    st["p"][2]["attr"]["humanity"] = -2
    st, _ = begin_round(st, "en-02")  # rounds 7-12: lowest humanity
    assert st["pending"][-1]["candidates"] == [1, 2]
    rejects(st, 0, {"type": "choose", "option": 0}, "ABOM-EVENT-15")
    st2, facts = do(st, 0, {"type": "choose", "option": 2})
    assert st2["p"][2]["attr"]["humanity"] == -3 and st2["p"][1]["attr"]["humanity"] == -2
    st = blank(3, first=0, phase="event", rnd=7)
    st["p"][1]["attr"]["humanity"] = -2
    st, facts = begin_round(st, "en-02")
    assert not st["pending"] and st["p"][1]["attr"]["humanity"] == -3  # sole candidate, no choice
    assert any(f["type"] == "TargetChosen" and f["target"] == 1 for f in facts)


@pytest.mark.rule("ABOM-EVENT-07", "ABOM-EVENT-08", "ABOM-AMB-55")
def test_location_encounter_held_secretly():
    st = blank(3, first=1, phase="event", rnd=3)
    st, facts = begin_round(st, "en-04")
    drawn = next(f for f in facts if f["type"] == "EventDrawn")
    assert st["held"] == [{"card": "en-04", "face": 0, "holder": 1, "location": "market", "entry": 14}]
    assert visible_fact(drawn, 1)["card"] == "en-04"
    assert visible_fact(drawn, 0) == {"type": "EventDrawn", "kind": "location", "holder": 1}
    assert RULES.view(st, 0)["held"] == [{"holder": 1}] and RULES.view(st, "spectator")["held"] == [{"holder": 1}]
    assert RULES.view(st, 1)["held"][0]["location"] == "market"


def _held_morgue(st, holder=0, entry=99):
    st["held"] = [{"card": "en-01", "face": 1, "holder": holder, "location": "morgue", "entry": entry}]
    st["decks"]["event"].remove("en-01")
    return st


@pytest.mark.rule("ABOM-EVENT-09", "ABOM-EVENT-10", "ABOM-EVENT-12", "ABOM-PLACE-05", "ABOM-EX-06")
def test_location_encounter_triggers_before_costs(entry99):
    st = _held_morgue(blank(3, first=0, active=0))
    st, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    assert "EncounterTriggered" not in types(facts) and st["held"]  # holder never triggers it
    while st["pending"]:
        st, _ = do(st, st["pending"][-1]["seat"], {"type": "cadaver", "card": st["pending"][-1]["cards"][0],
                                                  "option": "expertise"})
    assert st["active"] == 1
    st["p"][1]["francs"] = 3
    st, facts = do(st, 1, {"type": "place", "kind": "scientist", "space": "morgue.office"})
    t = types(facts)
    assert t.index("EncounterTriggered") < t.index("Francs") and not st["held"]
    gained = [f["n"] for f in facts if f["type"] == "Francs" and f["seat"] == 1]
    assert gained[:2] == [1, -2] and st["p"][1]["francs"] == 2  # 3 + 1 then - 2
    assert st["decks"]["event"][-1] == "en-01"


@pytest.mark.rule("ABOM-EVENT-11", "ABOM-RESET-06", "ABOM-EX-07", "ABOM-AMB-46")
def test_held_encounter_survives_resets_and_first_player_change(entry99):
    st = lab(_held_morgue(blank(3, first=0), holder=0))
    for rnd in (3, 4):
        st["round"] = st["captain"] = rnd
        top = "ev-08" if rnd == 4 else "ev-04"  # round 4: the Creature walks to the left (content effect)
        st["decks"]["event"].remove(top)
        st["decks"]["event"].insert(0, top)
        for seat in range(3):
            st, _ = do(st, seat, {"type": "done"})
        assert st["held"] and st["held"][0]["holder"] == 0
        lab(st)
        st["spaces"] = {}
    assert st["first"] == 1
    st["phase"], st["active"] = "city", 2
    st["p"][2]["francs"] = 5
    st, facts = do(st, 2, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    assert "EncounterTriggered" in types(facts) and not st["held"]


@pytest.mark.rule("ABOM-EVENT-13", "ABOM-EX-08", "ABOM-AMB-27")
def test_not_announced_discards_unresolved(entry99):
    st = _held_morgue(blank(3, first=0, active=1))
    st["opts"]["manualAnnounce"] = True
    st["p"][1]["francs"] = 3
    st, facts = do(st, 1, {"type": "place", "kind": "scientist", "space": "morgue.office"})
    assert st["pending"][-1]["kind"] == "announce" and st["pending"][-1]["seat"] == 0
    st, facts = do(st, 0, {"type": "choose", "option": "keep quiet"})
    assert "EncounterNotAnnounced" in types(facts) and not st["held"]
    assert st["decks"]["event"][-1] == "en-01"
    assert st["p"][1]["francs"] == 1 and st["spaces"]["morgue.office"]["seat"] == 1
    # automatic announcing is the default (no pending decision for the holder)
    st = _held_morgue(blank(3, first=0, active=1))
    st["p"][1]["francs"] = 3
    st, facts = do(st, 1, {"type": "place", "kind": "scientist", "space": "morgue.office"})
    assert "EncounterTriggered" in types(facts)


@pytest.mark.rule("ABOM-EVENT-17")
def test_goto_entry_resolves_numbered_entry():
    st = blank(3, first=0, phase="event", rnd=2)
    st, _ = begin_round(st, "en-06")
    st, _ = do(st, 0, {"type": "choose", "option": 1})
    hum = st["p"][1]["attr"]["humanity"]
    st, facts = do(st, 1, {"type": "choose", "option": 1})  # entry 20 -> 22
    assert [f["entry"] for f in facts if f["type"] == "EntryRead"] == [22]
    assert st["p"][1]["attr"]["humanity"] == hum + 2


@pytest.mark.rule("ABOM-EVENT-18", "ABOM-EX-04", "ABOM-RESET-04")
def test_execution_by_player_count():
    for n, k in ((2, 1), (3, 2), (4, 2)):
        st = blank(n, phase="event")
        top = st["decks"]["publicSquare"][:k]
        st, _ = begin_round(st, "ev-02")
        assert st["displays"]["publicSquare"] == top
        lab(st)
        for seat in range(n):
            st, facts = do(st, seat, {"type": "done"})
        assert st["displays"]["publicSquare"] == [] or any(f["type"] == "Execution" for f in facts)
        assert all(c in st["decks"]["publicSquare"] for c in top)


@pytest.mark.rule("ABOM-EVENT-19", "ABOM-EVENT-20", "ABOM-EX-05", "ABOM-AMB-31", "ABOM-SWITCH-16")
def test_lightning_storm():
    st = blank(3, phase="event", rnd=5)
    st["p"][0]["jars"] = [False, False]
    st, _ = begin_round(st, "ev-01")
    assert st["p"][0]["jars"] == [True, True]
    st["active"] = 0
    st["p"][0]["francs"] = 4
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "foundry.counter"})
    assert st["p"][0]["jars"] == [True, True, True]
    # next round without a storm: a bought jar arrives uncharged
    st = blank(3, phase="city", rnd=6)
    st["p"][0]["jars"] = [True, True, True]
    st["p"][0]["francs"] = 4
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "foundry.counter"})
    assert st["p"][0]["jars"] == [True, True, True, False]
