"""PLACE, TOWN and TRACKS rules, with the rulebook's worked examples."""

from __future__ import annotations

import pytest

from domain.engine import ContentError
from domain.games.my_fathers_work import RULES, content as C

from .helpers import run_ops, FIXTURE_LOCATIONS, act, blank, choose, loc, place, reject, town


@pytest.mark.rule("MFW-EX-01", "MFW-PLACE-09", "MFW-TOWN-06")
def test_ex01_annette_at_empty_park(fx):
    s = town(blank(), "fx-park")
    s["players"][0]["money"] = 3
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s, _ = place(s, 0, "fx-park", ["servant1"])
    pl = s["players"][0]
    assert pl["money"] == 3 and pl["res"]["chemical"] == 1 and pl["pieces"]["servant1"] == "town:fx-park"
    assert s["active"] == 1


@pytest.mark.rule("MFW-EX-02", "MFW-PLACE-04", "MFW-PLACE-07", "MFW-PLACE-08", "MFW-PLACE-16")
def test_ex02_annette_joins_john_at_blacksmith(fx):
    s = town(blank(), "fx-blacksmith")
    s["players"][1]["pieces"]["self"] = "town:fx-blacksmith"
    a = s["players"][0]
    a["money"] = 3
    a["pieces"]["servant1"] = a["pieces"]["servant2"] = "quarters"
    s2, _ = place(s, 0, "fx-blacksmith", ["servant1", "servant2"])
    assert s2["players"][0]["money"] == 2 and s2["players"][0]["res"]["gear"] == 2
    # variant: three pieces already there, still $1
    s["players"][1]["pieces"]["spouse"] = "town:fx-blacksmith"
    s["players"][0]["pieces"]["self"] = "town:fx-blacksmith"
    s3, _ = place(s, 0, "fx-blacksmith", ["servant1", "servant2"])
    assert s3["players"][0]["money"] == 2


@pytest.mark.rule("MFW-PLACE-07")
def test_own_piece_makes_location_occupied(fx):
    s = town(blank(), "fx-park")
    s["players"][0]["money"] = 1
    s["players"][0]["pieces"]["self"] = "town:fx-park"
    s, _ = place(s, 0, "fx-park", ["spouse"])
    assert s["players"][0]["money"] == 0


@pytest.mark.rule("MFW-EX-03", "MFW-PLACE-10", "MFW-TOWN-01", "MFW-TOWN-02", "MFW-TOWN-04", "MFW-TOWN-05",
                  "MFW-TRACKS-02", "MFW-AMB-03", "MFW-AMB-42")
def test_ex03_john_self_at_occupied_cemetery(fx):
    s = town(blank(), "fx-cemetery")
    s["players"][0]["pieces"]["spouse"] = "town:fx-cemetery"
    s["active"] = 1
    john = s["players"][1]
    john["money"], john["creepy"] = 5, 2
    s["mob"] = 10
    s, _ = place(s, 1, "fx-cemetery", ["self"])
    john = s["players"][1]
    assert john["res"]["body"] == 2 and john["money"] == 5 and john["creepy"] == 3 and s["mob"] == 9


@pytest.mark.rule("MFW-PLACE-02")
def test_mixed_placement_rejected(fx):
    s = town(blank(), "fx-park")
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["self", "spouse"]}, "MFW-PLACE-02")
    reject(s, 0, {"type": "place", "loc": "estate_affairs", "pieces": ["self", "caretaker1"], "mode": "money"},
           "MFW-PLACE-02")


@pytest.mark.rule("MFW-PLACE-03")
def test_other_estate_rejected():
    s = blank()
    reject(s, 0, {"type": "place", "loc": "estate_affairs", "owner": 1, "pieces": ["self"], "mode": "money"},
           "MFW-PLACE-03")


@pytest.mark.rule("MFW-PLACE-05", "MFW-PLACE-06", "MFW-EX-18", "MFW-ICON-01")
def test_self_double_and_no_self_bonus(fx):
    s = town(blank(), "fx-blacksmith", "fx-x1")
    s2, _ = place(s, 0, "fx-blacksmith", ["self"])
    assert s2["players"][0]["res"]["gear"] == 2
    s3, _ = place(s, 0, "fx-x1", ["self"])
    assert s3["players"][0]["res"]["gear"] == 1


@pytest.mark.rule("MFW-PLACE-11", "MFW-PLACE-18", "MFW-PLACE-19", "MFW-AMB-04", "MFW-AMB-05")
def test_estate_no_fee_single_performance(fx):
    s = blank()
    s["players"][0]["pieces"]["caretaker2"] = "estate:estate_affairs"
    s2, _ = place(s, 0, "estate_affairs", ["self"], mode="money")
    assert s2["players"][0]["money"] == 1  # no fee, and the Self performs once on the Estate
    s2, _ = place(s, 0, "estate_affairs", ["self"], mode="draw")
    drawn = 0
    while s2["pending"] and s2["pending"]["kind"] == "draw_deck":
        s2, _ = choose(s2, "A")
        drawn += 1
    assert drawn == 3 and len(s2["players"][0]["ea"]) == 3
    s["players"][0]["pieces"]["servant1"] = "quarters"
    reject(s, 0, {"type": "place", "loc": "estate_affairs", "pieces": ["spouse", "servant1"], "mode": "money"},
           "MFW-PLACE-18")


@pytest.mark.rule("MFW-PLACE-12", "MFW-AMB-08")
def test_affordability_of_all_performances(fx):
    s = town(blank(), "fx-paid")
    pl = s["players"][0]
    pl["pieces"]["servant1"] = "quarters"
    pl["money"] = 3
    reject(s, 0, {"type": "place", "loc": "fx-paid", "pieces": ["spouse", "servant1"]}, "MFW-PLACE-12")
    s["players"][1]["pieces"]["self"] = "town:fx-paid"
    s["players"][0]["money"] = 2
    reject(s, 0, {"type": "place", "loc": "fx-paid", "pieces": ["spouse"]}, "MFW-PLACE-12")  # fee + cost = 3
    s2, _ = place(s, 0, "fx-paid", ["self"])  # only the first performance must be affordable
    assert s2["players"][0]["res"]["gear"] == 1 and s2["players"][0]["money"] == 0 and s2["active"] == 1
    s["players"][0]["money"] = 4
    s3, _ = place(s, 0, "fx-paid", ["self"])
    assert s3["pending"]["kind"] == "yes_no"  # the second performance is optional
    s4, _ = choose(s3, "no")
    assert s4["players"][0]["money"] == 2 and s4["players"][0]["res"]["gear"] == 1
    s5, _ = choose(s3, "yes")
    assert s5["players"][0]["money"] == 0 and s5["players"][0]["res"]["gear"] == 2


@pytest.mark.rule("MFW-PLACE-13", "MFW-PLACE-14")
def test_cost_per_performance_and_all_rewards(fx):
    fx.setitem(C.LOCATIONS, "fx-double", loc("fx-double", "Double", reward=[
        {"gain": "ingredient", "kind": "gear", "n": 1}, {"gain": "ingredient", "kind": "chemical", "n": 1}],
        cost=[{"pay": "money", "n": 1}]))
    s = town(blank(), "fx-double")
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s["players"][0]["money"] = 2
    s, _ = place(s, 0, "fx-double", ["spouse", "servant1"])
    pl = s["players"][0]
    assert pl["money"] == 0 and pl["res"]["gear"] == 2 and pl["res"]["chemical"] == 2


@pytest.mark.rule("MFW-EX-17", "MFW-PLACE-15")
def test_ex17_library_slash(fx):
    s = town(blank(), "fx-library")
    for picks, expect in (((0, 1), (1, 1)), ((0, 0), (2, 0))):
        t, _ = place(s, 0, "fx-library", ["self"])
        for p in picks:
            assert t["pending"]["kind"] == "slash"
            t, _ = choose(t, p)
        assert (t["players"][0]["res"]["biology"], t["players"][0]["res"]["chemistry"]) == expect


@pytest.mark.rule("MFW-PLACE-17")
def test_piece_stays_until_end_of_round(fx):
    s = town(blank(), "fx-park")
    s, _ = place(s, 0, "fx-park", ["spouse"])
    s, _ = act(s, 1, {"type": "pass"})
    assert s["players"][0]["pieces"]["spouse"] == "town:fx-park"
    s, facts = act(s, 0, {"type": "pass"})
    assert s["players"][0]["pieces"]["spouse"] == "quarters"


@pytest.mark.rule("MFW-PLACE-20", "MFW-ICON-03", "MFW-AMB-39")
def test_piece_trigger(fx):
    fx.setitem(C.LOCATIONS, "fx-servant-trigger", loc("fx-servant-trigger", "Yard", reward=[], triggers=[
        {"piece": "servant", "effects": [{"gain": "money", "n": 1}]}]))
    s = town(blank(), "fx-servant-trigger", "fx-trigger")
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s2, _ = place(s, 0, "fx-servant-trigger", ["spouse", "servant1"])
    assert s2["players"][0]["money"] == 2  # once per qualifying piece
    s3, _ = place(s, 0, "fx-trigger", ["self"])
    assert s3["players"][0]["score"] == 0  # the Self is not the Spouse


@pytest.mark.rule("MFW-TOWN-03", "MFW-INSANITY-13")
def test_insanity_penalty_uses_space_effects(fx):
    fx.setitem(C.INSANITY, "gen12", [{"above": [{"draw": "compulsion", "n": 1}], "below": []}] + [{"above": [], "below": []}] * 9)
    s = town(blank(), "fx-asylum")
    s, _ = place(s, 0, "fx-asylum", ["self"])
    assert s["players"][0]["insanity"] == 1 and len(s["players"][0]["comps"]) == 1


@pytest.mark.rule("MFW-TOWN-07")
def test_knowledge_location(fx):
    fx.setitem(C.LOCATIONS, "fx-caravan", loc("fx-caravan", "Caravan", "knowledge",
                                               reward=[{"gain": "knowledge", "kind": "engineering", "n": 1}]))
    s = town(blank(), "fx-caravan")
    s, _ = place(s, 0, "fx-caravan", ["self"])
    assert s["players"][0]["res"]["engineering"] == 2


@pytest.mark.rule("MFW-TOWN-09", "MFW-AMB-07")
def test_laborers_union_needs_a_lost_servant(fx):
    s = town(blank(), "fx-union")
    s["players"][0]["money"] = 10
    for p in ("servant1", "servant2"):
        s["players"][0]["pieces"][p] = "quarters"
    reject(s, 0, {"type": "place", "loc": "fx-union", "pieces": ["self"]}, "MFW-TOWN-09")
    s["players"][0]["pieces"]["servant2"] = "lost"
    s2, _ = place(s, 0, "fx-union", ["spouse", "servant1"])  # 2 performances, only 1 piece to hire
    assert s2["players"][0]["money"] == 8 and s2["players"][0]["pieces"]["servant2"] == "quarters"


@pytest.mark.rule("MFW-TOWN-10")
def test_infinite_union(fx):
    s = town(blank(), "fx-union-inf")
    s["players"][0]["money"] = 5
    s["players"][0]["pieces"]["spouse"] = "lost"
    s, _ = place(s, 0, "fx-union-inf", ["self"])
    s, _ = choose(s, "spouse")  # which piece comes back first
    assert s["pending"]["kind"] == "yes_no"
    s, _ = choose(s, "yes")
    assert s["pending"]["kind"] == "yes_no"
    s, _ = choose(s, "yes")
    pl = s["players"][0]
    assert pl["money"] == 2 and all(pl["pieces"][p] != "lost" for p in ("spouse", "servant1", "servant2"))
    assert s["pending"] is None  # nothing left in Lost: no more offers


@pytest.mark.rule("MFW-TOWN-11", "MFW-AMB-41")
def test_builders_office_optional_purchase(fx):
    s = town(blank(), "fx-builder")
    s["row"] = ["fx-plain1", "fx-plain2", "fx-plain3", "fx-hedge"]
    s["players"][0]["money"] = 5
    s2, _ = place(s, 0, "fx-builder", ["self"])
    assert s2["pending"]["kind"] == "buy" and "none" in s2["pending"]["options"]
    s3, _ = choose(s2, "row:0")
    assert s3["players"][0]["plots"][1] == "fx-plain1" and s3["players"][0]["money"] == 4
    assert s3["pending"]["kind"] == "buy"  # the Self's second performance
    s4, _ = choose(s3, "none")
    assert s4["players"][0]["money"] == 4 and s4["active"] == 1


@pytest.mark.rule("MFW-TOWN-12", "MFW-TOWN-13", "MFW-ICON-11", "MFW-INSANITY-03")
def test_arrows_move_tracks_backwards(fx):
    fx.setitem(C.INSANITY, "gen12", [{"above": [{"draw": "compulsion", "n": 1}], "below": [{"move": "creepy", "steps": 1}]}] * 10)
    s = town(blank(), "fx-hall", "fx-church")
    s["mob"] = 8
    s["players"][0].update(creepy=3, insanity=2)
    s2, facts = place(s, 0, "fx-hall", ["spouse"])
    assert s2["mob"] == 9 and s2["players"][0]["insanity"] == 1
    assert s2["players"][0]["comps"] == [] and s2["players"][0]["creepy"] == 3  # nothing applies backwards
    s3, _ = place(s, 0, "fx-church", ["spouse"])
    assert s3["players"][0]["creepy"] == 2


@pytest.mark.rule("MFW-TOWN-14", "MFW-STORY-05", "MFW-STORY-04", "MFW-HIDDEN-14")
def test_scenario_changes_the_town(fx):
    s = blank()
    assert "loc-plague-ward" not in s["town"] and "loc-plague-ward" not in repr(RULES.view(s, 0)["town"])
    s, _ = run_ops(s, [{"op": "global", "eff": {"add_location": "loc-plague-ward"}, "targets": [], "event": "t"}])
    assert "loc-plague-ward" in s["town"]
    s, _ = run_ops(s, [{"op": "global", "eff": {"replace_location": {"old": "loc-hiring", "new": "loc-hiring-guild"}},
                        "targets": [], "event": "t"}])
    assert "loc-hiring" not in s["town"] and "loc-hiring-guild" in s["town"]
    reject(s, 0, {"type": "place", "loc": "loc-hiring", "pieces": ["self"]}, "MFW-STORY-05")
    bad = dict(FIXTURE_LOCATIONS["fx-union"], reward_per_use=[{"gain": "money", "n": 1}])
    with pytest.raises(ContentError):
        C.check_location(bad, "bad union")


@pytest.mark.rule("MFW-TOWN-15", "MFW-STORY-02", "MFW-ICON-09", "MFW-STORY-03", "MFW-HIDDEN-13", "MFW-FAQ-01")
def test_consult_location_fires_secret_event(fx):
    s = town(blank(), "fx-asylum")
    s, facts = place(s, 0, "fx-asylum", ["spouse"])
    fired = [f for f in facts if f["type"] == "EventFired"]
    assert fired and fired[0]["event"] == "ev-asylum"
    msg = next(f for f in facts if f["type"] == "Message")
    assert msg["private_to"] == [0] and "text" not in msg["public"]
    assert s["pending"]["kind"] == "event_choice" and s["pending"]["secret"]
    assert "options" not in RULES.view(s, 1)["pending"]
    assert all(m["to"] is None for m in RULES.view(s, 1)["messages"])
    assert any(m["to"] == 0 for m in RULES.view(s, 0)["messages"])
    s2, _ = choose(s, 1)
    assert s2["players"][0]["score"] == 2  # location reward 1 + "Walk away" 1


@pytest.mark.rule("MFW-TRACKS-01", "MFW-TRACKS-03", "MFW-AMB-09", "MFW-AMB-11")
def test_mob_capped_by_suspicion_and_bounds(fx):
    s = blank()
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"move": "mob", "steps": 3}}])
    assert s["mob"] == 12 == s["suspicion"]
    s["mob"] = 10
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"move": "mob", "steps": 5}}])
    assert s["mob"] == 12
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"move": "mob", "steps": -40}},
                       {"op": "eff", "seat": 0, "eff": {"move": "creepy", "steps": -3}},
                       {"op": "eff", "seat": 1, "eff": {"move": "creepy", "steps": 99}}])
    assert s["mob"] == 0 and s["players"][0]["creepy"] == 0 and s["players"][1]["creepy"] == C.MOB_LENGTH - 1


@pytest.mark.rule("MFW-EX-21", "MFW-TRACKS-04", "MFW-TRACKS-05", "MFW-TRACKS-06", "MFW-TRACKS-11", "MFW-TRACKS-07")
def test_ex21_church_exception(fx):
    s = town(blank(), "fx-blacksmith", "fx-church")
    s["mob"] = 8
    s["players"][0]["creepy"] = 8
    s["players"][0]["pieces"]["servant1"] = "quarters"
    reject(s, 0, {"type": "place", "loc": "fx-blacksmith", "pieces": ["self"]}, "MFW-TRACKS-05")
    s, _ = place(s, 0, "fx-church", ["spouse"])
    assert s["players"][0]["creepy"] == 7
    s, _ = act(s, 1, {"type": "pass"})
    s, _ = place(s, 0, "fx-blacksmith", ["servant1"])
    assert s["players"][0]["res"]["gear"] == 1


@pytest.mark.rule("MFW-TRACKS-06")
def test_overtaken_without_church_has_no_town(fx):
    s = town(blank(), "fx-blacksmith", "fx-park")
    s["mob"] = 3
    s["players"][0]["creepy"] = 5
    assert all(m.get("loc") not in ("fx-blacksmith", "fx-park") for m in RULES.legal_moves(s, 0))
    s = town(s, "fx-church")
    s["players"][1]["pieces"]["self"] = "town:fx-church"
    s["players"][0]["money"] = 1
    s2, _ = place(s, 0, "fx-church", ["spouse"])  # the fee applies as normal
    assert s2["players"][0]["money"] == 0


@pytest.mark.rule("MFW-TRACKS-08", "MFW-TRACKS-09", "MFW-AMB-12")
def test_estate_unaffected_and_mob_moves_everyone(fx):
    s = town(blank(), "fx-cemetery", "fx-park")
    s["mob"] = 3
    s["players"][0]["creepy"] = 1
    s["players"][1]["creepy"] = 2
    s2, _ = place(s, 0, "fx-cemetery", ["self"])  # creepy 2, mob 2: both now overtaken
    assert s2["mob"] == 2 and s2["players"][0]["res"]["body"] == 2  # the action already in progress completes
    reject(s2, 1, {"type": "place", "loc": "fx-park", "pieces": ["self"]}, "MFW-TRACKS-05")
    s3, _ = place(s2, 1, "estate_affairs", ["self"], mode="money")
    assert s3["players"][1]["money"] == 1


@pytest.mark.rule("MFW-UPGRADE-12", "MFW-PLACE-20")
def test_on_place_upgrade_ability(fx):
    s = town(blank(), "fx-church", "fx-park")
    s["players"][0]["plots"][1] = "upg-g12-15a"  # Chapel Ruins: +1 VP whenever you place at a church
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s2, _ = place(s, 0, "fx-church", ["spouse", "servant1"])
    assert s2["players"][0]["score"] == 1  # once per placement
    s3, _ = place(s, 0, "fx-park", ["self"])
    assert s3["players"][0]["score"] == 0
