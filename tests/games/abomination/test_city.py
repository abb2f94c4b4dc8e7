"""ABOM-CITY-*, ABOM-PLACE-*, ABOM-BUMP-*, worked examples EX-11..14, EX-36 (City part)."""

from __future__ import annotations

import pytest

from domain.engine import Turn
from domain.games.abomination import RULES, flow
from domain.games.abomination.content import C

from .helpers import blank, do, lab, rejects, types


def place(st, seat, kind, space):
    st["active"] = seat
    return do(st, seat, {"type": "place", "kind": kind, "space": space})


@pytest.mark.rule("ABOM-CITY-02", "ABOM-PLACE-04", "ABOM-CITY-10")
def test_one_meeple_per_turn_then_effect_then_next_player():
    st = blank(3)
    f0 = st["p"][0]["francs"]
    st, facts = place(st, 0, "assistant", "market.stall")
    assert st["p"][0]["card"] == {"scientist": 1, "assistant": 1}
    assert st["spaces"]["market.stall"] == {"seat": 0, "kind": "assistant"}
    assert st["p"][0]["francs"] == f0 + 2 and st["active"] == 1
    st, _ = place(st, 1, "assistant", "lab1.study")  # own lab board
    assert st["p"][1]["attr"]["expertise"] == 2
    assert st["spaces"]["market.stall"] == {"seat": 0, "kind": "assistant"}  # stays until Reset


@pytest.mark.rule("ABOM-CITY-03")
def test_other_players_lab_rejected():
    rejects(blank(3), 0, {"type": "place", "kind": "scientist", "space": "lab1.study"}, "ABOM-CITY-03")


@pytest.mark.rule("ABOM-CITY-04", "ABOM-CITY-05", "ABOM-EX-14")
def test_no_voluntary_pass_and_skip_without_meeples():
    st = blank(3)
    rejects(st, 0, {"type": "pass"}, "ABOM-CITY-04")
    assert {"type": "pass"} not in RULES.legal_moves(st, 0)
    st["p"][1]["card"] = {"scientist": 0, "assistant": 0}
    st, facts = place(st, 0, "scientist", "market.bank")
    assert st["active"] == 2
    assert any(f["type"] == "TurnPassed" and f["seat"] == 1 for f in facts)


def _occupy_cheap(st, seat, limit):
    """Fill every space costing <= limit for `seat` with seat 2's meeples."""
    for sid in flow.all_spaces(st, seat):
        d, _ = flow.space_def(sid)
        if d["francCost"] <= limit:
            st["spaces"][sid] = {"seat": 2, "kind": "assistant"}


@pytest.mark.rule("ABOM-CITY-06", "ABOM-CITY-07", "ABOM-BUMP-05", "ABOM-EX-12")
def test_cannot_afford_bump_and_forced_pass(monkeypatch):
    monkeypatch.setitem(C.bump, 3, [2, 3])
    st = blank(3)
    st["bump"] = [None, None]
    st["p"][0]["francs"] = 1
    st["spaces"]["market.stall"] = {"seat": 1, "kind": "assistant"}
    rejects(st, 0, {"type": "place", "kind": "scientist", "space": "market.stall"}, "ABOM-BUMP-05")
    _occupy_cheap(st, 0, 1)
    assert RULES.legal_moves(st, 0) == []
    turn = Turn(RULES, st)
    flow.next_city_turn(turn, 2, include_start=False)
    assert turn.facts[0] == {"type": "TurnPassed", "seat": 0, "why": "no valid space"}
    assert turn.state["active"] == 1


@pytest.mark.rule("ABOM-CITY-08", "ABOM-AMB-22")
def test_city_ends_when_nobody_can_place():
    st = blank(2)
    st["p"][1]["card"] = {"scientist": 0, "assistant": 0}
    st["p"][0]["card"] = {"scientist": 1, "assistant": 0}
    st, facts = place(st, 0, "scientist", "market.bank")
    assert st["phase"] == "lab"
    assert [f["seat"] for f in facts if f["type"] == "TurnPassed"] == [1, 0]


@pytest.mark.rule("ABOM-CITY-09", "ABOM-ATTR-14", "ABOM-ATTR-03", "ABOM-EX-36", "ABOM-AMB-18")
def test_assistant_gained_mid_phase_is_placeable(monkeypatch):
    monkeypatch.setitem(C.dials["reputation"], "icons", [{"at": 2, "icon": "GAIN_ASSISTANT", "n": 0}])
    st = blank(3)
    p = st["p"][0]
    p["attr"]["humanity"] = 1
    p["reached"]["humanity"] = [0, 1]
    p["card"] = {"scientist": 1, "assistant": 0}
    p["reserve"] = {"scientist": 3, "assistant": 3}
    p["hands"]["humanity"] = ["hu-01"]
    st, facts = do(st, 0, {"type": "play", "card": "hu-01"})
    p = st["p"][0]
    assert p["attr"]["humanity"] == 2 and p["attr"]["reputation"] == 2 and p["card"]["assistant"] == 1
    assert {"type": "place", "kind": "assistant", "space": "market.stall"} in RULES.legal_moves(st, 0)
    st, _ = do(st, 0, {"type": "place", "kind": "assistant", "space": "market.stall"})
    assert st["spaces"]["market.stall"]["kind"] == "assistant"


@pytest.mark.rule("ABOM-PLACE-01", "ABOM-PLACE-02", "ABOM-PLACE-03", "ABOM-EX-13")
def test_scientist_only_and_franc_costs():
    st = blank(3)
    st["p"][0]["card"] = {"scientist": 0, "assistant": 2}
    rejects(st, 0, {"type": "place", "kind": "assistant", "space": "market.bank"}, "ABOM-PLACE-01")
    rejects(st, 0, {"type": "place", "kind": "scientist", "space": "market.stall"}, "ABOM-CITY-02")
    st["p"][0]["francs"] = 1
    rejects(st, 0, {"type": "place", "kind": "assistant", "space": "morgue.office"}, "ABOM-PLACE-03")
    st, facts = place(st, 0, "assistant", "saintRoch.alms")  # FRANC_COST(1)
    assert st["p"][0]["francs"] == 0
    assert {"type": "Francs", "seat": 0, "n": -1, "why": "space cost"} in facts  # to the supply, nobody gains


@pytest.mark.rule("ABOM-PLACE-06", "ABOM-BUMP-01", "ABOM-BUMP-02", "ABOM-BUMP-03", "ABOM-BUMP-04", "ABOM-BUMP-07",
                  "ABOM-BUMP-08", "ABOM-EX-11", "ABOM-RESET-07")
def test_bump_track_three_players():
    assert C.bump[3] == [1, 2]
    st = blank(3)
    for p in st["p"]:
        p["francs"] = 4
    st["spaces"]["docks.crates"] = {"seat": 1, "kind": "assistant"}
    st["p"][1]["card"]["assistant"] = 1
    st, facts = place(st, 0, "scientist", "docks.crates")
    assert st["bump"] == [{"seat": 1, "kind": "assistant"}, None]
    assert st["p"][0]["francs"] == 3 and st["p"][1]["francs"] == 5
    assert st["spaces"]["docks.crates"] == {"seat": 0, "kind": "scientist"}  # one meeple per space
    st, facts = place(st, 2, "scientist", "docks.crates")
    assert st["bump"][1] == {"seat": 0, "kind": "scientist"} and st["p"][0]["francs"] == 5
    assert st["p"][2]["francs"] == 2
    rejects(dict(st, active=1), 1, {"type": "place", "kind": "assistant", "space": "docks.crates"}, "ABOM-BUMP-04")
    st, _ = place(st, 1, "assistant", "lab1.ledger")
    assert not any(m["kind"] == "place" and m["space"] == "docks.crates" for m in [{"kind": x.get("type"), "space":
               x.get("space")} for x in RULES.legal_moves(dict(st, active=0), 0)])
    lab(st)
    for seat in range(3):
        st, facts = do(st, seat, {"type": "done"})
    assert st["bump"] == [None, None]
    assert st["phase"] == "city" and st["round"] == 2  # Reset returned every meeple; the next City began
    assert all(p["card"] == {"scientist": 1, "assistant": 2} for p in st["p"])
    for p in st["p"]:
        assert p["card"]["scientist"] + p["card"]["assistant"] == 3


@pytest.mark.rule("ABOM-AMB-23")
def test_bumping_own_meeple_pays_self():
    st = blank(3)
    st["spaces"]["docks.crates"] = {"seat": 0, "kind": "assistant"}
    st["p"][0]["card"]["assistant"] = 1
    f = st["p"][0]["francs"]
    st, _ = place(st, 0, "scientist", "docks.crates")
    assert st["p"][0]["francs"] == f and st["bump"][0] == {"seat": 0, "kind": "assistant"}


@pytest.mark.rule("ABOM-AMB-25")
def test_encounter_that_leaves_player_unable_to_pay(monkeypatch):
    monkeypatch.setitem(C.entries, 98, {"number": 98, "prompt": "F", "effects": [{"op": "francs", "n": -2}]})
    st = blank(3)
    st["held"] = [{"card": "en-01", "face": 1, "holder": 2, "location": "morgue", "entry": 98}]
    st["p"][0]["francs"] = 2
    st, facts = place(st, 0, "scientist", "morgue.office")
    assert "PlacementAbandoned" in types(facts) and "morgue.office" not in st["spaces"]
    assert st["active"] == 0 and st["p"][0]["card"]["scientist"] == 1 and not st["held"]
