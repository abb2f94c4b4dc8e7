"""ABOM-ATTR-*, worked examples EX-35..37, dial rulings AMB-14..17, 47, 53."""

from __future__ import annotations

import pytest

from domain.engine import Turn
from domain.games.abomination import RULES
from domain.games.abomination.content import C
from domain.games.abomination.effects import lose_assistant, move_dial
from domain.games.abomination.scoring import dial_vp_up

from .helpers import blank, do


def dial(st, seat, attr, n):
    turn = Turn(RULES, st)
    move_dial(turn, seat, attr, n)
    return turn.state, turn.facts


@pytest.mark.rule("ABOM-ATTR-01", "ABOM-ATTR-02")
def test_three_dials_turn_by_n():
    st = blank(2)
    assert set(st["p"][0]["attr"]) == {"humanity", "reputation", "expertise"}
    st, _ = dial(st, 0, "expertise", 3)
    assert st["p"][0]["attr"]["expertise"] == 4
    st, _ = dial(st, 0, "expertise", -2)
    assert st["p"][0]["attr"]["expertise"] == 2


@pytest.mark.rule("ABOM-ATTR-04", "ABOM-ATTR-05", "ABOM-ATTR-06", "ABOM-ATTR-12", "ABOM-ATTR-13", "ABOM-EX-35",
                  "ABOM-AMB-14", "ABOM-AMB-19")
def test_ex35_icons_and_reversal():
    icons = {(i["at"], i["icon"], i["n"]) for i in C.dials["reputation"]["icons"]}
    assert {(3, "GAIN_ASSISTANT", 0), (4, "VP", 2), (5, "PROMOTE_ASSISTANT", 0)} <= icons
    st = blank(2)
    st, facts = dial(st, 0, "reputation", 4)
    p = st["p"][0]
    assert p["attr"]["reputation"] == 5
    assert [f["at"] for f in facts if f["type"] == "IconResolved"] == [3, 4, 5]
    assert p["card"] == {"scientist": 2, "assistant": 2} and p["reserve"] == {"scientist": 2, "assistant": 1}
    st, facts = dial(st, 0, "reputation", -3)
    p = st["p"][0]
    assert p["attr"]["reputation"] == 2
    assert [f["at"] for f in facts if f["type"] == "IconResolved"] == [5, 4, 3]
    assert p["card"] == {"scientist": 1, "assistant": 2} and p["reserve"] == {"scientist": 3, "assistant": 1}
    assert p["reached"]["reputation"] == [1, 5] and dial_vp_up("reputation", p["reached"]["reputation"][1]) == 2


@pytest.mark.rule("ABOM-ATTR-06")
def test_promote_placed_assistant_keeps_resolved_effects():
    st = blank(2)
    st["spaces"]["market.stall"] = {"seat": 0, "kind": "assistant"}
    st["p"][0]["card"] = {"scientist": 1, "assistant": 0}
    st["p"][0]["francs"] = 9
    st["p"][0]["attr"]["reputation"] = 4
    st, _ = dial(st, 0, "reputation", 1)
    assert st["spaces"]["market.stall"] == {"seat": 0, "kind": "scientist"} and st["p"][0]["francs"] == 9
    assert st["p"][0]["reserve"]["assistant"] == 2


@pytest.mark.rule("ABOM-ATTR-07", "ABOM-ATTR-08")
def test_gain_and_lose_reputation_icons():
    st = blank(2)
    st, _ = dial(st, 0, "humanity", 2)  # GAIN_REPUTATION at +2
    assert st["p"][0]["attr"]["reputation"] == 2
    st = blank(2)
    st, _ = dial(st, 0, "humanity", -2)  # LOSE_REPUTATION at -2
    assert st["p"][0]["attr"]["reputation"] == 0


@pytest.mark.rule("ABOM-ATTR-09", "ABOM-EX-37", "ABOM-AMB-47", "ABOM-AMB-53")
def test_lose_assistant_card_then_board_then_scientist():
    lose = [{"op": "meeple", "kind": "loseAssistant"}]
    st = _queue(blank(2), 0, lose)  # one on the card: no choice to make
    assert st["p"][0]["card"]["assistant"] == 1 and not st["pending"]
    st = blank(2)
    st["p"][0]["card"] = {"scientist": 1, "assistant": 0}
    st["spaces"]["market.stall"] = {"seat": 0, "kind": "assistant"}
    st["spaces"]["docks.crates"] = {"seat": 0, "kind": "assistant"}
    st["p"][0]["francs"] = 7
    st = _queue(st, 0, lose)  # none on the card, two placed: the owner picks (AMB-47), through a move
    assert RULES.decision(st).seats == (0,)
    assert RULES.legal_moves(st, 0) == [{"type": "choose", "option": "space:market.stall"},
                                        {"type": "choose", "option": "space:docks.crates"}]
    st, _ = do(st, 0, {"type": "choose", "option": "space:docks.crates"})  # not the first listed
    assert st["spaces"] == {"market.stall": {"seat": 0, "kind": "assistant"}}
    assert st["p"][0]["reserve"]["assistant"] == 2 and st["p"][0]["francs"] == 7
    st = blank(2)
    st["p"][0]["card"] = {"scientist": 2, "assistant": 0}
    st["p"][0]["reserve"] = {"scientist": 2, "assistant": 3}
    st = _queue(st, 0, lose)  # no assistant anywhere: a scientist from the card (AMB-53)
    assert st["p"][0]["card"] == {"scientist": 1, "assistant": 0} and not st["pending"]


@pytest.mark.rule("ABOM-ATTR-10", "ABOM-AMB-14")
def test_blue_die_icon_and_its_undo():
    st = blank(2)
    st, _ = dial(st, 0, "expertise", 9)
    assert st["p"][0]["blue"] == 1
    st, _ = dial(st, 0, "expertise", -1)
    assert st["p"][0]["blue"] == 0


@pytest.mark.rule("ABOM-ATTR-13", "ABOM-AMB-15")
def test_unresolved_effect_is_not_undone():
    st = blank(2)
    st["p"][0]["reserve"]["assistant"] = 0  # GAIN_ASSISTANT at 3 cannot resolve
    st["p"][0]["attr"]["reputation"] = 2
    st, facts = dial(st, 0, "reputation", 1)
    assert st["p"][0]["card"]["assistant"] == 2
    st, facts = dial(st, 0, "reputation", -1)
    assert st["p"][0]["card"]["assistant"] == 2 and st["p"][0]["reserve"]["assistant"] == 0


@pytest.mark.rule("ABOM-AMB-16", "ABOM-AMB-17")
def test_dial_limits_and_start_resolves_nothing():
    st = blank(2)
    st, _ = dial(st, 0, "reputation", -5)
    assert st["p"][0]["attr"]["reputation"] == C.dials["reputation"]["min"]
    st, _ = dial(st, 0, "expertise", 100)
    assert st["p"][0]["attr"]["expertise"] == C.dials["expertise"]["max"]
    fresh = blank(2)
    assert all(not icons for icons in fresh["p"][0]["icons"].values())


def _queue(st, seat, effects):
    from domain.games.abomination.effects import run
    turn = Turn(RULES, st)
    run(turn, [[seat, e] for e in effects])
    return turn.state


@pytest.mark.rule("ABOM-ATTR-09", "ABOM-EX-37", "ABOM-AMB-47")
def test_ex37_owner_picks_which_placed_assistant_is_lost():
    st = blank(2)
    st["p"][0]["card"] = {"scientist": 1, "assistant": 0}
    st["spaces"]["market.stall"] = {"seat": 0, "kind": "assistant"}
    st["spaces"]["docks.crates"] = {"seat": 0, "kind": "assistant"}
    francs = st["p"][0]["francs"]
    st = _queue(st, 0, [{"op": "meeple", "kind": "loseAssistant"}])
    rec = st["pending"][-1]
    assert rec["kind"] == "meeple" and rec["zones"] == ["space:market.stall", "space:docks.crates"]
    assert RULES.legal_moves(st, 0) == [{"type": "choose", "option": z} for z in rec["zones"]]
    st, _ = do(st, 0, {"type": "choose", "option": "space:docks.crates"})
    assert "docks.crates" not in st["spaces"] and st["spaces"]["market.stall"]["seat"] == 0
    assert st["p"][0]["reserve"]["assistant"] == 2 and st["p"][0]["francs"] == francs


@pytest.mark.rule("ABOM-ATTR-06", "ABOM-AMB-47")
def test_owner_picks_which_assistant_is_promoted_and_undo_demotes_it():
    st = blank(2)
    st["p"][0]["card"] = {"scientist": 1, "assistant": 1}
    st["spaces"]["market.stall"] = {"seat": 0, "kind": "assistant"}
    st["p"][0]["attr"]["reputation"] = 4
    st = _queue(st, 0, [{"op": "attribute", "attr": "reputation", "n": 1}])
    assert st["pending"][-1]["zones"] == ["card", "space:market.stall"]
    st, facts = do(st, 0, {"type": "choose", "option": "space:market.stall"})
    assert st["spaces"]["market.stall"]["kind"] == "scientist" and st["p"][0]["card"]["assistant"] == 1
    assert st["p"][0]["icons"]["reputation"]["5"] == {"ok": True, "zone": "space:market.stall"}
    st = _queue(st, 0, [{"op": "attribute", "attr": "reputation", "n": -1}])
    assert st["spaces"]["market.stall"]["kind"] == "assistant" and st["p"][0]["card"]["scientist"] == 1
