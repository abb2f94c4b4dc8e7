"""Rule tests added by the review: each one catches a deliberately broken rule the suite missed."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove
from domain.engine.rng import Rng
from domain.games.my_fathers_work import RULES, content as C

from .helpers import act, blank, choose, exp_card, place, reject, run_ops, town
from .test_experiments_score import cards, perform


@pytest.mark.rule("MFW-ESTATE-02")
def test_estate_affairs_money_mode_gives_exactly_one_dollar():
    s = blank()
    s["players"][0]["money"] = 2
    s, facts = place(s, 0, "estate_affairs", ["self"], mode="money")
    assert s["players"][0]["money"] == 3 and s["players"][0]["hand"] == [] and s["players"][0]["ea"] == []


@pytest.mark.rule("MFW-JOURNAL-04")
def test_journal_knowledge_never_tops_up_cubes():
    s = blank()
    pl = s["players"][0]
    pl["journal"]["chemistry"] = 1
    pl["res"]["chemistry"] = C.JOURNAL["chemistry"]["cost"][1] - 1  # one cube short; the free level may not help
    reject(s, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "chemistry"}, "MFW-JOURNAL-05")
    pl["res"]["chemistry"] += 1
    s, _ = place(s, 0, "record_knowledge", ["self"], track="chemistry")
    assert s["players"][0]["journal"]["chemistry"] == 2 and s["players"][0]["res"]["chemistry"] == 0


@pytest.mark.rule("MFW-JOURNAL-17")
def test_any_single_piece_may_record():
    s = blank()
    s["players"][0]["res"]["biology"] = 1
    s["players"][0]["pieces"]["servant1"] = "quarters"
    legal = [m for m in RULES.legal_moves(s, 0) if m.get("loc") == "record_knowledge"]
    assert {tuple(m["pieces"]) for m in legal} == {("self",), ("caretaker1",), ("spouse",), ("servant1",)}
    for pieces in (["self"], ["caretaker1"], ["spouse"]):
        t, _ = place(s, 0, "record_knowledge", pieces, track="biology")
        assert t["players"][0]["journal"]["biology"] == 1


@pytest.mark.rule("MFW-UPGRADE-03")
def test_tile_goes_to_the_leftmost_empty_open_plot(fx):
    s = town(blank(), "fx-builder")
    s["players"][0]["plots"][:3] = [None, "fx-plain2", None]  # the Shed was discarded earlier
    s["row"] = ["fx-plain1", "upg-g12-02a", "upg-g12-03a", "upg-g12-04a"]
    s["players"][0]["money"] = 1
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:0")
    assert s["players"][0]["plots"][:3] == ["fx-plain1", "fx-plain2", None]


@pytest.mark.rule("MFW-UPGRADE-19", "MFW-UPGRADE-09")
def test_vanity_name_already_owned_is_not_offered(fx):
    s = blank()
    name = C.VANITY_NAMES[0]
    owned = sorted(i for i, r in C.VANITY.items() if r["name"] == name)[0]
    s["players"][0]["plots"][1] = owned
    s["vanity"][name] = 1
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"upgrade": "vanity"}}])
    assert name not in s["pending"]["options"] and len(s["pending"]["options"]) == len(C.VANITY_NAMES) - 1
    reject(s, 0, {"type": "choose", "option": name}, "MFW-UPGRADE-09")


@pytest.mark.rule("MFW-EXPERIMENT-09", "MFW-EXPERIMENT-10")
def test_costs_are_paid_exactly_and_each_knowledge_source_is_offered(fx):
    k = cards(fx)
    s = blank()
    pl = s["players"][0]
    pl["completed"] = [k["a"]]
    pl["hand"] = [k["b"]]  # 1 Chemical + 1 Engineering
    pl["res"].update(chemical=3, engineering=1, occult=1)
    s, _ = place(s, 0, "perform_experiment", ["self"], card=k["b"])
    plans = s["pending"]["options"]
    assert {"chemistry": 0, "biology": 0, "engineering": 0} in plans  # the Engineering cube
    assert {"chemistry": 0, "biology": 0, "engineering": 1} in plans  # Occult as wild
    t, _ = choose(s, {"chemistry": 0, "biology": 0, "engineering": 0})
    assert t["players"][0]["res"]["chemical"] == 2 and t["players"][0]["res"]["engineering"] == 0
    assert t["players"][0]["res"]["occult"] == 1 and t["players"][0]["insanity"] == 0


@pytest.mark.rule("MFW-EXPERIMENT-14", "MFW-EXPERIMENT-25")
def test_gaining_occult_causes_no_insanity(fx):
    fx.setitem(C.INSANITY, "gen12", [{"above": [{"move": "creepy", "steps": 1}], "below": []}] * 10)
    s = blank()
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"gain": "knowledge", "kind": "occult", "n": 3}}])
    assert s["players"][0]["res"]["occult"] == 3 and s["players"][0]["insanity"] == 0 and s["players"][0]["creepy"] == 0


@pytest.mark.rule("MFW-ENDGAME-01")
def test_no_move_after_the_end():
    s = blank()
    s["over"] = True
    for move in ({"type": "pass"}, {"type": "place", "loc": "estate_affairs", "pieces": ["self"], "mode": "money"}):
        with pytest.raises(IllegalMove) as err:
            RULES.decide(s, 0, move, Rng(1, 1))
        assert err.value.rule_id == "MFW-ENDGAME-01"
    assert RULES.legal_moves(s, 0) == [] and not RULES.decision(s).seats


@pytest.mark.rule("MFW-HIDDEN-16", "MFW-HIDDEN-05")
def test_pending_keep_and_its_options_are_the_owners_only():
    s = blank()
    s, _ = place(s, 0, "estate_affairs", ["self"], mode="draw")
    for deck in ("A", "B", "C"):
        s, _ = choose(s, deck)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "pass"})
    assert RULES.legal_moves(s, 0) and all(m["type"] == "keep" for m in RULES.legal_moves(s, 0))
    assert RULES.legal_moves(s, 1) == []
    # if the round ended with the keep still open, it is asked as a secret pending choice
    t, facts = run_ops(s, [{"op": "end_round"}])
    assert t["pending"]["kind"] == "ea_keep" and t["pending"]["seat"] == 0
    for viewer in (1, "spectator"):
        v = RULES.view(t, viewer)
        assert v["pending"] == {"seat": 0, "kind": "ea_keep", "secret": True}
        assert v["players"][0]["ea"] == 3
    assert set(RULES.view(t, 0)["pending"]["options"]) == set(s["players"][0]["ea"])
    asked = next(f for f in facts if f["type"] == "PendingPushed")
    assert asked["private_to"] == [0] and "options" not in str(asked["public"])


@pytest.mark.rule("MFW-ICON-07", "MFW-AMB-40")
def test_searched_deck_is_reshuffled():
    s = blank()
    s, _ = run_ops(s, [{"op": "eff", "seat": 0, "eff": {"search": "experiment"}}])
    s, _ = choose(s, "A")
    before = list(s["decks"]["A"])
    s, _ = choose(s, before[0])
    assert s["decks"]["A"] != before[1:] and sorted(s["decks"]["A"]) == sorted(before[1:])


@pytest.mark.rule("MFW-AMB-42", "MFW-AMB-12", "MFW-FREE-01", "MFW-TOWN-02")
def test_free_action_at_a_suspicious_town_location_has_its_own_penalty():
    """Oubliette (sample content): a free action that works Saint Odo's Burial Ground once."""
    s = blank()
    assert "loc-burial" in s["town"] and C.LOCATIONS["loc-burial"]["penalties"]
    pl = s["players"][0]
    pl["plots"][1] = "upg-g12-04a"
    s["mob"] = s["suspicion"] = 12
    s, _ = place(s, 0, "loc-burial", ["self"])  # 2 performances, penalties once
    assert (s["players"][0]["res"]["body"], s["players"][0]["creepy"], s["mob"]) == (2, 1, 11)
    assert s["active"] == 0 and {"type": "free", "source": "upg-g12-04a"} in RULES.legal_moves(s, 0)
    s, facts = act(s, 0, {"type": "free", "source": "upg-g12-04a"})
    assert (s["players"][0]["res"]["body"], s["players"][0]["creepy"], s["mob"]) == (3, 2, 10)  # its own penalty
    assert s["active"] == 1  # nothing else to do: the turn ends
    assert "Oubliette" in RULES.describe(s, 0, {"type": "free", "source": "upg-g12-04a"}, facts)


@pytest.mark.rule("MFW-AMB-12", "MFW-TRACKS-05", "MFW-STORY-05", "MFW-FREE-03")
def test_free_action_targeting_town_obeys_town_rules():
    s = blank()
    s["players"][0]["plots"][1] = "upg-g12-04a"
    s["players"][0]["creepy"] = 12  # overtaken (Mob 12)
    assert {"type": "free", "source": "upg-g12-04a"} not in RULES.legal_moves(s, 0)
    reject(s, 0, {"type": "free", "source": "upg-g12-04a"}, "MFW-TRACKS-05")
    s["players"][0]["creepy"] = 0
    s["town"] = [x for x in s["town"] if x != "loc-burial"]
    reject(s, 0, {"type": "free", "source": "upg-g12-04a"}, "MFW-STORY-05")
    s["town"].append("loc-burial")
    s["active"] = 1
    reject(s, 0, {"type": "free", "source": "upg-g12-04a"}, "MFW-FREE-03")
    s["active"] = 0
    t, _ = act(s, 0, {"type": "free", "source": "upg-g12-04a"})  # before the placement is fine too
    assert t["players"][0]["res"]["body"] == 1 and t["players"][0]["creepy"] == 1 and t["active"] == 0


@pytest.mark.rule("MFW-STORY-07", "MFW-SETUP-12", "MFW-HIDDEN-12")
def test_secret_ballot_with_voting_tokens():
    """A Voting token is a hidden commit; a secret ballot reveals only the tally (scn-parish)."""
    from domain.engine import visible_fact
    from .helpers import commit
    s = blank(3)
    assert all(pl["voting_token"] == "quarters" for pl in s["players"])
    s["scenario"], s["round"], s["passed"], s["fired"] = "scn-parish", 2, [True] * 3, ["ev-parish-bells"]
    s["mob"], s["suspicion"] = 10, 14
    s, _ = run_ops(s, [{"op": "end_round_steps"}])
    assert s["pending"]["step"] == "vote" and s["pending"]["options"]["0"] == [0, 1]
    s, f0 = commit(s, 0, 0)
    assert RULES.view(s, 1)["commits"] == {} and visible_fact(f0[0], 1) == {"type": "Committed", "seat": 0, "step": "vote"}
    s, _ = commit(s, 1, 1)
    before = s
    s, facts = commit(s, 2, 1)
    assert s["mob"] == 11 and [pl["score"] for pl in s["players"]] == [0, 0, 0]  # "The poor fund" won 2-1
    for viewer in (0, 1, "spectator"):
        for f in facts:
            seen = visible_fact(f, viewer)
            if f["type"] in ("Revealed", "VoteResult"):
                assert "commits" not in seen and "votes" not in seen and seen.get("tally") == [1, 2]
    text = RULES.describe(before, 2, {"type": "commit", "option": 1}, facts)
    assert 'the vote (1-2) chooses "The poor fund"' in text and "seat 0 votes" not in text


@pytest.mark.rule("MFW-STORY-07")
def test_open_vote_reveals_each_seat():
    from .helpers import commit
    s = blank(2)
    s["round"], s["passed"], s["fired"], s["mob"] = 3, [True] * 2, ["ev-first-harvest"], 9
    s, _ = run_ops(s, [{"op": "end_round_steps"}])
    assert s["pending"]["step"] == "vote"
    s, _ = commit(s, 0, 1)
    s, facts = commit(s, 1, 0)
    result = next(f for f in facts if f["type"] == "VoteResult")
    assert "private_to" not in result and result["votes"] == {"0": 1, "1": 0} and result["winner"] == 0  # tie: first


@pytest.mark.rule("MFW-MALADJ-02", "MFW-STARTGEN-10")
def test_town_surcharge_maladjustment_applies_all_generation(fx):
    s = town(blank(), "fx-park", "fx-blacksmith")
    s["players"][0]["mals"] = ["mal-01"]  # "every Town placement costs $1 more"
    s["players"][0]["money"] = 1
    t, _ = place(s, 0, "fx-park", ["spouse"])
    assert t["players"][0]["money"] == 0 and t["players"][0]["res"]["chemical"] == 1
    s["players"][0]["money"] = 0
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["spouse"]}, "MFW-PLACE-12")
    t, _ = place(s, 0, "estate_affairs", ["spouse"], mode="money")  # Estate placements are not Town placements
    assert t["players"][0]["money"] == 1


@pytest.mark.rule("MFW-UPGRADE-13", "MFW-SETUP-04")
def test_row_tiles_leave_the_stack():
    from .helpers import fresh
    s = fresh(2)
    row = [t for t in s["row"] if t]
    assert len(row) == 4 and not set(row) & set(s["decks"]["tiles"])
    assert len(row) + len(s["decks"]["tiles"]) == sum(1 for r in C.UPGRADES.values() if r["set"] == "gen12")


@pytest.mark.rule("MFW-UPGRADE-18", "MFW-TOWN-11")
def test_builders_office_offers_only_the_row(fx):
    s = town(blank(), "fx-builder")
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "upg-g12-03a", "upg-g12-05a"]
    s["players"][0]["money"] = 30
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    assert s["pending"]["kind"] == "buy" and s["pending"]["options"] == ["none", "row:0", "row:1", "row:2", "row:3"]
    for vanity in C.VANITY:
        reject(s, 0, {"type": "choose", "option": vanity}, "MFW-TOWN-11")


@pytest.mark.rule("MFW-HIDDEN-04", "MFW-ENDGEN-04")
def test_end_of_generation_hand_discards_stay_private():
    from domain.engine import visible_fact
    from .helpers import commit
    s = blank(2)
    hands = [[s["decks"]["A"].pop(0), s["decks"]["B"].pop(0)], [s["decks"]["C"].pop(0), s["decks"]["A"].pop(0)]]
    for pl, hand in zip(s["players"], hands):
        pl["hand"] = list(hand)
    s, _ = run_ops(s, [{"op": "eog_keep"}])
    s, _ = commit(s, 0, hands[0][0])
    s, facts = commit(s, 1, hands[1][1])
    bottoms = [f for f in facts if f["type"] == "CardToBottom"]
    assert {f["card"] for f in bottoms} == {hands[0][1], hands[1][0]}
    for f in bottoms + [f for f in facts if f["type"] in ("Revealed", "HandKept")]:
        for viewer in (0, 1, "spectator"):
            if viewer == f.get("seat") and f["type"] != "Revealed":
                continue
            seen = repr(visible_fact(f, viewer))
            assert not any(c in seen for h in hands for c in h), (f, viewer)
    assert s["decks"]["B"][-1] == hands[0][1] and s["decks"]["C"][-1] == hands[1][0]


@pytest.mark.rule("MFW-AMB-20", "MFW-FAQ-02", "MFW-EXPERIMENT-13")
def test_occult_may_replace_free_journal_knowledge(fx):
    """The FAQ lets a player always substitute Occult, even for Knowledge their Journal gives free."""
    fx.setitem(C.INSANITY, "gen12", [{"above": [{"gain": "ingredient", "kind": "gear", "n": 1}], "below": []}] * 10)
    card = exp_card(fx, "fx-b-bio", "B", ci={"chemical": 1}, ck={"biology": 1}, rewards=[{"gain": "vp", "n": 2}])
    s = blank()
    pl = s["players"][0]
    pl.update(completed=["exp-a-01"], hand=[card])
    pl["journal"]["biology"] = 1
    pl["res"].update(chemical=1, occult=1)
    s, _ = place(s, 0, "perform_experiment", ["self"], card=card)
    free, wild = {"chemistry": 0, "biology": 0, "engineering": 0}, {"chemistry": 0, "biology": 1, "engineering": 0}
    assert s["pending"]["options"] == [free, wild]
    t, _ = choose(s, wild)  # the Insanity bonus (a Gear) is worth an Occult cube to this player
    assert (t["players"][0]["insanity"], t["players"][0]["res"]["occult"], t["players"][0]["res"]["gear"]) == (1, 0, 1)
    t, _ = choose(s, free)
    assert (t["players"][0]["insanity"], t["players"][0]["res"]["occult"]) == (0, 1)


@pytest.mark.rule("MFW-AMB-20", "MFW-AMB-19", "MFW-EXPERIMENT-12")
def test_free_journal_occult_is_optional(fx):
    card = exp_card(fx, "fx-b-occ", "B", ci={"chemical": 1}, ck={"occult": 1})

    def start(option):
        s = blank(options={"journal_occult_insanity": option})
        pl = s["players"][0]
        pl.update(completed=["exp-a-01"], hand=[card])
        pl["journal"]["occult"] = 1
        pl["res"].update(chemical=1, occult=1)
        return place(s, 0, "perform_experiment", ["self"], card=card)[0]
    s = start(False)  # free Journal Occult is Insanity-free: using the cube instead is a real choice
    base = {"chemistry": 0, "biology": 0, "engineering": 0}
    assert s["pending"]["options"] == [dict(base, journal_occult=1), dict(base, journal_occult=0)]
    t, _ = choose(s, dict(base, journal_occult=1))
    assert (t["players"][0]["res"]["occult"], t["players"][0]["insanity"]) == (1, 0)
    t, _ = choose(s, dict(base, journal_occult=0))
    assert (t["players"][0]["res"]["occult"], t["players"][0]["insanity"]) == (0, 1)
    t = start(True)  # both cost 1 Insanity: the free unit is used, the cube kept (nothing to choose)
    assert t["pending"] is None and (t["players"][0]["res"]["occult"], t["players"][0]["insanity"]) == (1, 1)


@pytest.mark.rule("MFW-EXPERIMENT-22")
def test_one_experiment_per_action(fx):
    k = cards(fx)
    s = blank()
    pl = s["players"][0]
    pl["hand"] = [k["a"], k["a2"]]
    pl["res"]["gear"] = 2
    t, _ = perform(s, 0, k["a"], ["self"])
    assert t["players"][0]["hand"] == [k["a2"]] and t["players"][0]["completed"] == [k["a"]]
    assert t["players"][0]["res"]["gear"] == 1 and t["pending"] is None


@pytest.mark.rule("MFW-ENDGEN-16", "MFW-UPGRADE-15", "MFW-JOURNAL-10", "MFW-SCORE-04")
def test_what_carries_over_to_the_next_generation(fx):
    from .helpers import settle
    s = blank()
    pl = s["players"][0]
    pl.update(score=23, open=5, stored=["exp-a-03"], hand=["exp-b-02"], completed=[], money=4)
    pl["plots"][:5] = [pl["plots"][0], "fx-plain1", "fx-plain2", "fx-plain3", "fx-hedge"]
    pl["journal"].update(biology=1, occult=2)
    mw = pl["masterwork"]
    s, _ = run_ops(s, [{"op": "eog_steps"}])
    s = settle(s)
    pl = s["players"][0]
    assert s["gen"] == 2 and pl["score"] >= 23 and pl["open"] == 5 and pl["plots"][1:5] == ["fx-plain1", "fx-plain2", "fx-plain3", "fx-hedge"]
    assert pl["stored"] == ["exp-a-03"] and "exp-b-02" in pl["hand"] and pl["masterwork"] == mw
    assert pl["journal"]["biology"] == 1 and pl["journal"]["occult"] == 2


@pytest.mark.rule("MFW-ESTATE-06")
def test_pending_keep_blocks_free_actions_at_the_next_turn(fx):
    s = town(blank(), "fx-park")
    s["players"][0]["plots"][1] = "upg-g12-08a"  # Gear Foundry: free action ($1 -> 1 Gear)
    s["players"][0]["money"] = 3
    s, _ = place(s, 0, "estate_affairs", ["caretaker1"], mode="draw")
    for deck in ("A", "B", "C"):
        s, _ = choose(s, deck)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = place(s, 1, "fx-park", ["self"])
    assert s["active"] == 0 and all(m["type"] == "keep" for m in RULES.legal_moves(s, 0))
    reject(s, 0, {"type": "free", "source": "upg-g12-08a"}, "MFW-ESTATE-06")
    s, _ = act(s, 0, {"type": "keep", "card": s["players"][0]["ea"][0]})
    t, _ = act(s, 0, {"type": "free", "source": "upg-g12-08a"})
    assert t["players"][0]["res"]["gear"] == 1
