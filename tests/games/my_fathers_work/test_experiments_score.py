"""EXPERIMENT and SCORE rules with the rulebook's worked examples."""

from __future__ import annotations

import pytest

from domain.engine import ContentError, Turn, copy_state
from domain.engine.rng import Rng
from domain.games.my_fathers_work import RULES, content as C
from domain.games.my_fathers_work import state as Q
from domain.games.my_fathers_work.effects import Ctx, run

from .helpers import run_ops, MISTAKE, blank, choose, exp_card, place, reject, settle, types


def perform(s, seat, card, pieces=("caretaker1",), plan=None):
    s, facts = place(s, seat, "perform_experiment", list(pieces), card=card)
    if s["pending"] and s["pending"]["kind"] == "pay_plan":
        s, more = choose(s, plan if plan is not None else s["pending"]["options"][0])
        facts += more
    return s, facts


def cards(fx):
    return {
        "a": exp_card(fx, "fx-a", "A", ci={"gear": 1}, rewards=[{"gain": "knowledge", "kind": "biology", "n": 1}]),
        "a2": exp_card(fx, "fx-a2", "A", ci={"gear": 1}, rewards=[{"gain": "knowledge", "kind": "chemistry", "n": 1}]),
        "b": exp_card(fx, "fx-b", "B", ci={"chemical": 1}, ck={"engineering": 1}, rewards=[{"gain": "vp", "n": 3}]),
        "b2": exp_card(fx, "fx-b2", "B", ci={"chemical": 1}, ck={"engineering": 1}, rewards=[{"gain": "vp", "n": 3}]),
        "c": exp_card(fx, "fx-c", "C", ci={"body": 1}, ck={"biology": 1}, rewards=[{"gain": "vp", "n": 6}]),
        "d": exp_card(fx, "fx-d", "D", ci={"body": 1}, ck={"occult": 1}, rewards=[{"gain": "vp", "n": 20}]),
        "occ": exp_card(fx, "fx-occ", "B", ci={"animal": 1}, ck={"occult": 2}, rewards=[]),
    }


def rich(s, seat=0):
    s["players"][seat]["res"] = {k: 5 for k in C.RESOURCES}
    s["players"][seat]["res"]["occult"] = 0
    return s


@pytest.mark.rule("MFW-EXPERIMENT-01", "MFW-AMB-05")
def test_experiment_pieces(fx):
    k = cards(fx)
    s = rich(blank())
    s["players"][0]["hand"] = [k["a"]]
    s["players"][0]["pieces"].update(servant1="quarters", servant2="quarters")
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["spouse"], "card": k["a"]}, "MFW-EXPERIMENT-01")
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["spouse", "servant1", "servant2"],
                  "card": k["a"]}, "MFW-EXPERIMENT-01")
    for pieces in (["self"], ["caretaker1"], ["spouse", "servant1"], ["servant1", "servant2"]):
        t, _ = perform(s, 0, k["a"], pieces)
        assert t["players"][0]["completed"] == [k["a"]]


@pytest.mark.rule("MFW-EXPERIMENT-02", "MFW-EXPERIMENT-03", "MFW-EXPERIMENT-04", "MFW-EXPERIMENT-05",
                  "MFW-EXPERIMENT-06", "MFW-EXPERIMENT-08", "MFW-EXPERIMENT-22", "MFW-AMB-34")
def test_pyramid(fx):
    k = cards(fx)
    s = rich(blank())
    pl = s["players"][0]
    pl["hand"] = [k["b"], k["c"]]
    pl["masterwork"] = k["d"]
    pl["res"]["occult"] = 1
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["a"]}, "MFW-EXPERIMENT-02")
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["b"]}, "MFW-EXPERIMENT-04")
    pl["completed"] = [k["a"], k["b2"]]
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["c"]}, "MFW-EXPERIMENT-05")
    pl["completed"] = [k["a"], k["c"], k["c"], k["c"]]  # C never stands in for B
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["b"] if False else k["d"]},
           "MFW-EXPERIMENT-06")
    pl["completed"] = [k["a"], k["b2"], k["b2"], k["c"], k["c"]]
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["d"]}, "MFW-EXPERIMENT-06")
    pl["completed"] = [k["a"]]
    t, _ = perform(s, 0, k["b"], ["self"])  # the A is only checked, not used up
    assert t["players"][0]["completed"] == [k["a"], k["b"]] and t["players"][0]["hand"] == [k["c"]]
    t["players"][0]["hand"].append(k["b2"])
    t["active"], t["turn"]["placed"] = 0, False
    t, _ = perform(t, 0, k["b2"], ["caretaker1"])
    assert Q.completed_count(t, 0, "A") == 1 and Q.completed_count(t, 0, "B") == 2
    assert len(t["players"][0]["completed"]) == 3  # one Experiment per action


@pytest.mark.rule("MFW-EXPERIMENT-07", "MFW-JOURNAL-14", "MFW-ENDGEN-08")
def test_completed_counts_stored_and_free_levels(fx):
    k = cards(fx)
    s = blank()
    pl = s["players"][0]
    pl["completed"] = [k["a"]]
    pl["stored"] = [k["b"]]
    assert Q.completed_count(s, 0, "B") == 1
    pl["journal"]["engineering"] = 2
    assert Q.completed_count(s, 0, "B") == 2
    pl["plots"][1] = "upg-g12-05a"  # Drafting Room: +1 free B level
    assert Q.completed_count(s, 0, "B") == 3 and Q.completed_count(s, 0, "C") == 0
    assert Q.prerequisites_met(s, 0, "C")


@pytest.mark.rule("MFW-EXPERIMENT-09", "MFW-EXPERIMENT-15")
def test_exact_ingredients(fx):
    k = cards(fx)
    s = blank()
    s["players"][0]["hand"] = [k["a"]]
    s["players"][0]["res"].update(chemical=3, engineering=3)
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["a"]}, "MFW-EXPERIMENT-09")


@pytest.mark.rule("MFW-EXPERIMENT-10", "MFW-EXPERIMENT-11", "MFW-EXPERIMENT-12", "MFW-EXPERIMENT-14", "MFW-JOURNAL-09",
                  "MFW-AMB-20", "MFW-AMB-43")
def test_knowledge_payment(fx):
    fx.setitem(C.INSANITY, "gen12", [{"above": [{"draw": "compulsion", "n": 1}], "below": []}] * 10)
    k = cards(fx)
    s = blank()
    pl = s["players"][0]
    pl["completed"] = [k["a"]]
    pl["hand"] = [k["occ"], k["b"]]
    pl["res"].update(animal=1, chemical=1, biology=2)
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["occ"]}, "MFW-EXPERIMENT-11")
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["b"]}, "MFW-EXPERIMENT-10")
    pl["journal"]["engineering"] = 1  # free Knowledge from the Journal pays, and is never used up
    t, _ = perform(s, 0, k["b"], ["self"])
    assert t["players"][0]["res"]["engineering"] == 0 and t["players"][0]["insanity"] == 0
    pl["journal"]["engineering"] = 0
    pl["res"]["occult"] = 3  # gaining them caused nothing
    assert pl["insanity"] == 0
    t, facts = perform(s, 0, k["occ"], ["self"])
    assert t["players"][0]["insanity"] == 2 and t["players"][0]["res"]["occult"] == 1
    names = types(facts)
    assert names.index("CompulsionDrawn") < names.index("ExperimentCompleted")  # Insanity before the rewards
    t, _ = perform(s, 0, k["b"], ["self"], plan={"chemistry": 0, "biology": 0, "engineering": 1})
    assert t["players"][0]["insanity"] == 1 and t["players"][0]["res"]["occult"] == 2


@pytest.mark.rule("MFW-EX-19", "MFW-EXPERIMENT-13", "MFW-FAQ-02")
def test_ex19_occult_instead_of_cubes_held(fx):
    k = cards(fx)
    s = blank()
    pl = s["players"][0]
    pl["completed"] = [k["a"]]
    pl["hand"] = [k["b"]]
    pl["res"].update(chemical=1, engineering=1, occult=1)
    s, _ = place(s, 0, "perform_experiment", ["self"], card=k["b"])
    plans = s["pending"]["options"]
    assert {"chemistry": 0, "biology": 0, "engineering": 1} in plans and {"chemistry": 0, "biology": 0, "engineering": 0} in plans
    s, _ = choose(s, {"chemistry": 0, "biology": 0, "engineering": 1})
    pl = s["players"][0]
    assert pl["insanity"] == 1 and pl["res"]["engineering"] == 1 and pl["res"]["occult"] == 0


@pytest.mark.rule("MFW-EX-11", "MFW-EXPERIMENT-16", "MFW-EXPERIMENT-18", "MFW-HIDDEN-07")
def test_ex11_the_mistake(fx):
    k = cards(fx)
    s = blank()
    s["gen"] = 2
    pl = s["players"][0]
    pl["stored"] = [k["b2"]]
    pl["completed"] = [k["a"], k["b"]]
    pl["journal"]["biology"] = 1
    pl["res"].update(gear=1, animal=1, biology=2, occult=1)
    pl.update(insanity=1, creepy=2, score=20)
    pl["hand"] = ["fx-mistake"]
    probe = copy_state(s)
    probe["players"][0]["stored"] = []
    reject(probe, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["caretaker1"], "card": "fx-mistake"},
           "MFW-EXPERIMENT-05")
    probe = copy_state(s)
    probe["players"][0]["res"]["occult"] = 0
    reject(probe, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["caretaker1"], "card": "fx-mistake"},
           "MFW-EXPERIMENT-10")
    s, facts = perform(s, 0, "fx-mistake", plan={"chemistry": 0, "biology": 1, "engineering": 0})
    pl = s["players"][0]
    assert {k2: pl["res"][k2] for k2 in ("gear", "animal", "biology", "occult", "body")} == \
        {"gear": 0, "animal": 0, "biology": 0, "occult": 0, "body": 1}
    assert pl["insanity"] == 3 and pl["creepy"] == 3 and pl["score"] == 34
    assert "fx-mistake" in pl["completed"] and "fx-mistake" in RULES.view(s, 1)["players"][0]["completed"]
    done = next(f for f in facts if f["type"] == "ExperimentCompleted")
    assert "private_to" not in done


@pytest.mark.rule("MFW-EX-12", "MFW-EXPERIMENT-07")
def test_ex12_stored_a_allows_b(fx):
    k = cards(fx)
    s = blank()
    s["gen"] = 2
    s["players"][0]["hand"] = [k["b"]]
    s["players"][0]["res"].update(chemical=1, engineering=1)
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["b"]}, "MFW-EXPERIMENT-04")
    s["players"][0]["stored"] = [k["a"]]
    s, _ = perform(s, 0, k["b"], ["self"])
    assert s["players"][0]["completed"] == [k["b"]]


@pytest.mark.rule("MFW-EXPERIMENT-17", "MFW-EXPERIMENT-19")
def test_c_generation_bonus(fx):
    k = cards(fx)
    for gen, bonus in ((1, 8), (2, 4), (3, 0)):
        s = rich(blank())
        s["gen"] = gen
        pl = s["players"][0]
        pl["completed"] = [k["a"], k["b"], k["b2"]]
        pl["hand"] = [k["c"], k["a2"]]
        t, _ = perform(s, 0, k["c"], ["self"])
        assert t["players"][0]["score"] == 6 + bonus
        t, _ = perform(s, 0, k["a2"], ["self"])
        assert t["players"][0]["score"] == 0  # no bonus for an A


@pytest.mark.rule("MFW-EXPERIMENT-20", "MFW-EXPERIMENT-23", "MFW-EXPERIMENT-24")
def test_content_checks(fx):
    assert all(r["type"] in C.TRACKS for r in C.EXPERIMENTS.values())
    good = dict(MISTAKE)
    assert C.check_experiment(good, "ok")["type"] == "biology"
    bad_a = dict(MISTAKE, level="A", prerequisites={}, cost_knowledge={"biology": 1})
    with pytest.raises(ContentError, match="EXPERIMENT-23"):
        C.check_experiment(bad_a, "bad A")
    no_knowledge = dict(MISTAKE, level="A", prerequisites={}, cost_knowledge={}, rewards=[{"gain": "vp", "n": 1}])
    with pytest.raises(ContentError, match="EXPERIMENT-23"):
        C.check_experiment(no_knowledge, "bad A reward")
    with pytest.raises(ContentError, match="EXPERIMENT-24"):
        C.check_experiment(dict(MISTAKE, cost_ingredients={}), "bad C")
    with pytest.raises(ContentError):
        C.check_experiment(dict(MISTAKE, prerequisites={"A": 1}), "bad pyramid")


@pytest.mark.rule("MFW-EXPERIMENT-21", "MFW-AMB-30")
def test_masterwork_lifecycle(fx):
    k = cards(fx)
    s = rich(blank())
    pl = s["players"][0]
    pl["masterwork"] = k["d"]
    pl["res"]["occult"] = 2
    pl["stored"] = [k["a"], k["b"], k["b2"], k["c"], k["c"], k["c"]]
    assert {"type": "place", "loc": "perform_experiment", "pieces": ["self"], "card": k["d"]} in RULES.legal_moves(s, 0)
    s, _ = perform(s, 0, k["d"], ["self"])
    assert s["players"][0]["mw_done"] and s["players"][0]["completed"] == [k["d"]]
    s["active"], s["turn"]["placed"] = 0, False
    reject(s, 0, {"type": "place", "loc": "perform_experiment", "pieces": ["caretaker1"], "card": k["d"]},
           "MFW-EXPERIMENT-21")
    # not stored: removed from the game at End of Generation step 2 (there is no D deck)
    s["players"][0]["completed"] = [k["d"], k["a2"]]
    s["phase"] = "end_of_generation"
    ctx = Ctx(Turn(RULES, s), Rng(1, 1), [{"op": "eog_store"}])
    run(ctx)
    s2 = ctx.s
    from .helpers import commit
    s2, _ = commit(s2, 0, k["a2"])
    assert k["d"] not in s2["decks"]["A"] + s2["decks"]["B"] + s2["decks"]["C"] and s2["players"][0]["mw_done"]


@pytest.mark.rule("MFW-EX-15", "MFW-SCORE-01", "MFW-SCORE-02", "MFW-SCORE-03", "MFW-AMB-31")
def test_ex15_score_tokens(fx):
    s = blank()
    s["players"][0]["score"] = 47
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "vp", "n": 5}}])
    v = RULES.view(s, 1)["players"][0]
    assert (v["score"], v["token"], v["marker"]) == (52, 50, 2)
    s["players"][0]["score"] = 98
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "vp", "n": 4}}])
    v = RULES.view(s, 0)["players"][0]
    assert (v["score"], v["token"], v["marker"]) == (102, 100, 2)
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "vp", "n": -60}}])
    assert RULES.view(s, 0)["players"][0]["token"] == 0
    s["players"][1]["score"] = 1
    s, _ = run_ops(s, [{"op": "ins_step", "seat": 1}] if False else [{"op": "eff", "seat": 1, "eff": {"gain": "vp", "n": -4}}])
    assert s["players"][1]["score"] == -3 and RULES.scores(s)[1] == -3


@pytest.mark.rule("MFW-SCORE-02", "MFW-SCORE-03")
def test_score_token_thresholds(fx):
    """Reaching exactly 50 (crossing 49) takes the +50 token; exactly 100 flips it to +100."""
    s = blank()
    for total, token, marker in ((49, 0, 49), (50, 50, 0), (99, 50, 49), (100, 100, 0)):
        s["players"][0]["score"] = total - 1
        s2, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "vp", "n": 1}}])
        v = RULES.view(s2, 1)["players"][0]
        assert (v["score"], v["token"], v["marker"]) == (total, token, marker)


@pytest.mark.rule("MFW-SCORE-04")
def test_score_never_reset(fx):
    s = blank()
    s["players"][0]["score"] = 17
    s, _ = run_ops(s, [{"op": "eog_steps"}])
    s = settle(s)
    assert s["gen"] == 2 and s["players"][0]["score"] >= 17
