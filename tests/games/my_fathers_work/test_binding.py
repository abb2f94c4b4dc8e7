"""Issue 16.4: My Father's Work's legal-move list is binding: an unlisted key names its rule.

That `decide` accepts only listed moves over random playouts is tested for every game in
tests/engine/test_binding.py."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, new_game, play
from domain.games.my_fathers_work import RULES


@pytest.mark.rule("MFW-ROUND-06")
def test_an_extra_key_is_refused():
    state, _ = new_game(RULES, 2, {}, 3)
    seat = RULES.decision(state).seats[0]
    move = RULES.legal_moves(state, seat)[0]
    with pytest.raises(IllegalMove) as err:
        play(RULES, state, seat, dict(move, note="kept forever"), 3, 1)
    assert err.value.rule_id == "MFW-ROUND-06" and "note" in err.value.detail
