"""The `detail` popup on a table reads the game's own glossary (GET /games/{id}/glossary), in Chromium:
a click on a board element opens its name and words as the viewer reads them in this game."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402


def test_a_board_element_opens_its_words_from_the_games_glossary(contexts, http):
    created = http.post("/games", json={"game": "abomination", "players": 2, "names": ["ada", "bob"],
                                        "seed": 5}).json()
    entries = {e["key"]: e for e in http.get(f"/games/{created['id']}/glossary").json()["entries"]}
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{created['id']}")
    element = page.get_by_test_id("board").locator("[data-detail]").first
    expect(element).to_be_visible()
    key = element.get_attribute("data-detail")
    element.click()
    expect(page.get_by_test_id("detail")).to_be_visible()
    expect(page.get_by_test_id("detail-text")).to_have_text(entries[key]["text"])
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("detail")).to_be_hidden()
    assert any(f"/games/{created['id']}/glossary" in url for url in watch.requested)
    watch.check()
