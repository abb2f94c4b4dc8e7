"""Bots are seats, not referees (TABLE-BOT-01), and how a bot votes on a take-back (TABLE-BOT-03).

The rule is pure (domain/app/bot_turns.py): checked here over seeded random playouts of all four
games with a person at seat 0 and bots at the other seats, at every position."""

from __future__ import annotations

import random

import orjson
import pytest

from domain.app import REFEREE_CALLER, Caller, Game, hash_token
from domain.app.bot_turns import any_time_moves, bot_moves, bots_may_act
from domain.engine import get_rules, new_game, play
from domain.games import load_all
from tests.support import api_count  # noqa: F401  (registers the test game)

load_all()


def key(move) -> bytes:
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def controlled_alone(state: dict, seat: int, pc: str) -> bool:
    return state["control"][pc] == [seat]


def check_position(rules, state, person: int, bots: set[int]) -> int:
    """Every bot move allowed here leaves the person's decisions to the person; returns how many bot
    seats may act."""
    decision = rules.decision(state)
    acting = bots_may_act(rules, state, decision, bots)
    free = any_time_moves(rules)
    person_decides = person in decision.seats and any(
        not (isinstance(m, dict) and m.get("type") in free) for m in rules.legal_moves(state, person))
    for seat in acting:
        allowed = bot_moves(rules, state, decision, seat, bots)
        assert allowed, f"{rules.meta.name}: seat {seat} listed to act with no move allowed"
        assert decision.mode == "single" or not person_decides, "a bot acts while the person has a decision"
        if rules.meta.name == "heredity":
            theirs = {key(m) for m in rules.legal_moves(state, person)}
            assert not theirs & {key(m) for m in allowed if m.get("type") not in free}, \
                "a bot may take a decision the person may take"
            for move in allowed:
                pc = move.get("pc")
                if isinstance(pc, str) and move.get("type") not in free:
                    assert controlled_alone(state, seat, pc), f"a bot acts for {pc}, not its character alone"
    for seat in decision.seats:
        if seat in bots and decision.mode == "single":
            assert seat in acting, "the bot of the seat to act must act"
    return len(acting)


@pytest.mark.rule("TABLE-BOT-01")
@pytest.mark.parametrize("game, players, seeds", [
    ("my_fathers_work", 3, (1, 2)), ("abomination", 3, (1, 2)), ("adas_dream", 3, (1, 2)),
    pytest.param("heredity", 2, (1, 2), marks=pytest.mark.slow), pytest.param("heredity", 3, (4,), marks=pytest.mark.slow),
])
def test_a_bot_never_acts_for_a_persons_seat_or_character(game, players, seeds):
    rules = get_rules(game)
    person, bots = 0, set(range(1, players))
    acted = 0
    for seed in seeds:
        chooser = random.Random(seed)
        state, _ = new_game(rules, players, {}, seed)
        for move_no in range(1, 121):
            if rules.is_over(state):
                break
            acted += check_position(rules, state, person, bots)
            decision = rules.decision(state)
            seat = chooser.choice(list(decision.seats))
            if seat in bots:
                listed = bot_moves(rules, state, decision, seat, bots)
                if not listed:
                    seat = person if person in decision.seats else seat
            listed = (bot_moves(rules, state, decision, seat, bots) if seat in bots else None) or \
                rules.legal_moves(state, seat)
            state, _ = play(rules, state, seat, chooser.choice(listed), seed, move_no)
    assert acted > 0 or game == "heredity", "the bots never had a move to make: the check saw nothing"


@pytest.mark.rule("TABLE-BOT-01")
def test_heredity_a_bot_leaves_the_team_decisions_to_the_person():
    rules = get_rules("heredity")
    state, _ = new_game(rules, 2, {}, 1)
    decision = rules.decision(state)
    assert decision.mode == "team" and decision.seats == (0, 1)
    assert bot_moves(rules, state, decision, 1, {1}) == []           # the window: people go first
    everything = bot_moves(rules, state, decision, 1, {0, 1})          # no person: the bot plays anything
    assert {"type": "end_window"} in everything
    released = bot_moves(rules, state, decision, 1, {1}, released={0})  # the person passed / timed out
    assert {"type": "end_window"} in released and released == everything


@pytest.mark.rule("TABLE-BOT-01")
def test_simultaneous_steps_people_commit_first():
    rules = get_rules("abomination")
    state, _ = new_game(rules, 2, {}, 3)
    chooser = random.Random(3)
    for move_no in range(1, 400):
        decision = rules.decision(state)
        if decision.mode == "simultaneous" and 0 in decision.seats and 1 in decision.seats:
            assert bot_moves(rules, state, decision, 1, {1}) == []
            assert bots_may_act(rules, state, decision, {1}) == []
            assert bots_may_act(rules, state, decision, {0, 1}) == [0, 1]
            return
        seat = chooser.choice(list(decision.seats))
        state, _ = play(rules, state, seat, chooser.choice(rules.legal_moves(state, seat)), 3, move_no)
    pytest.fail("no simultaneous step with both seats found")


# ---- how a bot votes (TABLE-BOT-03)


def count_game(players: int = 3, bots: dict | None = None) -> Game:
    return Game.start("api_count", players, [f"p{i}" for i in range(players)], {"target": 100}, 7,
                      [hash_token(f"s{i}") for i in range(players)], hash_token("ref"), bots=bots)


def types(game: Game) -> list[str]:
    return [type(event).__name__ for event in game.collect_events()]


@pytest.mark.rule("TABLE-BOT-03")
def test_a_bot_approves_a_take_back_of_moves_it_did_not_answer_that_revealed_nothing():
    game = count_game(3, bots={"2": "normal"})
    game.play_move(Caller("seat", 0), {"type": "add", "amount": 1}, None)
    game.play_move(Caller("seat", 1), {"type": "add", "amount": 1}, None)
    answer = game.request_undo(Caller("seat", 0), 1, "misclick", now=0.0)
    assert answer == {"request_id": answer["request_id"], "status": "pending", "waiting_for": [1]}
    assert game.undo_requests[answer["request_id"]]["approvals"] == [2]   # the bot voted at once


@pytest.mark.rule("TABLE-BOT-03")
def test_a_bot_alone_settles_a_request_at_once():
    game = count_game(2, bots={"1": "normal"})
    game.play_move(Caller("seat", 0), {"type": "roll"}, None)
    answer = game.request_undo(Caller("seat", 0), 1, "", now=0.0)         # the roll revealed randomness
    assert answer["status"] == "rejected" and "random" in answer["outcome"]
    game.play_move(Caller("seat", 1), {"type": "add", "amount": 1}, None)
    game.play_move(Caller("seat", 0), {"type": "add", "amount": 1}, None)
    game.play_move(Caller("seat", 1), {"type": "add", "amount": 1}, None)
    answer = game.request_undo(Caller("seat", 0), 3, "", now=0.0)         # the bot has played since
    assert answer["status"] == "rejected" and "played since (move 4)" in answer["outcome"]
    assert types(game)[-3:] == ["UndoRequested", "UndoVoted", "UndoRejected"]


@pytest.mark.rule("TABLE-BOT-03")
def test_with_the_bot_approval_in_the_persons_vote_completes_it():
    game = count_game(3, bots={"2": "normal"})
    game.play_move(Caller("seat", 0), {"type": "add", "amount": 2}, None)
    game.play_move(Caller("seat", 1), {"type": "add", "amount": 1}, None)
    request_id = game.request_undo(Caller("seat", 0), 1, "", now=0.0)["request_id"]
    assert game.vote_undo(Caller("seat", 1), request_id, True, now=1.0)["status"] == "applied"
    assert game.state["count"] == 0
    kinds = types(game)
    assert kinds[kinds.index("UndoRequested"):] == ["UndoRequested", "UndoVoted", "UndoVoted", "MovesUndone"]


# ---- passing a step to the bots (TABLE-BOT-04)


def heredity_game(players: int = 2, bots: dict | None = None) -> Game:
    return Game.start("heredity", players, [f"p{i}" for i in range(players)], {}, 1,
                      [hash_token(f"s{i}") for i in range(players)], hash_token("ref"), bots=bots)


@pytest.mark.rule("TABLE-BOT-04")
def test_a_person_passes_the_window_to_the_bots_and_the_pass_is_used_once():
    game = heredity_game(2, bots={"1": "normal"})
    rules, seat0 = game.rules, Caller("seat", 0)
    decision = rules.decision(game.state)
    assert bot_moves(rules, game.state, decision, 1, game.bot_seats, game.released_seats()) == []
    assert game.pass_step(seat0)["passed"] == [0]
    version = game.version
    assert game.pass_step(seat0)["version"] == version              # passing again appends nothing
    allowed = bot_moves(rules, game.state, decision, 1, game.bot_seats, game.released_seats())
    assert {"type": "end_window"} in allowed
    window = decision.prompt
    own = next(m for m in allowed if m.get("pc") and game.state["control"][m["pc"]] == [1]
               and rules.decision(play(rules, game.state, 1, m, 1, 1)[0]).prompt == window)  # the window stays
    game.play_move(Caller("seat", 1), own, None, actor="bot:normal")  # the bot's own character: pass kept
    assert game.released_seats() == {0}
    game.play_move(Caller("seat", 1), {"type": "end_window"}, None, actor="bot:normal")
    assert game.released_seats() == set()                         # the team's decision used the pass
    assert [type(e).__name__ for e in game.collect_events()].count("SeatPassed") == 1


@pytest.mark.rule("TABLE-BOT-04")
def test_a_persons_own_move_ends_its_pass_and_passing_needs_a_team_step():
    game = heredity_game(2, bots={"1": "normal"})
    seat0 = Caller("seat", 0)
    game.pass_step(seat0)
    move = next(m for m in game.rules.legal_moves(game.state, 0) if m["type"] == "move")
    game.play_move(seat0, move, None)
    assert game.released_seats() == set()
    from domain.app.errors import InvalidUndo, NotYourSeat
    with pytest.raises(NotYourSeat):
        game.pass_step(REFEREE_CALLER)
    single = count_game(2, bots={"1": "normal"})
    with pytest.raises(InvalidUndo) as refusal:
        single.pass_step(Caller("seat", 0))
    assert refusal.value.extra["rule"] == "TABLE-BOT-04"
