"""Heredity's glossary (issue 24.2): every card, area, PC, NPC and token of the chapter has an entry,
and the game type's glossary tells only what every table knows before the chapter starts
(HER-HIDDEN-01..08); with a viewer's view it adds the words of what that view shows, naming no card
the view does not show."""

from __future__ import annotations

import random

import pytest

from domain.engine import new_game, play
from domain.games.heredity import RULES, SWAN
from domain.games.heredity.words import LAYOUT, glossary

from .test_words_and_picture import _hidden_names


def _text(entries) -> str:
    return " ".join(e["name"] + " " + e["text"] for e in entries)


@pytest.mark.rule("HER-HIDDEN-01", "HER-HIDDEN-02", "HER-HIDDEN-04", "HER-HIDDEN-07")
def test_the_game_types_glossary_reveals_no_card_of_the_book():
    entries = glossary()
    by_key = {e["key"]: e for e in entries}
    assert by_key["card:110"]["name"] == "A card not yet revealed"         # the storm: a narrative card
    assert by_key["card:142"]["name"] == "A card not yet revealed"         # an Item
    assert by_key["npc:133"]["name"] == "A Character not yet revealed"     # Swan
    assert by_key["location:101.o1"]["name"] == "An area not yet revealed"
    text = _text(entries)
    for number, card in SWAN.cards.items():
        if card["kind"] == "item":
            assert card["front"]["name"] not in text
        if card["kind"] == "narrative":
            assert card["front"]["narrative"][:20] not in text
    for rec in LAYOUT["terrain"].values():
        assert not [a["name"] for a in rec["areas"].values() if a["name"] in text]
    # what every table knows: the PCs, their cards' first side, the Family card, the aids, the Karma deck
    assert by_key["pc:maeve"]["name"] == "Maeve" and "Watch/Speak" in by_key["card:1"]["text"]
    assert "Action tokens" in by_key["card:13"]["text"] and "Violence" in by_key["card:901"]["text"]


@pytest.mark.rule("HER-HIDDEN-05", "HER-HIDDEN-09", "HER-HIDDEN-10")
def test_a_views_glossary_reads_the_cards_it_shows_and_names_no_other():
    state, _ = new_game(RULES, 2, {}, 3)
    chooser = random.Random(4)
    for k in range(1, 25):                          # a few moves in: cards taken, the Timeline moved on
        seat = chooser.choice(list(RULES.decision(state).seats))
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), 3, k)
    view = RULES.view(state, 0)
    entries = glossary(view=view)
    by_key = {e["key"]: e for e in entries}
    storm = by_key["card:110"]
    assert storm["name"].startswith("The card \u201cA brown wall of wind")
    assert "Event" in storm["text"] and "at least 7 tokens" in storm["text"] and "loses the chapter" in storm["text"]
    assert "ally of the family" in by_key["npc:133"]["text"]
    assert by_key["location:101.o1"]["name"] == "Wagon Camp"
    hidden = _hidden_names(state, view)
    text = _text(entries)
    assert not [name for name in hidden if name in text]
    assert len({e["key"] for e in entries}) == len(entries) == len(glossary())
