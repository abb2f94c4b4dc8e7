"""The replay's review tools in a real browser (issue 26.3-5): comments shown as text (a <script>
and an onerror payload stay words), none for a spectator of a running game; "What if?" opens a new
table; the record downloads; a shared review followed in a second browser within a second."""

from __future__ import annotations

import json
import time

import pytest

from tests.web.test_pages_http import auth, play_dice_duel

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow

PAYLOAD = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def finished_game(http, seed: int) -> dict:
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"], "seed": seed}).json()
    play_dice_duel(http, created)
    assert http.get(f"/games/{created['id']}").json()["status"] == "finished"
    return created


def test_comments_are_text_and_the_table_talk_of_a_running_game_stays_private(contexts, http):
    running = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"], "seed": 4}).json()
    play_dice_duel(http, running, moves=2)
    said = http.post(f"/games/{running['id']}/comments", json={"step": 1, "text": "my secret plan"},
                     headers=auth(running["seats"][0]["token"]))
    assert said.status_code == 201, said.text
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{running['id']}/replay?step=1")
    expect(page.locator("#comments-empty")).to_contain_text("players and the referee only")
    expect(page.get_by_test_id("comments")).not_to_contain_text("secret")
    expect(page.get_by_test_id("comment-form")).to_be_hidden()

    finished = finished_game(http, 5)
    page.goto(f"/ui/games/{finished['id']}/replay?step=2")
    form = page.get_by_test_id("comment-form")
    form.locator("[name=name]").fill("zoe")
    form.locator("[name=text]").fill(PAYLOAD)
    form.get_by_role("button").click()
    item = page.get_by_test_id("comments").locator("li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(PAYLOAD)                     # the very characters, as text
    assert page.get_by_test_id("comments").locator("script, img").count() == 0
    assert page.evaluate("window.pwned") is None
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("step")).to_have_text("1")
    expect(page.get_by_test_id("comments").locator("li")).to_have_count(0)
    watch.check()


def test_what_if_opens_a_new_table_and_the_record_downloads(contexts, http):
    finished = finished_game(http, 6)
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{finished['id']}/replay?step=3")
    expect(page.get_by_test_id("audit")).to_contain_text("ok")
    with page.expect_download() as download:
        page.get_by_test_id("record").click()
    record = json.loads(open(download.value.path()).read())
    assert record["id"] == finished["id"] and len(record["moves"]) >= 3 and "comments" in record
    page.get_by_test_id("fork").click()
    page.wait_for_url(lambda url: "/ui/games/" in url and finished["id"] not in url)
    fork_id = page.url.split("/ui/games/")[1].split("?")[0].split("#")[0]
    view = http.get(f"/games/{fork_id}").json()
    assert view["status"] == "active"
    expect(page.get_by_test_id("board")).to_be_visible()
    watch.check()


def test_a_shared_review_is_followed_within_a_second(contexts, http):
    finished = finished_game(http, 7)
    lead_context, watch = contexts()
    leader = lead_context.new_page()
    leader.goto(f"/ui/games/{finished['id']}/replay?step=1")
    expect(leader.get_by_test_id("audit")).to_contain_text("ok")
    leader.get_by_test_id("review").click()
    leader.wait_for_url("**/ui/reviews/**")
    expect(leader.get_by_test_id("review-state")).to_contain_text("You lead")
    link = leader.get_by_test_id("review-link").input_value()
    follow_context, follow_watch = contexts(390, 844)
    follower = follow_context.new_page()
    follower.goto(link)
    expect(follower.get_by_test_id("review-state")).to_contain_text("You follow")
    expect(follower.get_by_test_id("step")).to_have_text("1")
    leader.keyboard.press("ArrowRight")
    expect(leader.get_by_test_id("step")).to_have_text("2")
    started = time.monotonic()
    expect(follower.get_by_test_id("step")).to_have_text("2", timeout=1000)
    assert time.monotonic() - started < 1.0
    leader.keyboard.press("End")
    last = leader.get_by_test_id("steps").text_content()
    expect(follower.get_by_test_id("step")).to_have_text(last, timeout=1000)
    watch.check()
    follow_watch.check()
