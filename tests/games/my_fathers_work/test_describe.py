"""describe(): one clear, public sentence per move."""

from __future__ import annotations

import re

import pytest

from domain.engine import new_game, play
from domain.games.my_fathers_work import RULES, content as C

from .helpers import blank, commit, full_game, place, town


def test_revealed_simultaneous_choices_name_every_seat():
    s, _ = new_game(RULES, 2, {"scenario": "scn-parish"}, 11)
    s, facts = commit(s, 0, "occult")
    assert RULES.describe(s, 0, {"type": "commit", "option": "occult"}, facts) == \
        "Seat 0 commits a hidden choice for the Storage Shed Resource."
    before = s
    s, facts = commit(s, 1, "money")
    text = RULES.describe(before, 1, {"type": "commit", "option": "money"}, facts)
    assert text.startswith("Seat 1 commits a hidden choice for the Storage Shed Resource, the last one awaited; "
                           "then the hidden choices are revealed, ")
    assert "seat 0 gains 1 Occult" in text and "seat 1 gains $1" in text and text.endswith(".")


@pytest.mark.rule("MFW-EX-02")
def test_placement_sentence(fx):
    s = town(blank(), "fx-blacksmith")
    s["players"][1]["pieces"]["self"] = "town:fx-blacksmith"
    s["players"][0]["pieces"]["servant1"] = "quarters"
    s["players"][0]["money"] = 3
    move = {"type": "place", "loc": "fx-blacksmith", "pieces": ["spouse", "servant1"]}
    t, facts = place(s, 0, "fx-blacksmith", ["spouse", "servant1"])
    assert RULES.describe(s, 0, move, facts) == \
        "Seat 0 places their Spouse and a Servant on the Blacksmith, pays $1 and gains 2 Gear."


def test_every_description_is_one_public_sentence():
    """A whole random game: every move reads as one sentence and never names a hidden card."""
    state, log = full_game(3, seed=5)
    secret_words = {c for c in C.EXPERIMENTS} | {c["text"] for c in C.COMPULSIONS.values()}
    s, _ = new_game(RULES, 3, {}, 5)
    for n, (seat, move, facts) in enumerate(log[1:], 1):
        text = RULES.describe(s, seat, move, facts)
        assert re.fullmatch(r"Seat \d [^\n]+[.]", text) and ".." not in text, text
        assert not re.search(r"(, |and )(gains|pays|draws|scores|loses|goes to) .*; then", text)
        hidden = {f["card"] for f in facts if f["type"] in ("CardDrawn", "CardToBottom", "HandKept") and "private_to" in f}
        for card in hidden:
            assert card not in text and C.EXPERIMENTS[card]["title"] not in text, (text, card)
        for word in secret_words:
            if word in text:  # a Compulsion's text is public only once completed
                assert any(f["type"] == "CompulsionCompleted" and C.COMPULSIONS[f["card"]]["text"] == word
                           for f in facts), text
        s, _ = play(RULES, s, seat, move, 5, n)


def test_free_action_of_a_storybook_token_is_named():
    from .helpers import act
    tok = next(t for t in C.TOKENS.values() if t["ability"]["kind"] == "free_action")
    s = blank()
    s["players"][0]["tokens"] = [tok["id"]]
    s["players"][0]["money"] = 5
    move = {"type": "free", "source": tok["id"]}
    t, facts = act(s, 0, move)
    text = RULES.describe(s, 0, move, facts)
    assert text.startswith(f"Seat 0 uses the free action of {tok['name']}") and tok["id"] not in text
