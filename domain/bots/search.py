"""Determinized Monte Carlo tree search (single-observer information-set MCTS).

Each iteration samples one full state consistent with what the seat knows (the game's `sample`
hook), walks a tree of moves shared by all samples (a move's node is reused whenever the move
is legal in the sampled state; UCB counts how often it was available), adds one node, plays on
at random (or by the game's rollout policy) for a bounded number of moves, values the position
reached and credits every node on the path from the point of view of the seat that moved.

The root's moves are the real legal moves of the seat (complete and binding, from the rules on
the real state); deeper levels use the rules on the sampled state. Everything random comes from
`Rng(seed, ...)`, so a search is a pure function of (knowledge, moves, level, seed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import orjson

from domain.engine import IllegalMove, Rng

from .evaluate import outcome, utility
from .hooks import Hooks
from .levels import Level


def move_key(seat: int, move: dict) -> bytes:
    return orjson.dumps([seat, move], option=orjson.OPT_SORT_KEYS)


class Node:
    __slots__ = ("seat", "move", "children", "visits", "avail", "total", "wins", "scores")

    def __init__(self, seat: int, move: dict | None, players: int) -> None:
        self.seat = seat
        self.move = move
        self.children: dict[bytes, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0                       # summed utility for `seat`
        self.wins = [0.0] * players            # summed win estimates, every seat
        self.scores = [0.0] * players          # summed final-score estimates, every seat

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Result:
    """What a search found: the chosen move and, per root move, its statistics."""

    move: dict
    root: Node
    candidates: list[tuple[dict, Node]] = field(default_factory=list)
    iterations: int = 0
    failures: int = 0

    def win_probability(self) -> list[float]:
        return [w / self.root.visits for w in self.root.wins] if self.root.visits else []

    def expected_score(self) -> list[float]:
        return [s / self.root.visits for s in self.root.scores] if self.root.visits else []


def _actor(decision: Any, rng: Rng) -> int:
    seats = decision.seats
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def search(rules: Any, hooks: Hooks, knowledge: dict, seat: int, moves: list[dict], level: Level, seed: int,
           players: int, *, min_visits: int = 0) -> Result:
    """Search from `knowledge` (never a real state) for `seat`, choosing among `moves`.

    `min_visits`: every root move is tried at least this often before UCB takes over (the
    analysis uses it so a played move always has a value to compare)."""
    root = Node(seat, None, players)
    if not min_visits:                       # the analysis values every listed move: no pruning then
        moves = hooks.candidates(knowledge, seat, moves) or moves
    keyed = [(move_key(seat, m), m) for m in moves]
    failures = 0
    depth = level.rollout_depth if hooks.rollout_depth is None else min(level.rollout_depth, hooks.rollout_depth)
    iterations = max(level.budget(len(moves)), min_visits * len(moves))
    for iteration in range(iterations):
        rng = Rng(seed, f"bot/{iteration}")
        try:
            state = hooks.sample(knowledge, seat, rng.fork("sample"))
        except Exception:  # noqa: BLE001 - a sampler that cannot fill this knowledge: skip the sample
            failures += 1
            continue
        forced = keyed[iteration % len(keyed)] if iteration < min_visits * len(keyed) else None
        try:
            path, state = _descend(rules, hooks, root, state, seat, keyed, forced, level, rng, players)
            if len(path) > 1:
                state = _rollout(rules, hooks, state, depth, rng.fork("rollout"))
        except Exception:  # noqa: BLE001 - an inconsistent sample, see `_descend`
            failures += 1
            continue
        if len(path) == 1:
            failures += 1
            continue
        wins, scores = outcome(rules, state, hooks)
        for node in path:
            node.visits += 1
            node.total += utility(rules, wins, scores, node.seat, hooks.score_scale) if node.move is not None else 0.0
            for k in range(players):
                node.wins[k] += wins[k]
                node.scores[k] += scores[k]
    candidates = [(m, root.children[k]) for k, m in keyed if k in root.children]
    best = max(candidates, key=lambda c: (c[1].visits, c[1].mean()), default=None)
    chosen = best[0] if best else Rng(seed, "bot/fallback").choice(moves)
    return Result(chosen, root, candidates, iterations, failures)


def _descend(rules, hooks, root, state, seat, keyed, forced, level, rng, players):
    """Select and expand: the path of nodes walked and the state reached (a path of the root
    alone: the root move chosen is not legal in this sample, which knew less than the real state).

    A sample is a guess at what the seat cannot see, so it can be inconsistent in ways the real
    game never is (a card the guess placed elsewhere); the rules may then raise anything. The
    iteration is dropped and counted in `Result.failures` (tests/bots keep that rate low)."""
    node, path, step = root, [root], 0
    while not rules.is_over(state):
        if node is root:
            actor, options = seat, keyed
        else:
            actor = _actor(rules.decision(state), rng)
            legal = rules.legal_moves(state, actor)
            options = [(move_key(actor, m), m) for m in (hooks.candidates(state, actor, legal) if legal else legal)]
        if not options:
            return path, state
        if node is root and forced is not None:
            key, move = forced
        else:
            key, move = _select(node, options, level.exploration, rng)
        step += 1
        try:
            facts = rules.decide(state, actor, move, rng.fork(f"tree/{step}"))
        except IllegalMove:  # the move is not legal in this sample (it knew less than the real state)
            if node is root:
                return path, state
            raise
        for record in facts:
            state = rules.evolve(state, record)
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node(actor, move, players)
            child.avail = 1
            path.append(child)
            return path, state
        path.append(child)
        node = child
    return path, state


def _select(node: Node, options: list, exploration: float, rng: Rng):
    untried = [o for o in options if o[0] not in node.children]
    for key, _ in options:
        child = node.children.get(key)
        if child is not None:
            child.avail += 1
    if untried:
        return rng.choice(untried)
    best, best_value = options[0], -math.inf
    for option in options:
        child = node.children[option[0]]
        value = child.mean() + exploration * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
        if value > best_value:
            best, best_value = option, value
    return best


def _rollout(rules, hooks, state, depth: int, rng: Rng):
    """Play on for up to `depth` moves (uniformly, or by the game's policy)."""
    policy = hooks.rollout_move
    for step in range(depth):
        if rules.is_over(state):
            break
        decision = rules.decision(state)
        if not decision.seats:
            break
        actor = _actor(decision, rng)
        moves = rules.legal_moves(state, actor)
        if not moves:
            break
        move = policy(state, actor, moves, rng) if policy else rng.choice(moves)
        try:
            facts = rules.decide(state, actor, move, rng.fork(f"roll/{step}"))
        except IllegalMove:  # a rollout policy's move the rules refuse: value the position here
            break
        for record in facts:
            state = rules.evolve(state, record)
    return state
