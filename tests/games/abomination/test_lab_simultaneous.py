"""The Lab phase is simultaneous (rulebook L116, L170; ruling in RULINGS.md "Lab phase"): every player works
their own lab at the same time, so the outcome of the phase never depends on the order in which the
players' lab commands arrive, and what concerns several players (objectives, the alive-monster end)
is settled only when the last player is done."""

from __future__ import annotations

import itertools

import pytest

from domain.engine import copy_state

from .helpers import blank, do, lab, mats
from .test_lab import A, B, part

LEG = [{"as": "bone", "use": "bone", "stage": None}] + [{"as": "muscle", "use": "muscle", "stage": "I"}] * 2


def _table():
    st = lab(blank(3))
    p0, p1, p2 = st["p"]
    for p in (p0, p2):
        p["attr"]["expertise"], p["reached"]["expertise"] = 26, [1, 26]
        mats(p, I={"muscle": 3}, bone=1)
    p2["francs"] = 7  # the tie-breaker for an objective met by several players in one Lab phase (AMB-45)
    p1["parts"], p1["jars"] = [part("leg", "skin")], [True]
    mats(p1, II={"organ": 2})
    return st


SCRIPTS = {  # seat -> [(move, scripted dice)]
    0: [({"type": "build", "part": "leg", "side": "muscle", "pay": LEG}, None), ({"type": "done"}, None)],
    1: [({"type": "switch", "jars": 1, "blue": 0}, [A, B]), ({"type": "alive", "part": 0}, None),
        ({"type": "preserve", "material": "organ", "stage": "II", "count": 2}, None), ({"type": "done"}, None)],
    2: [({"type": "build", "part": "leg", "side": "muscle", "pay": LEG}, None),
        ({"type": "preserve", "material": "muscle", "stage": "I", "count": 1}, None), ({"type": "done"}, None)],
}


def _run(order):
    st = _table()
    steps = {s: list(moves) for s, moves in SCRIPTS.items()}
    claimed_mid_phase = False
    for seat in order:
        move, dice = steps[seat].pop(0)
        st, _ = do(st, seat, move, dice=dice) if dice else do(st, seat, move)
        if st["phase"] == "lab" and st["claimed"]:
            claimed_mid_phase = True
    assert not any(steps.values())
    return st, claimed_mid_phase


def _interleavings():
    seq = [s for s, moves in SCRIPTS.items() for _ in moves]
    seen = set()
    for perm in itertools.permutations(seq):
        if perm not in seen:
            seen.add(perm)
            yield perm


@pytest.mark.rule("ABOM-LAB-01", "ABOM-LAB-07", "ABOM-AMB-48", "ABOM-AMB-45")
def test_outcome_of_the_lab_phase_does_not_depend_on_the_order_of_commands():
    perms = list(_interleavings())
    sample = perms[:: max(1, len(perms) // 40)] + [perms[-1]]
    reference, _ = _run(sample[0])
    assert reference["phase"] == "city" and reference["round"] == 2
    assert reference["claimed"] == {"scholar": 2}  # both reached 27 in this Lab phase: tie-breakers, not speed
    assert reference["p"][1]["parts"][0]["alive"] and reference["p"][1]["preserved"]["organ"] == 2
    for order in sample[1:]:
        st, mid = _run(order)
        assert not mid
        assert st == reference, order


@pytest.mark.rule("ABOM-LAB-01", "ABOM-AMB-45")
def test_answering_a_pending_decision_in_the_lab_does_not_claim_objectives_early():
    st = lab(blank(3))
    st["p"][0]["attr"]["expertise"] = 27
    st["p"][0]["reached"]["expertise"] = [1, 27]
    st["spaces"]["market.stall"] = {"seat": 0, "kind": "assistant"}
    st["p"][0]["card"]["assistant"] = 1
    st["pending"] = [{"kind": "meeple", "seat": 0, "action": "promote", "meeple": "assistant",
                      "zones": ["card", "space:market.stall"], "icon": None, "rest": []}]
    st, _ = do(st, 0, {"type": "choose", "option": "card"})
    assert st["phase"] == "lab" and st["claimed"] == {}
    for seat in range(3):
        st, _ = do(st, seat, {"type": "done"})
    assert st["claimed"].get("scholar") == 0
