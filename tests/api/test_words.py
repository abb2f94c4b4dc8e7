"""Words at the service: labels with the legal moves, the prompt, descriptions everywhere,
and the board picture of a viewer at a step (issue 12.2-12.4, API.md "Words")."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import orjson
import pytest

from domain.games import load_all
from tests.support.api_client import TestGame, bearer

GAMES = ["my_fathers_work", "abomination", "adas_dream", "heredity"]
load_all()


def play_some(game: TestGame, moves: int, seed: int) -> list[dict]:
    chooser = random.Random(seed)
    answers = []
    for _ in range(moves):
        view = game.get()
        if view["status"] == "finished":
            break
        seat = chooser.choice(view["to_act"])
        listed = game.legal(seat)
        assert len(listed["labels"]) == len(listed["moves"])
        assert all(isinstance(label, str) and label.strip() for label in listed["labels"])
        answers.append(game.move(seat, chooser.choice(listed["moves"]), expected_version=listed["version"]))
    return answers


@pytest.mark.parametrize("game_type", GAMES)
def test_labels_prompt_and_descriptions_of_every_game(client, game_type):
    game = TestGame.create(client, game_type, 2, seed=3, names=["annette", "john"])
    view = game.get()
    assert isinstance(view["prompt"], str) and view["prompt"].strip()
    answers = play_some(game, 12, seed=5)
    assert answers and all(a["description"].strip() for a in answers)
    log = client.get(f"/games/{game.id}/moves-log").json()
    assert [a["description"] for a in answers] == [m["description"] for m in log]
    listed = [e for e in game.events() if e["type"] == "MovePlayed"]
    assert [e["description"] for e in listed] == [a["description"] for a in answers]
    assert "Seat 0" not in " ".join(a["description"] for a in answers)  # names written in


def test_a_spectator_and_the_referee_get_no_labels(client):
    game = TestGame.create(client, "adas_dream", 2, seed=1)
    answer = client.get(f"/games/{game.id}/legal-moves", headers=bearer(game.referee_token)).json()
    assert answer["moves"] == [] and answer["labels"] == []


def test_the_stream_carries_descriptions(client):
    game = TestGame.create(client, "api_count", 2, seed=1, options={"target": 100})
    first = game.move(0, {"type": "add", "amount": 2})
    response = client.get(f"/games/{game.id}/stream", params={"follow": "false"})
    events = [orjson.loads(line[len("data: "):]) for line in response.text.splitlines() if line.startswith("data: ")]
    played = [e for e in events if e["type"] == "MovePlayed"]
    assert played and played[0]["description"] == first["description"] != ""


def test_an_idempotent_retry_repeats_the_description(client):
    game = TestGame.create(client, "api_count", 2, seed=1, options={"target": 100})
    first = game.move(0, {"type": "add", "amount": 1}, key="k1")
    again = game.move(0, {"type": "add", "amount": 1}, key="k1")
    assert again["description"] == first["description"] != ""


@pytest.mark.parametrize("game_type", GAMES)
def test_the_picture_of_a_viewer_at_every_step(client, service, game_type):
    game = TestGame.create(client, game_type, 2, seed=4, names=["ann", "bo"])
    play_some(game, 6, seed=2)
    steps = game.get()["move_count"]
    for step in [0, steps // 2, steps, None]:
        for who in (None, 0, "referee"):
            svg = service.picture(game.id, game.token(who), step)
            root = ET.fromstring(svg)
            assert root.tag.endswith("svg")
    from domain.app import StepOutOfRange

    with pytest.raises(StepOutOfRange):
        service.picture(game.id, None, steps + 1)


def test_a_spectators_picture_at_a_step_is_drawn_from_the_public_view(service, monkeypatch):
    """The picture of step N is drawn from the view the caller had at step N."""
    from domain.engine import presentation

    created = service.create_game("api_count", 2, None, {"target": 100}, 1)
    tokens = [s["token"] for s in created["seats"]]
    service.play(created["id"], tokens[0], {"type": "add", "amount": 2})
    service.play(created["id"], tokens[1], {"type": "add", "amount": 1})
    seen = []
    monkeypatch.setattr(presentation, "picture",
                        lambda rules, view, viewer, names, scores: seen.append((view, viewer, names)) or "<svg/>")
    service.picture(created["id"], None, 1)
    assert seen[-1][0]["count"] == 2 and seen[-1][2] == ["seat 0", "seat 1"]
