"""ESTATE, JOURNAL and UPGRADE rules with the rulebook's worked examples."""

from __future__ import annotations

import pytest

from domain.engine import copy_state
from domain.games.my_fathers_work import RULES, content as C

from .helpers import run_ops, act, blank, choose, commit, place, reject, settle, town, types


def full_plots(state, seat=0, names=("fx-plain1", "fx-plain2", "fx-plain3")):
    state["players"][seat]["plots"][:3] = list(names)
    return state


def ea_draw(s, seat, decks=("A", "B", "C")):
    s, _ = place(s, seat, "estate_affairs", ["caretaker1"], mode="draw")
    for d in decks:
        assert s["pending"]["kind"] == "draw_deck"
        s, _ = choose(s, d)
    return s


@pytest.mark.rule("MFW-ESTATE-01", "MFW-ESTATE-02", "MFW-ESTATE-03", "MFW-AMB-17", "MFW-HIDDEN-05")
def test_estate_affairs_draws_one_at_a_time_from_any_decks():
    s = blank()
    assert set(C.ESTATE_LOCATIONS) == {"estate_affairs", "record_knowledge", "perform_experiment"}
    s, facts = place(s, 0, "estate_affairs", ["caretaker1"], mode="draw")
    s, f1 = choose(s, "C")
    drawn = next(f for f in f1 if f["type"] == "CardDrawn")
    assert drawn["deck"] == "C" and drawn["private_to"] == [0]
    assert drawn["public"] == {"type": "CardDrawn", "seat": 0, "deck": "C", "dest": "ea"}
    s, _ = choose(s, "C")
    s, _ = choose(s, "A")
    ea = s["players"][0]["ea"]
    assert [C.EXPERIMENTS[c]["level"] for c in ea] == ["C", "C", "A"] and s["players"][0]["hand"] == []
    assert RULES.view(s, 1)["players"][0]["ea"] == 3
    reject(s, 0, {"type": "place", "loc": "estate_affairs", "pieces": ["self"], "mode": "cards"}, "MFW-PLACE-18")
    t = blank()
    reject(t, 0, {"type": "place", "loc": "estate_affairs", "pieces": ["self"], "mode": "cards"}, "MFW-ESTATE-02")


@pytest.mark.rule("MFW-ESTATE-04", "MFW-ESTATE-05", "MFW-ESTATE-06", "MFW-ESTATE-07", "MFW-HIDDEN-04", "MFW-HIDDEN-16")
def test_estate_affairs_keep_can_wait_until_next_turn(fx):
    s = town(blank(), "fx-park")
    s = ea_draw(s, 0)
    assert s["active"] == 0 and {"type": "end_turn"} in RULES.legal_moves(s, 0)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = place(s, 1, "fx-park", ["self"])  # the next player plays meanwhile
    ea = list(s["players"][0]["ea"])
    assert RULES.legal_moves(s, 0) == [{"type": "keep", "card": c} for c in ea]
    reject(s, 0, {"type": "place", "loc": "fx-park", "pieces": ["spouse"]}, "MFW-ESTATE-06")
    reject(s, 0, {"type": "pass"}, "MFW-ESTATE-06")
    reject(s, 0, {"type": "keep", "card": "exp-a-99"}, "MFW-ESTATE-04")
    s, facts = act(s, 0, {"type": "keep", "card": ea[1]})
    assert s["players"][0]["hand"] == [ea[1]] and s["players"][0]["ea"] == []
    for card in (ea[0], ea[2]):
        assert s["decks"][C.EXPERIMENTS[card]["level"]][-1] == card
    bottoms = [f for f in facts if f["type"] == "CardToBottom"]
    assert all(f["private_to"] == [0] and "card" not in f["public"] for f in bottoms)
    assert s["active"] == 0 and not s["turn"]["placed"]  # the turn itself goes on


@pytest.mark.rule("MFW-AMB-17")
def test_unresolved_keep_settled_before_end_of_round(fx):
    s = town(blank(), "fx-park")
    s = ea_draw(s, 0)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "pass"})
    s, _ = act(s, 0, {"type": "keep", "card": s["players"][0]["ea"][0]})
    s, facts = act(s, 0, {"type": "pass"})
    s = ea_draw(blank(), 0)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "pass"})
    s["passed"][0] = True
    s, _ = run_ops(s, [{"op": "end_round"}])
    assert s["pending"]["kind"] == "ea_keep" and s["pending"]["secret"]
    assert "queue" not in RULES.view(s, 1) and "options" not in RULES.view(s, 1)["pending"]


@pytest.mark.rule("MFW-ESTATE-08", "MFW-ESTATE-09", "MFW-ESTATE-10", "MFW-ENDROUND-01", "MFW-ENDROUND-02",
                  "MFW-ENDROUND-03", "MFW-ENDROUND-04", "MFW-AMB-47", "MFW-AMB-36")
def test_end_of_round_piece_steps(fx):
    s = blank(3)
    p = s["players"]
    p[0]["pieces"].update(spouse="estate:estate_affairs", servant1="estate:record_knowledge", self="town:fx-park")
    p[1]["pieces"].update(spouse="estate:perform_experiment", servant1="estate:perform_experiment",
                          caretaker1="estate:estate_affairs", servant2="ins:4")
    p[2]["plots"][1] = "upg-g12-12a"  # Dissection Theatre: an Estate Location with a Servant cost
    p[2]["pieces"].update(spouse="estate:upg-g12-12a", servant1="town:fx-park", caretaker2="lost")
    s, facts = run_ops(s, [{"op": "end_round_steps"}])
    assert p is not s["players"]
    q = [pl["pieces"] for pl in s["players"]]
    assert q[0] == {"self": "quarters", "spouse": "quarters", "servant1": "lost", "servant2": "lost",
                    "caretaker1": "quarters", "caretaker2": "lost"}
    assert q[1]["spouse"] == q[1]["servant1"] == q[1]["servant2"] == "lost" and q[1]["caretaker1"] == "quarters"
    assert q[2]["spouse"] == "lost" and q[2]["servant1"] == "quarters" and q[2]["caretaker2"] == "lost"
    names = types(facts)
    assert names.index("StartPlayerPassed") > max(i for i, t in enumerate(names) if t == "PieceMoved")


@pytest.mark.rule("MFW-EX-08", "MFW-JOURNAL-02", "MFW-JOURNAL-07", "MFW-JOURNAL-08")
def test_ex08_first_record_knowledge():
    s = blank()
    pl = s["players"][0]
    pl["res"]["biology"] = 3
    pl["hand"] = [s["decks"]["A"].pop(0)]
    s, _ = place(s, 0, "record_knowledge", ["caretaker1"], track="biology")
    assert s["players"][0]["res"]["biology"] == 2 and s["players"][0]["journal"]["biology"] == 1
    assert s["pending"]["kind"] == "cycle" and len(s["pending"]["options"]) == 2  # skip or that 1 card
    card = s["players"][0]["hand"][0]
    s, _ = choose(s, [card])
    s, _ = choose(s, "B")
    assert len(s["players"][0]["hand"]) == 1 and s["decks"]["A"][-1] == card
    probe = copy_state(s)
    probe["active"], probe["turn"]["placed"] = 0, True
    reject(probe, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "biology"},
           "MFW-JOURNAL-07")
    s["players"][0]["pieces"]["caretaker1"] = "estate:record_knowledge"
    s2, _ = run_ops(s, [{"op": "end_round_steps"}])
    assert s2["players"][0]["pieces"]["caretaker1"] == "quarters"


@pytest.mark.rule("MFW-EX-09", "MFW-JOURNAL-08")
def test_ex09_cycling_exactly_n():
    s = blank()
    pl = s["players"][0]
    pl["journal"]["biology"] = 1
    pl["res"]["biology"] = 2
    pl["hand"] = [s["decks"]["A"].pop(0) for _ in range(4)]
    s, _ = place(s, 0, "record_knowledge", ["self"], track="biology")
    opts = s["pending"]["options"]
    assert all(o == "skip" or len(o) == 2 for o in opts) and len(opts) == 1 + 6
    hand = sorted(s["players"][0]["hand"])
    reject(s, 0, {"type": "choose", "option": hand[:1]}, "MFW-JOURNAL-08")
    reject(s, 0, {"type": "choose", "option": hand[:3]}, "MFW-JOURNAL-08")
    s, _ = choose(s, hand[:2])
    s, _ = choose(s, "C")
    s, _ = choose(s, "C")
    assert len(s["players"][0]["hand"]) == 4 and s["decks"]["A"][-2:] == hand[:2]
    t = blank()
    t["players"][0]["res"]["chemistry"] = 1
    t, _ = place(t, 0, "record_knowledge", ["self"], track="chemistry")  # no card in hand: no cycling offered
    assert t["pending"] is None


@pytest.mark.rule("MFW-JOURNAL-01", "MFW-JOURNAL-03", "MFW-JOURNAL-04", "MFW-JOURNAL-05", "MFW-JOURNAL-06", "MFW-AMB-18")
def test_record_knowledge_payment_rules(fx):
    s = blank()
    pl = s["players"][0]
    assert set(pl["journal"]) == set(C.TRACKS) and all(len(C.JOURNAL[t]["cost"]) == 3 for t in C.TRACKS)
    pl["res"].update(occult=5, biology=0)
    reject(s, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "biology",
                  "cubes": {"occult": 1}}, "MFW-JOURNAL-03")
    reject(s, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "biology"}, "MFW-JOURNAL-05")
    pl["journal"]["chemistry"] = 1  # its free Knowledge cannot pay the next level
    reject(s, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "chemistry"}, "MFW-JOURNAL-05")
    pl["journal"]["engineering"] = 3
    pl["res"]["engineering"] = 9
    reject(s, 0, {"type": "place", "loc": "record_knowledge", "pieces": ["self"], "track": "engineering"}, "MFW-JOURNAL-05")
    s, _ = place(s, 0, "record_knowledge", ["self"], track="occult")
    assert s["players"][0]["journal"]["occult"] == 1 and s["players"][0]["insanity"] == 0
    assert s["players"][0]["res"]["occult"] == 4


@pytest.mark.rule("MFW-EX-10", "MFW-JOURNAL-16", "MFW-UPGRADE-19", "MFW-UPGRADE-20", "MFW-AMB-38", "MFW-EXPERIMENT-25")
def test_ex10_occult_level_3_builds_vanity(fx):
    fx.setitem(C.VANITY, "fx-tesla-a", {"id": "fx-tesla-a", "name": "Tesla Coils", "score": {"per": "flat", "vp": 2}, "penalties": []})
    fx.setitem(C.VANITY, "fx-tesla-b", {"id": "fx-tesla-b", "name": "Tesla Coils", "score": {"per": "flat", "vp": 2}, "penalties": []})
    fx.setattr(C, "VANITY_NAMES", C.VANITY_NAMES + ["Tesla Coils"])
    s = full_plots(blank(), 1, ("fx-plain1", "fx-plain2", "fx-plain3"))
    s["players"][1]["plots"][3] = "fx-hedge"
    s["players"][1]["open"] = 4
    s["vanity"]["Tesla Coils"] = 2
    s["active"] = 1
    john = s["players"][1]
    john.update(money=2, insanity=2)
    john["journal"]["occult"] = 2
    john["res"]["occult"] = 3
    john["pieces"]["servant1"] = "quarters"
    john["hand"] = [s["decks"]["A"].pop(0) for _ in range(3)]
    s, _ = place(s, 1, "record_knowledge", ["servant1"], track="occult")
    assert s["players"][1]["journal"]["occult"] == 3 and s["players"][1]["res"]["occult"] == 0
    assert s["players"][1]["insanity"] == 2
    assert s["pending"]["kind"] == "vanity" and "Tesla Coils" in s["pending"]["options"]  # before the cycling
    s, _ = choose(s, "Tesla Coils")
    assert s["pending"]["kind"] == "plot" and s["pending"]["options"][0] == "expand"
    s, _ = choose(s, "expand")
    john = s["players"][1]
    assert john["money"] == 0 and john["plots"][4] == "fx-tesla-a" and john["open"] == 5
    assert s["vanity"]["Tesla Coils"] == 1
    assert s["pending"]["kind"] == "cycle"  # then the card cycling
    s, _ = choose(s, "skip")
    s2, _ = run_ops(s, [{"op": "end_round_steps"}])
    assert s2["players"][1]["pieces"]["servant1"] == "lost"
    from domain.games.my_fathers_work import state as Q
    fx.setitem(C.EXPERIMENTS, "fx-b-eng", {"id": "fx-b-eng", "title": "x", "level": "B", "type": "engineering",
                                          "prerequisites": {"A": 1}, "cost_ingredients": {"gear": 1},
                                          "cost_knowledge": {"engineering": 2, "biology": 1}, "rewards": [],
                                          "consult_app": ""})
    s2["players"][1]["res"]["gear"] = 1
    plan = Q.payment_plans(s2, 1, "fx-b-eng")
    assert plan == [{"chemistry": 0, "biology": 1, "engineering": 2}]  # 3 free wild Occult, no cube, no Insanity
    assert Q.plan_cost(s2, 1, "fx-b-eng", plan[0]) == {"cubes": {k: 0 for k in C.KNOWLEDGE}, "insanity": 0}


@pytest.mark.rule("MFW-EX-16", "MFW-UPGRADE-21", "MFW-FAQ-05")
def test_ex16_vanity_without_money_must_replace(fx):
    s = full_plots(blank())
    pl = s["players"][0]
    pl["journal"]["chemistry"] = 2
    pl["res"]["chemistry"] = 3
    s, _ = place(s, 0, "record_knowledge", ["self"], track="chemistry")
    name = s["pending"]["options"][0]
    s, _ = choose(s, name)
    assert s["pending"]["kind"] == "plot" and "expand" not in s["pending"]["options"]
    reject(s, 0, {"type": "choose", "option": "expand"}, "MFW-UPGRADE-10")
    s, _ = choose(s, "replace:1")
    pl = s["players"][0]
    assert C.VANITY[pl["plots"][1]]["name"] == name and pl["open"] == 3 and pl["money"] == 0
    assert "fx-plain1" not in s["decks"]["tiles"] + s["row"]


@pytest.mark.rule("MFW-EX-04", "MFW-UPGRADE-02", "MFW-UPGRADE-04", "MFW-UPGRADE-10", "MFW-UPGRADE-11", "MFW-UPGRADE-14")
def test_ex04_hedge_maze_by_expansion(fx):
    s = town(full_plots(blank()), "fx-builder")
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "fx-hedge", "upg-g12-03a"]
    top = s["decks"]["tiles"][0]
    s["players"][0].update(money=3, creepy=1)
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s, _ = place(s, 0, "fx-builder", ["servant1"])
    s, _ = choose(s, "row:2")
    assert set(s["pending"]["options"]) == {"expand", "replace:0", "replace:1", "replace:2"}
    s, _ = choose(s, "expand")
    pl = s["players"][0]
    assert pl["money"] == 0 and pl["open"] == 4 and pl["plots"][3] == "fx-hedge" and pl["creepy"] == 2
    assert s["row"] == [top, "upg-g12-01a", "upg-g12-02a", "upg-g12-03a"]


@pytest.mark.rule("MFW-UPGRADE-04", "MFW-UPGRADE-10")
def test_expansion_needs_price_plus_plot_cost(fx):
    """$2 pays Hedge Maze's price but not the $1 expansion: only replacing is offered."""
    s = town(full_plots(blank()), "fx-builder")
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "fx-hedge", "upg-g12-03a"]
    s["players"][0]["money"] = 2
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:2")
    assert set(s["pending"]["options"]) == {"replace:0", "replace:1", "replace:2"}
    reject(s, 0, {"type": "choose", "option": "expand"}, "MFW-UPGRADE-10")


@pytest.mark.rule("MFW-EX-05", "MFW-UPGRADE-04", "MFW-UPGRADE-07")
def test_ex05_hedge_maze_by_replacement(fx):
    s = town(full_plots(blank()), "fx-builder")
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "fx-hedge", "upg-g12-03a"]
    s["players"][0].update(money=3, creepy=1)
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:2")
    s, _ = choose(s, "replace:1")
    pl = s["players"][0]
    assert pl["money"] == 1 and pl["plots"][1] == "fx-hedge" and pl["open"] == 3 and pl["creepy"] == 2
    assert "fx-plain2" not in s["row"] + s["decks"]["tiles"]


@pytest.mark.rule("MFW-EX-20", "MFW-UPGRADE-06", "MFW-FAQ-06", "MFW-UPGRADE-03")
def test_ex20_no_second_payment_for_a_plot(fx):
    s = town(full_plots(blank()), "fx-builder")
    s["players"][0]["open"] = 4  # plot 4 opened earlier, its tile discarded since
    s["row"] = ["fx-dungeon", "upg-g12-02a", "upg-g12-03a", "upg-g12-04a"]
    fx.setitem(C.UPGRADES, "fx-dungeon", dict(C.UPGRADES["fx-dungeon"], price=2))
    s["players"][0]["money"] = 2
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:0")
    assert s["players"][0]["plots"][3] == "fx-dungeon" and s["players"][0]["money"] == 0


@pytest.mark.rule("MFW-UPGRADE-01", "MFW-UPGRADE-05", "MFW-UPGRADE-08")
def test_plots_open_left_to_right(fx):
    assert C.ESTATE_COSTS[:3] == [0, 0, 0] and len(C.ESTATE_COSTS) == 8
    s = town(full_plots(blank()), "fx-builder")
    s["row"] = ["upg-g12-01a", "upg-g12-02a", "upg-g12-03a", "upg-g12-04a"]
    s["players"][0]["money"] = 20
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:0")
    reject(s, 0, {"type": "choose", "option": "expand:6"}, "MFW-UPGRADE-05")
    t = blank()
    pl = t["players"][0]
    pl["plots"] = ["fx-plain1", "fx-plain2", "fx-plain3", "upg-g12-01a", "upg-g12-02a", "upg-g12-03a", "upg-g12-04a", "upg-g12-05a"]
    pl["open"] = 8
    pl["money"] = 50
    from domain.games.my_fathers_work import state as Q
    assert Q.build_options(t, 0, "upg-g12-06a", 1) == [f"replace:{i}" for i in range(8)]


@pytest.mark.rule("MFW-UPGRADE-09", "MFW-AMB-23")
def test_no_duplicate_names(fx):
    s = town(blank(), "fx-builder")
    s["players"][0]["plots"][1] = "fx-plain2"
    s["row"] = ["fx-plain2b", "fx-plain1", None, None]
    s["players"][0]["money"] = 5
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    assert s["pending"]["options"] == ["none", "row:1"]
    reject(s, 0, {"type": "choose", "option": "row:0"}, "MFW-UPGRADE-09")
    t = full_plots(blank())
    from domain.games.my_fathers_work import state as Q
    t["players"][0]["money"] = 10
    assert Q.build_options(t, 0, "fx-plain2b", 1) == ["replace:1"]  # replacing X by another X is fine


@pytest.mark.rule("MFW-UPGRADE-12")
def test_new_tile_ability_usable_at_once(fx):
    s = town(blank(), "fx-builder")
    s["row"] = ["upg-g12-08a", None, None, None]  # Gear Foundry: free action $1 -> Gear
    s["players"][0]["money"] = 4
    s, _ = place(s, 0, "fx-builder", ["spouse"])
    s, _ = choose(s, "row:0")
    assert s["active"] == 0 and {"type": "free", "source": "upg-g12-08a"} in RULES.legal_moves(s, 0)
    s, _ = act(s, 0, {"type": "free", "source": "upg-g12-08a"})
    assert s["players"][0]["res"]["gear"] == 1


@pytest.mark.rule("MFW-UPGRADE-13", "MFW-ENDROUND-07", "MFW-ENDROUND-08", "MFW-AMB-25")
def test_row_refresh(fx):
    s = blank()
    s["row"] = ["t1", "t2", "t3", "t4"]
    s["decks"]["tiles"] = ["n1", "n2", "n3"]
    s, facts = run_ops(s, [{"op": "row_refresh"}])
    assert s["row"] == ["n2", "n1", "t1", "t2"] and s["decks"]["tiles"] == ["n3"]
    s, _ = run_ops(s, [{"op": "row_refresh"}])
    assert s["row"] == [None, "n3", "n2", "n1"] and s["decks"]["tiles"] == []
    s, _ = run_ops(s, [{"op": "row_refresh"}])
    assert s["row"] == [None, None, None, "n3"]
    t = blank()
    t["round"] = 3
    t["passed"] = [True, True]
    t["fired"] = [ev["id"] for ev in C.SCENARIOS["scn-lantern"]["event"]]
    t, facts = run_ops(t, [{"op": "end_round_steps"}])
    names = types(facts)
    assert names.index("RowChanged") < names.index("PhaseSet")  # refresh, then the End of Generation


@pytest.mark.rule("MFW-UPGRADE-16", "MFW-UPGRADE-15", "MFW-JOURNAL-10")
def test_storage_shed_and_carry_over(fx):
    shed = C.UPGRADES["upg-shed-1"]
    assert shed["set"] == "storage_shed" and shed["abilities"][0]["kind"] == "start_of_generation"
    s = blank()
    s["players"][0]["plots"][1] = "fx-plain1"
    s["players"][0]["journal"]["biology"] = 2
    s["phase"] = "end_of_generation"
    s, _ = run_ops(s, [{"op": "eog_steps"}])
    s = settle(s)
    assert s["gen"] == 2 and s["players"][0]["plots"][:2] == ["upg-shed-1", "fx-plain1"]
    assert s["players"][0]["journal"]["biology"] == 2


@pytest.mark.rule("MFW-UPGRADE-17", "MFW-UPGRADE-18", "MFW-AMB-48", "MFW-ICON-05")
def test_vanity_supply_limits(fx):
    s = blank(3)
    name = C.VANITY_NAMES[0]
    for seat in (0, 1):
        s, _ = run_ops(s, [{"op": "eff", "seat": seat, "eff": {"upgrade": "vanity"}}])
        s, _ = choose(s, name)
    assert s["vanity"][name] == 0
    s, _ = run_ops(s, [{"op": "eff", "seat": 2, "eff": {"upgrade": "vanity"}}])
    assert name not in s["pending"]["options"]
    reject(s, 2, {"type": "choose", "option": name}, "MFW-UPGRADE-17")
    assert not set(C.VANITY) & {i for i, r in C.UPGRADES.items()}
    t = blank()
    t["vanity"] = {n: 0 for n in t["vanity"]}
    t, facts = run_ops(t, [{"op": "eff", "seat": 0, "eff": {"upgrade": "vanity"}}])
    assert facts == [] and t["pending"] is None


@pytest.mark.rule("MFW-UPGRADE-22", "MFW-ENDGAME-03", "MFW-ENDGAME-05", "MFW-AMB-29")
def test_vanity_scores_and_counts(fx):
    s = blank()
    pl = s["players"][0]
    pl["plots"][1] = "van-1a"  # Aetheric Spire: 1 VP per Journal level
    pl["journal"].update(biology=2, occult=1)
    s, _ = run_ops(s, [{"op": "final_steps"}])
    assert s["final"]["0"] == {"tiles_abilities": 3, "maladjustments": 0, "upgrades": 2}
    assert s["players"][0]["score"] == 5


@pytest.mark.rule("MFW-JOURNAL-11", "MFW-JOURNAL-12", "MFW-STARTGEN-06", "MFW-JOURNAL-15", "MFW-STARTGEN-07")
def test_level_two_abilities_and_occult_penalties(fx):
    s = blank()
    pl = s["players"][0]
    pl["journal"].update(chemistry=2, occult=3)
    pl["plots"] = ["upg-shed-1"] + [None] * 7
    s, facts = run_ops(s, [{"op": "sog_apply", "seat": 0, "shed": "money"}])
    q = s["players"][0]
    assert q["pieces"]["servant1"] == "quarters" or s["pending"]["kind"] == "retrieve"
    assert q["insanity"] == 1 and q["creepy"] == 1  # Occult level-3 penalties from board.toml
    assert C.JOURNAL["occult"]["level2_ability"] == "none"


@pytest.mark.rule("MFW-JOURNAL-13", "MFW-ENDGEN-14", "MFW-ENDGEN-15", "MFW-AMB-21")
def test_biology_keeps_two_resources(fx):
    s = blank()
    for seat in (0, 1):
        s["players"][seat].update(money=4)
        s["players"][seat]["res"].update(gear=2, occult=1)
    s["players"][0]["journal"]["biology"] = 2
    s, _ = run_ops(s, [{"op": "eog_bio"}])
    assert s["pending"]["step"] == "bio" and s["pending"]["waiting"] == [0]
    assert ["occult", "money"] in s["pending"]["options"]["0"] and ["gear", "gear"] in s["pending"]["options"]["0"]
    s, _ = commit(s, 0, ["occult", "money"])
    assert s["players"][0]["money"] == 1 and s["players"][0]["res"]["occult"] == 1 and s["players"][0]["res"]["gear"] == 0
    assert s["players"][0]["insanity"] == 0
    assert s["players"][1]["money"] == 0 and not any(s["players"][1]["res"].values())
