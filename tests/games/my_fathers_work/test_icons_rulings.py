"""ICON and FAQ rules, and the rulings (MFW-AMB-*) not pinned elsewhere."""

from __future__ import annotations

import pytest

from domain.engine import ContentError
from domain.games.my_fathers_work import RULES, content as C
from domain.games.my_fathers_work import state as Q

from .helpers import run_ops, blank, choose, exp_card, place, types


def eff(seat, e):
    return {"op": "eff", "seat": seat, "eff": e}


@pytest.mark.rule("MFW-ICON-07", "MFW-HIDDEN-06", "MFW-AMB-40")
def test_search_a_deck(fx):
    s = blank()
    s, _ = run_ops(s, [eff(0, {"search": "experiment"})])
    assert s["pending"]["kind"] == "search_deck" and s["pending"]["options"] == ["A", "B", "C"]
    s, facts = choose(s, "B")
    seen = next(f for f in facts if f["type"] == "Searched")
    assert seen["private_to"] == [0] and seen["public"] == {"type": "Searched", "seat": 0, "deck": "B"}
    assert s["pending"]["kind"] == "search_take" and s["pending"]["secret"]
    assert "options" not in RULES.view(s, 1)["pending"]
    before = list(s["decks"]["B"])
    pick = before[5]
    s, facts = choose(s, pick)
    assert s["players"][0]["hand"] == [pick]
    assert sorted(s["decks"]["B"]) == sorted(c for c in before if c != pick)
    shuffle = next(f for f in facts if f["type"] == "DeckShuffled")
    assert shuffle["private_to"] == [] and shuffle["random"]


@pytest.mark.rule("MFW-ICON-08", "MFW-FAQ-04")
def test_any_knowledge_and_unlimited_supply(fx):
    s = blank()
    s, _ = run_ops(s, [eff(0, {"gain": "knowledge", "kind": "any", "n": 2})])
    assert s["pending"]["kind"] == "knowledge" and s["pending"]["options"] == list(C.KNOWLEDGE)
    s, _ = choose(s, "occult")
    s, _ = choose(s, "biology")
    assert s["players"][0]["res"]["occult"] == 1 and s["players"][0]["res"]["biology"] == 1
    assert s["players"][0]["insanity"] == 0
    s, _ = run_ops(s, [eff(0, {"gain": "ingredient", "kind": "body", "n": 40}), eff(1, {"gain": "money", "n": 99})])
    assert s["players"][0]["res"]["body"] == 40 and s["players"][1]["money"] == 99


@pytest.mark.rule("MFW-ICON-04", "MFW-UPGRADE-14")
def test_tile_reward_buys_from_the_row(fx):
    s = blank()
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "upg-g12-03a", "upg-g12-04a"]
    top = s["decks"]["tiles"][0]
    s["players"][0]["money"] = 2
    s, _ = run_ops(s, [eff(0, {"upgrade": "buy"})])
    assert s["pending"]["kind"] == "buy" and "row:3" in s["pending"]["options"]
    s, _ = choose(s, "row:1")
    assert s["players"][0]["plots"][1] == "upg-g12-02a" and s["players"][0]["money"] == 0
    assert s["row"] == [top, "upg-g12-01a", "upg-g12-03a", "upg-g12-04a"]


@pytest.mark.rule("MFW-AMB-02")
def test_player_range():
    assert (RULES.meta.min_players, RULES.meta.max_players, RULES.meta.cooperative) == (2, 4, False)
    assert RULES.meta.name == "my_fathers_work"


@pytest.mark.rule("MFW-AMB-19")
@pytest.mark.parametrize("option, insanity", [(False, 0), (True, 2)])
def test_journal_occult_insanity_option(fx, option, insanity):
    card = exp_card(fx, "fx-occ-b", "B", ci={"gear": 1}, ck={"occult": 2})
    s = blank(options={"journal_occult_insanity": option})
    pl = s["players"][0]
    pl["journal"]["occult"] = 2
    pl["stored"] = ["exp-a-01"]
    pl["hand"] = [card]
    pl["res"]["gear"] = 1
    s, _ = place(s, 0, "perform_experiment", ["self"], card=card)
    assert s["players"][0]["insanity"] == insanity and s["players"][0]["completed"] == [card]


@pytest.mark.rule("MFW-AMB-22")
def test_empty_open_plot_must_be_used(fx):
    s = blank()
    s["players"][0]["plots"][:3] = ["fx-plain1", None, "fx-plain3"]
    s["players"][0]["money"] = 50
    assert Q.build_options(s, 0, "upg-g12-01a", 1) == ["plot:1"]


@pytest.mark.rule("MFW-AMB-33")
def test_empty_decks(fx):
    s = blank()
    s["decks"]["B"] = []
    s, _ = run_ops(s, [{"op": "draw_exp", "seat": 0, "deck": "choice"}])
    assert s["pending"]["options"] == ["A", "C"]
    s["pending"], s["decks"]["A"], s["decks"]["C"] = None, [], []
    s, facts = run_ops(s, [{"op": "draw_exp", "seat": 0, "deck": "choice"}, {"op": "round_draw"}])
    assert facts == [] or "CardDrawn" not in types(facts)
    t = blank()
    t["decks"]["comp_discard"] = list(t["decks"]["comp"])
    t["decks"]["comp"] = []
    t, facts = run_ops(t, [eff(0, {"draw": "compulsion", "n": 1})])
    assert types(facts)[:2] == ["DeckShuffled", "CompulsionDrawn"] and len(t["players"][0]["comps"]) == 1
    u = blank()
    u["decks"]["mal"] = []
    u["decks"]["mal_discard"] = []
    u["players"][0]["comps"] = [{"id": c, "armed": True, "progress": 0} for c in ("cmp-01", "cmp-02")]
    u, _ = run_ops(u, [{"op": "final_steps"}])
    assert u["players"][0]["mals"] == [] and u["final"]["0"]["maladjustments"] == -3


@pytest.mark.rule("MFW-AMB-45")
def test_no_hand_limit(fx):
    s = blank()
    s, _ = run_ops(s, [{"op": "draw_exp", "seat": 0, "deck": "A"}] * 15)
    assert len(s["players"][0]["hand"]) == 15


@pytest.mark.rule("MFW-AMB-46", "MFW-TRACKS-03")
def test_only_scenario_events_move_suspicion(fx):
    with pytest.raises(ContentError, match="AMB-46"):
        C.check_effect({"move": "suspicion", "steps": 1}, "a card")
    C.check_effect({"move": "suspicion", "steps": -1}, "an event", allow_global=True)
    s = blank()
    s["mob"], s["suspicion"] = 12, 12
    s, _ = run_ops(s, [{"op": "global", "eff": {"move": "suspicion", "steps": -2}, "targets": [], "event": "t"}])
    assert s["suspicion"] == 10 and s["mob"] == 10  # the Mob is pushed back under its maximum


def test_content_errors_name_the_record_and_field():
    from .helpers import FIXTURE_LOCATIONS
    bad = dict(FIXTURE_LOCATIONS["fx-park"])
    del bad["reward_per_use"]
    with pytest.raises(ContentError, match=r"fixture-park.*reward_per_use"):
        C.check_location(bad, "fixture-park")
    with pytest.raises(ContentError, match=r"cost_per_use"):
        C.check_location(dict(FIXTURE_LOCATIONS["fx-park"], cost_per_use=[{"gain": "money", "n": 1}]), "x")
    with pytest.raises(ContentError, match="unknown effect"):
        C.check_effect({"teleport": 1}, "x")
    pages = {p for r in C.LOCATIONS.values() for p in r["pages"]}
    for page in pages:
        assert sum(1 for r in C.LOCATIONS.values() if page in r["pages"] and r["category"] == "laborers_union") == 1
