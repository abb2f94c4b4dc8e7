"""The running score counts only the Partner cards whose identity is public (catalog 5.1/5.3, RULINGS R-12);
final scoring counts every card of the supply (ADA-SCORE-09/10)."""

import random
from collections import Counter

import pytest

from domain.engine import fact, new_game, play
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C
from domain.games.adas_dream.state import supply_cards
from domain.games.adas_dream.scoring import final_scores


def face_down_card(p):
    return next(c for c in p["deck"] + p["hand"] if "#" not in c)


def in_hand(state, seat):
    """Put seat's face-down tier-1 card in their hand (as a draw would)."""
    p = state["players"][seat]
    card = face_down_card(p)
    if card in p["deck"]:
        p["deck"].remove(card)
        p["hand"].append(card)
    return card


@pytest.mark.rule("ADA-SETUP-26", "ADA-SCORE-10")
def test_the_face_down_setup_card_is_left_out_of_the_running_score_only():
    state, _ = new_game(RULES, 3, {}, seed=4)
    for seat, p in enumerate(state["players"]):
        card = face_down_card(p)
        assert card not in p["known_partners"]
        assert Counter(p["known_partners"]) + Counter([card]) == Counter(supply_cards(p))
        running, full = final_scores(state, public_only=True)[seat], final_scores(state)[seat]
        assert full["partners"] - running["partners"] == C.partner(card)["prestige"]
        assert RULES.scores(state)[seat] == running["total"]


@pytest.mark.rule("ADA-AMB-47")
def test_a_drafted_tier1_card_is_public():
    state, _ = new_game(RULES, 2, {"tier1_draft": True}, seed=3)
    for no in (1, 2):
        seat = RULES.decision(state).seats[0]
        state, _ = play(RULES, state, seat, RULES.legal_moves(state, seat)[0], 3, no)
    assert state["draft"] is None
    for p in state["players"]:
        assert Counter(p["known_partners"]) == Counter(supply_cards(p))


@pytest.mark.parametrize("kind", ["CardPlayed", "CardDiscarded"])
def test_playing_or_discarding_the_face_down_card_reveals_it(kind):
    state, _ = new_game(RULES, 2, {}, seed=4)
    card = in_hand(state, 0)
    before = RULES.scores(state)[0]
    state = RULES.evolve(state, fact(kind, seat=0, card=card))
    p = state["players"][0]
    assert card in p["known_partners"] and card in p["discard"]
    assert Counter(p["known_partners"]) == Counter(supply_cards(p))
    assert final_scores(state, public_only=True)[0] == final_scores(state)[0]
    assert RULES.scores(state)[0] - before == C.partner(card)["prestige"] + sum(
        tok["value"] for tok in p["stokens"] if tok["science"] == C.partner(card)["science"])
    # playing a public card again adds nothing twice
    state = RULES.evolve(state, fact("Reshuffled", seat=0, deck=p["deck"] + p["discard"]))
    assert p["known_partners"].count(card) == 1


def test_removing_the_face_down_card_and_gaining_a_display_card():
    state, _ = new_game(RULES, 2, {}, seed=4)
    card = in_hand(state, 0)
    known = list(state["players"][0]["known_partners"])
    state = RULES.evolve(state, fact("PartnerRemoved", seat=0, card=card, source="hand"))
    assert state["players"][0]["known_partners"] == known
    gained = next(c for c in state["displays"]["meet"] if c)
    state = RULES.evolve(state, fact("PartnerGained", seat=0, card=gained, slot=0))
    p = state["players"][0]
    assert Counter(p["known_partners"]) == Counter(supply_cards(p))
    state = RULES.evolve(state, fact("PartnerRemoved", seat=0, card=gained, source="hand"))
    assert gained not in state["players"][0]["known_partners"]


@pytest.mark.rule("ADA-SCORE-09", "ADA-SCORE-10")
@pytest.mark.parametrize("seed", [1, 2])
def test_playout_known_cards_track_the_supply_and_final_scores_count_all(seed):
    chooser = random.Random(seed)
    state, _ = new_game(RULES, 3, {}, seed)
    hidden = {s: face_down_card(p) for s, p in enumerate(state["players"])}
    no = 0
    while not state["over"]:
        seat = chooser.choice(RULES.decision(state).seats)
        moves = RULES.legal_moves(state, seat)
        if not moves:
            continue
        no += 1
        state, _ = play(RULES, state, seat, chooser.choice(moves), seed, no)
        for s, p in enumerate(state["players"]):
            rest = Counter(supply_cards(p)) - Counter(p["known_partners"])
            assert not Counter(p["known_partners"]) - Counter(supply_cards(p))
            assert set(rest) <= {hidden[s]}
            if hidden[s] in p["discard"] or hidden[s] in state["removed"]:
                assert not rest
    assert RULES.scores(state) == {s: sc["total"] for s, sc in enumerate(final_scores(state))}
