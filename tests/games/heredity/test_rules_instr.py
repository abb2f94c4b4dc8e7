"""Instruction language and Timeline details not covered by the worked examples."""

import pytest

from domain.games.heredity import RULES
from domain.games.heredity.state import defence, items_of, tokens

from .helpers import (
    advance, at, chapter, game, give_item, karma_top, narrative, play, put_npc, rejects, run_ops, set_timeline,
    take_to_table, terrain, types,
)


@pytest.mark.rule("HER-COMBAT-15", "HER-AMB-54")
def test_multi_target_attack():
    rats = narrative(980, "", npc={"name": "Rats", "standees": 2, "life": 9, "defence": 0, "ai": "", "death": ""})
    st = at(game(chapter([terrain(700, {"A": 3})], [rats])), brick="700:A")
    put_npc(st, 980, "700:A", "700:A")
    give_item(st, "brick", 146)
    karma_top(st, 901)
    moves = [m for m in RULES.legal_moves(st, 0) if m["type"] == "attack" and "targets" in m]
    assert moves and len(moves[0]["targets"]) == 2
    st2, facts = play(st, moves[0])
    assert types(facts).count("KarmaDrawn") == 2 and types(facts).count("TokenPlaced") == 1
    assert tokens(st2, 980, "hostile") == 1
    assert [s["damage"] > 0 for s in st2["npcs"]["980"]].count(True) >= 1
    rejects(st, {"type": "attack", "pc": "brick", "slot": "6.e", "targets": [{"npc": 980, "s": 0}, {"npc": 980, "s": 1}]},
            "HER-COMBAT-15")


@pytest.mark.rule("HER-INSTR-08", "HER-AMB-52")
def test_persistent_information():
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, "PERSISTENT DEFENCE 2", back={"instructions": ""})])
    st = game(ch)
    st, _ = run_ops(st, "TAKE 800")
    assert defence(st, "maeve") == 2
    st2, _ = run_ops(st, "FLIP 800")
    assert defence(st2, "maeve") == 0
    st3, _ = run_ops(st, "BURN 800")
    assert defence(st3, "maeve") == 0
    # persistent information printed on the face (not created by an instruction)
    ch = chapter([terrain(700, {"A": 3})], [narrative(801, "", persistent=[{"kind": "defence", "value": 1}])])
    st, _ = run_ops(game(ch), "TAKE 801")
    assert defence(st, "brick") == 1
    st, _ = run_ops(st, "BURN 801")
    assert defence(st, "brick") == 0


@pytest.mark.rule("HER-INSTR-11", "HER-RANGED-01")
def test_free_card_action_anywhere():
    st = at(game(), maeve="101:o2")
    put_npc(st, 131, "101:o3")
    st, _ = run_ops(st, "TAKE 120", actor="maeve")
    assert 141 in items_of(st, "maeve")
    acts = [m for m in RULES.legal_moves(st, 0) if m["type"] == "card_action" and m["card"] == 120
            and m["target"]["npc"] == 131]
    assert {m["pc"] for m in acts} == {"maeve", "brick", "djamal", "nell"}     # from any area
    st2, facts = play(st, acts[0])
    assert "Attack" in types(facts)
    far = next(m for m in acts if m["pc"] == "maeve")
    rejects(put_npc(st, 131, "101:o4") and st, far, "HER-RANGED-02")      # black line from o2


@pytest.mark.rule("HER-INSTR-13", "HER-DECIDE-18", "HER-AMB-49")
def test_combined_action():
    st = at(game(), maeve="101:o1", brick="101:o1")
    st, _ = run_ops(st, "TAKE 121")
    solo = {"type": "combined_action", "card": 121, "action": 100, "participants": [{"pc": "maeve", "slot": "2.c"}]}
    rejects(st, solo, "HER-INSTR-13")
    rejects(st, {"type": "card_action", "pc": "maeve", "slot": "2.c", "card": 121, "action": 100}, "HER-INSTR-13")
    legal = [m for m in RULES.legal_moves(st, 0) if m["type"] == "combined_action"]
    assert legal
    move = {"type": "combined_action", "card": 121, "action": 100,
            "participants": [{"pc": "brick", "slot": "5.c"}, {"pc": "maeve", "slot": "2.c"}]}   # in PC order
    assert move in legal
    st2, facts = play(st, move)
    assert st2["slots"]["2.c"]["t"] == "maeve" and st2["slots"]["5.c"]["t"] == "brick"
    assert st2["pending"]["kind"] == "allocate_materials"


@pytest.mark.rule("HER-TIMELINE-06")
def test_card_without_event_is_passed():
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, ""), narrative(801, "", event="ADD 1 generic TO self")])
    st = game(ch)
    set_timeline(st, [800, 801])
    st, facts = advance(st)
    moved = [f["card"] for f in facts if f["type"] == "HourglassMoved"]
    assert moved == [800, 801, 13] and tokens(st, 801) == 1


@pytest.mark.rule("HER-TIMELINE-14", "HER-AMB-40")
def test_defeat_checked_after_every_event():
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, "", event="ADD 1 generic TO 801"),
                                            narrative(801, "", defeat="TOKENS(self) >= 1")])
    st = game(ch)
    set_timeline(st, [800])
    from .helpers import take_to_table
    take_to_table(st, 801)
    st, facts = advance(st)
    assert st["over"] == "defeat" and "801" in st["reason"]
    assert [f["card"] for f in facts if f["type"] == "HourglassMoved"] == [800]


@pytest.mark.rule("HER-TIMELINE-14", "HER-AMB-07")
def test_defeat_checked_even_when_the_card_flips_itself():
    ch = chapter([terrain(700, {"A": 3})], [narrative(800, "", event="ADD 1 generic TO 801; FLIP", back={"instructions": ""}),
                                            narrative(801, "", defeat="TOKENS(self) >= 1")])
    st = game(ch)
    set_timeline(st, [800])
    from .helpers import take_to_table
    take_to_table(st, 801)
    st, facts = advance(st)
    assert st["over"] == "defeat" and [f["card"] for f in facts if f["type"] == "HourglassMoved"] == [800]


@pytest.mark.rule("HER-COMBINED-03", "HER-CONTROL-05", "HER-DECIDE-17")
def test_combined_attack_across_players_is_co_signed():
    fox = narrative(970, "", npc={"name": "Fox", "hostile": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    st = at(game(chapter([terrain(700, {"F": 3})], [fox]), players=4), brick="700:F", maeve="700:F")
    put_npc(st, 970, "700:F")
    karma_top(st, 901)
    move = {"type": "combined_attack", "target": {"npc": 970, "s": 0},
            "participants": [{"pc": "brick", "slot": "4.a"}, {"pc": "maeve", "slot": "1.a"}]}
    assert move in RULES.legal_moves(st, 0)
    rejects(st, move, "HER-CONTROL-05", seat=2)
    st2, facts = play(st, move, seat=0)
    assert st2["pending"]["kind"] == "combined_consent" and RULES.decision(st2).seats == (1,)
    assert "TokenPlaced" not in types(facts)
    refused, _ = play(st2, {"type": "choose", "option": 1}, seat=1)
    assert refused["pcs"]["maeve"]["tokens"] == ["avail"] * 3
    rejects(refused, move, "HER-CONTROL-05", seat=0)
    done, facts = play(st2, {"type": "choose", "option": 0}, seat=1)
    assert types(facts).count("TokenPlaced") == 2 and types(facts).count("KarmaDrawn") == 1
    assert done["npcs"]["970"][0]["damage"] == 1 + 1 + 2


def swap_action_state(**swap):
    """Terrain action 958 on area 102:b, then Terrain 143 > 102 is revealed."""
    t102 = terrain(102, {"a": 3, "b": 3})
    t143 = terrain(143, {"a2": 3, "b2": 3}, replaces=102, **swap)
    c958 = narrative(958, "", actions=[{"icon": "interact", "link": {"kind": "terrain", "terrain": 102, "area": "b"},
                                        "body": "GAIN_MATERIALS 1 ACTING_PC"}])
    st = at(game(chapter([t102, t143], [c958])), maeve="102:b", brick="102:a")
    take_to_table(st, 958)
    st, _ = run_ops(st, "TAKE 143")
    assert "102" not in st["terrains"] and st["cards"]["102"]["zone"] == "burned"
    return st


@pytest.mark.rule("HER-TERRAIN-09", "HER-INSTR-09", "HER-INSTR-10")
def test_terrain_action_follows_a_terrain_swap():
    # the Reference token in area b of 102 is put back in the same area of 143 > 102 (b -> b2)
    st = swap_action_state(area_map={"a": "a2", "b": "b2"})
    assert st["pcs"]["maeve"]["area"] == "143:b2"
    refs = [r for r in RULES.view(st, 0)["references"] if r["kind"] == "terrain_action"]
    assert refs == [{"id": "R958@143:b2", "kind": "terrain_action", "card": 958, "area": "143:b2"}]
    move = {"type": "card_action", "pc": "maeve", "slot": "2.c", "card": 958, "action": 0}
    assert move in RULES.legal_moves(st, 0)
    st2, _ = play(st, move)
    assert st2["pcs"]["maeve"]["materials"] == st["pcs"]["maeve"]["materials"] + 1
    rejects(st, {**move, "pc": "brick", "slot": "5.c"}, "HER-INSTR-10")         # brick stands in 143:a2


@pytest.mark.rule("HER-TERRAIN-09", "HER-TERRAIN-10", "HER-INSTR-10")
def test_terrain_action_follows_a_regrouping_swap():
    st = swap_action_state(regroup="a2")
    refs = [r["area"] for r in RULES.view(st, 0)["references"] if r["kind"] == "terrain_action"]
    assert refs == ["143:a2"] and st["pcs"]["maeve"]["area"] == "143:a2"
    play(st, {"type": "card_action", "pc": "maeve", "slot": "2.c", "card": 958, "action": 0})
