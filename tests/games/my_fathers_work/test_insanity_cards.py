"""INSANITY, COMPULSION, MALADJ and FREE rules."""

from __future__ import annotations

import pytest

from domain.engine import copy_state
from domain.games.my_fathers_work import RULES, content as C

from .helpers import run_ops, act, blank, choose, exp_card, place, reject, settle, town, types

NOTHING = {"above": [], "below": []}


def track(fx, *spaces, side="gen12"):
    spaces = list(spaces) + [NOTHING] * (10 - len(spaces))
    fx.setitem(C.INSANITY, side, spaces)


def insane(seat, steps):
    return {"op": "eff", "seat": seat, "eff": {"move": "insanity", "steps": steps}}


COMP = {"above": [{"draw": "compulsion", "n": 1}], "below": []}
CREEPY = {"above": [], "below": [{"move": "creepy", "steps": 1}]}
LOSE = {"above": [], "below": [{"lose_piece": "servant_or_spouse"}]}


@pytest.mark.rule("MFW-INSANITY-01", "MFW-INSANITY-05", "MFW-INSANITY-09")
def test_space_effects_above_and_below(fx):
    track(fx, {"above": [{"draw": "compulsion", "n": 1}], "below": [{"move": "creepy", "steps": 1}]})
    s, _ = run_ops(blank(), [insane(0, 1)])
    assert s["players"][0]["insanity"] == 1 and len(s["players"][0]["comps"]) == 1 and s["players"][0]["creepy"] == 1


@pytest.mark.rule("MFW-INSANITY-02", "MFW-AMB-27")
def test_space_by_space_in_order(fx):
    track(fx, COMP, LOSE, CREEPY)
    s, facts = run_ops(blank(), [insane(0, 3)])
    assert s["players"][0]["insanity"] == 2 and len(s["players"][0]["comps"]) == 1
    assert s["pending"]["kind"] == "lose_piece"  # space 2 waits for its choice before space 3
    assert s["players"][0]["creepy"] == 0
    s, _ = choose(s, "spouse")
    assert s["players"][0]["insanity"] == 3 and s["players"][0]["creepy"] == 1


@pytest.mark.rule("MFW-INSANITY-04")
def test_reentering_a_space_applies_again(fx):
    track(fx, COMP)
    s, _ = run_ops(blank(), [insane(0, 1), insane(0, -1), insane(0, 1)])
    assert len(s["players"][0]["comps"]) == 2


@pytest.mark.rule("MFW-INSANITY-06", "MFW-INSANITY-07", "MFW-INSANITY-08", "MFW-AMB-13")
def test_losing_a_piece_to_the_track(fx):
    track(fx, LOSE, LOSE)
    s = town(blank(), "fx-park", "fx-union")
    s["players"][0]["money"] = 5
    s, _ = place(s, 0, "fx-park", ["spouse"])
    opts = None
    s, _ = run_ops(s, [insane(0, 1)])
    opts = s["pending"]["options"]
    assert set(opts) == {"spouse", "servant1", "servant2"}  # on a Location, in Lost, anywhere
    s, _ = choose(s, "spouse")
    pl = s["players"][0]
    assert pl["pieces"]["spouse"] == "ins:1" and pl["res"]["chemical"] == 1  # the performance stays
    s, _ = run_ops(s, [insane(0, 1)])
    assert set(s["pending"]["options"]) == {"servant1", "servant2"}  # not the piece already under the track
    s, _ = choose(s, "servant1")  # from Lost
    s["active"] = 0
    assert s["players"][0]["pieces"]["servant1"] == "ins:2"
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["servant1"]}, "MFW-PIECES-07")
    s["turn"]["placed"] = False
    s2, _ = place(s, 0, "fx-union", ["self"])
    assert s2["players"][0]["pieces"]["servant1"] == "ins:2" and s2["players"][0]["pieces"]["servant2"] == "quarters"
    s2["passed"] = [True, True]
    s3, _ = run_ops(s2, [{"op": "end_round_steps"}])
    assert s3["players"][0]["pieces"]["spouse"] == "lost" and s3["players"][0]["pieces"]["servant1"] == "lost"
    # nobody eligible: nothing happens
    t = blank()
    for p in ("spouse", "servant1", "servant2"):
        t["players"][0]["pieces"][p] = "ins:1"
    t, facts = run_ops(t, [insane(0, 2)])
    assert t["pending"] is None and t["players"][0]["insanity"] == 2


@pytest.mark.rule("MFW-INSANITY-10", "MFW-ICON-06", "MFW-UPGRADE-07", "MFW-AMB-16")
def test_discard_upgrade_space(fx):
    track(fx, {"above": [], "below": [{"upgrade": "discard"}]})
    s = blank()
    s["players"][0]["plots"][1] = "fx-plain1"
    s, _ = run_ops(s, [insane(0, 1)])
    assert s["pending"]["options"] == ["plot:0", "plot:1"]  # the Storage Shed may go too
    s, _ = choose(s, "plot:1")
    assert s["players"][0]["plots"][1] is None
    assert "fx-plain1" not in s["row"] + s["decks"]["tiles"] and s["vanity"] == {n: 2 for n in C.VANITY_NAMES}
    t = blank()
    t["players"][0]["plots"] = [None] * 8
    t, _ = run_ops(t, [insane(0, 1)])
    assert t["pending"] is None


@pytest.mark.rule("MFW-INSANITY-11", "MFW-AMB-14", "MFW-SCORE-05")
def test_past_the_end(fx):
    last = {"above": [{"draw": "compulsion", "n": 1}], "below": [{"move": "creepy", "steps": 1}]}
    fx.setitem(C.INSANITY, "gen12", [NOTHING] * 9 + [last])
    s = blank()
    s["players"][0]["insanity"] = 9
    s["players"][0]["score"] = 10
    s, _ = run_ops(s, [insane(0, 3)])
    pl = s["players"][0]
    assert pl["insanity"] == 10 and pl["score"] == 4  # -3 per space beyond the end
    assert pl["creepy"] == 3 and len(pl["comps"]) == 1  # penalties repeat, the Compulsion bonus does not


@pytest.mark.rule("MFW-INSANITY-12", "MFW-MALADJ-01", "MFW-HIDDEN-10")
def test_gen3_maladjustment_immediately(fx):
    track(fx, {"above": [], "below": [{"draw": "maladjustment", "n": 1}]}, side="gen3")
    s = blank()
    s["insanity_side"] = "gen3"
    s, facts = run_ops(s, [insane(0, 1)])
    drawn = next(f for f in facts if f["type"] == "MaladjustmentDrawn")
    assert "private_to" not in drawn and s["players"][0]["mals"] == [drawn["card"]]
    assert RULES.view(s, 1)["players"][0]["mals"] == [drawn["card"]]


def with_compulsion(fx, state, seat=0, cond=None, vp=3, armed=True):
    fx.setitem(C.COMPULSIONS, "fx-cmp", {"id": "fx-cmp", "text": "Gain an Animal.",
                                         "condition": cond or {"on": "gain", "kind": "animal", "n": 1}, "vp": vp})
    state["players"][seat]["comps"] = [{"id": "fx-cmp", "armed": armed, "progress": 0}]
    return state


@pytest.mark.rule("MFW-EX-13", "MFW-COMPULSION-02", "MFW-COMPULSION-04", "MFW-COMPULSION-05")
def test_ex13_animal_compulsion_from_any_source(fx):
    # (a) a Town Location
    s = with_compulsion(fx, town(blank(), "fx-market"))
    s, facts = place(s, 0, "fx-market", ["spouse"])
    done = next(f for f in facts if f["type"] == "CompulsionCompleted")
    assert "private_to" not in done and s["players"][0]["score"] == 3 and s["players"][0]["comps"] == []
    assert "fx-cmp" in s["decks"]["comp_discard"]
    # (b) an Experiment reward
    card = exp_card(fx, "fx-a-animal", "A", ci={"gear": 1}, rewards=[{"gain": "knowledge", "kind": "biology", "n": 1},
                                                                      {"gain": "ingredient", "kind": "animal", "n": 1}])
    s = with_compulsion(fx, blank())
    s["players"][0]["hand"] = [card]
    s["players"][0]["res"]["gear"] = 1
    s, _ = place(s, 0, "perform_experiment", ["self"], card=card)
    assert s["players"][0]["score"] == 3 and s["players"][0]["comps"] == []
    # (c) a scenario event
    s = with_compulsion(fx, blank())
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "ingredient", "kind": "animal", "n": 1}, "why": "scenario"}])
    assert s["players"][0]["score"] == 3


@pytest.mark.rule("MFW-EX-14", "MFW-COMPULSION-03", "MFW-FAQ-03", "MFW-AMB-15")
def test_ex14_not_completed_by_the_drawing_action(fx):
    track(fx, COMP)
    fx.setitem(C.COMPULSIONS, "fx-cmp", {"id": "fx-cmp", "text": "Gain an Animal.",
                                         "condition": {"on": "gain", "kind": "animal", "n": 1}, "vp": 3})
    fx.setitem(C.COMPULSIONS, "fx-cmp", C.COMPULSIONS["fx-cmp"])
    card = exp_card(fx, "fx-a-mad", "A", ci={"gear": 1}, rewards=[{"gain": "knowledge", "kind": "biology", "n": 1},
                                                                   {"move": "insanity", "steps": 1},
                                                                   {"gain": "ingredient", "kind": "animal", "n": 1}])
    s = town(blank(), "fx-market")
    s["decks"]["comp"] = ["fx-cmp"] + s["decks"]["comp"]
    s["players"][0]["hand"] = [card]
    s["players"][0]["res"]["gear"] = 1
    s, facts = place(s, 0, "perform_experiment", ["self"], card=card)
    assert [c["id"] for c in s["players"][0]["comps"]] == ["fx-cmp"] and s["players"][0]["score"] == 0
    assert s["players"][0]["comps"][0]["armed"]  # armed once the turn ended
    s, _ = act(s, 1, {"type": "pass"})
    s, _ = place(s, 0, "fx-market", ["spouse"])
    assert s["players"][0]["comps"] == [] and s["players"][0]["score"] == 3


@pytest.mark.rule("MFW-COMPULSION-01", "MFW-HIDDEN-02")
def test_compulsions_are_a_separate_secret_pile(fx):
    track(fx, COMP)
    s, facts = run_ops(blank(), [insane(0, 1)])
    drawn = next(f for f in facts if f["type"] == "CompulsionDrawn")
    assert drawn["private_to"] == [0] and "card" not in drawn["public"]
    assert s["players"][0]["hand"] == [] and RULES.view(s, 1)["players"][0]["comps"] == 1
    s["players"][0]["hand"] = [s["decks"]["A"].pop()]
    s["phase"] = "end_of_generation"
    s, facts = run_ops(s, [{"op": "eog_keep"}])
    names = types(facts)
    assert names.index("HandKept") < names.index("CompulsionsDiscarded")  # only step 4 touches them
    assert not any(f["type"] == "CardToBottom" and f["card"].startswith("cmp") for f in facts)


@pytest.mark.rule("MFW-EX-22", "MFW-ENDGEN-10", "MFW-ENDGEN-11", "MFW-HIDDEN-15", "MFW-ENDGAME-04")
def test_ex22_compulsions_become_maladjustments(fx):
    s = blank(3)
    for seat, n in enumerate((5, 3, 1)):
        s["players"][seat]["comps"] = [{"id": c, "armed": True, "progress": 0} for c in s["decks"]["comp"][:n]]
        s["decks"]["comp"] = s["decks"]["comp"][n:]
    s2, facts = run_ops(copy_state(s), [{"op": "eog_steps"}])
    assert [len(pl["mals"]) for pl in s2["players"]] == [2, 1, 0]
    assert all(pl["comps"] == [] for pl in s2["players"])
    hidden = [f for f in facts if f["type"] == "CompulsionsDiscarded"]
    assert hidden and all(f["private_to"] == [] and "cards" not in f["public"] for f in hidden)
    s3, _ = run_ops(copy_state(s), [{"op": "final_steps"}])
    base = [pl["score"] for pl in s["players"]]
    ups = [len([t for t in pl["plots"] if t]) for pl in s["players"]]
    assert [pl["score"] - b - u for pl, b, u in zip(s3["players"], base, ups)] == [-6, -3, 0]


@pytest.mark.rule("MFW-MALADJ-02", "MFW-STARTGEN-10")
def test_maladjustment_in_effect_next_generation(fx):
    s = blank()
    income = next(m for m, r in C.MALADJUSTMENTS.items() if r["effect"].get("modifier") == "income")
    s["players"][0]["mals"] = [income]
    s, _ = run_ops(s, [{"op": "income"}])
    assert s["players"][0]["money"] == 2 and s["players"][1]["money"] == 3


@pytest.mark.rule("MFW-MALADJ-03", "MFW-MALADJ-04", "MFW-ENDGEN-09")
def test_maladjustments_leave_only_at_end_of_generation_step_3(fx):
    s = town(blank(), "fx-park")
    s["players"][0]["mals"] = ["mal-01"]
    s, _ = act(s, 0, {"type": "pass"})
    s, _ = act(s, 1, {"type": "pass"})
    s = settle(s)
    assert s["round"] == 2 and s["players"][0]["mals"] == ["mal-01"]
    assert not any("mal" in repr(m) for m in RULES.legal_moves(s, s["active"]))
    s2, facts = run_ops(s, [{"op": "eog_steps"}])
    assert s2["players"][0]["mals"] == [] and "mal-01" in s2["decks"]["mal_discard"]


@pytest.mark.rule("MFW-FREE-01", "MFW-FREE-02", "MFW-FREE-03", "MFW-AMB-32", "MFW-UPGRADE-12")
def test_free_actions(fx):
    s = town(blank(), "fx-park")
    s["players"][0]["plots"][1] = "upg-g12-08a"  # Gear Foundry: $1 -> 1 Gear, once per turn
    reject(s, 0, {"type": "free", "source": "upg-g12-08a"}, "MFW-FREE-02")
    s["players"][0]["money"] = 3
    s2, _ = act(s, 0, {"type": "free", "source": "upg-g12-08a"})  # before the placement
    assert s2["players"][0]["res"]["gear"] == 1 and s2["players"][0]["money"] == 2 and s2["active"] == 0
    reject(s2, 0, {"type": "free", "source": "upg-g12-08a"}, "MFW-AMB-32")
    s3, _ = act(s2, 0, {"type": "pass"})
    s3["players"][0]["money"] = 3
    reject(s3, 0, {"type": "free", "source": "upg-g12-08a"}, "MFW-FREE-03")
    reject(s, 0, {"type": "free", "source": "upg-g12-01a"}, "MFW-FREE-01")
