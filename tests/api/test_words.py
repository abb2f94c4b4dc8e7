"""Words at the service: labels with the legal moves, the prompt, descriptions everywhere,
and the board picture of a viewer at a step (issue 12.2-12.4, API.md "Words")."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import orjson
import pytest

from domain.games import load_all
from domain.engine import get_rules, presentation
from tests.games.test_words_tree import tree_problems
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


def board_svg(game: TestGame, who, step: int | None):
    params = {} if step is None else {"step": step}
    return game.client.get(f"/games/{game.id}/board.svg", params=params, headers=bearer(game.token(who)))


@pytest.mark.parametrize("game_type", GAMES)
def test_the_picture_of_a_viewer_at_every_step(client, service, game_type):
    """Now: the service's picture; at a step: the read side's (one path each, board.py)."""
    game = TestGame.create(client, game_type, 2, seed=4, names=["ann", "bo"])
    play_some(game, 6, seed=2)
    steps = game.get()["move_count"]
    for who in (None, 0, "referee"):
        assert ET.fromstring(service.picture(game.id, game.token(who))).tag.endswith("svg")
        for step in [0, steps // 2, steps, None]:
            answer = board_svg(game, who, step)
            assert answer.status_code == 200, answer.text
            assert ET.fromstring(answer.text).tag.endswith("svg")
    assert board_svg(game, None, steps).text == board_svg(game, None, None).text  # the last step is now
    too_far = board_svg(game, None, steps + 1)
    assert too_far.status_code == 422 and too_far.json()["steps"] == steps, too_far.text


def test_a_spectators_picture_at_a_step_is_drawn_from_the_public_view(client, monkeypatch):
    """The picture of step N is drawn from the view the caller had at step N."""
    from domain.engine import presentation

    game = TestGame.create(client, "api_count", 2, seed=1, options={"target": 100})
    game.move(0, {"type": "add", "amount": 2})
    game.move(1, {"type": "add", "amount": 1})
    seen = []
    monkeypatch.setattr(presentation, "picture",
                        lambda rules, view, viewer, names, scores: seen.append((view, viewer, names)) or "<svg/>")
    assert board_svg(game, None, 1).status_code == 200
    assert seen[-1][0]["count"] == 2 and seen[-1][1] == "spectator" and seen[-1][2] == ["seat 0", "seat 1"]


# ----------------------------------------------------------------------------- glossary and move tree (issue 24)

def test_the_glossary_endpoint_lists_the_same_entries(client):
    for game in GAMES:
        answer = client.get(f"/game-types/{game}/glossary")
        assert answer.status_code == 200, answer.text
        assert answer.json()["entries"] == presentation.glossary(get_rules(game))
    unknown = client.get("/game-types/chess/glossary")
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown_game_type", unknown.text


def test_legal_moves_answer_paths_and_targets(client):
    for game in GAMES:
        table = TestGame.create(client, game, 2, seed=2)
        seat = table.get()["to_act"][0]
        answer = table.legal(seat)
        assert len(answer["paths"]) == len(answer["targets"]) == len(answer["moves"]) == len(answer["labels"]) > 0
        assert not tree_problems(answer["paths"]), tree_problems(answer["paths"])


def test_a_prompt_names_a_face_down_cadaver_only_to_its_taker(client):
    """Issue 30.4: the prompt of a Cemetery cadaver choice (drawn face down) named the card to
    everyone. GET /games/{id} draws it from the caller's view: the taker reads the name, the other
    seat and a spectator do not."""
    import random as _random

    from domain.engine import EVERYONE, SPECTATOR, new_game, play

    rules = get_rules("abomination")
    state, _ = new_game(rules, 2, {}, 11)
    chooser, moves = _random.Random(11), []
    while rules.prompt(state) == rules.prompt(rules.view(state, SPECTATOR)):
        seat = chooser.choice(list(rules.decision(state).seats))
        move = chooser.choice(rules.legal_moves(state, seat))
        moves.append((seat, move))
        state, _ = play(rules, state, seat, move, 11, len(moves))
    taker = state["pending"][-1]["seat"]
    name = rules.prompt(state).rpartition("(")[2].rstrip(")")
    assert rules.prompt(rules.view(state, EVERYONE)) == rules.prompt(state)
    game = TestGame.create(client, "abomination", 2, seed=11)
    for seat, move in moves:
        game.move(seat, move)
    assert name in game.get(taker)["prompt"]
    for who in (1 - taker, None):
        shown = game.get(who)
        assert name not in shown["prompt"] and name not in orjson.dumps(shown).decode(), who


@pytest.mark.rule("HER-HIDDEN-01", "HER-HIDDEN-09")
def test_a_games_glossary_reads_what_the_caller_sees(client):
    """GET /games/{id}/glossary: the game type's keys, with the words of what the caller's view shows
    (Heredity's cards in play, their areas and characters); nothing the view hides."""
    game = TestGame.create(client, "heredity", 2, seed=2)
    typed = {e["key"]: e for e in client.get("/game-types/heredity/glossary").json()["entries"]}
    for who in (0, None):                                      # a seat and a spectator see the same table
        answer = game.client.get(f"/games/{game.id}/glossary", headers=bearer(game.token(who)))
        assert answer.status_code == 200, answer.text
        entries = {e["key"]: e for e in answer.json()["entries"]}
        assert set(entries) == set(typed)
        storm = entries["card:110"]                            # on the Timeline from the first card
        assert typed["card:110"]["name"] == "A card not yet revealed" != storm["name"]
        assert "Event" in storm["text"] and "7 tokens" in storm["text"]
        assert entries["card:142"]["name"] == "A card not yet revealed"         # the Swan Key: not yet seen
        assert "Swan Key" not in answer.text
    other = TestGame.create(client, "adas_dream", 2, seed=2)
    same = client.get(f"/games/{other.id}/glossary").json()["entries"]
    assert same == presentation.glossary(get_rules("adas_dream"))
    assert client.get("/games/nope/glossary").status_code == 404
