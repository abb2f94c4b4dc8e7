"""Seating by invitation (API.md): invitation codes instead of seat tokens, each turned into
its seat's token once, under a player name unique in the game."""

from __future__ import annotations

import orjson

from tests.support.api_client import bearer


def invited(client, game="api_count", players=3, **extra):
    response = client.post("/games", json={"game": game, "players": players, "seating": "invite",
                                           "options": {"target": 100}, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def join(client, game_id, invite, name):
    return client.post(f"/games/{game_id}/join", json={"invite": invite, "name": name})


def test_an_invite_game_answers_invitations_and_no_seat_tokens(client):
    created = invited(client)
    assert "seats" not in created and created["referee_token"]
    assert [i["seat"] for i in created["invites"]] == [0, 1, 2]
    codes = [i["invite"] for i in created["invites"]]
    assert len(set(codes)) == 3 and all(len(code) >= 24 for code in codes)
    view = client.get(f"/games/{created['id']}").json()
    assert view["open_seats"] == [0, 1, 2]


def test_an_invitation_gives_its_seat_a_token_once(client):
    created = invited(client)
    game_id, codes = created["id"], [i["invite"] for i in created["invites"]]
    answer = join(client, game_id, codes[1], "  annette ")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["seat"] == 1 and body["name"] == "annette" and body["token"]
    again = join(client, game_id, codes[1], "john")
    assert again.status_code == 409 and again.json()["error"] == "invite_used"
    view = client.get(f"/games/{game_id}", headers=bearer(body["token"])).json()
    assert view["you"] == {"role": "seat", "seat": 1}
    assert view["names"][1] == "annette" and view["open_seats"] == [0, 2]
    assert client.get(f"/games/{game_id}/legal-moves", headers=bearer(codes[1])).status_code == 401  # a code is no token


def test_the_joined_seat_plays_under_its_name(client):
    created = invited(client, players=2)
    game_id, codes = created["id"], [i["invite"] for i in created["invites"]]
    first = join(client, game_id, codes[0], "annette").json()
    join(client, game_id, codes[1], "john")
    answer = client.post(f"/games/{game_id}/moves", json={"move": {"type": "add", "amount": 1}},
                         headers=bearer(first["token"]))
    assert answer.status_code == 201, answer.text
    assert answer.json()["description"].startswith("annette")
    listed = [g for g in client.get("/games").json() if g["id"] == game_id][0]
    assert listed["names"] == ["annette", "john"]
    events = client.get(f"/games/{game_id}/events").json()["events"]
    assert [e["type"] for e in events][:4] == ["Created", "SeatsInvited", "SeatJoined", "SeatJoined"]
    text = orjson.dumps(events).decode()
    assert first["token"] not in text and codes[0] not in text
    assert "token_hash" not in text and "invite_hash" not in text
    assert client.get(f"/games/{game_id}/audit/verify").json()["ok"] is True


def test_names_are_checked_and_unique_in_the_game(client):
    created = invited(client, players=2)
    game_id, codes = created["id"], [i["invite"] for i in created["invites"]]
    assert join(client, game_id, codes[0], "Ann").status_code == 201
    taken = join(client, game_id, codes[1], "ann")
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"
    bad = join(client, game_id, codes[1], "<b>x</b>")
    assert bad.status_code == 422
    assert join(client, game_id, codes[1], "bo").status_code == 201  # the invitation was not used up


def test_an_unknown_invitation_or_game_is_refused(client):
    """A wrong code for a game that exists is 403 `invite_invalid` (a 404 would say the game is
    gone: schemathesis ST302); 404 is for a game that does not exist."""
    created = invited(client, players=2)
    wrong = join(client, created["id"], "not-a-code", "ann")
    assert wrong.status_code == 403 and wrong.json()["error"] == "invite_invalid", wrong.text
    other = invited(client, players=2)
    foreign = join(client, other["id"], created["invites"][0]["invite"], "ann")
    assert foreign.status_code == 403 and foreign.json()["error"] == "invite_invalid"
    assert join(client, "00000000-0000-0000-0000-000000000000", "x", "ann").status_code == 404


def test_without_seating_the_answer_is_as_before(client):
    response = client.post("/games", json={"game": "api_count", "players": 2})
    assert response.status_code == 201 and "invites" not in response.json()
    assert len(response.json()["seats"]) == 2


def test_leaderboards_use_the_names_players_joined_under(client):
    response = client.post("/games", json={"game": "api_count", "players": 2, "seating": "invite",
                                           "options": {"target": 2}})
    created = response.json()
    codes = [i["invite"] for i in created["invites"]]
    tokens = [join(client, created["id"], codes[seat], name).json()["token"]
              for seat, name in enumerate(["zelda-joined", "yorick-joined"])]
    answer = client.post(f"/games/{created['id']}/moves", json={"move": {"type": "add", "amount": 2}},
                         headers=bearer(tokens[0]))
    assert answer.json()["status"] == "finished"
    leaders = {entry["player"] for entry in client.get("/scoreboard/api_count").json()["leaders"]}
    assert {"zelda-joined", "yorick-joined"} <= leaders


def test_a_bot_seat_gets_no_invitation(client):
    types = {t["name"]: t for t in client.get("/game-types").json()}
    level = (types["dice_duel"].get("bot_levels") or ["random"])[0]
    response = client.post("/games", json={"game": "dice_duel", "players": 2, "seating": "invite",
                                           "bots": {"1": level}})
    assert response.status_code == 201, response.text
    created = response.json()
    assert [i["seat"] for i in created["invites"]] == [0]
    assert client.get(f"/games/{created['id']}").json()["open_seats"] == [0]
