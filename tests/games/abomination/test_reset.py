"""ABOM-RESET-*, ABOM-DECAY-*, ABOM-PRESERVE-04/05, worked examples EX-28..30, EX-34, EX-38."""

from __future__ import annotations

import pytest

from domain.games.abomination.flow import decayed_track

from .helpers import blank, do, lab, mats, types


def end_lab(st):
    facts = []
    for seat in range(st["n"]):
        st, f = do(st, seat, {"type": "done"})
        facts += f
    return st, facts


@pytest.mark.rule("ABOM-RESET-01", "ABOM-RESET-08")
def test_reset_steps_in_order():
    st = lab(blank(3, rnd=4))
    st, facts = end_lab(st)
    t = types(facts)
    order = [t.index("Decayed"), t.index("DisplayDiscarded"), t.index("EventsDiscarded"),
             t.index("MeeplesReturned"), t.index("CaptainAdvanced")]
    assert order == sorted(order)
    assert st["captain"] == 5 and st["round"] == 5


@pytest.mark.rule("ABOM-RESET-02", "ABOM-RESET-03", "ABOM-EX-34", "ABOM-RESET-04", "ABOM-CARDS-01")
def test_ex34_board_refresh():
    st = lab(blank(3))
    docks = st["displays"]["docks"][:2]
    st["displays"]["docks"] = docks
    deck_top = st["decks"]["scoundrel"][:3]
    hosp = st["displays"]["hospital"][:1]
    st["displays"]["hospital"] = hosp
    hosp_top = st["decks"]["hospital"][:3]
    st["displays"]["publicSquare"] = [st["decks"]["publicSquare"].pop(0)]
    ps = list(st["displays"]["publicSquare"])
    st["displays"]["academy"] = []
    st, facts = end_lab(st)
    assert st["displays"]["docks"] == deck_top and st["decks"]["scoundrel"][-2:] == docks
    assert st["displays"]["hospital"] == hosp_top and st["decks"]["hospital"][-1:] == hosp
    assert st["displays"]["publicSquare"] == [] or any(f["type"] == "Execution" for f in facts)
    assert st["decks"]["publicSquare"][-1:] == ps
    assert len(st["displays"]["academy"]) == 2 and len(st["displays"]["saintRoch"]) == 2


@pytest.mark.rule("ABOM-RESET-03")
def test_discarded_card_returns_only_if_deck_runs_out():
    st = lab(blank(2))
    st["decks"]["research"] = ["re-07"]
    st["displays"]["academy"] = ["re-01", "re-02"]
    st, _ = end_lab(st)
    assert st["displays"]["academy"] == ["re-07", "re-01"]


@pytest.mark.rule("ABOM-RESET-09", "ABOM-ENDGAME-01", "ABOM-ENDGAME-04", "ABOM-AMB-44")
def test_captain_reaching_skull_ends_game():
    st = lab(blank(3, rnd=11))
    st, _ = end_lab(st)
    assert st["phase"] == "city" and st["round"] == 12
    st = lab(st)
    st, facts = end_lab(st)
    assert st["phase"] == "over" and st["end"] == "captain" and st["captain"] == 13
    assert "EventDrawn" not in types(facts[facts.index(next(f for f in facts if f["type"] == "CaptainAdvanced")):])


@pytest.mark.rule("ABOM-DECAY-01", "ABOM-DECAY-02", "ABOM-DECAY-03", "ABOM-DECAY-04", "ABOM-DECAY-06",
                  "ABOM-PRESERVE-04", "ABOM-PRESERVE-05", "ABOM-EX-28", "ABOM-MATERIALS-06")
def test_ex28_decay_arithmetic():
    st = lab(blank(3))
    p = mats(st["p"][0], I={"blood": 2, "muscle": 1}, II={"blood": 3, "organ": 2}, III={"muscle": 1},
             IV={"organ": 4}, bone=2)
    p["preserved"] = {"organ": 3, "muscle": 0}
    st, facts = end_lab(st)
    p = st["p"][0]
    nz = {s: {t: k for t, k in d.items() if k} for s, d in p["decay"].items()}
    assert nz == {"I": {}, "II": {"blood": 2, "muscle": 1}, "III": {"organ": 2}, "IV": {"muscle": 1}}
    assert p["bone"] == 2 and p["preserved"] == {"organ": 3, "muscle": 0}
    decayed = next(f for f in facts if f["type"] == "Decayed" and f["seat"] == 0)
    assert decayed["discarded"] == {"organ": 4, "blood": 3}


@pytest.mark.rule("ABOM-DECAY-05", "ABOM-EX-29", "ABOM-AMB-42")
def test_ex29_blood_lifetime():
    track = {s: {t: 0 for t in ("blood", "organ", "muscle", "animal")} for s in ("I", "II", "III", "IV")}
    track["I"]["blood"] = 1
    after_r, _ = decayed_track(track)
    assert after_r["II"]["blood"] == 1  # usable in round r+1
    after_r1, gone = decayed_track(after_r)
    assert gone == {"blood": 1} and all(d["blood"] == 0 for d in after_r1.values())
    track["I"]["blood"] = 0
    track["II"]["blood"] = 1
    _, gone = decayed_track(track)
    assert gone == {"blood": 1}
    track["II"]["blood"] = 0
    track["III"]["muscle"] = 1
    after, gone = decayed_track(track)
    assert after["IV"]["muscle"] == 1 and not gone  # moved into IV: survives until next reset


@pytest.mark.rule("ABOM-DECAY-07", "ABOM-DECAY-08", "ABOM-EX-30")
def test_ex30_ice_block():
    st = lab(blank(2, rnd=3))
    st["p"][0]["ice"] = ["solid"]
    mats(st["p"][0], I={"muscle": 1})
    st, facts = end_lab(st)
    assert st["p"][0]["ice"] == ["half"] and st["p"][0]["decay"]["I"]["muscle"] == 1
    st, facts = end_lab(lab(st))
    assert st["p"][0]["ice"] == [] and st["p"][0]["decay"]["I"]["muscle"] == 1
    st, facts = end_lab(lab(st))
    assert st["p"][0]["decay"]["II"]["muscle"] == 1


@pytest.mark.rule("ABOM-AMB-30")
def test_two_ice_blocks_protect_two_resets():
    st = lab(blank(2, rnd=3))
    st["p"][0]["ice"] = ["solid", "half"]
    mats(st["p"][0], I={"muscle": 1})
    st, _ = end_lab(st)
    assert st["p"][0]["ice"] == ["half"]
    st, _ = end_lab(lab(st))
    assert st["p"][0]["ice"] == [] and st["p"][0]["decay"]["I"]["muscle"] == 1
    st, _ = end_lab(lab(st))
    assert st["p"][0]["decay"]["II"]["muscle"] == 1
