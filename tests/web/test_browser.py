"""The pages in a real browser (Chromium via Playwright) against a real `heirloom serve`:
a game started from the lobby, invited players in separate browsers playing live, a takeback
approved by the other player, the referee's undo, the replay viewer by keys and clicks, the
charts, nothing fetched from another origin, and a spectator seeing no hidden information."""

from __future__ import annotations

import random
import re
import time
import tomllib
from pathlib import Path

import pytest

from tests.web.test_pages_http import auth, play_dice_duel

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
LIVE = 2000  # ms: a move elsewhere shows within 2 s


def start_from_lobby(page, seating: str, names: str = "ada, bob") -> None:
    page.goto("/")
    form = page.get_by_test_id("new-game")
    form.locator("[name=game]").select_option("dice_duel")
    form.locator("[name=players]").fill("2")
    form.locator("[name=names]").fill(names)
    form.locator(f"[name=seating][value={seating}]").check()
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("referee-link")).to_have_attribute("href", re.compile(r"/ui/games/[0-9a-f-]+#token=."))


def log_items(page, undone: bool | None = None):
    selector = "li" if undone is None else f"li[data-undone={'true' if undone else 'false'}]"
    return page.get_by_test_id("move-log").locator(selector)


def test_one_screen_game_from_the_lobby(contexts, http):
    context, watch = contexts()
    page = context.new_page()
    start_from_lobby(page, "one-screen")
    page.get_by_test_id("table-link").click()
    expect(page).to_have_url(re.compile(r"/ui/games/[0-9a-f-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("to-act")).to_contain_text("ada")
    expect(page.get_by_test_id("board").locator("svg title").first).to_have_count(1)
    held = page.evaluate(f"JSON.parse(localStorage.getItem('heirloom.seats.{game_id}'))")
    listing = http.get(f"/games/{game_id}/legal-moves", headers=auth(held["seats"]["0"])).json()
    words = listing.get("labels") or []
    if words:  # the buttons say what the server's labels say
        expect(page.get_by_test_id("legal-move")).to_have_text(words)
    prompt = http.get(f"/games/{game_id}").json().get("prompt")
    if prompt:
        expect(page.get_by_test_id("to-act")).to_contain_text(prompt)
    roll = page.get_by_test_id("legal-move").filter(has_text="Roll")
    roll.focus()
    page.keyboard.press("Enter")  # keyboard play
    # One screen: the table hands itself to the seat that acts next, covered first for bob (a hidden hand).
    page.get_by_test_id("pass-device-open").click()
    expect(log_items(page)).to_have_count(1)
    expect(log_items(page).first).to_contain_text("ada")
    expect(page.get_by_test_id("to-act")).to_contain_text("bob")
    expect(page.get_by_test_id("viewer")).to_have_value("seat:1")
    page.get_by_test_id("legal-move").filter(has_text="Roll").click()
    page.get_by_test_id("pass-device-open").click()    # back to ada, covered for her
    expect(log_items(page)).to_have_count(2)
    expect(page.get_by_test_id("scores")).to_contain_text("ada")
    expect(page.get_by_test_id("audit")).to_contain_text("ok")
    held = page.evaluate(f"localStorage.getItem('heirloom.seats.{game_id}')")
    tokens = re.findall(r'"([A-Za-z0-9_-]{40,})"', held)
    assert len(tokens) == 3  # two seats and the referee, kept by this browser (issue 25.7: my-games)
    page.goto("/")
    expect(page.get_by_test_id("game-list").locator(f"a[href='/ui/games/{game_id}']")).to_have_count(1)
    watch.check()
    assert not [url for url in watch.requested if any(token in url for token in tokens)]


def test_a_bot_seat_chosen_in_the_lobby_plays_by_itself(contexts, http):
    levels = next(t for t in http.get("/game-types").json() if t["name"] == "dice_duel").get("bot_levels")
    if not levels:
        pytest.skip("this build offers no bot levels")
    context, watch = contexts()
    page = context.new_page()
    page.goto("/")
    form = page.get_by_test_id("new-game")
    form.locator("[name=game]").select_option("dice_duel")
    form.locator("[name=names]").fill("ada, robot")
    form.locator("[name=seating][value=one-screen]").check()
    expect(form.locator("[name=bot-1]")).to_be_visible()
    form.locator("[name=bot-1]").select_option(levels[0])
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("new-game-result")).to_contain_text(f"a bot ({levels[0]})")
    page.get_by_test_id("table-link").click()
    expect(page.get_by_test_id("viewer").locator("option")).to_have_count(3)  # ada, referee, spectator
    page.get_by_test_id("legal-move").filter(has_text="Roll").click()
    expect(log_items(page)).to_have_count(2, timeout=10_000)  # the bot answered by itself
    expect(log_items(page).nth(1)).to_contain_text("robot")
    expect(page.get_by_test_id("to-act")).to_contain_text("ada")
    watch.check()


def test_invited_players_play_live_takeback_and_referee_undo(contexts, http):
    creator, creator_watch = contexts()
    lobby = creator.new_page()
    start_from_lobby(lobby, "invite")
    links = lobby.get_by_test_id("invite-link")
    expect(links).to_have_count(2)
    invites = [links.nth(i).get_attribute("href") for i in range(2)]
    referee_link = lobby.get_by_test_id("referee-link").get_attribute("href")
    probe = http.post("/games", json={"game": "dice_duel", "players": 2, "seating": "invite"}).json()
    if "invites" in probe:  # the server seats by invitation: the links are single-use join links
        assert all(re.search(r"/ui/join/[0-9a-f-]+#invite=.", href) for href in invites), invites
        assert "seats" not in probe
    players, watches = [], [creator_watch]
    for href, name in zip(invites, ["ada", "bob"]):
        context, watch = contexts()
        page = context.new_page()
        page.goto(href)
        if "/ui/join/" in href:
            page.locator("[name=name]").fill(name)
            page.get_by_test_id("join").click()
        expect(page).to_have_url(re.compile(r"/ui/games/[0-9a-f-]+$"))  # the secret left the address bar
        players.append(page)
        watches.append(watch)
    ada, bob = players
    if "/ui/join/" in invites[0]:  # an invitation works once
        again_context, again_watch = contexts()
        again = again_context.new_page()
        again.goto(invites[0])
        again.locator("[name=name]").fill("mallory")
        again.get_by_test_id("join").click()
        expect(again.get_by_test_id("join-error")).to_contain_text("already used")
        expect(again).to_have_url(re.compile(r"/ui/join/"))
        again_watch.check(excused=("409",))
    expect(ada.get_by_test_id("legal-move").first).to_be_visible()
    expect(bob.get_by_test_id("to-act")).to_contain_text("ada")
    expect(bob.get_by_test_id("legal-move")).to_have_count(0)

    ada.get_by_test_id("legal-move").filter(has_text="Roll").click()
    expect(log_items(bob)).to_have_count(1, timeout=LIVE)  # live, no reload
    expect(bob.get_by_test_id("legal-move").first).to_be_visible(timeout=LIVE)
    bob.get_by_test_id("legal-move").filter(has_text="Roll").click()
    expect(log_items(ada)).to_have_count(2, timeout=LIVE)

    # A takeback of a roll (random, revealed) needs the other player's approval.
    bob.get_by_test_id("undo").click()
    approve = ada.get_by_test_id("undo-requests").get_by_test_id("approve")
    expect(approve).to_be_visible(timeout=LIVE)
    expect(ada.get_by_test_id("undo-requests")).to_contain_text("waiting for ada")
    expect(bob.get_by_test_id("undo-requests").get_by_test_id("approve")).to_have_count(0)
    approve.click()
    expect(log_items(bob, undone=True)).to_have_count(1, timeout=LIVE)
    expect(log_items(ada, undone=True)).to_have_count(1)
    expect(bob.get_by_test_id("legal-move").first).to_be_visible(timeout=LIVE)  # bob to act again

    # The referee undoes ada's first move at once.
    referee_context, referee_watch = contexts()
    watches.append(referee_watch)
    referee = referee_context.new_page()
    referee.goto(referee_link)
    expect(referee.get_by_test_id("viewer")).to_have_value("referee")
    expect(referee.get_by_test_id("undo")).to_be_enabled()
    referee.get_by_test_id("undo-to").fill("1")
    referee.get_by_test_id("undo").click()
    expect(referee.get_by_test_id("undo-preview").locator("li")).to_have_count(1)  # what would go, first
    referee.get_by_test_id("undo-preview").get_by_test_id("confirm").click()
    expect(log_items(ada, undone=True)).to_have_count(2, timeout=LIVE)
    expect(log_items(bob, undone=True)).to_have_count(2, timeout=LIVE)
    expect(ada.get_by_test_id("legal-move").first).to_be_visible(timeout=LIVE)
    # The replay lists the undone moves apart from the effective ones.
    ada.get_by_role("link", name="Replay").click()
    moves = ada.get_by_test_id("move-list")
    expect(moves.locator("[data-undone=true]")).to_have_count(2)
    expect(moves.locator("li[data-step]")).to_have_count(0)
    expect(ada.get_by_test_id("steps")).to_have_text("0")
    moves.locator("[data-undone=true]").first.click()
    expect(ada.get_by_test_id("description")).to_contain_text("Undone move")
    for watch in watches:
        watch.check()


def test_replay_viewer_steps_by_keys_and_clicks(contexts, http):
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"], "seed": 11}).json()
    play_dice_duel(http, created)
    game_id = created["id"]
    log = http.get(f"/games/{game_id}/moves-log").json()
    steps = len(log)
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{game_id}/replay?step=0")
    step, description = page.get_by_test_id("step"), page.get_by_test_id("description")
    expect(page.get_by_test_id("steps")).to_have_text(str(steps))
    expect(step).to_have_text("0")
    expect(description).to_have_text("")
    expect(page.get_by_test_id("board").locator("svg")).to_have_count(1)
    chart = page.get_by_test_id("score-chart")
    expect(chart).to_have_count(1)
    expect(chart.locator("[data-role=step-marker]")).to_have_count(1)

    page.keyboard.press("ArrowRight")
    expect(step).to_have_text("1")
    expect(description).to_have_text(log[0]["description"])
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text("2")
    expect(description).to_have_text(log[1]["description"])
    assert log[0]["description"] != log[1]["description"]
    expect(page).to_have_url(re.compile(r"\?step=2$"))
    page.keyboard.press("End")
    expect(step).to_have_text(str(steps))
    expect(description).to_have_text(log[-1]["description"])
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(str(steps - 1))
    page.keyboard.press("Home")
    expect(step).to_have_text("0")
    expect(description).to_have_text("")

    page.get_by_test_id("next").click()
    expect(step).to_have_text("1")
    page.get_by_test_id("last").click()
    expect(step).to_have_text(str(steps))
    page.get_by_test_id("prev").click()
    expect(step).to_have_text(str(steps - 1))
    page.get_by_test_id("first").click()
    expect(step).to_have_text("0")
    items = page.get_by_test_id("move-list").locator("li[data-step]")
    expect(items).to_have_count(steps)
    items.nth(2).click()
    expect(step).to_have_text("3")
    expect(description).to_have_text(log[2]["description"])
    expect(page).to_have_url(re.compile(r"\?step=3$"))
    marker_x = chart.locator("[data-role=step-marker]").get_attribute("x1")

    page.goto(f"/ui/games/{game_id}/replay?step=5")  # a link shares a position
    expect(step).to_have_text("5")
    expect(description).to_have_text(log[4]["description"])
    assert page.get_by_test_id("score-chart").locator("[data-role=step-marker]").get_attribute("x1") != marker_x
    watch.check()


def test_replay_of_a_running_game_follows_new_moves(contexts, http):
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"], "seed": 12}).json()
    play_dice_duel(http, created, moves=2)
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{created['id']}/replay")  # no step: the last one
    expect(page.get_by_test_id("step")).to_have_text("2")
    expect(page.get_by_test_id("audit")).to_contain_text("ok")
    play_dice_duel(http, created, moves=1)
    expect(page.get_by_test_id("steps")).to_have_text("3", timeout=LIVE)
    expect(page.get_by_test_id("step")).to_have_text("3", timeout=LIVE)  # it stays at the end
    expect(page.get_by_test_id("move-list").locator("li[data-step]")).to_have_count(3)
    watch.check()


def test_replay_viewer_shows_the_engine_analysis(contexts, http):
    # A real game: the engine samples hidden information through the game's bot.py.
    created = http.post("/games", json={"game": "abomination", "players": 2, "names": ["ada", "bob"],
                                        "seed": 13, "analysis_during_play": True}).json()
    random_moves(http, created, 4, seed=1)
    steps = http.get(f"/games/{created['id']}/replay").json()["steps"]
    context, watch = contexts()
    page = context.new_page()
    page.goto(f"/ui/games/{created['id']}/replay?step=2")
    expect(page.get_by_test_id("audit")).to_contain_text("ok")
    page.get_by_test_id("analyse").click()
    chart = page.get_by_test_id("analysis").locator("svg[data-testid=advantage-chart]")
    state = page.locator("#analysis-state")
    deadline = time.monotonic() + 60
    while not chart.count() and "failed" not in state.text_content() and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    job = http.get(f"/games/{created['id']}/analysis").json()
    assert "failed" not in state.text_content(), f"the analysis failed ({job.get('error')})"
    expect(chart).to_have_count(1)
    expect(chart.locator("polyline")).to_have_count(2)
    marker = chart.locator("[data-role=step-marker]")
    before = marker.get_attribute("x1")
    page.keyboard.press("End")
    expect(page.get_by_test_id("step")).to_have_text(str(steps))
    assert marker.get_attribute("x1") != before
    watch.check()


def test_analytics_page_shows_charts(contexts, http):
    for seed in (21, 22):
        created = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["cy", "di"],
                                            "seed": seed}).json()
        play_dice_duel(http, created)
    context, watch = contexts()
    page = context.new_page()
    page.goto("/ui/analytics/dice_duel")
    expect(page.get_by_test_id("leaderboard")).to_contain_text("cy")
    for hook in ("score-chart", "win-rates"):
        expect(page.locator(f"svg[data-testid={hook}]")).to_have_count(1)
    with page.expect_download() as download:
        page.get_by_test_id("export-csv").click()
    assert download.value.suggested_filename == "dice_duel-analytics.csv"
    watch.check()


def test_docs_work_offline(contexts):
    context, watch = contexts()
    page = context.new_page()
    page.goto("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Heirloom")
    expect(page.locator(".opblock").first).to_be_visible()
    watch.check()


def test_phone_width_has_no_sideways_scrolling(contexts, http):
    created = http.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"]}).json()
    play_dice_duel(http, created, moves=3)
    context, watch = contexts(390, 844)
    page = context.new_page()
    for path in ("/", f"/ui/games/{created['id']}", f"/ui/games/{created['id']}/replay?step=1",
                 "/ui/analytics/dice_duel", f"/ui/join/{created['id']}#invite=unknown", "/docs"):
        page.goto(path)
        page.wait_for_load_state("networkidle") if path == "/" else expect(page.locator("main")).to_be_visible()
        page.wait_for_timeout(300)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, f"{path} is {width}px wide at 390px"
    watch.check()


# ---- hidden information

def content_names(game: str) -> dict[str, list[str]]:
    """id -> the display names of that record, from the game's content files."""
    names: dict[str, list[str]] = {}

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                names.setdefault(node["id"], []).extend(
                    str(node[key]) for key in ("name", "title") if isinstance(node.get(key), str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in (ROOT / "domain" / "games" / game / "content").glob("*.toml"):
        walk(tomllib.loads(path.read_text()))
    return names


def strings(node, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        for value in node.values():
            strings(value, found)
    elif isinstance(node, list):
        for value in node:
            strings(value, found)
    elif isinstance(node, str):
        found.add(node)
    return found


def hidden_words(http, created: dict, game: str) -> dict[int, set[str]]:
    """Per seat: card-like ids (and their names) that this seat sees and a spectator does not."""
    game_id = created["id"]
    public = strings(http.get(f"/games/{game_id}").json()["state"], set())
    public |= strings(http.get(f"/games/{game_id}/moves-log").json(), set())
    public_text = " ".join(public)
    names = content_names(game)
    base = lambda word: word.split("#", 1)[0]  # noqa: E731  (copies of a card: "start2#0")
    secret: dict[int, set[str]] = {}
    for seat in created["seats"]:
        seen = strings(http.get(f"/games/{game_id}", headers=auth(seat["token"])).json()["state"], set())
        mine = secret.setdefault(seat["seat"], set())
        for word in seen - public:
            if re.search(r"[0-9#_-]", word) and len(word) >= 4 and word not in public_text:
                mine.add(word)
                mine.update(n for n in names.get(base(word), []) if len(n) >= 4 and n not in public_text)
    return secret


def random_moves(http, created: dict, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(moves):
        view = http.get(f"/games/{created['id']}").json()
        if view["status"] == "finished" or not view["to_act"]:
            return
        seat = rng.choice(view["to_act"])
        listing = http.get(f"/games/{created['id']}/legal-moves", headers=auth(tokens[seat])).json()
        if listing["moves"]:
            http.post(f"/games/{created['id']}/moves", json={"move": rng.choice(listing["moves"])},
                      headers=auth(tokens[seat]))


@pytest.mark.parametrize("game,moves", [("adas_dream", 0), ("adas_dream", 18), ("my_fathers_work", 0),
                                        ("my_fathers_work", 18), ("abomination", 30)])
def test_spectator_pages_hold_no_hidden_information(contexts, http, game, moves):
    types = {entry["name"] for entry in http.get("/game-types").json()}
    if game not in types:
        pytest.skip(f"{game} is not registered in this build")
    created = http.post("/games", json={"game": game, "players": 2, "names": ["ada", "bob"], "seed": 7}).json()
    random_moves(http, created, moves, seed=moves)
    by_seat = hidden_words(http, created, game)
    secret = set().union(*by_seat.values())
    assert secret, "the seats hold something hidden (else this test checks nothing)"
    context, watch = contexts()
    page = context.new_page()
    for path in (f"/ui/games/{created['id']}", f"/ui/games/{created['id']}/replay"):
        page.goto(path)
        expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()  # one SVG per zone
        expect(page.get_by_test_id("audit")).to_contain_text("ok")
        if "/replay" not in path:
            page.locator("#state-box summary").click()  # the state as data, too
            expect(page.get_by_test_id("state").locator("li").first).to_be_visible()
        time.sleep(0.3)
        text = page.evaluate("document.documentElement.textContent + ' ' + document.documentElement.outerHTML")
        leaked = sorted(word for word in secret if word in text)
        assert not leaked, f"a spectator's {path} shows hidden {leaked}"
    # The same look at a seat's own table finds its hidden cards: the check above can see them.
    seat = next(s for s, words in by_seat.items() if words)
    seat_context, seat_watch = contexts()
    seat_page = seat_context.new_page()
    seat_page.goto(f"/ui/games/{created['id']}#token={created['seats'][seat]['token']}")
    expect(seat_page.get_by_test_id("audit")).to_contain_text("ok")
    seat_page.locator("#state-box summary").click()
    expect(seat_page.get_by_test_id("state").locator("li").first).to_be_visible()
    text = seat_page.evaluate("document.documentElement.textContent")
    assert any(word in text for word in by_seat[seat]), "the seat's own page shows none of its hidden cards"
    watch.check()
    seat_watch.check()
