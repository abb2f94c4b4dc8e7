"""The decided ambiguities (RULINGS.md), each pinned by a test."""

import copy

import pytest

from domain.engine import ContentError
from domain.games.heredity import RULES
from domain.games.heredity.content import Content
from domain.games.heredity.state import card_zone
from domain.games.heredity.state import card_actions, face_side, is_ally, is_full, items_in_area, items_of, tokens

from .helpers import (
    BASE, advance, at, chapter, cover_hearts, damage_slot, game, give_item, karma_top, mats, narrative, play, put_npc,
    rejects, run_ops, set_timeline, take_to_table, terrain, types,
)


def idle(st):
    st["stack"], st["window"] = [], None
    return st


def simple(cards, t=None):
    return chapter([t or terrain(700, {"A": 3, "B": 3}, [("A", "B", "white")])], cards)


@pytest.mark.rule("HER-AMB-01")
def test_slots_are_declared_by_anchored_cards():
    st = idle(game(simple([narrative(800, "ANCHOR green ELSE BURN", blocks=[{"direction": "right", "colour": "purple"},
                                                                         {"direction": "below", "colour": "red"}])])))
    set_timeline(st, [], end="green")
    st, _ = run_ops(st, "TAKE 800")
    assert st["timeline"][1]["card"] == 800 and st["timeline"][1]["below"] == [{"colour": "red", "card": None}]
    assert st["timeline"][2] == {"colour": "purple", "card": None, "below": []}


@pytest.mark.rule("HER-AMB-02", "HER-AMB-03")
def test_search_starts_at_the_hourglass_inclusive():
    st = idle(game(simple([narrative(801, ""), narrative(800, "ANCHOR green ELSE BURN")])))
    set_timeline(st, [None, 801, None], ["green", "red", "green"], hourglass=3)
    st2, _ = run_ops(st, "TAKE 800")
    assert st2["timeline"][3]["card"] == 800 and st2["timeline"][1]["card"] is None
    st3 = idle(game(simple([narrative(801, "")])))
    set_timeline(st3, [801])
    st3, facts = advance(st3)
    assert [f["card"] for f in facts if f["type"] == "HourglassMoved"] == [801, 13]


@pytest.mark.rule("HER-AMB-04", "HER-RESTORE-02")
def test_several_gaps_closed_in_one_restore():
    st = idle(game(simple([narrative(801, ""), narrative(802, "", event="ADD 1 generic TO self")])))
    set_timeline(st, [None, 801, None, 802], ["green", "red", "blue", "yellow"], end="purple")
    st, facts = advance(st)
    restores = [f for f in facts if f["type"] == "TimelineRestored"]
    assert len(restores) == 1 and [p["card"] for p in restores[0]["timeline"]] == [13, 801, 802, None]
    assert tokens(st, 802) == 1


@pytest.mark.rule("HER-AMB-05", "HER-AMB-46")
def test_flipped_without_anchor_stays_on_table_with_actions():
    back = {"instructions": "", "event": "ADD 1 generic TO self",
            "actions": [{"icon": "interact", "body": "NARRATE \"x\""}]}
    st = idle(game(simple([narrative(800, "", back=back)])))
    set_timeline(st, [800])
    st, _ = run_ops(st, "FLIP 800")
    assert card_zone(st, 800) == "table" and any(c == 800 for c, i, a in card_actions(st))
    st, _ = advance(st)
    assert tokens(st, 800) == 0
    st, _ = run_ops(st, "FLIP 800")
    assert face_side(st, 800) == "front"


@pytest.mark.rule("HER-AMB-06")
def test_stack_leaves_with_its_host():
    st = idle(game(simple([narrative(800, "", blocks=[{"direction": "below", "colour": "yellow"}]),
                           narrative(801, "ANCHOR yellow VERTICAL ELSE BURN", event="NARRATE \"y\"",
                                     trigger={"when": "onHostEvent"})])))
    st["timeline"] = st["timeline"][:1] + [{"colour": "green", "card": 800, "below": [{"colour": "yellow", "card": None}]}]
    take_to_table(st, 800, zone="timeline")
    st["hourglass"] = 1
    st, _ = run_ops(st, "TAKE 801")
    assert st["timeline"][1]["below"][0]["card"] == 801
    st, _ = run_ops(st, "BURN 800")
    assert card_zone(st, 801) == "table" and all(p["card"] != 800 for p in st["timeline"])


@pytest.mark.rule("HER-AMB-07")
def test_rest_of_a_flipped_card_is_abandoned():
    st = game(simple([narrative(800, "FLIP; ADD 1 generic TO self", back={"instructions": "ADD 5 generic TO self"})]))
    st, _ = run_ops(st, "TAKE 800")
    assert face_side(st, 800) == "back" and tokens(st, 800) == 5


@pytest.mark.rule("HER-AMB-08", "HER-AMB-09", "HER-AMB-10")
def test_possibility_before_application():
    st = game(simple([narrative(800, "")]))
    st, _ = run_ops(st, "TAKE 800")
    st2, facts = run_ops(st, "(ADD 1 generic TO 800; REMOVE 5 generic FROM 800) ELSE ADD 2 generic TO 800")
    assert tokens(st2, 800) == 2
    st3, facts = run_ops(st, "REMOVE 1 generic FROM 800; IF TOKENS(800) = 0 THEN ADD 3 generic TO 800 END; "
                             "IF TOKENS(800) = 0 THEN ADD 9 generic TO 800 END")
    assert tokens(st3, 800) == 3 and "Warning" in types(facts)
    st4, facts = run_ops(st, "TAKE 800 ELSE ADD 1 generic TO 800")
    assert tokens(st4, 800) == 1


@pytest.mark.rule("HER-AMB-11", "HER-AMB-12")
def test_retrieval_from_anywhere():
    st = at(game(simple([])), brick="700:A", maeve="700:A")
    give_item(st, "brick", 140)
    st["slots"]["140.p1"] = {"t": "brick", "d": 0}
    st["pcs"]["brick"]["tokens"] = ["140.p1", "middle", "avail"]
    st, _ = play(st, {"type": "drop", "pc": "brick", "item": 140})
    st, _ = advance(st)
    assert st["pcs"]["brick"]["tokens"] == ["avail"] * 3 and "140.p1" not in st["slots"]


@pytest.mark.rule("HER-AMB-16")
def test_capacity_counts_every_character():
    t = terrain(700, {"A": 2, "B": 3}, [("A", "B", "white")])
    st = at(game(chapter([t], [narrative(980, "", npc={"name": "X", "life": 2, "defence": 0, "ai": "", "death": ""})])),
            maeve="700:A", brick="700:B")
    assert not is_full(st, "700:A")
    put_npc(st, 980, "700:A")
    assert is_full(st, "700:A")
    rejects(st, {"type": "move", "pc": "brick", "path": ["700:A"], "slots": ["6.e"]}, "HER-MOVE-05")


@pytest.mark.rule("HER-AMB-18")
def test_immediate_event_while_passing_through():
    t = terrain(700, {"A": 3, "E": 3, "F": 3}, [("A", "E", "white"), ("E", "F", "white")],
                icons=[{"kind": "immediateEvent", "area": "E", "effect": "PLACE_MATERIALS 1 IN 700:E"}])
    st = at(game(chapter([t])), maeve="700:A")
    st, facts = play(st, {"type": "move", "pc": "maeve", "path": ["700:E", "700:F"], "slots": ["3.e", "3.f"]})
    assert st["area_materials"] == {"700:E": 1} and st["pcs"]["maeve"]["area"] == "700:F"
    t2 = terrain(700, {"A": 3, "E": 3, "F": 3}, [("A", "E", "white"), ("E", "F", "white")],
                 icons=[{"kind": "immediateEvent", "area": "E", "effect": "FLIP"}],
                 back={"areas": {"A": 3, "E": 3, "F": 3}, "lines": [("A", "E", "white")]})
    st = at(game(chapter([t2])), maeve="700:A")
    st, facts = play(st, {"type": "move", "pc": "maeve", "path": ["700:E", "700:F"], "slots": ["3.e", "3.f"]})
    assert st["pcs"]["maeve"]["area"] == "700:E" and "MoveStopped" in types(facts)
    assert st["slots"]["3.f"]["t"] == "maeve"


@pytest.mark.rule("HER-AMB-20", "HER-AMB-21", "HER-TERRAIN-05")
def test_area_map_on_flip():
    t = terrain(700, {"A": 3, "B": 3}, back={"areas": {"Z": 3, "B": 3}, "area_map": {"A": "Z"}})
    st = at(game(chapter([t])), maeve="700:A", brick="700:B")
    st, _ = run_ops(st, "FLIP 700")
    assert st["pcs"]["maeve"]["area"] == "700:Z" and st["pcs"]["brick"]["area"] == "700:B"


@pytest.mark.rule("HER-AMB-22")
def test_no_free_anchor_drops_the_item():
    st = at(game(), maeve="101:o1")
    give_item(st, "maeve", 141)                       # the only 'hook' anchor is taken
    st, facts = run_ops(st, "GAIN_ITEM 142 maeve")
    assert st["pending"]["kind"] == "item_overflow" and st["pending"]["options"] == [{"drop": 141}, {"leave": 142}]
    left, _ = play(st, {"type": "choose", "option": 1})           # keep the Sling: the Key lies in the area
    assert 142 not in items_of(left, "maeve") and 142 in items_in_area(left, "101:o1")
    swap, _ = play(st, {"type": "choose", "option": 0})           # drop the Sling (free) and equip the Key
    assert items_of(swap, "maeve") == [142] and items_in_area(swap, "101:o1") == [141]
    assert swap["cards"]["142"]["anchor"] == "1:left:0"
    st3 = at(game(), maeve="101:o1")
    give_item(st3, "maeve", 145)                                  # a strap Item does not block a hook Item
    give_item(st3, "maeve", 140)
    st3, _ = run_ops(st3, "GAIN_ITEM 146 maeve")                  # both straps taken: Vest and Pole block
    assert [o for o in st3["pending"]["options"]] == [{"drop": 140}, {"drop": 145}, {"leave": 146}]


@pytest.mark.rule("HER-AMB-24")
def test_initialise_once_per_chapter():
    st = at(game(), maeve="101:o1")
    st, _ = run_ops(st, "GAIN_ITEM 144 maeve")
    st["cards"]["144"]["tokens"] = {}
    st, _ = play(st, {"type": "drop", "pc": "maeve", "item": 144})
    st, _ = play(st, {"type": "pickup", "pc": "maeve", "slot": "2.c", "materials": 0, "items": [144]})
    assert tokens(st, 144, "lamp_oil") == 0


@pytest.mark.rule("HER-AMB-25")
def test_upgrade_choice_keeps_anchor():
    item = {"number": 967, "colour": "brown", "front": {"name": "Kit", "value": 1, "anchor": "strap",
                                                        "upgrades": [{"cost": 1, "effect": "ADD 1 generic TO self"},
                                                                     {"cost": 1, "effect": "FLIP"}]},
            "back": {"name": "Kit+", "value": 2, "anchor": "strap"}}
    st = at(game(chapter([terrain(700, {"A": 3})], items=[item])), brick="700:A")
    give_item(st, "brick", 967)
    mats(st, "brick", 1)
    anchor = st["cards"]["967"]["anchor"]
    ups = [m["upgrade"] for m in RULES.legal_moves(st, 0) if m["type"] == "upgrade" and m["slot"] == "5.c"]
    assert ups == [0, 1]
    st2, _ = play(st, {"type": "upgrade", "pc": "brick", "slot": "5.c", "item": 967, "upgrade": 1})
    assert face_side(st2, 967) == "back" and st2["cards"]["967"]["anchor"] == anchor


@pytest.mark.rule("HER-AMB-29")
def test_distance_through_full_areas():
    t = terrain(700, {"A": 3, "F": 1, "G": 3, "H": 3, "X": 3},
                [("A", "F", "white"), ("F", "G", "white"), ("A", "H", "white"), ("H", "X", "white"), ("X", "G", "white")])
    npc = narrative(980, "", npc={"name": "Boar", "hostile": True, "life": 5, "defence": 0, "ai": "MOVE 2", "death": ""})
    log = narrative(981, "", npc={"name": "Log", "life": 5, "defence": 0, "ai": "", "death": ""})
    st = at(game(chapter([t], [npc, log])), maeve="700:G")       # the other PCs are unreachable: ignored
    put_npc(st, 980, "700:A")
    put_npc(st, 981, "700:F")                                    # F is full but can be passed through
    set_timeline(st, [980])
    st, facts = advance(st)
    assert [f["area"] for f in facts if f["type"] == "NpcMoved"] == ["700:F", "700:G"]


@pytest.mark.rule("HER-AMB-37")
def test_injury_overflow():
    st = game()
    cover_hearts(st, "maeve")
    st, _ = run_ops(st, "DAMAGE 2 maeve")
    st, _ = play(st, {"type": "choose", "option": 0})           # Head -> b: first token on its revealed slot
    assert st["slots"]["1.x"]["d"] == 1
    assert st["pending"]["kind"] == "injury_card" and st["pending"]["options"] == [2, 3]


@pytest.mark.rule("HER-AMB-42")
def test_core_size_not_hard_coded():
    data = copy.deepcopy(BASE)
    data["aid"] = data["aid"][:2]
    data["chapter"]["id"] = "three-aids"
    assert len([c for c in Content(data, "x").cards.values() if c["kind"] == "aid"]) == 2


@pytest.mark.rule("HER-AMB-47", "HER-AMB-48")
def test_attacking_an_ally_turns_it_hostile():
    st = at(game(), brick="101:o2")
    assert is_ally(st, 133)
    karma_top(st, 903)
    st, _ = play(st, {"type": "attack", "pc": "brick", "slot": "6.e", "target": {"npc": 133, "s": 0}})
    assert tokens(st, 133, "hostile") == 1 and not is_ally(st, 133)


@pytest.mark.rule("HER-AMB-51")
def test_target_chosen_once_per_activation():
    t = terrain(700, {"A": 3})
    npc = narrative(980, "", npc={"name": "Boar", "hostile": True, "life": 5, "defence": 0, "ai": "MELEE 1; MELEE 1", "death": ""})
    st = at(game(chapter([t], [npc])), maeve="700:A", brick="700:A")
    put_npc(st, 980, "700:A")
    set_timeline(st, [980])
    karma_top(st, 904)
    st, _ = advance(st)
    assert st["pending"]["kind"] == "npc_target"
    st, facts = play(st, {"type": "choose", "option": 0})
    targets = [f["target"] for f in facts if f["type"] == "Attack"]
    assert len(targets) == 2 and targets[0] == targets[1]
    assert "npc_target" not in [f["pending"]["kind"] for f in facts if f["type"] == "PendingPushed"]


@pytest.mark.rule("HER-AMB-06", "HER-TIMELINE-11")
def test_stacked_card_with_a_condition_trigger():
    v = narrative(801, "ANCHOR yellow VERTICAL ELSE BURN", event="ADD 1 generic TO self",
                  trigger={"when": "onCondition", "cond": "PC_IN maeve 700:B"})
    st = at(game(simple([v])), maeve="700:A")
    st, _ = run_ops(st, "TAKE 801")
    assert st["timeline"][0]["below"][0]["card"] == 801
    st, _ = advance(st)
    st, _ = advance(st)
    assert tokens(st, 801) == 0
    st, _ = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    st, _ = advance(st)
    assert tokens(st, 801) == 1


@pytest.mark.rule("HER-AMB-43", "HER-COMP-01")
def test_purple_token_only_when_a_card_says_so():
    st = game()
    assert st["purple"] is None and all(len(p["tokens"]) == 3 for p in st["pcs"].values())
    st, _ = run_ops(st, "PURPLE_TOKEN nell")
    assert st["pcs"]["nell"]["tokens"] == ["avail"] * 4
    st, _ = advance(st)
    assert st["pcs"]["nell"]["tokens"] == ["avail"] * 4 and len(st["pcs"]["maeve"]["tokens"]) == 3
    st, _ = run_ops(st, "PURPLE_TOKEN maeve")
    assert len(st["pcs"]["nell"]["tokens"]) == 3 and len(st["pcs"]["maeve"]["tokens"]) == 4


@pytest.mark.rule("HER-AMB-20", "HER-MOVE-02")
def test_explore_as_the_last_crossing_of_a_longer_move():
    st = at(game(), djamal="101:o2")
    move = {"type": "move", "pc": "djamal", "path": ["101:o3", "explore:101/front/7"], "slots": ["9.e", "9.f"]}
    assert move in RULES.legal_moves(st, 0)
    st2, facts = play(st, move)
    assert "102" in st2["terrains"] and st2["pcs"]["djamal"]["area"].startswith("102:")
    assert st2["pcs"]["djamal"]["tokens"].count("avail") == 1
    rejects(st, {**move, "path": ["explore:101/front/7", "101:o3"]}, "HER-MOVE-02")
    rejects(st, {**move, "path": ["101:o1", "explore:101/front/7"]}, "HER-EXPLORE-02")
