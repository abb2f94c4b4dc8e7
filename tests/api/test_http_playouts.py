"""Seeded random playouts over HTTP for every registered game type and player count.

The test follows only GET /games/{id}/legal-moves and POST /games/{id}/moves until the game
ends, then checks the status, the winners, and that a spectator's `state` never equals or
contains the hidden parts (what the full view shows and the spectator view does not), and
that no event shown to a spectator carries a private fact while the game runs. After the
undo below and at the end, the state replayed from the stored log (and the aggregate
rebuilt from snapshot + events) equals the live state (tests/api/test_replay_and_audit.py
checks it after every move). At move `UNDO_AT`+`UNDO_SPAN`
the referee undoes back to move `UNDO_AT`+1, and the state must equal the one after `UNDO_AT`.
Parametrized at collection from the registry, so each game is picked up as it lands.
"""

from __future__ import annotations

import importlib
import random

import orjson
import pytest

from domain.engine import EVERYONE, SPECTATOR, game_types
from domain.games import GAME_PACKAGES
from domain.engine import copy_state
from tests.support.api_client import TEST_GAMES, TestGame, replay_from_store

MAX_MOVES = 5000
CHECK_EVERY = 25
UNDO_AT, UNDO_SPAN = 6, 4

LOAD_ERRORS: dict[str, str] = {}
for _package in GAME_PACKAGES:
    try:
        importlib.import_module(f"domain.games.{_package}")
    except ModuleNotFoundError as _error:
        if _error.name != f"domain.games.{_package}":  # absent packages are not there yet
            LOAD_ERRORS[_package] = f"{type(_error).__name__}: {_error}"
    except Exception as _error:  # reported by the test below, not as a collection error
        LOAD_ERRORS[_package] = f"{type(_error).__name__}: {_error}"
for _module in TEST_GAMES:
    importlib.import_module(_module)

CASES = [pytest.param(rules.meta.name, players, id=f"{rules.meta.name}-{players}p")
         for rules in game_types()
         for players in range(rules.meta.min_players, rules.meta.max_players + 1)]


@pytest.mark.parametrize("package", sorted(LOAD_ERRORS) or [pytest.param(None, id="all-loaded")])
def test_every_game_package_imports(package):
    assert package is None, f"domain.games.{package} does not import: {LOAD_ERRORS.get(package)}"


def hidden_parts(full, public, path=()):
    """(path, full value) wherever the full view differs from the spectator view."""
    if isinstance(full, dict) and isinstance(public, dict):
        for key in full:
            yield from hidden_parts(full[key], public.get(key), path + (key,))
    elif isinstance(full, list) and isinstance(public, list) and len(full) == len(public):
        for index, (a, b) in enumerate(zip(full, public)):
            yield from hidden_parts(a, b, path + (index,))
    elif full != public:
        yield path, full


def masked(tree, paths, path=()):
    """`tree` with the values at `paths` replaced by None."""
    if path in paths:
        return None
    if isinstance(tree, dict):
        return {key: masked(value, paths, path + (key,)) for key, value in tree.items()}
    if isinstance(tree, list):
        return [masked(value, paths, path + (index,)) for index, value in enumerate(tree)]
    return tree


def at(tree, path):
    for key in path:
        if isinstance(tree, dict) and key in tree:
            tree = tree[key]
        elif isinstance(tree, list) and isinstance(key, int) and key < len(tree):
            tree = tree[key]
        else:
            return None
    return tree


def check_spectator_state(rules, live_state, shown_state, context):
    public = rules.view(live_state, SPECTATOR)
    assert shown_state == orjson.loads(orjson.dumps(public)), f"{context}: spectator state is not the public view"
    full = orjson.loads(orjson.dumps(rules.view(live_state, EVERYONE)))
    hidden = list(hidden_parts(full, shown_state))
    public_parts = orjson.dumps(masked(full, {path for path, _ in hidden}))
    shown = orjson.dumps(shown_state)
    for path, value in hidden:
        assert at(shown_state, path) != value, f"{context}: hidden part {path} shown to a spectator"
        encoded = orjson.dumps(value)
        if isinstance(value, (list, dict)) and len(encoded) >= 16:
            # A hidden value may also be public elsewhere (a completed card); it must not
            # show up more often than the public parts of the full view hold it.
            assert shown.count(encoded) <= public_parts.count(encoded), \
                f"{context}: hidden value at {path} appears in the spectator state"


def check_spectator_events(events, context):
    for event in events:
        for fact in event["facts"]:
            assert "private_to" not in fact, f"{context}: a private fact reached a spectator: {fact}"


def check_replay(service, game_id, live_state, context):
    assert replay_from_store(service, game_id) == live_state, f"{context}: replay of the log differs from live state"
    assert service.rebuilt(game_id).state == live_state, f"{context}: snapshot + events differ from live state"


@pytest.mark.slow
@pytest.mark.parametrize("game_type, players", CASES)
def test_random_playout_over_http(client, service, game_type, players):
    seed = 1000 + players
    chooser = random.Random(f"{game_type}:{players}")
    game = TestGame.create(client, game_type, players, seed=seed)
    rules = service.game(game.id).rules
    checked_version = 0
    moves = 0
    saved_state = None
    undone = False
    posted = 0
    while True:
        view = client.get(f"/games/{game.id}").json()
        context = f"{game_type} {players}p seed {seed} move {moves}"
        if view["status"] == "finished":
            break
        assert moves < MAX_MOVES and posted < MAX_MOVES + UNDO_SPAN, \
            f"{context}: no end after {MAX_MOVES} moves (cap hit)"
        live = service.game(game.id).state
        check_spectator_state(rules, live, view["state"], context)
        if moves % CHECK_EVERY == 0:
            events = game.events(None, after=checked_version)
            check_spectator_events(events, context)
            checked_version = events[-1]["version"] if events else checked_version
        if moves == UNDO_AT and saved_state is None:
            saved_state = copy_state(live)
        elif moves == UNDO_AT + UNDO_SPAN and saved_state is not None and not undone:
            undone = True
            undo = client.post(f"/games/{game.id}/undo", json={"to_move": UNDO_AT + 1, "reason": "test"},
                               headers={"Authorization": f"Bearer {game.referee_token}"})
            assert undo.status_code == 201 and undo.json()["status"] == "applied", f"{context}: {undo.text}"
            assert service.game(game.id).state == saved_state, f"{context}: state after undo is not move {UNDO_AT}'s"
            check_replay(service, game.id, saved_state, context)
            moves = UNDO_AT
            continue
        assert view["to_act"], f"{context}: nobody to act but the game is not over"
        seat = chooser.choice(view["to_act"])
        legal = game.legal(seat)
        assert legal["moves"], f"{context}: seat {seat} must act but has no legal move"
        answer = game.post_move(seat, chooser.choice(legal["moves"]), expected_version=legal["version"])
        assert answer.status_code == 201, f"{context}: {answer.text}"
        moves += 1
        posted += 1
    check_replay(service, game.id, service.game(game.id).state, f"{game_type} {players}p at the end")
    final = game.get()
    assert final["status"] == "finished" and final["move_count"] == moves
    assert final["winners"] or rules.meta.cooperative, f"{game_type}: finished without winners"
    assert final["winners"] == rules.winners(service.game(game.id).state)
