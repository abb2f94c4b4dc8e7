"""The web app's server side over HTTP (no browser): pages are token-free, /docs needs no
other origin, board pictures and charts are SVG, analytics export as CSV and JSON."""

from __future__ import annotations

import csv
import io
import re

FOREIGN = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.I)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_dice_duel(client, created: dict, moves: int | None = None) -> None:
    """Play Dice Duel by its first legal move (or a bid of 1) until it ends or `moves` are played."""
    tokens = [seat["token"] for seat in created["seats"]]
    played = 0
    while moves is None or played < moves:
        view = client.get(f"/games/{created['id']}").json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        listing = client.get(f"/games/{created['id']}/legal-moves", headers=auth(tokens[seat])).json()
        move = listing["moves"][-1] if listing["moves"][0]["type"] != "bid" else listing["moves"][1]
        answer = client.post(f"/games/{created['id']}/moves", json={"move": move}, headers=auth(tokens[seat]))
        assert answer.status_code == 201, answer.text
        played += 1


def test_lobby_lists_game_types_and_games_without_other_origins(client):
    created = client.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"]}).json()
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert 'data-testid="new-game"' in html and 'name="seating"' in html
    assert 'value="invite"' in html and 'value="one-screen"' in html
    assert "Dice Duel (test game)" in html
    assert f'href="/ui/games/{created["id"]}"' in html
    assert not FOREIGN.search(html)
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_pages_never_carry_a_token(client):
    created = client.post("/games", json={"game": "dice_duel", "players": 2}).json()
    tokens = [seat["token"] for seat in created["seats"]] + [created["referee_token"]]
    game_id = created["id"]
    for path in ("/", f"/ui/games/{game_id}", f"/ui/games/{game_id}/replay?step=0", f"/ui/join/{game_id}",
                 "/ui/analytics/dice_duel"):
        page = client.get(path, headers=auth(tokens[0]))
        assert page.status_code == 200, path
        assert not any(token in page.text for token in tokens), path


def test_unknown_game_pages_answer_404_html(client):
    page = client.get("/ui/games/00000000-0000-0000-0000-000000000000")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert client.get("/ui/analytics/no_such_game").status_code == 404


def test_docs_use_only_local_assets(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert assets and all(url.startswith("/") and not url.startswith("//") for url in assets), assets
    for url in assets:
        assert client.get(url).status_code == 200, url
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/redoc").status_code == 404


def test_board_svg_now_and_at_a_step(client):
    created = client.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"], "seed": 4}).json()
    play_dice_duel(client, created, moves=3)
    game_id = created["id"]
    for params in ({}, {"step": 0}, {"step": 2}):
        for headers in ({}, auth(created["seats"][0]["token"])):
            answer = client.get(f"/games/{game_id}/board.svg", params=params, headers=headers)
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("image/svg+xml")
            assert answer.text.startswith("<svg") and "<title>" in answer.text
    assert client.get(f"/games/{game_id}/board.svg", params={"step": 99}).status_code == 422
    missing = client.get("/games/00000000-0000-0000-0000-000000000000/board.svg")
    assert missing.status_code == 404 and missing.json()["error"]
    assert client.get(f"/games/{game_id}/board.svg", headers=auth("not-a-token")).status_code == 401


def test_score_chart_marks_the_step(client):
    created = client.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"]}).json()
    play_dice_duel(client, created, moves=4)
    answer = client.get(f"/ui/games/{created['id']}/score-chart.svg", params={"step": 2})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    svg = answer.text
    assert 'data-testid="score-chart"' in svg and 'data-role="step-marker"' in svg
    assert "ada" in svg and "bob" in svg and 'data-last="4"' in svg


def test_analytics_page_and_exports(client):
    for seed in (1, 2, 3):
        created = client.post("/games", json={"game": "dice_duel", "players": 2, "names": ["ada", "bob"],
                                              "seed": seed}).json()
        play_dice_duel(client, created)
    page = client.get("/ui/analytics/dice_duel")
    assert page.status_code == 200
    html = page.text
    for hook in ("leaderboard", "score-chart", "win-rates", "game-lengths", "action-frequency"):
        assert f'data-testid="{hook}"' in html, hook
    assert "<th scope=\"row\">ada</th>" in html and "3 finished games" in html
    exported = client.get("/ui/analytics/dice_duel/export.csv")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0] == ["section", "key", "value"] and ["summary", "games", "3"] in rows
    assert [row for row in rows if row[0] == "game_length"] and [row for row in rows if row[0] == "leaderboard:ada"]
    as_json = client.get("/ui/analytics/dice_duel/export.json").json()
    assert as_json["analytics"]["games"] == 3 and len(as_json["game_lengths"]) == 3
    assert {leader["player"] for leader in as_json["leaders"]} == {"ada", "bob"}
