"""Focused tests for rules whose markers used to claim more than their tests checked (issue 16.6):
who controls which PC at each player count, a white line crossed, an Initialise skipped, Dying and Item hearts."""

import pytest

from domain.engine import IllegalMove
from domain.games.heredity import RULES
from domain.games.heredity.state import is_dying, tokens

from .helpers import (
    at, chapter, cover_hearts, game, give_item, narrative, play, put_npc, rejects, run_ops, terrain, types,
)

PCS = ("brick", "djamal", "maeve", "nell")


def pcs_listed(st, seat):
    return {m["pc"] for m in RULES.legal_moves(st, seat) if "pc" in m}


@pytest.mark.rule("HER-CONTROL-01", "HER-CONTROL-05")
def test_four_players_each_control_exactly_one_pc():
    st = game(players=4)
    assert st["control"] == {"maeve": [0], "brick": [1], "djamal": [2], "nell": [3]}
    assert [pcs_listed(st, seat) for seat in range(4)] == [{"maeve"}, {"brick"}, {"djamal"}, {"nell"}]
    rejects(st, {"type": "move", "pc": "brick", "path": ["101:o3"], "slots": ["6.e"]}, "HER-CONTROL-05", seat=0)
    play(st, {"type": "move", "pc": "brick", "path": ["101:o3"], "slots": ["6.e"]}, seat=1)


@pytest.mark.rule("HER-CONTROL-02", "HER-AMB-28")
def test_three_players_each_control_one_pc_and_share_the_fourth():
    st = game(players=3)
    assert [pcs_listed(st, seat) for seat in range(3)] == [{"maeve", "nell"}, {"brick", "nell"}, {"djamal", "nell"}]
    rejects(st, {"type": "move", "pc": "maeve", "path": ["101:o3"], "slots": ["3.e"]}, "HER-CONTROL-05", seat=1)
    # a decision that belongs to the shared PC is answered by any of the three players
    st, _ = run_ops(at(st, nell="101:o1"), "DAMAGE 1 nell")
    assert st["pending"]["pc"] == "nell" and RULES.decision(st).seats == (0, 1, 2)
    for seat in range(3):
        answered, _ = play(st, {"type": "choose", "option": 0}, seat=seat)
        assert answered["pending"] is None
    # ... while one of another PC belongs to its player alone
    st2, _ = run_ops(at(game(players=3), brick="101:o1"), "DAMAGE 1 brick")
    assert RULES.decision(st2).seats == (1,)


@pytest.mark.rule("HER-CONTROL-03")
def test_two_players_divide_the_four_pcs():
    st = game(players=2)
    assert st["control"] == {"maeve": [0], "djamal": [0], "brick": [1], "nell": [1]}      # a parent and a child each
    assert [pcs_listed(st, seat) for seat in range(2)] == [{"maeve", "djamal"}, {"brick", "nell"}]
    custom = game(players=2, options={"control": {"maeve": 1, "brick": 1, "djamal": 1, "nell": 0}})
    assert [pcs_listed(custom, seat) for seat in range(2)] == [{"nell"}, {"maeve", "brick", "djamal"}]
    for bad in ({"maeve": 0, "brick": 1, "djamal": 0}, {"maeve": 0, "brick": 1, "djamal": 0, "nell": 2}):
        with pytest.raises(IllegalMove) as err:
            RULES.initial_state(2, {"control": bad})
        assert err.value.rule_id == "HER-CONTROL-03"
    with pytest.raises(IllegalMove) as err:
        RULES.initial_state(3, {"control": {"maeve": 0, "brick": 1, "djamal": 0, "nell": 1}})
    assert err.value.rule_id == "HER-CONTROL-03"


@pytest.mark.rule("HER-CONTROL-04")
def test_the_solo_player_controls_all_four_pcs():
    st = game(players=1)
    assert st["control"] == {pc: [0] for pc in PCS}
    assert pcs_listed(st, 0) == set(PCS)
    for pc, slot in (("maeve", "3.e"), ("brick", "6.e"), ("djamal", "9.e"), ("nell", "12.e")):
        play(st, {"type": "move", "pc": pc, "path": ["101:o3"], "slots": [slot]})


SLING = 141                                                       # Long Sling: Power 2, Range 3


@pytest.mark.rule("HER-AREA-02")
def test_a_white_line_is_crossed_and_shot_through():
    t = terrain(700, {"A": 3, "B": 3, "C": 3}, [("A", "B", "white"), ("B", "C", "black")],
                lof=[("A", "C", ["white", "black"])])
    fox = narrative(980, "", npc={"name": "Fox", "hostile": True, "life": 9, "defence": 0, "ai": "", "death": ""})
    st = at(game(chapter([t], [fox])), maeve="700:A")
    give_item(st, "maeve", SLING)
    put_npc(st, 980, "700:B", "700:C")
    legal = RULES.legal_moves(st, 0)
    shots = [m["target"] for m in legal if m["type"] == "attack" and m["slot"] == f"{SLING}.s1"]
    assert shots == [{"npc": 980, "s": 0}]                   # through the white line, not through the black one
    paths = [m["path"] for m in legal if m["type"] == "move" and m["pc"] == "maeve"]
    assert ["700:B"] in paths and not any("700:C" in p for p in paths)
    moved, facts = play(st, {"type": "move", "pc": "maeve", "path": ["700:B"], "slots": ["3.e"]})
    assert moved["pcs"]["maeve"]["area"] == "700:B"
    assert [f["line"] for f in facts if f["type"] == "PcMoved"] == ["white"]


@pytest.mark.rule("HER-ITEM-08", "HER-COMP-03")
def test_an_initialise_effect_needing_a_missing_component_is_skipped():
    """The Storm Lantern's Initialise puts the chapter's single lamp-oil token on it; with that token already
    elsewhere the Initialise is skipped, and the Item is still gained."""
    st = at(game(), maeve="101:o1")
    st["cards"]["110"]["tokens"] = {"lamp_oil": 1}          # the only lamp-oil token of the supply is in use
    st, facts = run_ops(st, "GAIN_ITEM 144 maeve")
    assert 144 in [int(k) for k, v in st["cards"].items() if v.get("pc") == "maeve" and v["zone"] == "inventory"]
    assert tokens(st, 144, "lamp_oil") == 0 and "Warning" in types(facts)
    fresh, _ = run_ops(at(game(), maeve="101:o1"), "GAIN_ITEM 144 maeve")
    assert tokens(fresh, 144, "lamp_oil") == 1              # with the token in the supply it is placed


@pytest.mark.rule("HER-DYING-01")
def test_a_free_heart_slot_on_an_item_keeps_a_pc_from_dying():
    st = at(game(), maeve="101:o1")
    for n in (1, 2, 3):
        st["cards"][str(n)]["face"] = "back"
    give_item(st, "maeve", 145)                              # Quilted Vest: one heart slot
    for ref in ("1.x", "3.z"):
        st["slots"][ref] = {"t": None, "d": 1}
    assert not is_dying(st, "maeve")                         # every PC-card heart covered, the Vest's is free
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    assert st["slots"]["145.v1"]["d"] == 1 and is_dying(st, "maeve")     # the token goes on the Vest
    st2 = at(game(), brick="101:o1")
    for n in (4, 5, 6):
        st2["cards"][str(n)]["face"] = "back"
    cover_hearts(st2, "brick")
    assert is_dying(st2, "brick")
