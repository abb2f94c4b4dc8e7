"""NPCs, AI, allies, combat, Damage, severe injuries, Dying, Heal, Karma."""

import pytest

from domain.games.heredity import RULES
from domain.games.heredity.state import C, face_side, is_dying, is_hostile, tokens

from .helpers import (
    advance, at, chapter, cover_hearts, damage_slot, game, give_item, karma_top, mats, narrative, play, put_npc,
    rejects, run_ops, set_timeline, terrain, types,
)


def arena(ai="MOVE 1; MELEE 2", hostile=True, ally=False, standees=1, life=5, defence=0, areas=None, lines=None,
          death="", extra=()):
    areas = areas or {"A": 3, "B": 3, "C": 3, "D": 3}
    lines = lines or [("A", "B", "white"), ("B", "C", "white"), ("C", "D", "white")]
    npc = narrative(980, "", npc={"name": "Boar", "hostile": hostile, "ally": ally, "standees": standees, "life": life,
                                  "defence": defence, "ai": ai, "death": death})
    return chapter([terrain(700, areas, lines)], [npc] + list(extra))


def attack(st, pc, slot, npc=980, s=0):
    return play(st, {"type": "attack", "pc": pc, "slot": slot, "target": {"npc": npc, "s": s}})


@pytest.mark.rule("HER-NPC-01", "HER-NPC-04", "HER-NPC-06", "HER-ALLY-01")
def test_npc_records_and_attitude():
    rec = C(game()).card(131)["front"]["npc"]
    assert rec["life"] == 3 and rec["defence"] == 0 and rec["ai"] and rec["death"] and rec["hostile"]
    st = game()
    put_npc(st, 130, "101:o2")
    assert not is_hostile(st, 130)
    st, _ = run_ops(st, "HOSTILE 130")
    assert is_hostile(st, 130) and tokens(st, 130, "hostile") == 1
    from domain.games.heredity.state import is_ally
    assert is_ally(st, 133)
    st, _ = run_ops(st, "ALLY 130")
    assert not is_ally(st, 130)             # a Hostile token wins (HER-AMB-48)


@pytest.mark.rule("HER-NPC-03", "HER-DECIDE-24")
def test_npc_overflow_placement():
    st = game()
    assert st["npcs"]["133"][0]["area"] == "101:o2"       # o1 was full at setup
    t = terrain(700, {"A": 1, "B": 3, "C": 3}, [("A", "B", "white"), ("A", "C", "green")])
    ch = chapter([t], [narrative(980, "", npc={"name": "Boar", "hostile": True, "life": 3, "defence": 0, "ai": "",
                                               "death": "", "placement": {"terrain": 700, "area": "A"}})])
    st = at(game(ch), maeve="700:A")
    st, _ = run_ops(st, "TAKE 980")
    assert st["pending"]["kind"] == "npc_area" and st["pending"]["options"] == ["700:B", "700:C"]
    st, _ = play(st, {"type": "choose", "option": 1})
    assert st["npcs"]["980"][0]["area"] == "700:C"


@pytest.mark.rule("HER-NPC-07", "HER-NPC-08", "HER-DAMAGE-07", "HER-COMBAT-11", "HER-AMB-33")
def test_npc_death():
    ch = arena(life=3, death="PLACE_MATERIALS 4 IN HERE")
    st = at(game(ch), brick="700:A")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    give_item(st, "brick", 140)
    karma_top(st, 901)                                      # +2: 3 + 2 - 0 = 5 >= 3
    st, facts = attack(st, "brick", "140.p1")
    assert next(f for f in facts if f["type"] == "Attack")["total"] == 5
    assert st["npcs"]["980"][0]["area"] is None and all(p["card"] != 980 for p in st["timeline"])
    assert st["area_materials"]["700:A"] == 4 and st["cards"]["980"]["zone"] == "burned"


@pytest.mark.rule("HER-NPC-11", "HER-TIMELINE-10")
def test_npc_off_timeline_does_nothing():
    st = at(game(arena()), maeve="700:D")
    put_npc(st, 980, "700:A")                             # card on the table, not in the Timeline
    st, facts = advance(st)
    assert st["npcs"]["980"][0]["area"] == "700:A" and "NpcMoved" not in types(facts)


@pytest.mark.rule("HER-NPC-12", "HER-AI-02", "HER-AI-03", "HER-DECIDE-22", "HER-AMB-32")
def test_several_standees():
    ch = arena(ai="MOVE 1", standees=2, life=2)
    st = at(game(ch), maeve="700:D")
    put_npc(st, 980, "700:A", "700:C")
    set_timeline(st, [980])
    st, facts = advance(st)
    moves = [(f["standee"], f["area"]) for f in facts if f["type"] == "NpcMoved"]
    assert moves == [(1, "700:D"), (0, "700:B")]         # closest first, one after the other
    st = at(game(ch), maeve="700:B")
    put_npc(st, 980, "700:A", "700:C")
    set_timeline(st, [980])
    st, _ = advance(st)
    assert st["pending"]["kind"] == "npc_order" and st["pending"]["options"] == [0, 1]
    # one standee dies; the card stays until the last one dies
    st = at(game(ch), brick="700:A")
    put_npc(st, 980, "700:A", "700:C")
    set_timeline(st, [980])
    give_item(st, "brick", 140)
    karma_top(st, 901)
    st, _ = attack(st, "brick", "140.p1")
    assert st["npcs"]["980"][0]["area"] is None and st["cards"]["980"]["zone"] == "timeline"


@pytest.mark.rule("HER-AI-09", "HER-DECIDE-23")
def test_least_damage_path_and_ties():
    areas = {"S": 3, "R": 3, "W": 3, "G": 3}
    ch = arena(ai="MOVE 2", areas=areas, lines=[("S", "R", "red"), ("R", "G", "white"), ("S", "W", "white"), ("W", "G", "white")])
    st = at(game(ch), maeve="700:G")
    put_npc(st, 980, "700:S")
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:W", "700:G"]
    assert st["npcs"]["980"][0]["damage"] == 0
    ch2 = arena(ai="MOVE 2", areas=areas, lines=[("S", "R", "white"), ("R", "G", "white"), ("S", "W", "white"), ("W", "G", "white")])
    st = at(game(ch2), maeve="700:G")
    put_npc(st, 980, "700:S")
    set_timeline(st, [980])
    st, _ = advance(st)
    assert st["pending"]["kind"] == "npc_path" and len(st["pending"]["options"]) == 2
    st, _ = play(st, {"type": "choose", "option": 1})
    assert st["npcs"]["980"][0]["area"] == "700:G"


@pytest.mark.rule("HER-ALLY-02", "HER-ALLY-03", "HER-ALLY-04", "HER-DECIDE-19", "HER-DECIDE-20", "HER-AMB-13", "HER-AMB-30")
def test_ally_attack_with_joining_pcs():
    foe = narrative(981, "", npc={"name": "Rat", "hostile": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    ch = arena(ai="MELEE 1", hostile=False, ally=True, extra=[foe])
    st = at(game(ch), brick="700:A")
    put_npc(st, 980, "700:A")
    put_npc(st, 981, "700:A")
    set_timeline(st, [980])
    karma_top(st, 908)
    st, _ = advance(st)
    assert st["pending"]["kind"] == "ally_target" and st["pending"]["options"][-1] == {"none": True}
    st, _ = play(st, {"type": "choose", "option": 0})
    assert st["pending"]["kind"] == "ally_join"
    join = next(i for i, o in enumerate(st["pending"]["options"]) if o.get("pc") == "brick")
    st, facts = play(st, {"type": "choose", "option": join})
    if st["pending"] and st["pending"]["kind"] == "ally_join":
        done = next(i for i, o in enumerate(st["pending"]["options"]) if o.get("done"))
        st, facts = play(st, {"type": "choose", "option": done})
    attack_fact = next(f for f in facts if f["type"] == "Attack")
    assert attack_fact["power"] == 2 and attack_fact["total"] == 3 and types(facts).count("KarmaDrawn") == 1
    assert "avail" in st["pcs"]["maeve"]["tokens"]
    assert st["npcs"]["981"][0]["damage"] == 3


@pytest.mark.rule("HER-ALLY-05", "HER-AI-04")
def test_hostile_targets_an_ally_as_a_pc():
    swan = narrative(981, "", npc={"name": "Kid", "ally": True, "life": 3, "defence": 0, "ai": "", "death": ""})
    st = at(game(arena(ai="MOVE 1; MELEE 2", extra=[swan])), maeve="700:D")
    put_npc(st, 980, "700:A")
    put_npc(st, 981, "700:B")
    set_timeline(st, [980])
    st, facts = advance(st)
    attack_fact = next(f for f in facts if f["type"] == "Attack")
    assert attack_fact["target"] == {"npc": 981, "s": 0}


@pytest.mark.rule("HER-COMBAT-01", "HER-COMBAT-05", "HER-DAMAGE-01")
def test_npc_attack_uses_its_power_and_pc_defence():
    st = at(game(arena(ai="MELEE 3")), maeve="700:A")
    put_npc(st, 980, "700:A")
    give_item(st, "maeve", 145)
    set_timeline(st, [980])
    karma_top(st, 908)
    st, facts = advance(st)
    a = next(f for f in facts if f["type"] == "Attack")
    assert (a["power"], a["defence"], a["total"]) == (3, 1, 3)
    assert st["pending"]["kind"] == "damage_slot"
    # no attack while the Hourglass is elsewhere: attacking in the window is the PCs' business
    st2 = at(game(arena(ai="MELEE 3")), maeve="700:A")
    put_npc(st2, 980, "700:A")
    st2, facts = play(st2, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    assert "Attack" not in types(facts)


@pytest.mark.rule("HER-COMBAT-03", "HER-DECIDE-06", "HER-AMB-34")
def test_unarmed_attack():
    st = at(game(arena(defence=0)), brick="700:A")
    put_npc(st, 980, "700:A")
    give_item(st, "brick", 140)
    karma_top(st, 903)
    slots = {m["slot"] for m in RULES.legal_moves(st, 0) if m["type"] == "attack" and m["pc"] == "brick"}
    assert slots == {"4.a", "4.b", "6.e", "6.f", "140.p1"}
    rejects(st, {"type": "attack", "pc": "brick", "slot": "5.c", "target": {"npc": 980, "s": 0}}, "HER-COMBAT-03")
    st, facts = attack(st, "brick", "6.f")
    assert next(f for f in facts if f["type"] == "Attack")["power"] == 1


@pytest.mark.rule("HER-COMBAT-13", "HER-COMBAT-16", "HER-KARMA-05")
def test_karma_fail_and_effects_ignored():
    st = at(game(arena(defence=0)), brick="700:A")
    put_npc(st, 980, "700:A")
    give_item(st, "brick", 140)
    karma_top(st, 904)
    st2, facts = attack(st, "brick", "140.p1")
    a = next(f for f in facts if f["type"] == "Attack")
    assert a["total"] == 3 and not a["success"] and st2["npcs"]["980"][0]["damage"] == 0
    karma_top(st, 909)                                   # has an effect: ignored in an attack
    st3, facts = attack(st, "brick", "140.p1")
    assert st3["pending"] is None and sum(p["materials"] for p in st3["pcs"].values()) == 0
    st4, _ = run_ops(st, "DRAW_KARMA AS k; KARMA_EFFECT k")
    assert st4["pending"]["kind"] == "allocate_materials"


@pytest.mark.rule("HER-COMBAT-18", "HER-DYING-02", "HER-DYING-03")
def test_dying_pcs_are_not_targets():
    st = at(game(arena(ai="MOVE 2; MELEE 2")), maeve="700:B", brick="700:C")
    put_npc(st, 980, "700:A")
    for n in (1, 2, 3):
        st["cards"][str(n)]["face"] = "back"
    cover_hearts(st, "maeve")
    assert is_dying(st, "maeve")
    set_timeline(st, [980])
    karma_top(st, 901)
    st["stack"], st["window"] = [], None                     # the Hourglass is about to move onto the Boar
    st2, facts = advance(st)
    assert next(f for f in facts if f["type"] == "Attack")["target"] == {"pc": "brick"}
    st3, facts = run_ops(st, "DAMAGE 2 maeve")
    assert types(facts).count("DamageDiscarded") == 2 and "SevereInjury" not in types(facts)


@pytest.mark.rule("HER-DYING-04", "HER-DYING-05", "HER-HEAL-01", "HER-HEAL-02", "HER-HEAL-03", "HER-HEAL-04",
                  "HER-DECIDE-10", "HER-INJURY-04", "HER-AMB-39", "HER-AMB-47")
def test_dying_pc_healed():
    st = at(game(arena()), maeve="700:A", brick="700:A", djamal="700:B")
    for n in (1, 2, 3):
        st["cards"][str(n)]["face"] = "back"
    cover_hearts(st, "maeve")
    assert is_dying(st, "maeve")
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.z"]}, "HER-ACTION-02")
    heal = {"type": "heal", "pc": "brick", "slot": "5.d", "target": {"pc": "maeve"}, "damage": "1.x"}
    rejects(dict(st, pcs={**st["pcs"], "brick": {**st["pcs"]["brick"], "area": "700:B"}}), heal, "HER-HEAL-01")
    st2, _ = play(st, heal)
    assert not is_dying(st2, "maeve") and "1.x" not in st2["slots"] and st2["slots"]["5.d"]["t"] == "brick"
    assert face_side(st2, 1) == "back"
    rejects(st2, {**heal, "damage": "2.c"}, "HER-ACTION-03")
    put_npc(st2, 980, "700:A", damage=2)
    at(st2, djamal="700:A")
    st3, _ = play(st2, {"type": "heal", "pc": "djamal", "slot": "8.d", "target": {"npc": 980, "s": 0}})
    assert st3["npcs"]["980"][0]["damage"] == 1


@pytest.mark.rule("HER-DYING-04")
def test_dying_pc_uses_heartless_slots():
    t = terrain(700, {"A": 3}, icons=[{"kind": "interact", "area": "A", "card": 985}])
    st = at(game(chapter([t], [narrative(985, "")])), maeve="700:A")
    for n in (1, 2, 3):
        st["cards"][str(n)]["face"] = "back"
    st["slots"]["1.x"] = {"t": None, "d": 1}
    st["slots"]["3.z"] = {"t": None, "d": 1}
    assert is_dying(st, "maeve")
    st2, _ = play(st, {"type": "interact", "pc": "maeve", "slot": "2.y", "marker": "700/front/0"})
    assert st2["slots"]["2.y"]["t"] == "maeve"


@pytest.mark.rule("HER-DYING-06", "HER-TIMELINE-09")
def test_family_defeat_condition():
    st = game()
    for n in (4, 5, 6):
        st["cards"][str(n)]["face"] = "back"
    cover_hearts(st, "brick")
    st, facts = play(st, {"type": "end_window"})
    assert st["over"] == "defeat" and "Family" in st["reason"]
    assert RULES.winners(st) == [] and RULES.legal_moves(st, 0) == []


@pytest.mark.rule("HER-DAMAGE-04", "HER-DAMAGE-05", "HER-ACTION-02")
def test_damage_under_action_token():
    st = at(game(arena()), maeve="700:A")
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    assert "3.e" in st["pending"]["options"]
    k = st["pending"]["options"].index("3.e")
    st, _ = play(st, {"type": "choose", "option": k})
    assert st["slots"]["3.e"] == {"t": "maeve", "d": 1}
    st, _ = run_ops(st, "RETRIEVE_ACTIONS")
    assert st["slots"]["3.e"] == {"t": None, "d": 1}
    rejects(st, {"type": "move", "pc": "maeve", "path": ["700:C"], "slots": ["3.e"]}, "HER-ACTION-02")


@pytest.mark.rule("HER-DAMAGE-08", "HER-INSTR-07")
def test_no_free_heart_means_severe_injury():
    st = game()
    give_item(st, "maeve", 145)
    cover_hearts(st, "maeve")
    st, facts = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "injury_card"


@pytest.mark.rule("HER-INJURY-05", "HER-INJURY-06", "HER-DECIDE-09", "HER-AMB-38")
def test_voluntary_severe_injury():
    st = at(game(), maeve="101:o1")
    damage_slot(st, "1.a")
    rejects(st, {"type": "injure", "pc": "maeve", "card": 1}, "HER-INJURY-05")
    damage_slot(st, "1.b")
    damage_slot(st, "2.c")
    rejects(st, {"type": "injure", "pc": "maeve", "card": 2}, "HER-INJURY-05")      # heal slot has no Damage
    st, _ = run_ops(st, "DAMAGE 1 maeve")                     # a decision is pending ...
    assert st["pending"] is not None
    assert {"type": "injure", "pc": "maeve", "card": 1} in RULES.legal_moves(st, 0)
    st, _ = play(st, {"type": "injure", "pc": "maeve", "card": 1})     # ... and the injury is still allowed
    assert face_side(st, 1) == "back" and "1.a" not in st["slots"]
    while st["pending"]:
        st, _ = play(st, {"type": "choose", "option": 0})
    if st["slots"].get("1.x", {}).get("d"):
        st["slots"].pop("1.x")
    st, _ = play(st, {"type": "watch", "pc": "maeve", "slot": "1.x", "marker": "101/front/4"})
    assert st["slots"]["1.x"]["t"] == "maeve"


@pytest.mark.rule("HER-KARMA-02", "HER-KARMA-03", "HER-KARMA-04")
def test_karma_draw_discard_reshuffle():
    st = game()
    top = st["karma"]["deck"][0]
    st, facts = run_ops(st, "DRAW_KARMA")
    assert st["karma"]["discard"] == [top] and len(st["karma"]["deck"]) == 8
    assert RULES.view(st, 0)["karma"]["discard"] == [top]
    st, _ = run_ops(st, "; ".join(["DRAW_KARMA"] * 8))
    assert st["karma"]["deck"] == [] and len(st["karma"]["discard"]) == 9
    st, facts = run_ops(st, "DRAW_KARMA")
    assert "KarmaShuffled" in types(facts) and len(st["karma"]["deck"]) == 8 and len(st["karma"]["discard"]) == 1


@pytest.mark.rule("HER-DECIDE-25", "HER-AMB-39")
def test_card_asks_the_players_to_choose_a_pc():
    st = game()
    for n in (4, 5, 6):
        st["cards"][str(n)]["face"] = "back"
    cover_hearts(st, "brick")                                   # Brick is Dying: not a choice
    st, _ = run_ops(st, "DAMAGE 1 CHOSEN_PC")
    assert st["pending"]["kind"] == "choose_pc" and st["pending"]["options"] == ["djamal", "maeve", "nell"]
    st, facts = play(st, {"type": "choose", "option": 2})
    assert st["pending"]["kind"] == "damage_slot" and st["pending"]["pc"] == "nell"


@pytest.mark.rule("HER-AI-03", "HER-ALLY-05", "HER-AMB-29")
def test_activation_order_counts_allies_as_pcs():
    ally = narrative(981, "", npc={"name": "Kit", "ally": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    ch = arena(ai="MOVE 1; MELEE 1", standees=2, extra=[ally])
    st = at(game(ch), maeve="700:D")
    put_npc(st, 980, "700:A", "700:C")          # standee 0 is 3 areas from Maeve, standee 1 only 1
    put_npc(st, 981, "700:A")                    # ... but standee 0 shares its area with the ally
    set_timeline(st, [980])
    st, facts = advance(st)
    attacks = [f["target"] for f in facts if f["type"] == "Attack"]
    assert attacks[0] == {"npc": 981, "s": 0}


@pytest.mark.rule("HER-AMB-26", "HER-INV-05", "HER-DECIDE-13")
def test_free_drop_while_joining_an_ally_attack():
    foe = narrative(981, "", npc={"name": "Rat", "hostile": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    st = at(game(arena(ai="MELEE 1", hostile=False, ally=True, extra=[foe])), brick="700:A")
    put_npc(st, 980, "700:A")
    put_npc(st, 981, "700:A")
    st["pcs"]["brick"]["materials"] = 2
    set_timeline(st, [980])
    st, _ = advance(st)
    st, _ = play(st, {"type": "choose", "option": 0})                  # the Rat
    assert st["pending"]["kind"] == "ally_join"
    drop = {"type": "drop", "pc": "brick", "materials": 1}
    assert drop in RULES.legal_moves(st, 0)
    st2, _ = play(st, drop)
    assert st2["pending"]["kind"] == "ally_join" and st2["area_materials"] == {"700:A": 1}
    st3, _ = run_ops(game(), "DAMAGE 1 maeve")                         # other decisions: no drops
    rejects(at(st3, maeve="101:o1"), {"type": "drop", "pc": "maeve", "materials": 1}, "HER-ACTION-07")
