"""Issue 16.4/16.6/16.7: the legal-move list is complete and binding; pinned scoring and refill rules.

That `decide` accepts only listed moves over random playouts is tested for every game in
tests/engine/test_binding.py."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, copy_state, play
from domain.games.abomination import RULES
from domain.games.abomination.scoring import final_scores

from .helpers import blank, lab, mats


def _payments(moves, part, side):
    return [sorted((u["use"], u["stage"]) for u in m["pay"]) for m in moves
            if m["type"] == "build" and (m["part"], m["side"]) == (part, side)]


@pytest.mark.rule("ABOM-BUILD-05", "ABOM-BUILD-06")
def test_every_material_payment_is_listed():
    """Muscle at stages I, II and IV: an arm (2 muscle + 1 blood) lists [I,II], [I,IV] and [II,IV]."""
    st = lab(blank(2))
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    mats(p, I={"muscle": 1, "blood": 1}, II={"muscle": 1}, IV={"muscle": 1})
    pays = _payments(RULES.legal_moves(st, 0), "arm", "muscle")
    assert sorted(pays) == sorted([[("blood", "I"), ("muscle", "I"), ("muscle", "II")],
                                   [("blood", "I"), ("muscle", "I"), ("muscle", "IV")],
                                   [("blood", "I"), ("muscle", "II"), ("muscle", "IV")]])
    vps = {}
    for move in [m for m in RULES.legal_moves(st, 0) if m["type"] == "build" and m["part"] == "arm"]:
        after, _ = play(RULES, st, 0, move, 1, 1)
        vps[tuple(u["stage"] for u in move["pay"])] = after["p"][0]["vp"]
    assert vps == {("I", "I", "II"): 3, ("I", "I", "IV"): 1, ("I", "II", "IV"): 1}  # worst stage decides


@pytest.mark.rule("ABOM-BUILD-07", "ABOM-BUILD-08", "ABOM-BUILD-03")
def test_animal_stand_ins_and_every_skin_target_are_listed():
    st = lab(blank(2))
    p = st["p"][0]
    p["attr"]["expertise"] = 3
    p["parts"] = [{"type": "arm", "side": "muscle", "damage": 0, "alive": False}] * 2
    mats(p, I={"muscle": 1}, III={"animal": 1, "blood": 1})
    skins = [m for m in RULES.legal_moves(st, 0) if m["type"] == "build" and m["side"] == "skin"]
    assert {m["target"] for m in skins} == {0, 1}  # either muscle-side arm takes the skin
    pays = _payments(skins, "arm", "skin")
    assert [("animal", "III"), ("muscle", "I")] not in pays  # animal at III cannot be the blood
    assert [("animal", "III"), ("blood", "III")] in pays  # animal for the muscle
    assert [("blood", "III"), ("muscle", "I")] in pays


@pytest.mark.rule("ABOM-PRESERVE-02", "ABOM-PRESERVE-03")
def test_preserve_lists_every_count_up_to_the_room_left():
    st = lab(blank(2))
    p = st["p"][0]
    mats(p, II={"organ": 4})
    p["preserved"] = {"organ": 0, "muscle": 6}
    counts = [m["count"] for m in RULES.legal_moves(st, 0) if m["type"] == "preserve"]
    assert counts == [1, 2, 3]  # 3 places left of 9, not only 1 or the most
    after, _ = play(RULES, st, 0, {"type": "preserve", "material": "organ", "stage": "II", "count": 2}, 1, 1)
    assert after["p"][0]["preserved"]["organ"] == 2


@pytest.mark.rule("ABOM-BUILD-05", "ABOM-SWITCH-02", "ABOM-ROUND-02")
def test_decide_accepts_only_listed_moves():
    st = lab(blank(2))
    p = st["p"][0]
    p["attr"]["expertise"] = 2
    p["parts"], p["jars"] = [{"type": "leg", "side": "skin", "damage": 0, "alive": False}], [True]
    mats(p, I={"muscle": 2, "blood": 1})
    listed = RULES.legal_moves(st, 0)
    build = next(m for m in listed if m["type"] == "build" and m["part"] == "arm")
    before = copy_state(st)
    with pytest.raises(IllegalMove) as err:  # the same materials in another order: not the listed spelling
        play(RULES, st, 0, dict(build, pay=list(reversed(build["pay"]))), 1, 1)
    assert err.value.rule_id == "ABOM-BUILD-05" and "order" in err.value.detail
    with pytest.raises(IllegalMove) as err:  # an extra key would be stored forever: refused
        play(RULES, st, 0, dict(build, note="hi"), 1, 1)
    assert err.value.rule_id == "ABOM-BUILD-05" and "note" in err.value.detail
    with pytest.raises(IllegalMove) as err:  # a switch must say how many dice are upgraded, as listed
        play(RULES, st, 0, {"type": "switch", "jars": 1}, 1, 1)
    assert err.value.rule_id == "ABOM-SWITCH-02"
    with pytest.raises(IllegalMove) as err:
        play(RULES, st, 0, {"type": "done", "why": "tired"}, 1, 1)
    assert err.value.rule_id == "ABOM-ROUND-02"
    assert st == before


@pytest.mark.rule("ABOM-SCORE-04", "ABOM-SCORE-05", "ABOM-AMB-19")
def test_a_vp_icon_scores_when_its_space_is_reached_exactly():
    st = blank(2)
    st["end"] = "monster"
    a, b = st["p"]
    a["reached"]["reputation"] = [1, 4]  # exactly on the Reputation VP 2 icon
    b["reached"]["reputation"] = [1, 3]  # one short of it
    a["reached"]["expertise"] = [1, 6]  # exactly on the Expertise VP 3 icon
    b["reached"]["expertise"] = [1, 5]  # past VP 1 (at 4), short of VP 3
    a["attr"]["humanity"], a["reached"]["humanity"] = 3, [0, 3]  # exactly on Humanity VP 2
    b["attr"]["humanity"], b["reached"]["humanity"] = -3, [-3, 0]  # exactly on Humanity VP -2
    final, _ = final_scores(st)
    assert (final["0"]["reputation"], final["0"]["expertise"], final["0"]["humanity"]) == (2, 3, 2)
    assert (final["1"]["reputation"], final["1"]["expertise"], final["1"]["humanity"]) == (0, 1, -2)


@pytest.mark.rule("ABOM-RESET-02", "ABOM-RESET-03")
def test_saint_roch_is_discarded_then_refilled_from_the_humanity_deck():
    st = lab(blank(2))
    old = list(st["displays"]["saintRoch"])
    top = st["decks"]["humanity"][:2]
    for seat in range(2):
        st, _ = play(RULES, st, seat, {"type": "done"}, 1, seat + 1)
    assert st["displays"]["saintRoch"] == top and st["displays"]["saintRoch"] != old
    assert st["decks"]["humanity"][-2:] == old  # the old display went to the bottom of its deck


@pytest.mark.rule("ABOM-AMB-05", "ABOM-PRESERVE-05")
def test_preserved_materials_are_never_offered_as_payment():
    st = lab(blank(2))
    p = st["p"][0]
    p["attr"]["expertise"] = 4
    p["parts"] = [{"type": "torso", "side": "muscle", "damage": 0, "alive": False}]
    p["preserved"] = {"organ": 0, "muscle": 2}
    mats(p, I={"muscle": 1})
    assert not [m for m in RULES.legal_moves(st, 0) if m["type"] == "build" and m["side"] == "skin"]
    mats(p, I={"muscle": 2})
    skins = [m for m in RULES.legal_moves(st, 0) if m["type"] == "build" and m["side"] == "skin"]
    assert skins and all(u["stage"] != "P" for m in skins for u in m["pay"])
