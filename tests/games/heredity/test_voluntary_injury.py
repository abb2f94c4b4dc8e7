"""Voluntary severe injury "at any time" (rulebook §10 Note and the Maeve example)."""

import pytest

from domain.engine import IllegalMove
from domain.games.heredity import RULES
from domain.games.heredity.state import face_side

from .helpers import at, damage_slot, game, play, run_ops


def maeve_with_a_ruined_head(players=1):
    """Maeve's Head front (1.a, 1.b) is covered by Damage; her Feet slots 3.e and 3.f are free hearts."""
    st = at(game(players=players), maeve="101:o1")
    for ref in ("1.a", "1.b", "2.c"):
        damage_slot(st, ref)
    return st


@pytest.mark.rule("HER-INJURY-05", "HER-INJURY-06", "HER-DECIDE-09")
def test_the_maeve_example_places_the_damage_on_the_revealed_slot():
    # "Maeve takes 1 Damage and chooses to suffer a severe injury to the head. Discard the 2 Damage tokens and
    # flip the Head card. Place the remaining Damage token on the revealed Action slot."
    st, _ = run_ops(maeve_with_a_ruined_head(), "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "damage_slot" and st["pending"]["options"] == ["3.e", "3.f"]
    st, facts = play(st, {"type": "injure", "pc": "maeve", "card": 1})
    assert face_side(st, 1) == "back" and "1.a" not in st["slots"] and "1.b" not in st["slots"]
    # the placement is asked again: the revealed slot 1.x is now one of the options
    assert st["pending"]["kind"] == "damage_slot" and sorted(st["pending"]["options"]) == ["1.x", "3.e", "3.f"]
    assert {"type": "choose", "option": st["pending"]["options"].index("1.x")} in RULES.legal_moves(st, 0)
    st, _ = play(st, {"type": "choose", "option": st["pending"]["options"].index("1.x")})
    assert st["slots"]["1.x"]["d"] == 1 and not st["slots"].get("3.e", {}).get("d")
    assert st["pending"] is None


@pytest.mark.rule("HER-INJURY-05", "HER-DECIDE-09")
def test_a_single_free_heart_still_leaves_time_to_injure():
    """With one free heart slot the Damage is not placed at once when an injury is possible: the players
    are asked, so the example can be played whatever else is covered."""
    st = maeve_with_a_ruined_head()
    damage_slot(st, "3.f")
    st, _ = run_ops(st, "DAMAGE 1 maeve")
    assert st["pending"]["kind"] == "damage_slot" and st["pending"]["options"] == ["3.e"]
    st, _ = play(st, {"type": "injure", "pc": "maeve", "card": 1})
    assert sorted(st["pending"]["options"]) == ["1.x", "3.e"]
    # without an injurable card, one free slot takes the Damage at once (no decision)
    st2 = at(game(), maeve="101:o1")
    st2["cards"]["3"]["face"] = "back"
    for ref in ("1.a", "2.c", "3.z"):
        damage_slot(st2, ref)
    st2, _ = run_ops(st2, "DAMAGE 1 maeve")
    assert st2["pending"] is None and st2["slots"]["1.b"]["d"] == 1


@pytest.mark.rule("HER-INJURY-05", "HER-DECIDE-09", "HER-CONTROL-05")
def test_a_pc_whose_player_is_not_asked_may_injure_meanwhile():
    """4 players: Brick's Damage placement is pending (seat 1 decides); Maeve's player (seat 0) may still
    injure Maeve at that moment, and nothing else."""
    st = maeve_with_a_ruined_head(players=4)
    assert st["control"]["maeve"] == [0] and st["control"]["brick"] == [1]
    st, _ = run_ops(at(st, brick="101:o1"), "DAMAGE 1 brick")
    assert st["pending"]["kind"] == "damage_slot" and st["pending"]["pc"] == "brick"
    assert RULES.decision(st).seats == (0, 1)
    assert RULES.legal_moves(st, 0) == [{"type": "injure", "pc": "maeve", "card": 1}]
    assert RULES.legal_moves(st, 2) == [] and 2 not in RULES.decision(st).seats
    with pytest.raises(IllegalMove) as err:
        RULES.decide(st, 0, {"type": "choose", "option": 0}, None)
    assert err.value.rule_id == "HER-CONTROL-05"
    st, _ = play(st, {"type": "injure", "pc": "maeve", "card": 1}, seat=0)
    assert face_side(st, 1) == "back"
    assert st["pending"]["pc"] == "brick" and RULES.decision(st).seats == (1,)    # Brick's decision stays
