"""Every stacked pending decision is redacted in the view, not only the top one."""

from __future__ import annotations

import pytest

from domain.engine import SPECTATOR
from domain.games.abomination import RULES

from .helpers import blank


@pytest.mark.rule("ABOM-SETUP-05", "ABOM-SETUP-06")
def test_every_stacked_pending_decision_is_redacted_not_only_the_top_one():
    st = blank(3, first=0, active=0)
    research = st["decks"]["research"][:2]
    cemetery = st["decks"]["cemetery"][:2]
    st["pending"] = [
        {"kind": "draw", "seat": 1, "deck": "research", "source": "deck", "cards": list(research), "rest": []},
        {"kind": "cadaver", "seat": 2, "deck": "cemetery", "source": "deck", "cards": list(cemetery), "rest": []},
        {"kind": "announce", "seat": 1, "card": "en-04", "rest": []},
        {"kind": "meeple", "seat": 0, "rest": []},
    ]
    for viewer in (0, 1, 2, SPECTATOR):
        recs = RULES.view(st, viewer)["pending"]
        assert recs[0]["cards"] == 2  # a blind draw, even for the drawer (H-02)
        if viewer != 2:
            assert recs[1]["cards"] == 2
        if viewer != 1:
            assert "card" not in recs[2]
        assert all("rest" not in r for r in recs)
