"""Ada's Dream's glossary (issue 24.2): the pack in words, written from the content data."""

from __future__ import annotations

from domain.games.adas_dream import content as C
from domain.games.adas_dream.words import effect_words, glossary


def test_every_card_tile_and_place_reads_what_it_does():
    by_key = {e["key"]: e for e in glossary()}
    for pid, card in C.PARTNERS.items():
        entry = by_key[f"card:{pid}"]
        assert entry["name"] == card["name"] and effect_words(card["effect"]) in entry["text"]
    stoker = by_key["card:start3"]["text"]
    assert "active die of 1, 2 or 3" in stoker and "gain 2 Coal" in stoker
    lens = by_key["card:start4"]["text"]
    assert "costs as many pounds as the active die shows" in lens
    assert "road to Reading (£1)" in by_key["location:london"]["text"]          # the travel map's routes
    assert "ferry to Liverpool (£4)" in by_key["location:douglas"]["text"]
    assert "Reward for travelling here: gain £3" in by_key["location:norwich"]["text"]
    program = by_key["card:prog01"]
    assert program["name"] == "5-Prestige Program" and "dice of 3 or 4" in program["text"]
    assert "3 Addition Gears" in by_key["card:obj_study_A3"]["name"]
    assert "7 Prestige" in by_key["card:obj_study_A1"]["text"] and "4 for later players" in by_key["card:obj_study_A1"]["text"]
    assert by_key["location:inst_ironworks"]["name"] == "Guild of Ironmasters"
    assert "gain 1 Brass" in by_key["space:lecture.inst_ironworks.2"]["text"]
    assert "multiplies" in by_key["tile:mult01"]["text"] and "£3" in by_key["tile:mult02"]["name"]
    assert by_key["tile:uni_s_oxford"]["name"] == "Spires College"
    assert "gain a Book" in by_key["tile:uni_s_oxford"]["text"]
    assert "draws 2 cards" in by_key["space:display.1"]["text"]
