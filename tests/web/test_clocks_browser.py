"""Clocks and leaving in the browser (issue 28): the lobby's clock choice reaches the table, the
clock of the seat being asked counts down on the page each second while the other stands still,
the tab's title says "Your turn" while this seat must act, and `leave` asks before it hands the
seat to a bot."""

from __future__ import annotations

import re
import time

import pytest

from tests.web.test_pages_http import auth

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
SHOTS = "/tmp/heirloom-clocks-shots"


def seconds(text: str) -> int:
    """'1:05' -> 65, '0:59' -> 59 (what the page shows)."""
    minutes, secs = text.strip().split(":")[-2:]
    return int(minutes) * 60 + int(secs)


def clock_of(page, seat: int):
    return page.locator(f"[data-testid=seat][data-seat='{seat}'] [data-testid=clock]")


def test_the_lobby_clock_reaches_the_table_and_counts_down_for_the_seat_asked(contexts, http):
    context, watch = contexts()
    page = context.new_page()
    page.goto("/")
    form = page.get_by_test_id("new-game")
    form.locator("[name=game]").select_option("api_count")
    form.locator("[name=players]").fill("2")
    form.locator("[name=names]").fill("ann, bo")
    form.locator("[name=seating][value=one-screen]").check()
    form.locator("[name=clock]").select_option("bank")
    form.locator("[name=clock_seconds]").fill("90")
    form.locator("[name=clock_increment]").fill("3")
    expect(form.locator("[name=on_timeout]")).to_be_visible()
    form.locator("[name=on_timeout]").select_option("forfeit")
    page.screenshot(path=f"{SHOTS}/lobby-clock-1280.png")
    form.locator("button[type=submit]").click()
    page.get_by_test_id("table-link").click()
    expect(page).to_have_url(re.compile(r"/ui/games/[0-9a-f-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    table = http.get(f"/games/{game_id}").json()["table"]
    assert table["clock"] == {"bank_s": 90.0, "increment_s": 3.0} and table["on_timeout"] == "forfeit"

    seats = page.get_by_test_id("seat-list").get_by_test_id("seat")
    expect(seats).to_have_count(2)
    expect(seats.nth(0)).to_contain_text("ann")
    expect(clock_of(page, 0)).to_have_text(re.compile(r"^1:[23]\d$"))
    expect(page).to_have_title(re.compile(r"^Your turn"))
    first, other = seconds(clock_of(page, 0).inner_text()), clock_of(page, 1).inner_text()
    time.sleep(2.2)                      # no request in between: the page counts by itself
    later = seconds(clock_of(page, 0).inner_text())
    assert first - 3 <= later <= first - 1, (first, later)
    assert clock_of(page, 1).inner_text() == other == "1:30"      # not asked: it stands still
    page.screenshot(path=f"{SHOTS}/table-clock-1280.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_test_id("seat-list").scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/table-clock-390.png")
    watch.check()


def test_your_turn_follows_the_seat_and_leave_asks_first(contexts, http):
    created = http.post("/games", json={"game": "api_count", "players": 2, "names": ["ann", "bo"],
                                        "options": {"target": 100}, "clock": {"per_move_s": 600}}).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    context, watch = contexts()
    bo = context.new_page()
    bo.goto(f"/ui/games/{game_id}#token={tokens[1]}")
    expect(bo.get_by_test_id("seat-list").get_by_test_id("seat")).to_have_count(2)
    expect(bo).not_to_have_title(re.compile("Your turn"))
    expect(bo.locator("[data-testid=seat][data-seat='1']")).to_contain_text("(you)")
    assert http.post(f"/games/{game_id}/moves", headers=auth(tokens[0]),
                     json={"move": {"type": "add", "amount": 1}}).status_code == 201
    expect(bo).to_have_title(re.compile(r"^Your turn"))        # live: the page hears the move
    expect(clock_of(bo, 1)).to_have_text(re.compile(r"^(10:00|9:5\d)$"))

    leave = bo.get_by_test_id("leave")
    expect(leave).to_be_visible()
    asked = []
    bo.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    leave.click()
    expect(bo.get_by_test_id("seat").nth(1)).not_to_contain_text("left")
    assert asked and "bot" in asked[0]
    assert http.get(f"/games/{game_id}").json()["seats"][1]["left"] is False
    bo.once("dialog", lambda dialog: dialog.accept())
    leave.click()
    expect(bo.locator("[data-testid=seat][data-seat='1'] [data-testid=seat-state]")).to_contain_text("left")
    expect(leave).to_be_hidden()
    expect(bo.get_by_test_id("to-act")).not_to_contain_text("Your turn")
    expect(bo.get_by_test_id("legal-move")).to_have_count(0)
    expect(bo).not_to_have_title(re.compile("Your turn"))
    assert http.get(f"/games/{game_id}").json()["seats"][1]["left"] is True
    bo.screenshot(path=f"{SHOTS}/table-left-1280.png")
    watch.check()
