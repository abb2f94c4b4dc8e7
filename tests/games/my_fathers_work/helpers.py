"""Small state fixtures for My Father's Work rule tests (no Redis)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, copy_state, fold, new_game
from domain.engine.rng import Rng
from domain.games.my_fathers_work import RULES
from domain.games.my_fathers_work import content as C

SEED = 7


def settle(state, upto_turns=True):
    """Answer pending decisions with the first option until it is a player's turn."""
    n = 0
    while state["pending"] is not None and not state["over"]:
        pend = state["pending"]
        if pend["kind"] == "sim":
            seat = pend["waiting"][0]
            state, _ = act(state, seat, {"type": "commit", "option": pend["options"][str(seat)][0]})
        else:
            state, _ = act(state, pend["seat"], {"type": "choose", "option": pend["options"][0]})
        n += 1
        assert n < 200
    return state


def fresh(n=2, options=None, seed=SEED):
    """A game at its first turn (Generation I, round 1), straight from setup."""
    state, _ = new_game(RULES, n, options or {}, seed)
    return settle(state)


def blank(n=2, options=None):
    """A neutral turn state: seat 0 active and Start Player, empty hands, no money or resources,
    no Compulsions, Mob 12 / Suspicion 12, tracks at 0."""
    s = fresh(n, options)
    s["start_player"] = 0
    s["active"] = 0
    s["mob"], s["suspicion"] = 12, 12
    for pl in s["players"]:
        for card in pl["hand"]:
            s["decks"][C.EXPERIMENTS[card]["level"]].append(card)
        pl.update(money=0, hand=[], comps=[], mals=[], creepy=0, insanity=0, score=0)
        pl["res"] = {k: 0 for k in C.RESOURCES}
    return s


def act(state, seat, move, seed=SEED):
    facts = RULES.decide(state, seat, move, Rng(seed, 999))
    return fold(RULES.evolve, copy_state(state), facts), facts


def reject(state, seat, move, rule):
    before = copy_state(state)
    with pytest.raises(IllegalMove) as err:
        RULES.decide(state, seat, move, Rng(SEED, 999))
    assert err.value.rule_id == rule, err.value
    assert state == before


def choose(state, option, seat=None):
    pend = state["pending"]
    assert pend is not None and pend["kind"] != "sim", state["pending"]
    return act(state, pend["seat"] if seat is None else seat, {"type": "choose", "option": option})


def commit(state, seat, option):
    return act(state, seat, {"type": "commit", "option": option})


def place(state, seat, loc, pieces, **kw):
    return act(state, seat, {"type": "place", "loc": loc, "pieces": pieces, **kw})


def types(facts):
    return [f["type"] for f in facts]


def loc(id_, name, category="ingredient", reward=None, cost=None, penalties=None, no_self_bonus=False,
        repeatable=False, consult="", triggers=None):
    rec = {"id": id_, "name": name, "pages": [], "category": category, "suspicious": bool(penalties),
           "penalties": penalties or [], "cost_per_use": cost or [], "reward_per_use": reward or [],
           "no_self_bonus": no_self_bonus, "repeatable": repeatable, "consult_app": consult,
           "piece_triggers": triggers or []}
    C.check_location(rec, f"fixture {id_}")
    return rec


FIXTURE_LOCATIONS = {
    "fx-park": loc("fx-park", "Park", reward=[{"gain": "ingredient", "kind": "chemical", "n": 1}]),
    "fx-blacksmith": loc("fx-blacksmith", "Blacksmith", reward=[{"gain": "ingredient", "kind": "gear", "n": 1}]),
    "fx-cemetery": loc("fx-cemetery", "Cemetery", reward=[{"gain": "ingredient", "kind": "body", "n": 1}],
                       penalties=[{"move": "creepy", "steps": 1}, {"move": "mob", "steps": -1}]),
    "fx-library": loc("fx-library", "Library", "knowledge", reward=[{"choice": [
        [{"gain": "knowledge", "kind": "biology", "n": 1}], [{"gain": "knowledge", "kind": "chemistry", "n": 1}]]}]),
    "fx-church": loc("fx-church", "Church", "church", reward=[{"move": "creepy", "steps": -1}]),
    "fx-x1": loc("fx-x1", "Single Stall", reward=[{"gain": "ingredient", "kind": "gear", "n": 1}], no_self_bonus=True),
    "fx-union": loc("fx-union", "Union", "laborers_union", reward=[{"retrieve": "servant"}],
                    cost=[{"pay": "money", "n": 2}]),
    "fx-union-inf": loc("fx-union-inf", "Union Infinite", "laborers_union", reward=[{"retrieve": "servant"}],
                        cost=[{"pay": "money", "n": 1}], repeatable=True),
    "fx-builder": loc("fx-builder", "Builder's Office", "builders_office", reward=[{"upgrade": "buy"}]),
    "fx-hall": loc("fx-hall", "Town Hall", "town_hall", reward=[{"move": "mob", "steps": 1}, {"move": "insanity", "steps": -1}]),
    "fx-market": loc("fx-market", "Farmer's Market", reward=[{"gain": "ingredient", "kind": "animal", "n": 1}]),
    "fx-asylum": loc("fx-asylum", "Asylum", "special", reward=[{"gain": "vp", "n": 1}], consult="ev-asylum",
                     penalties=[{"move": "insanity", "steps": 1}]),
    "fx-paid": loc("fx-paid", "Paid Stall", reward=[{"gain": "ingredient", "kind": "gear", "n": 1}],
                   cost=[{"pay": "money", "n": 2}]),
    "fx-trigger": loc("fx-trigger", "Kennel", reward=[{"gain": "ingredient", "kind": "animal", "n": 1}],
                      triggers=[{"piece": "spouse", "effects": [{"gain": "vp", "n": 1}]}]),
}

EMPTY_SPACES = [{"above": [], "below": []} for _ in range(10)]

FIXTURE_TILES = {
    "fx-hedge": {"id": "fx-hedge", "name": "Hedge Maze", "set": "fixture", "price": 2, "cracked_border": True,
                 "penalties": [{"move": "creepy", "steps": 1}], "abilities": []},
    "fx-dungeon": {"id": "fx-dungeon", "name": "Dungeon", "set": "fixture", "price": 3, "cracked_border": True,
                   "penalties": [{"move": "creepy", "steps": 1}, {"move": "insanity", "steps": 1}], "abilities": []},
    "fx-plain1": {"id": "fx-plain1", "name": "Plain One", "set": "fixture", "price": 1, "cracked_border": False,
                  "penalties": [], "abilities": []},
    "fx-plain2": {"id": "fx-plain2", "name": "Plain Two", "set": "fixture", "price": 1, "cracked_border": False,
                  "penalties": [], "abilities": []},
    "fx-plain3": {"id": "fx-plain3", "name": "Plain Three", "set": "fixture", "price": 1, "cracked_border": False,
                  "penalties": [], "abilities": []},
    "fx-plain2b": {"id": "fx-plain2b", "name": "Plain Two", "set": "fixture", "price": 1, "cracked_border": False,
                   "penalties": [], "abilities": []},
}

MISTAKE = {"id": "fx-mistake", "title": "The Mistake", "level": "C", "type": "biology",
           "prerequisites": {"A": 1, "B": 2}, "cost_ingredients": {"gear": 1, "animal": 1},
           "cost_knowledge": {"biology": 4},
           "rewards": [{"move": "insanity", "steps": 1}, {"move": "creepy", "steps": 1},
                       {"gain": "ingredient", "kind": "body", "n": 1}, {"gain": "vp", "n": 10}], "consult_app": ""}


@pytest.fixture
def fx(monkeypatch):
    """Install the rulebook's fixture Locations, tiles and cards; neutral Insanity spaces."""
    for k, v in FIXTURE_LOCATIONS.items():
        monkeypatch.setitem(C.LOCATIONS, k, v)
    for k, v in FIXTURE_TILES.items():
        monkeypatch.setitem(C.UPGRADES, k, v)
    monkeypatch.setitem(C.EXPERIMENTS, "fx-mistake", MISTAKE)
    monkeypatch.setitem(C.INSANITY, "gen12", [dict(x) for x in EMPTY_SPACES])
    monkeypatch.setitem(C.INSANITY, "gen3", [dict(x) for x in EMPTY_SPACES])
    return monkeypatch


def town(state, *locs):
    state["town"] = list(locs)
    return state


def exp_card(monkeypatch, id_, level, ci=None, ck=None, rewards=None, type_="biology"):
    rec = {"id": id_, "title": f"Fixture {id_}", "level": level, "type": type_,
           "prerequisites": C.PREREQS[level], "cost_ingredients": ci or {}, "cost_knowledge": ck or {},
           "rewards": rewards or [], "consult_app": ""}
    monkeypatch.setitem(C.EXPERIMENTS, id_, rec)
    return id_


def run_ops(state, ops, seed=1):
    """Run queued engine ops (effects, flow steps) on a copy; return (state, facts)."""
    from domain.engine import Turn
    from domain.games.my_fathers_work.effects import Ctx, run
    ctx = Ctx(Turn(RULES, state), Rng(seed, 1), ops)
    run(ctx)
    return ctx.s, ctx.turn.facts


def full_game(n=2, seed=3, options=None):
    """Play a whole game with a seeded random client; return (final state, [(seat, move, facts)])."""
    import random as _random
    from domain.engine import play
    chooser = _random.Random(seed)
    state, setup = new_game(RULES, n, options or {}, seed)
    log = [(None, None, setup)]
    moves = 0
    while not RULES.is_over(state):
        seat = chooser.choice(list(RULES.decision(state).seats))
        legal = RULES.legal_moves(state, seat)
        busy = [m for m in legal if m["type"] not in ("pass", "end_turn")]
        move = chooser.choice(busy if busy and chooser.random() < 0.9 else legal)
        moves += 1
        state, facts = play(RULES, state, seat, move, seed, moves)
        log.append((seat, move, facts))
    return state, log


def all_facts(log):
    return [f for _, _, facts in log for f in facts]
