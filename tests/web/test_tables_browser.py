"""Fair tables in the browser (issue 25): the referee's undo-to-here with its preview, the seats a
browser holds found again in a new tab and in the lobby's my-games, the hot-seat take-back after
the screen was handed over, the table's rules shown, and the lobby refusing in words."""

from __future__ import annotations

import re

import pytest

from tests.web.test_pages_http import auth

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
SHOTS = "/tmp/heirloom-tables-shots"


def log_items(page, undone: bool | None = None):
    selector = "li" if undone is None else f"li[data-undone={'true' if undone else 'false'}]"
    return page.get_by_test_id("move-log").locator(selector)


def one_screen_from_lobby(page, game: str = "api_count", names: str = "ada, bob", policy: str | None = None) -> str:
    page.goto("/")
    form = page.get_by_test_id("new-game")
    form.locator("[name=game]").select_option(game)
    form.locator("[name=players]").fill("2")
    form.locator("[name=names]").fill(names)
    form.locator("[name=seating][value=one-screen]").check()
    if policy:
        form.locator("[name=undo_policy]").select_option(policy)
    form.locator("button[type=submit]").click()
    page.get_by_test_id("table-link").click()
    expect(page).to_have_url(re.compile(r"/ui/games/[0-9a-f-]+$"))
    return page.url.rsplit("/", 1)[1]


def add_one(page) -> None:
    page.get_by_test_id("legal-move").filter(has_text=re.compile("1")).first.click()


def pass_device(page) -> None:
    """One screen, a game with hidden information: the table is covered until the next player opens it."""
    page.get_by_test_id("pass-device-open").click()


@pytest.mark.rule("TABLE-UNDO-03")
def test_referee_undo_to_here_shows_what_would_go_and_asks_to_confirm(contexts, http):
    created = http.post("/games", json={"game": "api_count", "players": 2, "names": ["ada", "bob"],
                                        "options": {"target": 100}, "undo_policy": "referee"}).json()
    tokens = [seat["token"] for seat in created["seats"]]
    for move_no in range(4):
        http.post(f"/games/{created['id']}/moves", headers=auth(tokens[move_no % 2]),
                  json={"move": {"type": "add", "amount": 1}})
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{created['id']}#token={created['referee_token']}")
    expect(log_items(page)).to_have_count(4)
    expect(page.get_by_test_id("table-rules")).to_contain_text("Only the referee")
    here = page.get_by_test_id("move-log").get_by_test_id("undo-to-here")
    expect(here).to_have_count(4)
    here.nth(1).click()                                           # from move 2 on
    preview = page.get_by_test_id("undo-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("li")).to_have_count(3)
    expect(preview).to_contain_text("Undo from move 2 on?")
    page.screenshot(path=f"{SHOTS}/undo-preview-1280.png", full_page=True)
    preview.get_by_test_id("cancel").click()
    expect(preview).to_be_hidden()
    assert http.get(f"/games/{created['id']}").json()["move_count"] == 4   # nothing undone unasked
    here.nth(1).click()
    preview.get_by_test_id("confirm").click()
    expect(log_items(page, undone=True)).to_have_count(3)
    expect(page.get_by_test_id("move-log").get_by_test_id("undo-to-here")).to_have_count(1)
    assert http.get(f"/games/{created['id']}").json()["move_count"] == 1
    phone, phone_watch = contexts(390, 844)
    small = phone.new_page()
    small.goto(f"/ui/games/{created['id']}#token={created['referee_token']}")
    small.get_by_test_id("move-log").get_by_test_id("undo-to-here").first.click()
    expect(small.get_by_test_id("undo-preview")).to_be_visible()
    small.get_by_test_id("undo-preview").scroll_into_view_if_needed()
    small.screenshot(path=f"{SHOTS}/undo-preview-390.png", full_page=True)
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    watch.check()
    phone_watch.check()


def test_the_seats_of_this_browser_are_found_in_a_new_tab_and_in_my_games(contexts, http):
    context, watch = contexts()
    page = context.new_page()
    game_id = one_screen_from_lobby(page)
    expect(page.get_by_test_id("to-act")).to_contain_text("ada")
    tab = context.new_page()                                      # a new tab of the same browser
    tab.goto(f"/ui/games/{game_id}")
    expect(tab.get_by_test_id("viewer")).to_have_value("seat:0")  # the same table, not a spectator
    expect(tab.get_by_test_id("legal-move").first).to_be_visible()
    add_one(tab)
    pass_device(tab)
    expect(tab.get_by_test_id("viewer")).to_have_value("seat:1")  # it follows the seat to act
    lobby = context.new_page()
    lobby.goto("/")
    mine = lobby.get_by_test_id("my-games")
    item = mine.locator(f"li[data-game-id='{game_id}']")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("your turn (bob)")
    expect(item.locator(f"a[href='/ui/games/{game_id}']")).to_have_count(1)
    lobby.screenshot(path=f"{SHOTS}/my-games-1280.png", full_page=True)
    item.get_by_test_id("forget").click()
    expect(mine.locator(f"li[data-game-id='{game_id}']")).to_have_count(0)
    assert lobby.evaluate(f"localStorage.getItem('heirloom.seats.{game_id}')") is None
    another = context.new_page()
    another.goto(f"/ui/games/{game_id}")
    expect(another.get_by_test_id("viewer")).to_have_value("spectator")  # forgotten: a spectator now
    watch.check()


@pytest.mark.rule("TABLE-UNDO-01")
def test_hot_seat_take_back_after_the_hand_over(contexts, http):
    context, watch = contexts()
    page = context.new_page()
    game_id = one_screen_from_lobby(page)
    expect(page.get_by_test_id("viewer")).to_have_value("seat:0")
    add_one(page)
    pass_device(page)
    expect(page.get_by_test_id("viewer")).to_have_value("seat:1")  # handed over to bob
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_enabled()
    expect(undo).to_have_text("Take back ada's last move")
    page.screenshot(path=f"{SHOTS}/hot-seat-1280.png", full_page=True)
    undo.click()
    pass_device(page)                                                # back to ada: covered for her
    expect(log_items(page, undone=True)).to_have_count(1)
    expect(page.get_by_test_id("viewer")).to_have_value("seat:0")  # ada to act again, the table follows
    assert http.get(f"/games/{game_id}").json()["move_count"] == 0
    page.get_by_test_id("viewer").select_option("seat:1")
    expect(page.get_by_test_id("message")).to_contain_text("no longer follows")
    watch.check()


def test_the_lobby_refuses_in_words_before_creating_anything(contexts, http):
    listed = http.get("/games").json()
    before = len(listed if isinstance(listed, list) else listed.get("games", []))
    context, watch = contexts()
    page = context.new_page()
    page.goto("/")
    form = page.get_by_test_id("new-game")
    form.locator("[name=game]").select_option("adas_dream")
    for count, words in (("99", "Ada's Dream is for 2 to 4 players; you asked for 99."),
                         ("0", "Ada's Dream is for 2 to 4 players; you asked for 0."),
                         ("-3", "Ada's Dream is for 2 to 4 players; you asked for -3.")):
        form.locator("[name=players]").fill(count)
        form.locator("button[type=submit]").click()
        expect(page.get_by_test_id("new-game-error")).to_have_text(words)
        expect(form.locator("[name=players]")).to_have_value(count)  # never changed behind the person's back
    form.locator("[name=players]").fill("2")
    form.locator("[name=names]").fill("a<b, c")
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("new-game-error")).to_have_text("Player 1's name may not contain '<' or '>'.")
    page.screenshot(path=f"{SHOTS}/lobby-refusal-1280.png", full_page=True)
    listed = http.get("/games").json()
    assert len(listed if isinstance(listed, list) else listed.get("games", [])) == before
    form.locator("[name=names]").fill("ann, cy")
    form.locator("[name=undo_policy]").select_option("own_turn")
    form.locator("[name=seating][value=one-screen]").check()
    form.locator("button[type=submit]").click()
    page.get_by_test_id("table-link").click()
    expect(page.get_by_test_id("table-rules")).to_contain_text("own turn")
    watch.check()


@pytest.mark.rule("TABLE-BOT-04")
def test_heredity_the_person_passes_the_window_to_the_bots(contexts, http):
    created = http.post("/games", json={"game": "heredity", "players": 2, "names": ["ada", "robot"],
                                        "bots": {"1": "random"}, "seed": 5}).json()
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{created['id']}#token={created['seats'][0]['token']}")
    expect(page.get_by_test_id("pass")).to_be_visible()
    assert http.get(f"/games/{created['id']}").json()["move_count"] == 0      # the bot waits for ada
    page.screenshot(path=f"{SHOTS}/heredity-pass-1280.png", full_page=True)
    page.get_by_test_id("pass").click()
    expect(log_items(page).first).to_be_visible(timeout=20_000)               # the bot plays now
    events = http.get(f"/games/{created['id']}/events").json()["events"]
    assert [e["actor"] for e in events if e["type"] == "MovePlayed"][0] == "bot:random"
    assert [e["type"] for e in events].count("SeatPassed") == 1
    watch.check()
