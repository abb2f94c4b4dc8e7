"""What the generic bot asks of each game, and the defaults when a game says nothing.

A game's `bot.py` (domain/games/<game>/bot.py) may define:

- `knowledge(state, viewer) -> dict`: everything `viewer` knows, in the shape of a state, with
  every hidden part blanked. It is the ONLY function the bot calls on a real state; the search
  works from its result alone, so a bot cannot see what its seat cannot.
- `sample(knowledge, viewer, rng) -> state`: one full state consistent with that knowledge (the
  blanks filled at random from what is still unseen): a determinization.
- `rollout_move(state, seat, moves, rng) -> move` (optional): the rollout policy (default: uniform).
- `evaluate(state) -> (wins, scores)` (optional): per seat, an estimated win probability and an
  expected final score for a position the search stops in (default: from the running scores).
- `SCORE_SCALE` (optional): how many points make a clear lead (default 10).
- `candidates(state, seat, moves) -> moves` (optional): the legal moves worth searching, a non-empty
  sub-list of `moves` in their order (default: all of them). For lists where many moves have the
  same effect (the slot a token goes on) or never help (attacking one's own ally); the search
  applies it at the root (not when the analysis must value every move) and in the tree (not in
  the playouts, where `rollout_move` may filter more cheaply). It must read only what `state`
  shows the seat (it is called on samples and knowledge).
- `ROLLOUT_DEPTH` (optional): at most this many playout moves past the tree, whatever the level
  says (default: the level's); 0 values each new node by `evaluate` alone, for a game whose
  evaluation knows more than a few random moves can show.

A game without hidden information needs nothing: its knowledge is its state.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from domain.engine import copy_state


def _game_module(name: str) -> ModuleType | None:
    """The bot.py of the four hosted games (imported here, late: they use `domain.bots.blanks`)."""
    if name == "abomination":
        from domain.games.abomination import bot
    elif name == "adas_dream":
        from domain.games.adas_dream import bot
    elif name == "heredity":
        from domain.games.heredity import bot
    elif name == "my_fathers_work":
        from domain.games.my_fathers_work import bot
    else:
        return None
    return bot


class Hooks:
    """The bot hooks of one game, with the defaults filled in."""

    def __init__(self, rules: Any) -> None:
        module = getattr(rules, "bot", None) or _game_module(rules.meta.name)
        self.rules = rules
        self.module = module
        if module is None and rules.meta.hidden_information:
            raise LookupError(f"{rules.meta.name} hides information but has no bot.py to sample it")
        self.knowledge = getattr(module, "knowledge", None) or _full_knowledge
        self.sample = getattr(module, "sample", None) or _no_blanks
        self.rollout_move = getattr(module, "rollout_move", None)
        self.evaluate = getattr(module, "evaluate", None)
        self.score_scale = float(getattr(module, "SCORE_SCALE", 10))
        self.rollout_depth = getattr(module, "ROLLOUT_DEPTH", None)
        self.candidates = getattr(module, "candidates", None) or _all_moves


def _full_knowledge(state: dict, viewer: Any) -> dict:
    return copy_state(state)


def _all_moves(state: dict, seat: Any, moves: list) -> list:
    return moves


def _no_blanks(knowledge: dict, viewer: Any, rng: Any) -> dict:
    return copy_state(knowledge)


_CACHE: dict[str, Hooks] = {}


def hooks_for(rules: Any) -> Hooks:
    name = rules.meta.name
    if name not in _CACHE or _CACHE[name].rules is not rules:
        _CACHE[name] = Hooks(rules)
    return _CACHE[name]
