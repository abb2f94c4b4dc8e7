"""Comments on steps and shared reviews (issue 26.4-5): comments are the table's while a game runs,
everyone's once it is finished, plain text, in the record, never in the game's events; a review's
followers see the leader's step live."""

from __future__ import annotations

import threading
import time

import httpx
import orjson
import pytest

from domain.games import load_all
from tests.support.api_client import TestGame, bearer
from tests.support.api_server import RunningServer, server_env
from tests.support.redis_fixtures import find_redis_url, new_prefix

load_all()

PAYLOAD = '<script>alert(1)</script><img src=x onerror="alert(2)">'


def counting_game(client, moves: int = 2) -> TestGame:
    game = TestGame.create(client, "api_count", 2, seed=3, names=["ann", "bo"], options={"target": 100})
    for seat in range(moves):
        game.move(seat % 2, {"type": "add", "amount": 1})
    return game


def test_the_table_comments_a_running_game_and_spectators_read_none_of_it(client):
    game = counting_game(client)
    events_before = game.events(0)
    answer = client.post(f"/games/{game.id}/comments", json={"step": 1, "text": f"  my plan {PAYLOAD}\n"},
                         headers=bearer(game.token(0)))
    assert answer.status_code == 201, answer.text
    comment = answer.json()
    assert comment["author"] == "ann" and comment["role"] == "seat" and comment["step"] == 1
    assert comment["text"] == f"my plan {PAYLOAD}"            # kept as written: shown as text, never as HTML
    assert comment["during_play"] is True and comment["at"].endswith("Z")
    referee = client.post(f"/games/{game.id}/comments", json={"step": 0, "text": "welcome"},
                          headers=bearer(game.referee_token))
    assert referee.status_code == 201 and referee.json()["author"] == "the referee"
    spectator = client.post(f"/games/{game.id}/comments", json={"step": 0, "text": "hi", "name": "eve"})
    assert spectator.status_code == 401 and spectator.json()["error"] == "token_required"
    assert client.get(f"/games/{game.id}/comments").json() == []                      # a spectator: nothing
    assert "comments" in client.get(f"/games/{game.id}/record").json()
    assert client.get(f"/games/{game.id}/record").json()["comments"] == []
    listed = client.get(f"/games/{game.id}/comments", headers=bearer(game.token(1))).json()
    assert [(c["step"], c["author"]) for c in listed] == [(0, "the referee"), (1, "ann")]
    only_one = client.get(f"/games/{game.id}/comments?step=1", headers=bearer(game.token(1))).json()
    assert [c["text"] for c in only_one] == [comment["text"]]
    assert game.events(0) == events_before                                         # the game is untouched
    assert client.get(f"/games/{game.id}/audit/verify").json()["ok"] is True


def test_comments_are_checked(client):
    game = counting_game(client)
    seat = bearer(game.token(0))
    cases = [({"step": 3, "text": "x"}, "there is no step 3"), ({"step": 0, "text": "   "}, "needs some text"),
             ({"step": 0, "text": "x" * 2001}, "at most 2,000 characters")]
    for body, words in cases:
        answer = client.post(f"/games/{game.id}/comments", json=body, headers=seat)
        assert answer.status_code == 422 and words in answer.json()["detail"], answer.text
    assert client.post("/games/00000000-0000-0000-0000-000000000000/comments", json={"step": 0, "text": "x"},
                       headers=seat).status_code in (401, 404)


def test_anyone_with_a_name_comments_a_finished_game_and_the_record_keeps_it(client):
    game = TestGame.create(client, "api_count", 2, seed=3, names=["ann", "bo"], options={"target": 2})
    game.move(0, {"type": "add", "amount": 2})
    assert game.get()["status"] == "finished"
    nameless = client.post(f"/games/{game.id}/comments", json={"step": 1, "text": "nice"})
    assert nameless.status_code == 422 and "name" in nameless.json()["detail"]
    guest = client.post(f"/games/{game.id}/comments", json={"step": 1, "text": "nice", "name": "zoe"})
    assert guest.status_code == 201 and guest.json()["role"] == "guest" and guest.json()["author"] == "zoe"
    record = client.get(f"/games/{game.id}/record").json()
    assert [c["text"] for c in record["comments"]] == ["nice"]
    imported = client.post("/games/import", json=record)
    assert imported.status_code == 201, imported.text                  # the comments never change the game


def test_a_review_moves_only_with_its_leader_and_hands_over(client):
    game = counting_game(client)
    started = client.post(f"/games/{game.id}/review", json={"step": 1})
    assert started.status_code == 201, started.text
    review = started.json()
    assert review["url"] == f"/ui/reviews/{review['id']}" and review["leader_token"]
    assert client.get(f"/reviews/{review['id']}").json() == {"id": review["id"], "game": game.id, "step": 1, "seq": 0}
    assert client.put(f"/reviews/{review['id']}", json={"step": 2}).status_code == 403
    moved = client.put(f"/reviews/{review['id']}", json={"step": 2}, headers=bearer(review["leader_token"]))
    assert moved.status_code == 200 and moved.json()["step"] == 2 and moved.json()["seq"] == 1
    over = client.post(f"/reviews/{review['id']}/handover", headers=bearer(review["leader_token"])).json()
    assert client.put(f"/reviews/{review['id']}", json={"step": 0},
                      headers=bearer(review["leader_token"])).status_code == 403       # the old leader
    assert client.put(f"/reviews/{review['id']}", json={"step": 0},
                      headers=bearer(over["leader_token"])).json()["step"] == 0
    assert client.get("/reviews/nope").status_code == 404


@pytest.fixture(scope="module")
def live_server():
    with RunningServer(server_env(REDIS_URL=find_redis_url(), REDIS_KEY_PREFIX=new_prefix())) as server:
        yield server


@pytest.mark.slow
def test_followers_see_the_leaders_step_within_a_second(live_server):
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        created = http.post("/games", json={"game": "adas_dream", "players": 2, "seed": 5}).json()
        review = http.post(f"/games/{created['id']}/review").json()
        seen: list[tuple[float, int]] = []

        def follow():
            with httpx.Client(base_url=live_server.url, timeout=10) as other:
                with other.stream("GET", f"/reviews/{review['id']}/stream") as stream:
                    for line in stream.iter_lines():
                        if line.startswith("data: "):
                            seen.append((time.monotonic(), orjson.loads(line[6:])["step"]))
                            if len(seen) == 2:
                                return

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        deadline = time.monotonic() + 5
        while not seen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert seen and seen[0][1] == 0
        http.post(f"/games/{created['id']}/moves", json={"move": http.get(
            f"/games/{created['id']}/legal-moves", headers=bearer(created["seats"][0]["token"])).json()["moves"][0]},
            headers=bearer(created["seats"][0]["token"]))
        moved_at = time.monotonic()
        assert http.put(f"/reviews/{review['id']}", json={"step": 1},
                        headers=bearer(review["leader_token"])).status_code == 200
        follower.join(5)
        assert len(seen) == 2 and seen[1][1] == 1
        assert seen[1][0] - moved_at < 1.0, f"followed after {seen[1][0] - moved_at:.2f} s"
