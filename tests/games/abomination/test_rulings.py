"""Tests pinning the rulings of RULINGS.md (catalog section 7) and ABOM-SWITCH-15."""

from __future__ import annotations

import pytest

from domain.games.abomination import RULES
from domain.games.abomination.content import C, FACES, ICONS

from .helpers import begin_round, blank, do, lab, rejects, types

D, A, B = 1, 3, 5


def part(kind, side="muscle", damage=0, alive=False):
    return {"type": kind, "side": side, "damage": damage, "alive": alive}


@pytest.mark.rule("ABOM-SWITCH-15")
def test_damage_and_alive_markers_survive_reset():
    st = lab(blank(2))
    st["p"][0]["parts"] = [part("arm", "skin", 1, True), part("leg", damage=1)]
    for seat in (0, 1):
        st, _ = do(st, seat, {"type": "done"})
    assert st["round"] == 2 and st["p"][0]["parts"] == [part("arm", "skin", 1, True), part("leg", damage=1)]


@pytest.mark.rule("ABOM-AMB-01")
def test_symbolic_icons_with_magnitudes_in_data():
    for dial in C.dials.values():
        assert all(i["icon"] in ICONS for i in dial["icons"])
    assert all(f in FACES for faces in C.dice.values() for f in faces)
    assert C.dice["blue"].count("DAMAGE") < C.dice["grey"].count("DAMAGE")


@pytest.mark.rule("ABOM-AMB-05")
def test_preserved_materials_cannot_pay_builds():
    st = lab(blank(2))
    p = st["p"][0]
    p["attr"]["expertise"] = 4
    p["preserved"] = {"organ": 0, "muscle": 2}
    rejects(st, 0, {"type": "build", "part": "torso", "side": "skin", "target": 0,
                    "pay": [{"as": "muscle", "use": "muscle", "stage": "P"}] * 2}, "ABOM-BUILD-03")
    p["parts"] = [part("torso")]
    rejects(st, 0, {"type": "build", "part": "torso", "side": "skin", "target": 0,
                    "pay": [{"as": "muscle", "use": "muscle", "stage": "P"}] * 2}, "ABOM-AMB-05")


@pytest.mark.rule("ABOM-AMB-11", "ABOM-AMB-12")
def test_vp_kept_after_drop_and_extra_damage_ignored():
    st = lab(blank(2))
    p = st["p"][0]
    p["vp"] = 7
    p["parts"] = [part("leg", "skin", damage=1), part("arm", damage=1)]
    p["jars"] = [True, True]
    st, _ = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[D, D, D, D])
    st, _ = do(st, 0, {"type": "damage", "part": 1})  # arm discarded
    st, _ = do(st, 0, {"type": "damage", "part": 0})  # leg back to muscle
    st, facts = do(st, 0, {"type": "damage", "part": 0})  # muscle leg has 1 damage now
    assert st["p"][0]["parts"] == [part("leg", damage=1)] and st["p"][0]["vp"] == 7
    assert st["p"][0]["roll"] is not None
    st, facts = do(st, 0, {"type": "damage", "part": 0})  # leg discarded: 4th damage lands; nothing left
    assert st["p"][0]["parts"] == [] and st["p"][0]["roll"] is None and st["p"][0]["vp"] == 7
    st = lab(blank(2))
    p = st["p"][0]
    p["parts"] = [part("leg", "skin", damage=1)]
    p["jars"] = [True, True]
    st, facts = do(st, 0, {"type": "switch", "jars": 2, "blue": 0}, dice=[D, D, D, D])
    st, facts = do(st, 0, {"type": "damage", "part": 0})
    st, facts = do(st, 0, {"type": "damage", "part": 0})
    st, facts = do(st, 0, {"type": "damage", "part": 0})
    assert st["p"][0]["parts"] == [] and any(f["type"] == "DamageIgnored" and f["n"] == 1 for f in facts)


@pytest.mark.rule("ABOM-AMB-24")
def test_bumped_owner_keeps_resolved_effect():
    st = blank(3)
    f0 = st["p"][0]["francs"]
    st, _ = do(st, 0, {"type": "place", "kind": "assistant", "space": "market.stall"})
    st, _ = do(st, 1, {"type": "place", "kind": "scientist", "space": "market.stall"})
    assert st["p"][0]["francs"] == f0 + 2 + 1 and st["bump"][0] == {"seat": 0, "kind": "assistant"}


@pytest.mark.rule("ABOM-AMB-26")
def test_location_encounter_scope(monkeypatch):
    monkeypatch.setitem(C.entries, 97, {"number": 97, "prompt": "F", "effects": [{"op": "francs", "n": 1}]})
    st = blank(3)
    st["held"] = [{"card": "en-01", "face": 1, "holder": 1, "location": "market", "entry": 97},
                  {"card": "en-04", "face": 0, "holder": 2, "location": "market", "entry": 97},
                  {"card": "en-02", "face": 0, "holder": 0, "location": "market", "entry": 97}]
    a, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "lab0.study"})
    assert "EncounterTriggered" not in types(facts)
    a, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "market.bank"})
    assert [f["card"] for f in facts if f["type"] == "EncounterTriggered"] == ["en-01", "en-04"]
    assert [h["card"] for h in a["held"]] == ["en-02"]


@pytest.mark.rule("ABOM-AMB-28")
def test_now_encounter_nobody_meets():
    st = blank(3, phase="event", rnd=2)
    st, facts = begin_round(st, "en-07")  # negative humanity: nobody
    assert not st["pending"] and st["decks"]["event"][-1] == "en-07" and st["phase"] == "city"
    st = blank(3, phase="event", rnd=2)
    st["p"][2]["attr"]["humanity"] = -1
    st, facts = begin_round(st, "en-07")
    assert st["p"][2]["attr"]["humanity"] == 0


@pytest.mark.rule("ABOM-AMB-32", "ABOM-AMB-33")
def test_supply_limits():
    st = blank(4)
    for p in st["p"]:
        p["ice"] = ["solid"]
    st["p"][0]["research"] = []
    st["p"][0]["hands"]["research"] = ["re-03"]
    st, facts = do(st, 0, {"type": "play", "card": "re-03"})  # gain an ice block: supply empty
    assert st["p"][0]["ice"] == ["solid"] and "NothingHappens" in types(facts)
    st = blank(2)
    st["p"][0]["jars"] = [False] * C.max_jars
    st["p"][0]["francs"] = 5
    st, facts = do(st, 0, {"type": "place", "kind": "scientist", "space": "foundry.counter"})
    assert len(st["p"][0]["jars"]) == C.max_jars
    # damage markers have no supply limit: every player can carry many
    st = lab(blank(2))
    st["p"][0]["parts"] = [part(t, "skin") for t in ("head", "torso", "arm", "arm", "leg", "leg")]
    st["p"][0]["jars"] = [True] * 3
    st, _ = do(st, 0, {"type": "switch", "jars": 3, "blue": 0}, dice=[D] * 6)
    for i in range(6):
        st, _ = do(st, 0, {"type": "damage", "part": i})
    assert all(x["damage"] == 1 for x in st["p"][0]["parts"])


@pytest.mark.rule("ABOM-AMB-36")
def test_set_aside_card_enters_through_an_event():
    st = blank(3, phase="event", rnd=2)
    st, _ = begin_round(st, "ev-07")
    assert st["displays"]["publicSquare"] == [C.set_aside] and st["setAside"] == []


@pytest.mark.rule("ABOM-AMB-38", "ABOM-AMB-29")
def test_hands_private_counts_public():
    st = blank(3)
    st["p"][1]["hands"]["research"] = ["re-05", "re-06"]
    v = RULES.view(st, 0)
    assert v["p"][1]["hands"] == {"humanity": 0, "research": 2}
    assert RULES.view(st, 1)["p"][1]["hands"]["research"] == ["re-05", "re-06"]


@pytest.mark.rule("ABOM-AMB-50")
def test_pack_counts():
    assert len(C.events) > 8 and len(C.encounters) > 4
    assert sum(1 for c in C.cadavers.values() if c["deck"] == "hospital") >= 4
    assert sum(1 for c in C.cadavers.values() if c["deck"] == "publicSquare" and not c.get("setAsideAtSetup")) >= 2
    assert len(C.cards) <= 144


@pytest.mark.rule("ABOM-AMB-52")
def test_monster_in_round_12_ends_by_monster():
    st = lab(blank(2, rnd=12))
    st["p"][0]["parts"] = [part(t, "skin", alive=True) for t in ("head", "torso", "arm", "arm", "leg", "leg")]
    st["p"][1]["attr"]["humanity"] = 3
    for seat in (0, 1):
        st, _ = do(st, seat, {"type": "done"})
    assert st["end"] == "monster" and st["captain"] == 12 and st["final"]["1"]["humanityBonus"] == 0


def test_describe_is_one_plain_sentence_per_move():
    st = blank(3)
    st2, facts = do(st, 0, {"type": "place", "kind": "assistant", "space": "market.stall"})
    text = RULES.describe(st, 0, {"type": "place", "kind": "assistant", "space": "market.stall"}, facts)
    assert text == "Seat 0 places an assistant on the Stall of Les Halles Market; gains 2 francs."


@pytest.mark.rule("ABOM-AMB-38")
def test_card_drawn_from_a_face_down_deck_is_private_in_the_facts():
    from domain.engine import visible_fact
    st = blank(3)
    st["p"][0]["francs"] = 3
    st, _ = do(st, 0, {"type": "place", "kind": "scientist", "space": "academy.library"})
    top = st["decks"]["research"][0]
    # H-02: the top of a face-down deck is drawn blind, so even the drawer does not see it before drawing
    assert RULES.view(st, 1)["pending"][0]["cards"] == 1 and RULES.view(st, 0)["pending"][0]["cards"] == 1
    assert all("card" not in m for m in RULES.legal_moves(st, 0))
    rejects(st, 0, {"type": "draw", "card": top}, "ABOM-CARDS-03")  # naming a card would probe the order
    st, facts = do(st, 0, {"type": "draw"})
    drawn = next(f for f in facts if f["type"] == "CardToHand")
    assert top not in str(visible_fact(drawn, 1)) and visible_fact(drawn, 0)["card"] == top
    assert all(top not in str(visible_fact(f, 2)) for f in facts)
