"""Ratings count games between people only (issue 27.4): a game with a bot seat, a fork and an
imported game keep their scores but count for no rating (simulations: tests/jobs); imported games
are listed apart; over HTTP on a real Redis, with the app's worker playing the bot."""

from __future__ import annotations

from tests.support.api_client import bearer
from tests.support.waiting import eventually


def play_out(client, created: dict, people: list[int]) -> dict:
    """Play api_count to its end: the people's seats add 2 each turn; bot seats play themselves."""
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat.get("token")}
    while True:
        view = eventually(lambda: (lambda v: v if v["status"] == "finished" or set(v["to_act"]) & set(people)
                                   else None)(client.get(f"/games/{game_id}").json()), timeout=30)
        assert view, "the bot did not move"
        if view["status"] == "finished":
            return view
        seat = view["to_act"][0]
        answer = client.post(f"/games/{game_id}/moves", headers=bearer(tokens[seat]),
                             json={"move": {"type": "add", "amount": 2}, "expected_version": view["version"]})
        assert answer.status_code == 201, answer.text


def test_only_games_between_people_are_rated_and_imports_are_listed_apart(client):
    people = client.post("/games", json={"game": "api_count", "players": 2, "seed": 1, "names": ["ann", "ben"],
                                         "options": {"target": 8}}).json()
    final = play_out(client, people, [0, 1])
    with_bot = client.post("/games", json={"game": "api_count", "players": 2, "seed": 2, "names": ["cat", "robo"],
                                           "options": {"target": 8}, "bots": {"1": "random"}}).json()
    play_out(client, with_bot, [0])
    referee = {"Authorization": f"Bearer {people['referee_token']}"}
    fork = client.post(f"/games/{people['id']}/fork", json={"step": 1}, headers=referee)
    assert fork.status_code == 201, fork.text
    play_out(client, {**fork.json(), "seats": fork.json()["seats"]}, [0, 1])
    record = client.get(f"/games/{people['id']}/record").json()
    imported = client.post("/games/import", json=record)
    assert imported.status_code == 201, imported.text

    board = client.get("/scoreboard/api_count").json()
    assert {row["player"]: row["games"] for row in board["leaders"]} == {"ann": 1, "ben": 1}   # nothing else
    assert board["team_record"] == []
    assert [row["game_id"] for row in board["imports"]] == [imported.json()["id"]]
    assert board["imports"][0]["names"] == ["ann", "ben"] and board["imports"][0]["winners"] == final["winners"]
    for game in (with_bot, fork.json()):                       # the unrated games still have their scores
        assert client.get(f"/games/{game['id']}/scores").json()["finished"] is True


def test_the_analytics_page_of_a_cooperative_game_shows_a_team_record_not_ratings(client):
    page = client.get("/ui/analytics/heredity")
    assert page.status_code == 200
    assert 'data-testid="team-record"' in page.text and "Rating</th>" not in page.text
    assert 'data-testid="leaderboard"' in client.get("/ui/analytics/dice_duel").text
