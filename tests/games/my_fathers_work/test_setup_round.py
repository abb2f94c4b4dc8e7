"""SETUP, PIECES and ROUND rules."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, fold, copy_state, new_game
from domain.games.my_fathers_work import RULES, content as C
from domain.games.my_fathers_work.effects import town_for

from .helpers import (act, all_facts, blank, choose, commit, fresh, full_game, place, reject, settle, town, types)


def setup_only(n=2, options=None, seed=5):
    """The state right after the setup steps, before the first Start of Generation."""
    state, facts = new_game(RULES, n, options or {}, seed)
    cut = types(facts).index("GenerationStarted")
    return fold(RULES.evolve, RULES.initial_state(n, options or {}), facts[:cut]), facts


@pytest.mark.rule("MFW-SETUP-01")
def test_player_count_and_scenario_checked():
    for n in (2, 3, 4):
        assert fresh(n)["n"] == n
    for bad in (5, 1):
        with pytest.raises(IllegalMove) as err:
            RULES.initial_state(bad, {})
        assert err.value.rule_id == "MFW-SETUP-01"
    with pytest.raises(IllegalMove):
        RULES.initial_state(2, {"scenario": "nope"})
    with pytest.raises(IllegalMove):
        RULES.initial_state(2, {"colour": "red"})
    assert fresh(2, {"scenario": "scn-parish"})["scenario"] == "scn-parish"


@pytest.mark.rule("MFW-SETUP-02", "MFW-SETUP-03", "MFW-SETUP-09", "MFW-SETUP-19", "MFW-AMB-01")
def test_starting_town_tracks_generation_round():
    s = fresh(3)
    scn = C.SCENARIOS["scn-lantern"]
    assert s["page"] == scn["start_page"] and s["town"] == town_for("p1", [], {})
    assert s["mob"] == s["suspicion"] == scn["generation"][0]["mob_start"] == 12
    assert (s["gen"], s["round"]) == (1, 1)
    assert s["insanity_side"] == "gen12"


@pytest.mark.rule("MFW-SETUP-04", "MFW-SETUP-05", "MFW-SETUP-08")
def test_upgrade_stack_row_and_vanity_supply():
    s, _ = setup_only()
    gen12 = {i for i, r in C.UPGRADES.items() if r["set"] == "gen12"}
    gen3 = {i for i, r in C.UPGRADES.items() if r["set"] == "gen3"}
    assert len(s["row"]) == 4 and all(s["row"])
    assert set(s["row"]) | set(s["decks"]["tiles"]) == gen12
    assert s["decks"]["tiles"] != sorted(s["decks"]["tiles"])
    assert not gen3 & (set(s["row"]) | set(s["decks"]["tiles"]))
    assert s["vanity"] == {name: 2 for name in C.VANITY_NAMES} and len(C.VANITY) == 10
    assert not set(C.VANITY) & set(s["decks"]["tiles"])


@pytest.mark.rule("MFW-SETUP-06", "MFW-SETUP-07")
def test_decks_shuffled_separately():
    s, facts = setup_only()
    assert sorted(s["decks"]["comp"]) == sorted(C.COMPULSIONS) and s["decks"]["comp"] != sorted(C.COMPULSIONS)
    assert sorted(s["decks"]["mal"]) == sorted(C.MALADJUSTMENTS) and s["decks"]["mal"] != sorted(C.MALADJUSTMENTS)
    for lv in "ABC":
        assert sorted(s["decks"][lv]) == C.EXP_LEVEL_IDS[lv] and s["decks"][lv] != C.EXP_LEVEL_IDS[lv]
    shuffle = facts[0]
    assert shuffle["type"] == "DecksShuffled" and shuffle["private_to"] == []


@pytest.mark.rule("MFW-SETUP-10", "MFW-SETUP-11", "MFW-SETUP-12", "MFW-SETUP-13", "MFW-SETUP-14", "MFW-SETUP-18",
                  "MFW-PIECES-01")
def test_player_setup():
    s, _ = setup_only(3)
    for pl in s["players"]:
        assert C.tile(pl["plots"][0])["name"] == "Storage Shed" and pl["plots"][1:] == [None] * 7
        assert pl["open"] == 3
        assert pl["pieces"] == {"self": "quarters", "spouse": "quarters", "caretaker1": "quarters",
                                "servant1": "lost", "servant2": "lost", "caretaker2": "lost"}
        assert (pl["creepy"], pl["insanity"], pl["score"]) == (0, 0, 0)
        assert set(pl["journal"].values()) == {0}
        assert pl["money"] == 0 and not any(pl["res"].values())
        assert pl["hand"] == [] and pl["comps"] == [] and pl["mals"] == [] and pl["completed"] == []
    assert sorted(C.PIECE_TYPE.values()) == ["caretaker", "caretaker", "self", "servant", "servant", "servant"]


@pytest.mark.rule("MFW-SETUP-15", "MFW-HIDDEN-09")
def test_masterworks_dealt_face_up_rest_removed():
    s, facts = setup_only(4)
    mws = [pl["masterwork"] for pl in s["players"]]
    assert len(set(mws)) == 4 and all(C.EXPERIMENTS[m]["level"] == "D" for m in mws)
    assert "D" not in s["decks"]
    dealt = [f for f in facts if f["type"] == "MasterworkDealt"]
    assert len(dealt) == 4 and all("private_to" not in f for f in dealt)
    assert RULES.view(s, 1)["players"][0]["masterwork"] == mws[0]


@pytest.mark.rule("MFW-SETUP-16", "MFW-AMB-44")
def test_choose_masterwork_variant():
    s, _ = new_game(RULES, 3, {"choose_masterwork": True}, 1)
    assert s["pending"]["kind"] == "masterwork" and s["pending"]["seat"] == 0
    assert len(s["pending"]["options"]) == 8
    s, _ = choose(s, "exp-d-03")
    assert s["pending"]["seat"] == 1 and "exp-d-03" not in s["pending"]["options"]
    reject(s, 1, {"type": "choose", "option": "exp-d-03"}, "MFW-SETUP-16")
    s, _ = choose(s, "exp-d-05")
    s, _ = choose(s, "exp-d-01")
    assert [pl["masterwork"] for pl in s["players"]] == ["exp-d-03", "exp-d-05", "exp-d-01"]


@pytest.mark.rule("MFW-SETUP-17")
def test_start_player_from_scenario_or_seeded_rng():
    assert fresh(3, {"scenario": "scn-parish"})["start_player"] == 0
    firsts = {new_game(RULES, 4, {}, seed)[0]["start_player"] for seed in range(12)}
    assert len(firsts) > 1
    assert new_game(RULES, 4, {}, 3)[0]["start_player"] == new_game(RULES, 4, {}, 3)[0]["start_player"]


@pytest.mark.rule("MFW-PIECES-02", "MFW-AMB-06")
def test_spouse_acts_as_servant_but_is_identifiable(fx):
    s = town(blank(), "fx-trigger", "fx-blacksmith")
    s["players"][0]["money"] = 3
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s2, _ = place(s, 0, "fx-trigger", ["spouse", "servant1"])  # placed together, as Servant-type pieces
    pl = s2["players"][0]
    assert pl["res"]["animal"] == 2 and pl["score"] == 1  # the spouse-only trigger fired once
    s3, _ = place(s, 0, "fx-trigger", ["servant1"])
    assert s3["players"][0]["score"] == 0


@pytest.mark.rule("MFW-PIECES-03")
def test_caretaker_never_in_town(fx):
    s = town(blank(), "fx-park", "fx-church")
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["caretaker1"]}, "MFW-PIECES-03")
    s["players"][0]["creepy"] = 12  # overtaken: even the Church refuses a Caretaker
    reject(s, 0, {"type": "place", "loc": "fx-church", "pieces": ["caretaker1"]}, "MFW-PIECES-03")


@pytest.mark.rule("MFW-PIECES-04", "MFW-ESTATE-11", "MFW-JOURNAL-17")
def test_caretaker_and_self_return_from_estate():
    s = blank()
    s["players"][0]["res"]["biology"] = 1
    s["players"][0]["res"]["chemistry"] = 1
    s, _ = place(s, 0, "record_knowledge", ["caretaker1"], track="biology")
    s = settle(s)
    s["players"][1]["res"]["chemistry"] = 1
    s, _ = place(s, s["active"], "record_knowledge", ["self"], track="chemistry")
    s = settle(s)
    for seat in (0, 1):
        while s["phase"] == "turns" and s["active"] == seat and not s["passed"][seat]:
            s, _ = act(s, seat, {"type": "pass"})
    for seat in range(2):
        if s["phase"] == "turns":
            s, _ = act(s, s["active"], {"type": "pass"})
    s = settle(s)
    assert s["round"] == 2
    assert s["players"][0]["pieces"]["caretaker1"] == "quarters"
    assert s["players"][1]["pieces"]["self"] == "quarters"


@pytest.mark.rule("MFW-PIECES-05", "MFW-PIECES-06", "MFW-PLACE-01")
def test_servants_and_self_go_to_town_and_estate(fx):
    s = town(blank(), "fx-park")
    s2, facts = place(s, 0, "fx-park", ["spouse"])
    assert s2["players"][0]["pieces"]["spouse"] == "town:fx-park" and s2["players"][0]["res"]["chemical"] == 1
    s2, _ = place(s, 0, "fx-park", ["self"])
    assert s2["players"][0]["res"]["chemical"] == 2
    s2, _ = place(s, 0, "estate_affairs", ["spouse"], mode="money")
    assert s2["players"][0]["money"] == 1 and s2["players"][0]["pieces"]["spouse"] == "estate:estate_affairs"
    s2, _ = place(s, 0, "estate_affairs", ["self"], mode="money")
    assert s2["players"][0]["money"] == 1
    reject(s, 0, {"type": "place", "loc": "fx-park", "locs": ["fx-park", "fx-blacksmith"], "pieces": ["self"]},
           "MFW-PLACE-01")
    reject(s, 0, {"type": "place", "loc": ["fx-park"], "pieces": ["self"]}, "MFW-PLACE-01")


@pytest.mark.rule("MFW-PIECES-07")
def test_only_pieces_in_quarters(fx):
    s = town(blank(), "fx-park")
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["servant1"]}, "MFW-PIECES-07")  # Lost
    s["players"][0]["pieces"]["spouse"] = "ins:5"
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["spouse"]}, "MFW-PIECES-07")
    s["players"][0]["pieces"]["self"] = "town:fx-park"
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["self"]}, "MFW-PIECES-07")


@pytest.mark.rule("MFW-PIECES-08", "MFW-PIECES-09", "MFW-PIECES-11", "MFW-ICON-02", "MFW-TOWN-08", "MFW-ICON-10")
def test_retrieval_effects(fx):
    s = town(blank(), "fx-union")
    s["players"][0]["money"] = 4
    s["players"][0]["pieces"]["spouse"] = "lost"
    s2, _ = place(s, 0, "fx-union", ["self"])
    assert s2["pending"]["kind"] == "retrieve" and set(s2["pending"]["options"]) == {"spouse", "servant1"}
    s3, _ = choose(s2, "spouse")
    assert s3["players"][0]["pieces"]["spouse"] == "quarters" and s3["players"][0]["money"] == 2
    assert s3["players"][1]["pieces"]["servant1"] == "lost"  # never another player's piece
    # "+Caretaker" retrieves a Caretaker; with none in Lost it does nothing
    from domain.games.my_fathers_work.effects import Ctx, run
    from domain.engine import Turn
    from domain.engine.rng import Rng
    for zone, expect in (("lost", "quarters"), ("quarters", "quarters")):
        t = copy_state(s)
        t["players"][0]["pieces"]["caretaker2"] = zone
        ctx = Ctx(Turn(RULES, t), Rng(1, 1), [{"op": "eff", "seat": 0, "eff": {"retrieve": "caretaker"}}])
        run(ctx)
        assert ctx.s["players"][0]["pieces"]["caretaker2"] == expect
        if zone == "quarters":
            assert ctx.turn.facts == []


@pytest.mark.rule("MFW-PIECES-10")
def test_retrieved_piece_usable_same_round(fx):
    s = town(blank(), "fx-union", "fx-park")
    s["players"][0]["money"] = 2
    s, _ = place(s, 0, "fx-union", ["spouse"])
    assert s["players"][0]["pieces"]["servant1"] == "quarters"
    s, _ = act(s, 1, {"type": "pass"})
    s, _ = place(s, 0, "fx-park", ["servant1"])
    assert s["players"][0]["res"]["chemical"] == 1


@pytest.mark.rule("MFW-ROUND-01", "MFW-ENDROUND-09", "MFW-ENDGEN-20")
def test_three_generations_of_three_rounds():
    state, log = full_game(2, seed=4)
    seq = [(f["type"], f.get("gen", f.get("round"))) for f in all_facts(log)
           if f["type"] in ("GenerationStarted", "RoundStarted", "GameEnded")]
    expected = []
    for g in (1, 2, 3):
        expected += [("GenerationStarted", g), ("RoundStarted", 1), ("RoundStarted", 2), ("RoundStarted", 3)]
    assert seq == expected + [("GameEnded", None)]
    assert (state["gen"], state["round"]) == (3, 3)


@pytest.mark.rule("MFW-ROUND-02", "MFW-ROUND-03", "MFW-ROUND-04", "MFW-STARTGEN-09")
def test_start_of_round_order():
    state, log = full_game(2, seed=6)
    facts = all_facts(log)
    i = next(k for k, f in enumerate(facts) if f["type"] == "RoundStarted" and f["round"] == 2)
    window = facts[i:i + 40]
    names = types(window)
    fired = names.index("EventFired")  # the scenario's start-of-round hook (ev-letter)
    draws = [k for k, f in enumerate(window) if f["type"] == "CardDrawn"]
    income = [k for k, f in enumerate(window) if f["type"] == "Gained" and f["res"] == "money" and f["n"] == 3]
    assert fired < draws[0] and len(draws) == 2 and max(draws) < min(income) and len(income) == 2
    # Generation I: the start-of-Generation draws (3 each) come before round 1's single draw
    first = types(all_facts(log))
    r1 = first.index("RoundStarted")
    assert first[:r1].count("CardDrawn") == 6 and first[r1:first.index("TurnsBegan")].count("CardDrawn") == 2


@pytest.mark.rule("MFW-ROUND-03", "MFW-HIDDEN-12")
def test_round_draw_is_a_hidden_simultaneous_choice():
    state, _ = new_game(RULES, 3, {}, 2)
    while not (state["pending"] and state["pending"].get("step") == "round_draw"):
        pend = state["pending"]
        state, _ = commit(state, pend["waiting"][0], pend["options"][str(pend["waiting"][0])][0])
    assert RULES.decision(state).mode == "simultaneous"
    before = [len(pl["hand"]) for pl in state["players"]]
    s1, facts = commit(state, state["pending"]["waiting"][0], "C")
    assert facts[0]["private_to"] == [state["pending"]["waiting"][0]]
    assert "option" not in RULES.view(s1, state["pending"]["waiting"][1])["commits"]
    assert RULES.view(s1, state["pending"]["waiting"][1])["commits"] == {}
    s2 = s1
    for seat in list(s1["pending"]["waiting"]):
        s2, _ = commit(s2, seat, "B")
    assert [len(pl["hand"]) for pl in s2["players"]] == [b + 1 for b in before]


@pytest.mark.rule("MFW-ROUND-05", "MFW-ROUND-12", "MFW-ROUND-06")
def test_turn_order_clockwise_from_start_player(fx):
    s = town(blank(3), "fx-park")
    s["start_player"] = s["active"] = 1
    s["players"][1]["money"] = 3
    s, _ = place(s, 1, "fx-park", ["self"])
    assert s["active"] == 2
    reject(s, 2, {"type": "place", "loc": "fx-park", "pieces": ["self"], "extra": 1} | {"pieces": ["caretaker1"]},
           "MFW-PIECES-03")
    s, _ = place(s, 2, "fx-park", ["self"])
    assert s["active"] == 0
    s, _ = act(s, 0, {"type": "pass"})
    assert s["active"] == 1
    s, _ = place(s, 1, "fx-park", ["spouse"])
    assert s["active"] == 2


@pytest.mark.rule("MFW-ROUND-05", "MFW-ENDROUND-05")
def test_start_player_opens_each_round(fx):
    """The token passes at the end of a round and its new holder takes the first turn."""
    s = town(blank(3), "fx-park")
    s["start_player"] = s["active"] = 1
    for seat in (1, 2, 0):
        s, _ = act(s, seat, {"type": "pass"})
    s = settle(s)
    assert s["round"] == 2 and s["start_player"] == 2 and s["active"] == 2 and s["phase"] == "turns"
    for seat in (2, 0, 1):
        s, _ = act(s, seat, {"type": "pass"})
    s = settle(s)
    assert s["round"] == 3 and s["start_player"] == 0 and s["active"] == 0


@pytest.mark.rule("MFW-ROUND-06", "MFW-FREE-01")
def test_one_placement_per_turn(fx, monkeypatch):
    s = town(blank(), "fx-park", "fx-blacksmith")
    s["players"][0]["plots"][1] = "upg-g12-08a"  # Gear Foundry: a free action keeps the turn open
    s["players"][0]["money"] = 2
    s, _ = place(s, 0, "fx-park", ["self"])
    assert s["active"] == 0 and s["turn"]["placed"]
    reject(s, 0, {"type": "place", "loc": "fx-blacksmith", "pieces": ["spouse"]}, "MFW-ROUND-06")
    assert {"type": "end_turn"} in RULES.legal_moves(s, 0)
    s2, _ = act(s, 0, {"type": "free", "source": "upg-g12-08a"})
    assert s2["players"][0]["res"]["gear"] == 1 and s2["active"] == 1  # free action, then the turn ends


@pytest.mark.rule("MFW-ROUND-07", "MFW-ROUND-09", "MFW-ROUND-10", "MFW-ENDROUND-10")
def test_pass_and_round_end(fx):
    s = town(blank(), "fx-park")
    s, _ = act(s, 0, {"type": "pass"})  # voluntary, with pieces in Quarters
    assert s["passed"][0] and s["active"] == 1
    s, _ = place(s, 1, "fx-park", ["self"])
    assert s["active"] == 1  # seat 0 passed: seat 1 plays again
    probe = copy_state(s)
    probe["active"] = 0
    reject(probe, 0, {"type": "place", "loc": "fx-park", "pieces": ["spouse"]}, "MFW-ROUND-09")
    s, facts = act(s, 1, {"type": "pass"})
    assert "StartPlayerPassed" in types(facts) and "RoundStarted" in types(facts)
    s = settle(s)
    assert s["round"] == 2 and s["passed"] == [False, False]


@pytest.mark.rule("MFW-ROUND-08")
def test_no_piece_means_pass_only(fx):
    s = town(blank(), "fx-park")
    for p in ("self", "spouse", "caretaker1"):
        s["players"][0]["pieces"][p] = "lost"
    assert RULES.legal_moves(s, 0) == [{"type": "pass"}]
    s = town(blank(), "fx-paid")
    s["players"][0]["pieces"]["caretaker1"] = "lost"
    s["players"][0]["res"] = {k: 0 for k in C.RESOURCES}
    legal = RULES.legal_moves(s, 0)
    assert all(m["loc"] == "estate_affairs" for m in legal if m["type"] == "place")  # Paid Stall is unaffordable


@pytest.mark.rule("MFW-ROUND-11")
def test_out_of_turn_move_rejected(fx):
    s = town(blank(), "fx-park")
    reject(s, 1, {"type": "place", "loc": "fx-park", "pieces": ["self"]}, "MFW-ROUND-11")
    reject(s, 1, {"type": "pass"}, "MFW-ROUND-11")
