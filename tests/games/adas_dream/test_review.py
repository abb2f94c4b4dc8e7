"""Rules a mutation check found unguarded: each test here failed on a broken copy of the engine."""

import random

import pytest

from domain.engine import IllegalMove, copy_state, new_game, play
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C
from domain.games.adas_dream.scoring import final_scores, meeting_tokens
from tests.games.adas_dream.helpers import G, die
from tests.games.adas_dream.test_publish import study_done
from tests.games.adas_dream.test_scoring import isobel_107


@pytest.mark.rule("ADA-SETUP-07", "ADA-SETUP-09", "ADA-SETUP-11", "ADA-SETUP-12", "ADA-SETUP-13", "ADA-SETUP-14",
                  "ADA-SETUP-17", "ADA-SETUP-19")
def test_every_component_is_dealt_once_and_shuffled():
    sciences, breakthroughs, universities, tier2 = set(), set(), set(), set()
    for seed in range(1, 9):
        s, _ = new_game(RULES, 3, {"mode": "randomised"}, seed)
        for name, pool in (("prog", C.PROGRAMS), ("assign", C.ASSIGNMENTS), ("mult", C.MULTIPLIERS)):
            assert sorted(x for x in s["displays"][name] + s["stacks"][name]) == sorted(pool), name
        partners = s["displays"]["meet"] + s["stacks"]["meet"] + s["unused_tier1"]
        for p in s["players"]:
            partners += p["deck"] + p["hand"] + p["discard"]
        assert sorted(C.card_base(c) for c in partners if "#" not in c) == sorted(C.TIER1 + C.TIER2)
        assert sorted(s["room_science"]) == sorted(C.SCIENCES)
        sciences.add(tuple(s["room_science"]))
        breakthroughs.add(tuple(sorted(s["breakthroughs"].items())))
        universities.add(tuple(sorted(s["univ_tiles"].items())))
        tier2.add(tuple(c for c in s["stacks"]["meet"] if C.partner(c)["tier"] == "2"))
        for region in ("southern", "central"):
            placed = sorted(s["univ_tiles"][c] for c in C.REGION_CITIES[region])
            assert placed == sorted(t for t, tile in C.UNI_TILES.items() if tile["region"] == region)
    for seen in (sciences, breakthroughs, universities, tier2):           # random, not a fixed order
        assert len(seen) > 1


@pytest.mark.rule("ADA-TURN-07", "ADA-BUILD-04", "ADA-AMB-43")
def test_only_the_active_player_acts_and_a_deferred_builder_only_builds():
    g = G(n=3)
    ws = g.legal(0)[0]
    g.rej("ADA-TURN-07", seat=1, **ws)                                 # not your turn
    g.rej("ADA-TURN-07", seat=2, type="pass")
    assert g.legal(1) == [] and g.legal(2) == []
    study_done(g)
    g.uncover(0, 0)
    g.p(0).update(brass=2, coal=1)
    g.move(type="end_turn", defer_build=True)
    assert g.active == 1
    decision = RULES.decision(g.s)
    assert decision.seats == (1, 0) and "seat 0" in decision.prompt and "Build" in decision.prompt
    assert decision.extra == {"active": 1, "deferred_build": 0}
    ws1 = g.legal(1)[0]
    g.rej("ADA-TURN-07", seat=0, **ws1)                                # the previous player cannot play seat 1's turn
    g.rej("ADA-TURN-07", seat=0, type="end_turn")
    g.rej("ADA-TURN-07", seat=2, **ws1)
    assert {m["type"] for m in g.legal(0)} == {"build", "decline_build"}
    assert not {"build", "decline_build"} & {m["type"] for m in g.legal(1)}
    g.rej("ADA-BUILD-04", seat=1, type="decline_build")               # seat 1 cannot settle seat 0's Build
    with pytest.raises(IllegalMove) as err:                             # the kernel refuses seat 2 outright
        play(RULES, g.s, 2, ws1, 1, 99)
    assert err.value.rule_id == "ENGINE-TURN-01"
    g.do(1, ws1)                                                         # seat 1 plays on; seat 0 builds meanwhile
    g.do(0, {"type": "build", "gear": "add", "space": 0})
    assert g.p(0)["gears"][0] == "add" and RULES.decision(g.s).seats == (1,)


@pytest.mark.rule("ADA-WORKSHOP-07", "ADA-AMB-04")
def test_a_die_pushes_one_of_equal_value():
    g = G()
    g.s["workshop"][0] = [die("blue", 4)]
    g.s["workshop"][1] = [die("green", 5), die("yellow", 4)]
    g.rej("ADA-WORKSHOP-07", type="workshop", space=0, die=0, extra=False, push=0)
    g.move(type="workshop", space=0, die=0, extra=False, push=1)
    assert g.s["bonus_die"] == die("yellow", 4)


@pytest.mark.rule("ADA-ACTIONS-02", "ADA-ACTIONS-03", "ADA-ACTIONS-08")
def test_die_colour_sets_the_action_and_the_mill_slot_must_be_empty():
    g = G()
    g.store(0, die("blue", 3))
    g.p(0)["money"] = 10
    g.rej("ADA-ACTIONS-03", type="actions", die=0, slot=0, action="study")
    g.p(0)["mill"][0] = die("green", 2)
    g.rej("ADA-ACTIONS-02", type="actions", die=0, slot=0, action="travel")
    assert all(m["slot"] != 0 and m["action"] == "travel" for m in g.legal() if m["type"] == "actions")
    g.move(type="actions", die=0, slot=1, action="travel")
    assert g.p(0)["mill"][:2] == [die("green", 2), die("blue", 3)] and g.p(0)["store"][0] is None


@pytest.mark.rule("ADA-PROGRAM-06", "ADA-PROGRAM-07", "ADA-AMB-48")
def test_program_criteria_must_hold_for_every_die():
    g = isobel_107(None)
    assert final_scores(g.s)[1]["programs"] == 30
    g.p(1)["mill"][4] = die("blue", 5)                                  # row 2 = 2, 5, 3: not all in {2, 3, 4}
    assert final_scores(g.s)[1]["programs"] == 23


@pytest.mark.rule("ADA-SCORE-01", "ADA-OBJECTIVE-08")
def test_objective_discs_score_their_own_space():
    g = G()
    tile = C.OBJECTIVES[g.s["objectives"]["meeting"]]
    g.s["obj"]["meeting"] = [{"seat": 1, "space": "high", "round": 1}, {"seat": 0, "space": "low", "round": 2}]
    s = final_scores(g.s)
    assert s[0]["objectives"] == tile["prestige_low"] and s[1]["objectives"] == tile["prestige_high"]


@pytest.mark.rule("ADA-SCORE-06", "ADA-SCORE-07", "ADA-SCORE-08")
def test_room_tie_leaves_the_others_without_a_token():
    g = G(n=3)
    g.s["room_science"] = ["physics", "astronomy", "mathematics", "engineering"]
    g.s["rooms"][0] = [[0, 0], [1, 1], [2]]                             # 2 - 2 - 1
    g.s["rooms"][1] = [[2], [0], []]                                   # 1 - 1 tie, seat 1 absent
    g.s["rooms"][2] = [[1, 1], [0], []]                                # seat 1 alone on top
    t = meeting_tokens(g.s)
    one, two = (lambda sci: {"science": sci, "value": 1}), (lambda sci: {"science": sci, "value": 2})
    assert t[0] == [one("physics"), one("astronomy"), one("mathematics")]
    assert t[1] == [one("physics"), two("mathematics")]
    assert t[2] == [one("astronomy")]


@pytest.mark.rule("ADA-SCORE-09", "ADA-SCORE-10", "ADA-PARTNER-16")
def test_science_and_partner_prestige_count_the_whole_supply():
    g = G()
    p = g.p(0)
    physics = sorted(c for c in C.PARTNERS if C.PARTNERS[c]["science"] == "physics" and C.PARTNERS[c]["tier"] != "S")
    scored = sorted((c for c in C.TIER2 if C.PARTNERS[c]["prestige"]), key=lambda c: -abs(C.PARTNERS[c]["prestige"]))
    p["hand"], p["discard"], p["deck"] = [physics[0]], [physics[1]], [physics[2], scored[0]]
    p["stokens"] = [{"science": "physics", "value": 1}]                # gained during play, no room discs
    s = final_scores(g.s)[0]
    phys = sum(1 for c in p["hand"] + p["discard"] + p["deck"] if C.partner(c)["science"] == "physics")
    assert phys >= 3 and s["science"] == phys
    assert s["partners"] == sum(C.partner(c)["prestige"] for c in p["hand"] + p["discard"] + p["deck"])
    assert C.partner(scored[0])["prestige"] != 0                        # a deck card that changes the sum


@pytest.mark.rule("ADA-SCORE-16", "ADA-SCORE-17", "ADA-SCORE-12", "ADA-SCORE-15", "ADA-GEAR-05")
def test_gear_penalty_innovation_and_incomplete_lines():
    g = G()
    p = g.p(0)
    p["gear_supply"] = ["add", "sub", "mult01"]                         # gained but unbuilt: no help
    p["gears"] = ["add", None] + [None] * 10
    p["covered"] = [False, False, False] + [True] * 9
    p["boxed"] = 1                                                     # a boxed disc builds no gear
    p["mill"][:3] = [die("blue", 5), die("blue", 4), die("blue", 3)]
    p["steam"] = 5
    s = final_scores(g.s)[0]
    assert s["gear_penalty"] == -22 and s["lines"] == 0                # one gear only: row 1 is not complete
    p["gears"][1] = "sub"
    assert final_scores(g.s)[0]["lines"] == 6 and final_scores(g.s)[0]["gear_penalty"] == -20
    for innov, prestige in ((4, 0), (5, C.INNOV_PRESTIGE[5]), (6, C.INNOV_PRESTIGE[6])):
        p["innov"] = innov
        assert final_scores(g.s)[0]["innovation"] == prestige
    assert C.INNOV_PRESTIGE[6] > 0


@pytest.mark.rule("ADA-ICON-20")
def test_swap_gear_only_replaces_a_subtraction_gear():
    g = G()
    p = g.p(0)
    p["gears"][0], p["gears"][1] = "add", "sub"
    g.effect({"op": "swapSubtractionForAddition"})
    assert g.p(0)["gears"][:2] == ["add", "add"] and g.top()["k"] == "phase"   # the only target: no choice
    g.effect({"op": "swapSubtractionForAddition"})                      # none left: skipped
    assert g.top()["k"] == "phase" and not g.facts_of("GearSwapped")


@pytest.mark.rule("ADA-ICON-13", "ADA-TURN-08", "ADA-PARTNER-02")
def test_gain_from_display_never_removes_the_rightmost_card():
    g = G()
    g.s["displays"]["meet"] = ["t2_01", "t2_02", "t2_03", "t2_04"]
    nxt = g.s["stacks"]["meet"][0]
    g.effect({"op": "gainPartnerFromDisplay"})
    g.pick(1)
    g.pick(g.p(0)["hand"][0])
    assert g.s["displays"]["meet"] == [nxt, "t2_01", "t2_03", "t2_04"]
    p = g.p(0)
    assert "t2_02" in p["hand"] and len(p["deck"] + p["hand"] + p["discard"]) == 8


@pytest.mark.rule("ADA-PUBLISH-01")
def test_publish_needs_a_book():
    g = G()
    study_done(g, book=0)
    g.rej("ADA-PUBLISH-01", type="publish")
    assert "publish" not in g.types()


def _playout(seed, moves=120):
    chooser = random.Random(seed)
    state, facts = new_game(RULES, 2, {}, seed)
    log = list(facts)
    for no in range(1, moves + 1):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        state, facts = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, no)
        log += facts
    return log


@pytest.mark.rule("ADA-TURN-10")
def test_reference_numbers_have_no_effect(monkeypatch):
    """Paw-print reference numbers on every component change nothing in a played game."""
    plain = _playout(5)
    for table in (C.PROGRAMS, C.PARTNERS, C.ASSIGNMENTS, C.UNI_TILES, C.OBJECTIVES, C.MULTIPLIERS,
                  C.BREAKTHROUGHS, C.CITIES):
        for k, (key, item) in enumerate(sorted(table.items())):
            monkeypatch.setitem(item, "paw", 900 - k)
    assert _playout(5) == plain
    assert copy_state(plain) == plain


@pytest.mark.rule("ADA-MEETING-05")
def test_card_left_of_the_room_is_refused_with_the_display_rule():
    g = G()
    g.p(0)["money"] = 10
    g.actions_turn(0, "yellow", 3)
    g.rej_pick("ADA-MEETING-05", {"room": 2, "pay": "money", "slot": 1})
    assert all(o["slot"] >= o["room"] for o in g.opts())
    g.pick({"room": 2, "pay": "money", "slot": 2})



@pytest.mark.rule("ADA-MEETING-01", "ADA-MEETING-03", "ADA-INNOV-03")
def test_meeting_room_paid_in_innovation_or_money_never_mixed():
    g = G()
    g.p(0).update(money=4, innov=3)
    g.actions_turn(0, "yellow", 3)
    assert {o["pay"] for o in g.opts() if o["room"] == 0} == {"innovation"}          # £4 < £5: Innovation only
    g.pick({"room": 0, "pay": "innovation", "slot": 0})
    g.pick(0)                                                          # the disc comes from gear space 1
    p = g.p(0)
    assert (p["innov"], p["money"]) == (0, 4) and g.s["rooms"][0][0] == [0]


@pytest.mark.rule("ADA-PUBLISH-12", "ADA-GEAR-04", "ADA-GEAR-05")
def test_meeting_publish_takes_the_chosen_multiplier():
    g = G()
    g.p(0).update(money=5, book=1)
    g.actions_turn(0, "yellow", 3)
    g.pick({"room": 0, "pay": "money", "slot": 3})
    while g.top()["k"] == "choice":
        g.pick(g.opts()[0])
    left, right = g.s["displays"]["mult"]
    nxt = g.s["stacks"]["mult"][0]
    g.move(type="publish")
    g.pick(1)
    p = g.p(0)
    assert right in p["gear_supply"] and left not in p["gear_supply"] and right not in p["gears"]
    assert g.s["displays"]["mult"] == [left, nxt]                      # refilled in place, no slide


@pytest.mark.rule("ADA-ACTIONS-06", "ADA-RESEARCH-04")
def test_advanced_level_is_read_after_the_main_action():
    """Step 4 follows step 3: Research gained by the main action itself can open the Advanced action."""
    g = G()
    g.p(0)["research"]["purple"] = C.RESEARCH["purple"]["advanced1"] - 2
    g.actions_turn(0, "purple", 4)
    g.pick([0, "row2"])                                                # program space bonus: 2 Research
    g.pick("purple")
    g.pick("purple")
    g.pick("book")
    assert g.top() == {"k": "phase", "name": "adv"}
    g.move(type="advanced")
    assert set(g.opts()) == {"addition", "assignment"}
    g2 = G()
    g2.p(0)["research"]["purple"] = C.RESEARCH["purple"]["advanced1"] - 2
    g2.actions_turn(0, "purple", 4)
    g2.pick([0, "row2"])
    g2.pick("blue")
    g2.pick("blue")
    g2.pick("book")
    assert g2.top()["name"] == "endopt"
    g2.rej("ADA-ACTIONS-06", type="advanced")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.mark.parametrize("options", [{}, {"tier1_draft": True, "mode": "randomised"}])
def test_facts_show_others_no_hand_deck_stack_or_bag_secret(options):
    """Catalog 5: what a fact shows another seat or a spectator never names a card that, once the fact is
    applied, sits in a deck, a face-down stack, the removed tier-1 cards or another player's hand (unless it
    was gained face up from the display)."""
    from domain.engine import SPECTATOR, copy_state, visible_fact
    seed = 31
    chooser = random.Random(seed)
    state, facts = new_game(RULES, 3, options, seed)
    log = list(facts)
    for no in range(1, 260):
        if RULES.is_over(state):
            break
        seat = chooser.choice(list(RULES.decision(state).seats))
        state, facts = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), seed, no)
        log += facts
    after = copy_state(RULES.initial_state(3, options))
    face_up = set()
    checked = 0
    for f in log:
        after = RULES.evolve(after, copy_state(f))
        if f["type"] in ("PartnerGained", "Drafted"):                  # gained face up / drafted in the open
            face_up.add(f["card"])
        secret = set(after.get("unused_tier1") or [])
        for stack in after["stacks"].values():
            secret |= set(stack)
        for p in after["players"]:
            secret |= set(p["deck"]) - face_up
        for s, p in enumerate(after["players"]):
            hidden = secret | (set(p["hand"]) - face_up)
            for viewer in [v for v in range(3) if v != s] + [SPECTATOR]:
                shown = set(_strings(visible_fact(f, viewer)))
                assert not shown & hidden, (f["type"], viewer, shown & hidden)
                checked += 1
    assert checked > 1000


@pytest.mark.rule("ADA-ACTIONS-04", "ADA-STUDY-01")
def test_grey_die_offers_every_performable_action_and_study_offers_three_rewards():
    g = G()
    g.p(0).update(money=10, innov=3)
    g.store(0, die("grey", 4))
    assert {m["action"] for m in g.legal() if m["type"] == "actions"} == set(C.AREAS)
    g.move(type="actions", die=0, slot=0, action="study")
    g.pick(g.opts()[0])
    assert sorted(g.opts()) == ["addition", "assignment", "book"]


def test_every_move_reads_as_plain_words():
    """describe(): one sentence per move, with no raw JSON (lists, objects, None) in it."""
    chooser = random.Random(8)
    state, _ = new_game(RULES, 4, {}, 8)
    no = 0
    while not RULES.is_over(state) and no < 400:
        seat = chooser.choice(list(RULES.decision(state).seats))
        move = chooser.choice(RULES.legal_moves(state, seat))
        no += 1
        after, facts = play(RULES, state, seat, move, 8, no)
        text = RULES.describe(state, seat, move, facts)
        assert text.startswith(f"Seat {seat} ") and text.endswith(".") and "\n" not in text
        assert not any(ch in text for ch in "[]{}") and "None" not in text, text
        state = after


@pytest.mark.rule("ADA-WORKSHOP-08", "ADA-AMB-05", "ADA-AMB-44")
def test_an_adjustment_that_makes_the_only_push_possible_is_offered():
    g = G()
    g.s["workshop"] = [[die("blue", 3)], [die("green", 4)], [], [], [], []]   # a short bag emptied four spaces
    assert "workshop" not in g.types()                                   # no die can push as things stand
    g.rej("ADA-WORKSHOP-08", type="workshop", space=0, die=0, extra=False, push=0)
    g.p(0)["coal"] = 1
    assert g.types() == {"adjust"}
    assert {"type": "adjust", "space": 1, "die": 0, "delta": -1} in g.legal()
    g.rej("ADA-AMB-44", type="pass")
    g.move(type="adjust", space=1, die=0, delta=-1)
    g.move(type="workshop", space=0, die=0, extra=False, push=0)
    assert g.s["bonus_die"] == die("green", 3)


@pytest.mark.rule("ADA-WORKSHOP-04", "ADA-AMB-03")
def test_coal_adjustment_is_one_pip_within_1_to_6():
    g = G()
    g.p(0)["coal"] = 1
    g.s["workshop"][0] = [die("blue", 6), die("grey", 1)]
    g.s["workshop"][1] = [die("green", 2)]
    g.rej("ADA-WORKSHOP-04", type="adjust", space=0, die=0, delta=1)      # a 6 cannot go up
    g.rej("ADA-WORKSHOP-04", type="adjust", space=0, die=1, delta=-1)     # a 1 cannot go down
    g.rej("ADA-WORKSHOP-04", type="adjust", space=1, die=0, delta=2)      # exactly one pip
    assert {"type": "adjust", "space": 0, "die": 0, "delta": 1} not in g.legal()
    g.move(type="adjust", space=0, die=0, delta=-1)
    assert g.s["workshop"][0][0] == die("blue", 5) and g.p(0)["coal"] == 0
