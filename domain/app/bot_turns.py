"""Bots are seats, not referees of the table (TABLE-BOT-01): which moves a bot seat may play now.

One pure rule, used by every runner of bots (`GameService.bots_to_act` and `play_bot`), so the
thread in api/bot_runner.py and the worker processes act the same:

- A bot plays only moves of its own seat, and never one a person's seat could play now: in a window
  where several seats may act, people go first.
- ``single``: the seat to act is the bot's: all its legal moves.
- ``simultaneous``: the bot commits once no person is still to commit (people first; a commit is
  hidden, so waiting costs the bot nothing and no person's click races a bot's).
- ``team`` (cooperative, any listed seat may act, e.g. Heredity): people go first here too. While a
  listed person has a decision of its own (a move that is not one a seat may make at any time, see
  below), the bots wait: they do not end the action window, answer for the team or the shared
  character, nor move their own characters under the person's hands. The person passes the step
  (`Game.pass_step`, TABLE-BOT-04) to let them play, the team's decisions included; a decision about
  a character only a bot controls (the person's list holds nothing but any-time moves) is the bot's.
  Moves a seat may make at any time without answering the decision (a game's bot hook
  `ANY_TIME_MOVES`: Heredity's voluntary injuries and free drops) never count as a turn: a bot left
  with only those waits, and a person left with only those has no decision of its own.
- A person who has passed or whose clock ran out (`released`) counts as a bot for this rule.

When every seat listed is a bot (or released), nothing changes: bots play as before.
"""

from __future__ import annotations

from typing import Any, Collection

from domain.engine import Decision


def any_time_moves(rules: Any) -> frozenset:
    """Move types a seat may play at any time, never the answer to the decision (bot hook)."""
    from domain.bots.hooks import hooks_for

    return frozenset(getattr(hooks_for(rules).module, "ANY_TIME_MOVES", ()))


def _only_any_time(moves: list, free: frozenset) -> bool:
    return all(isinstance(move, dict) and move.get("type") in free for move in moves)


def bot_moves(rules: Any, state: dict, decision: Decision, seat: int, bots: Collection[int],
              released: Collection[int] = ()) -> list[dict]:
    """The moves the bot of `seat` may play now (empty: it waits). See the module docstring."""
    if seat not in decision.seats or seat not in bots:
        return []
    people = [other for other in decision.seats if other not in bots and other not in released and other != seat]
    if not people or decision.mode == "single":
        return rules.legal_moves(state, seat)
    if decision.mode != "team":  # simultaneous: people commit first
        return []
    free = any_time_moves(rules)
    if any(not _only_any_time(rules.legal_moves(state, person), free) for person in people):
        return []  # a person has a decision to take: people go first
    own = rules.legal_moves(state, seat)
    return [] if _only_any_time(own, free) else own


def bots_may_act(rules: Any, state: dict, decision: Decision, bots: Collection[int],
                 released: Collection[int] = ()) -> list[int]:
    """The bot seats that have a move to play now (TABLE-BOT-01)."""
    listed = [seat for seat in decision.seats if seat in bots]
    if all(seat in bots or seat in released for seat in decision.seats):
        return listed  # no person to wait for: as before (no legal-move lists computed)
    return [seat for seat in decision.seats if seat in bots and bot_moves(rules, state, decision, seat, bots, released)]
