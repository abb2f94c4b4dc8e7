"""When the defeat conditions are checked (rulebook §7 Family card, §10 Dead and dying; RULINGS AMB-40)."""

import pytest

from domain.games.heredity.state import is_dying

from .helpers import advance, at, chapter, damage_slot, game, narrative, play, set_timeline, terrain


def brick_one_token_from_dying():
    """Brick's three cards show their b side; every heart slot but 6.z is covered; a card in the Timeline
    deals him 1 Damage when the Hourglass moves onto it. Maeve stands with him and can Heal."""
    ch = chapter([terrain(700, {"A": 4})], [narrative(800, "", event="DAMAGE 1 brick")])
    st = at(game(ch), brick="700:A", maeve="700:A")
    for n in (4, 5, 6):
        st["cards"][str(n)]["face"] = "back"
    damage_slot(st, "4.x")
    set_timeline(st, [800])
    return st


@pytest.mark.rule("HER-AMB-40", "HER-TIMELINE-14", "HER-DYING-05")
def test_a_pc_made_dying_by_another_card_can_still_be_healed():
    st = brick_one_token_from_dying()
    st, facts = advance(st)                        # Family -> card 800 (Brick is now Dying) -> Family again
    assert [f["card"] for f in facts if f["type"] == "HourglassMoved"] == [800, 13]
    assert is_dying(st, "brick")
    assert st["over"] is None and st["window"] is not None      # the action window is open: nobody lost yet
    st, _ = play(st, {"type": "heal", "pc": "maeve", "slot": "2.d", "target": {"pc": "brick"}, "damage": "6.z"})
    assert not is_dying(st, "brick")               # "as soon as a Damage token is removed ..."
    st, _ = play(st, {"type": "end_window"})
    assert st["over"] is None


@pytest.mark.rule("HER-TIMELINE-09", "HER-DYING-06", "HER-AMB-40")
def test_the_family_condition_is_checked_where_the_family_event_concludes():
    st = brick_one_token_from_dying()
    st, _ = advance(st)
    assert st["over"] is None and is_dying(st, "brick")
    st, facts = play(st, {"type": "end_window"})   # nobody healed him: the Family Event ends with the check
    assert st["over"] == "defeat" and "Family" in st["reason"]
    ended = [f for f in facts if f["type"] == "GameEnded"]
    assert len(ended) == 1
    assert not any(f["type"] == "HourglassMoved" for f in facts[:facts.index(ended[0])])
