"""ABOM-CARDS-*, ABOM-CADAVER-*, ABOM-MATERIALS-*, worked examples EX-31..33."""

from __future__ import annotations

import pytest

from domain.engine import Turn
from domain.games.abomination import RULES
from domain.games.abomination.content import C, TYPES
from domain.games.abomination.effects import gain_materials

from .helpers import blank, do, lab, mats, rejects, types

FX = {"id": "fx-01", "deck": "morgue", "name": "FIXTURE", "cost": [], "expertiseValue": 2,
      "materials": [{"type": "muscle", "stage": "I", "count": 2}, {"type": "bone", "count": 1}]}


@pytest.fixture
def fixture_card(monkeypatch):
    monkeypatch.setitem(C.cadavers, "fx-01", FX)
    monkeypatch.setitem(C.cards, "fx-01", FX)
    st = blank(3)
    st["decks"]["morgue"].insert(0, "fx-01")
    st["p"][0]["attr"]["expertise"] = 4
    st["p"][0]["reached"]["expertise"] = [1, 4]
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    return st


@pytest.mark.rule("ABOM-CADAVER-01", "ABOM-CADAVER-03", "ABOM-CADAVER-04", "ABOM-CADAVER-05", "ABOM-CADAVER-06",
                  "ABOM-EX-32", "ABOM-MATERIALS-02", "ABOM-MATERIALS-03")
def test_ex32_cadaver_option(fixture_card):
    st = fixture_card
    assert st["pending"][-1]["kind"] == "cadaver" and st["pending"][-1]["cards"] == ["fx-01"]
    rejects(st, 0, {"type": "cadaver", "card": "fx-01", "option": "both"}, "ABOM-CADAVER-03")
    a, _ = do(st, 0, {"type": "cadaver", "card": "fx-01", "option": "materials"})
    p = a["p"][0]
    assert p["decay"]["I"]["muscle"] == 2 and p["bone"] == 1 and p["attr"]["expertise"] == 4
    assert a["decks"]["morgue"][-1] == "fx-01" and "fx-01" not in str(p["hands"])
    b, _ = do(st, 0, {"type": "cadaver", "card": "fx-01", "option": "expertise"})
    p = b["p"][0]
    assert p["attr"]["expertise"] == 6 and p["bone"] == 0 and p["decay"]["I"]["muscle"] == 0
    assert b["decks"]["morgue"][-1] == "fx-01"


@pytest.mark.rule("ABOM-CADAVER-02", "ABOM-AMB-03")
def test_cadaver_cost_paid_first():
    st = blank(3)
    st["decks"]["morgue"].remove("mor-03")
    st["decks"]["morgue"].insert(0, "mor-03")  # cost: humanity -1
    st["p"][0]["francs"] = 3
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    st, facts = do(st, 0, {"type": "cadaver", "card": "mor-03", "option": "expertise"})
    dials = [(f["attr"], f["to"]) for f in facts if f["type"] == "DialMoved"]
    assert dials[0] == ("humanity", -1) and dials[1][0] == "expertise"


@pytest.mark.rule("ABOM-MATERIALS-01", "ABOM-MATERIALS-04")
def test_material_types_and_stage_order():
    assert TYPES == ["blood", "bone", "organ", "muscle", "animal"]
    st = lab(blank(3))
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    mats(p, I={"muscle": 1, "blood": 1}, IV={"muscle": 1})
    pay = [{"as": "muscle", "use": "muscle", "stage": "I"}, {"as": "muscle", "use": "muscle", "stage": "IV"},
           {"as": "blood", "use": "blood", "stage": "I"}]
    st, _ = do(st, 0, {"type": "build", "part": "arm", "side": "muscle", "pay": pay})
    assert st["p"][0]["vp"] == C.anatomy["arm"]["muscle"]["vpByStage"]["IV"]


@pytest.mark.rule("ABOM-MATERIALS-05", "ABOM-EX-31", "ABOM-AMB-41", "ABOM-AMB-43")
def test_ex31_decay_space_cap():
    st = blank(3)
    mats(st["p"][0], I={"muscle": 14}, bone=40)
    turn = Turn(RULES, st)
    gain_materials(turn, 0, [{"type": "blood", "stage": "I", "count": 3}, {"type": "bone", "count": 5}])
    p = turn.state["p"][0]
    assert sum(p["decay"]["I"].values()) == 15 and p["bone"] == 45
    discarded = [f for f in turn.facts if f["type"] == "MaterialsDiscarded"]
    assert discarded[0]["items"] == [{"type": "blood", "stage": "I", "count": 2}]


def _at_academy(st):
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "academy.hall"})
    return st


@pytest.mark.rule("ABOM-CARDS-02", "ABOM-CARDS-03", "ABOM-CARDS-04", "ABOM-EX-33")
def test_ex33_hand_limit():
    st = blank(3)
    st["p"][0]["hands"]["research"] = ["re-04", "re-05", "re-06"]
    st["p"][0]["hands"]["humanity"] = ["hu-05", "hu-06", "hu-07"]
    st = _at_academy(st)
    assert st["displays"]["academy"] == ["re-01", "re-02"]
    a, _ = do(st, 0, {"type": "decline"})
    assert a["p"][0]["hands"]["research"] == ["re-04", "re-05", "re-06"]
    rejects(st, 0, {"type": "draw", "card": "re-01"}, "ABOM-CARDS-04")
    b, _ = do(st, 0, {"type": "draw", "card": "re-01", "discard": "re-05"})
    assert b["p"][0]["hands"]["research"] == ["re-04", "re-06", "re-01"]
    assert b["decks"]["research"][-1] == "re-05" and b["displays"]["academy"] == ["re-02"]
    st = blank(3)
    st["p"][0]["hands"]["humanity"] = ["hu-05", "hu-06", "hu-07"]
    st = _at_academy(st)
    c, _ = do(st, 0, {"type": "draw", "card": "re-02"})  # humanity hand does not count
    assert c["p"][0]["hands"]["research"] == ["re-02"]


@pytest.mark.rule("ABOM-CARDS-05", "ABOM-AMB-54")
def test_card_timing_enforced():
    st = blank(3)
    st["p"][0]["hands"]["humanity"] = ["hu-03", "hu-01"]  # hu-03: lab, hu-01: cityTurn
    st["p"][1]["hands"]["humanity"] = ["hu-08"]
    rejects(st, 0, {"type": "play", "card": "hu-03"}, "ABOM-CARDS-05")
    rejects(st, 1, {"type": "play", "card": "hu-08"}, "ENGINE-TURN-01")  # not their turn: the kernel says so
    st = lab(st)
    rejects(st, 0, {"type": "play", "card": "hu-01"}, "ABOM-CARDS-05")
    st, _ = do(st, 0, {"type": "play", "card": "hu-03"})
    assert st["p"][0]["attr"]["humanity"] == 1
    assert {"type": "play", "card": "hu-01"} not in RULES.legal_moves(st, 0)


@pytest.mark.rule("ABOM-CARDS-06", "ABOM-CARDS-01")
def test_played_card_effect_icons_then_bottom():
    st = blank(3)
    st["p"][0]["hands"]["humanity"] = ["hu-02"]  # pay 1 franc; icons: humanity +2
    f = st["p"][0]["francs"]
    st, facts = do(st, 0, {"type": "play", "card": "hu-02"})
    assert st["p"][0]["francs"] == f - 1 and st["p"][0]["attr"]["humanity"] == 2
    assert st["decks"]["humanity"][-1] == "hu-02" and st["p"][0]["hands"]["humanity"] == []
    assert st["active"] == 0  # playing a card is not the placement


@pytest.mark.rule("ABOM-AMB-37")
def test_scoundrel_resolves_on_hire():
    st = blank(3)
    st["displays"]["docks"] = ["sc-04", "sc-01"]
    f = st["p"][0]["francs"]
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "docks.tavern"})
    st, _ = do(st, 0, {"type": "hire", "card": "sc-04"})
    assert st["p"][0]["francs"] == f + 2 and st["p"][0]["attr"]["humanity"] == -1
    assert st["decks"]["scoundrel"][-1] == "sc-04" and st["displays"]["docks"] == ["sc-01"]


@pytest.mark.rule("ABOM-AMB-39", "ABOM-AMB-40")
def test_display_not_refilled_until_reset_and_empty_deck():
    st = blank(3)
    st["decks"]["cemetery"] = []
    st, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "cemetery.gate"})
    assert "NothingHappens" in types(facts) and st["active"] == 1
    st = blank(3)
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "hospital.ward"})
    assert st["pending"][-1]["cards"] == st["displays"]["hospital"][:1]
    top = st["displays"]["hospital"][0]
    st, _ = do(st, 0, {"type": "cadaver", "card": top, "option": "expertise"})
    assert len(st["displays"]["hospital"]) == 2


@pytest.mark.rule("ABOM-MATERIALS-05", "ABOM-EX-31", "ABOM-AMB-41")
def test_ex31_owner_picks_the_excess(monkeypatch):
    card = dict(FX, materials=[{"type": "blood", "stage": "I", "count": 3}])
    monkeypatch.setitem(C.cadavers, "fx-01", card)
    monkeypatch.setitem(C.cards, "fx-01", card)
    st = blank(3)
    mats(st["p"][0], I={"muscle": 14})
    st["decks"]["morgue"].insert(0, "fx-01")
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "morgue.slab"})
    st, _ = do(st, 0, {"type": "cadaver", "card": "fx-01", "option": "materials"})
    assert st["pending"][-1]["kind"] == "excess" and st["pending"][-1]["left"] == 2
    assert RULES.legal_moves(st, 0) == [{"type": "choose", "option": "blood"}, {"type": "choose", "option": "muscle"}]
    st, _ = do(st, 0, {"type": "choose", "option": "muscle"})
    st, _ = do(st, 0, {"type": "choose", "option": "blood"})
    assert not st["pending"] and st["p"][0]["decay"]["I"] == {"blood": 2, "organ": 0, "muscle": 13, "animal": 0}
    assert st["active"] == 1
