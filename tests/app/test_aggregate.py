"""The `Game` aggregate on its own, without a store: it rebuilds itself after an undo."""

from __future__ import annotations

from domain.app import REFEREE_CALLER, Caller, Game, hash_token
from domain.engine import fold, get_rules
from tests.support import api_count  # noqa: F401  (registers the test game)


def new_game() -> Game:
    return Game.start("api_count", 2, ["ann", "bo"], {"target": 100}, 7,
                      [hash_token("s0"), hash_token("s1")], hash_token("ref"))


def folded(game: Game) -> dict:
    """The state folded from scratch from the aggregate's own events."""
    rules = get_rules("api_count")
    events = game.collect_events()
    created = events[0]
    undone = {v for e in events if isinstance(e, Game.MovesUndone) for v in e.undone_versions}
    state = fold(rules.evolve, rules.initial_state(created.players, created.options), created.setup_facts)
    for event in events:
        if isinstance(event, Game.MovePlayed) and event.originator_version not in undone:
            state = fold(rules.evolve, state, event.facts)
    return state


def test_an_undo_refolds_the_state_from_the_aggregates_own_facts():
    game = new_game()
    for seat, amount in [(0, 1), (1, 2), (0, 2), (1, 1)]:
        game.play_move(Caller("seat", seat), {"type": "add", "amount": amount}, None)
    assert game.state["count"] == 6
    answer = game.request_undo(REFEREE_CALLER, 2, "misclick")
    assert answer["status"] == "applied"
    assert game.state is not None and game.state["count"] == 1 and game.last_move_no == 1
    game.play_move(Caller("seat", 1), {"type": "add", "amount": 1}, None)
    assert game.state["count"] == 2
    assert game.state == folded(game)


def test_a_rebuilt_aggregate_equals_the_live_one_after_an_undo():
    game = new_game()
    for seat, amount in [(0, 1), (1, 2), (0, 2)]:
        game.play_move(Caller("seat", seat), {"type": "add", "amount": amount}, None)
    game.request_undo(REFEREE_CALLER, 3, "")
    events = game.collect_events()
    copy = None
    for event in events:
        copy = event.mutate(copy)
    assert copy.state == game.state and copy.effective == game.effective and copy.scores == game.scores
