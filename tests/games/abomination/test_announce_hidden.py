"""Hidden information around the `manualAnnounce` option (RULINGS H-12) and stacked pending decisions."""

from __future__ import annotations

import pytest

from domain.engine import SPECTATOR, visible_fact
from domain.games.abomination import RULES

from .helpers import begin_round, blank, do, types


def _drawn(card, choice):
    """Seat 0 (first player) draws the location encounter `card` with manualAnnounce and answers `choice`."""
    st = blank(3, first=0, phase="event")
    st["opts"]["manualAnnounce"] = True
    st, facts = begin_round(st, card)
    assert st["pending"][-1]["kind"] == "announce" and st["pending"][-1]["seat"] == 0
    st, answer = do(st, 0, {"type": choice})
    return st, facts, answer


def _public(facts, viewer):
    return [visible_fact(f, viewer) for f in facts]


@pytest.mark.rule("ABOM-EVENT-07", "ABOM-EVENT-08", "ABOM-EVENT-13", "ABOM-AMB-27")
def test_the_announce_decision_is_made_when_the_card_is_drawn_and_its_answer_is_secret():
    # en-04 triggers at the market (all rounds)
    yes, drawn_yes, ans_yes = _drawn("en-04", "announce")
    no, drawn_no, ans_no = _drawn("en-04", "not_announce")
    for viewer in (1, 2, SPECTATOR):
        # the prompt comes right after the public draw of a held card, on the seat everybody knows holds it
        assert _public(drawn_yes, viewer) == _public(drawn_no, viewer)
        assert _public(ans_yes, viewer) == _public(ans_no, viewer)
        assert RULES.view(yes, viewer) == RULES.view(no, viewer)
    assert RULES.describe(None, 0, {"type": "announce"}, ans_yes) == \
        RULES.describe(None, 0, {"type": "not_announce"}, ans_no)
    assert RULES.decision(yes).seats == RULES.decision(no).seats


@pytest.mark.rule("ABOM-EVENT-07", "ABOM-EVENT-08", "ABOM-EVENT-13")
def test_a_placement_on_an_unannounced_encounter_looks_like_any_other_placement():
    hit, _, _ = _drawn("en-04", "not_announce")  # market
    miss, _, _ = _drawn("en-02", "not_announce")  # cemetery
    outs = []
    for st in (hit, miss):
        st["phase"], st["active"] = "city", 1
        st["p"][1]["francs"] = 3
        after, facts = do(st, 1, {"type": "place", "kind": "scientist", "space": "market.stall"})
        assert "EncounterTriggered" not in types(facts) and "EncounterNotAnnounced" not in types(facts)
        assert len(after["held"]) == 1 and after["held"][0]["holder"] == 0  # stays with its holder, inert
        outs.append((after, facts))
    (a, fa), (b, fb) = outs
    for viewer in (1, 2, SPECTATOR):
        assert _public(fa, viewer) == _public(fb, viewer)
        assert RULES.view(a, viewer) == RULES.view(b, viewer)
    assert RULES.decision(a).seats == RULES.decision(b).seats
    assert RULES.describe(hit, 1, {"type": "place", "kind": "scientist", "space": "market.stall"}, fa) == \
        RULES.describe(miss, 1, {"type": "place", "kind": "scientist", "space": "market.stall"}, fb)


@pytest.mark.rule("ABOM-EVENT-09", "ABOM-EVENT-12")
def test_an_announced_encounter_still_triggers_for_the_placer():
    st, _, _ = _drawn("en-04", "announce")
    st["phase"], st["active"] = "city", 1
    st["p"][1]["francs"] = 3
    st, facts = do(st, 1, {"type": "place", "kind": "scientist", "space": "market.stall"})
    assert "EncounterTriggered" in types(facts) and not st["held"]


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
