"""Small state fixtures for Abomination rule tests (no Redis)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, copy_state, fold, new_game, play
from domain.games.abomination import RULES
from domain.games.abomination.content import C, STAGED, STAGES
from domain.games.abomination.moves import canonical_pay


class FakeRng:
    """Scripted die results (tests supply the random outcomes directly)."""

    def __init__(self, dice=()):
        self.dice = list(dice)

    def die(self, sides=6):
        return self.dice.pop(0)

    def fork(self, label):
        return self


def blank(n=3, first=0, phase="city", active=0, rnd=1):
    st = RULES.initial_state(n, {})
    st["decks"] = {d: sorted(k for k, c in C.cadavers.items() if c["deck"] == d and not c.get("setAsideAtSetup"))
                   for d in ("cemetery", "morgue", "hospital", "publicSquare")}
    st["decks"]["scoundrel"] = sorted(C.scoundrels)
    st["decks"]["research"] = sorted(C.research)
    st["decks"]["humanity"] = sorted(C.humanity)
    st["decks"]["event"] = sorted(C.events)[:8] + sorted(C.encounters)[:4]
    st["displays"]["docks"] = [st["decks"]["scoundrel"].pop(0) for _ in range(3)]
    st["displays"]["academy"] = [st["decks"]["research"].pop(0) for _ in range(2)]
    st["displays"]["saintRoch"] = [st["decks"]["humanity"].pop(0) for _ in range(2)]
    st["displays"]["hospital"] = [st["decks"]["hospital"].pop(0) for _ in range(n)]
    st["setAside"] = [C.set_aside]
    st["objectives"] = ["scholar", "celebrity", "banker", "vivisector"]
    st["removedObjectives"] = ["saint", "hoarder"]
    for seat, p in enumerate(st["p"]):
        p["character"] = sorted(C.characters)[seat]
    st["first"] = first
    st["phase"] = phase
    st["active"] = active
    st["round"] = rnd
    st["captain"] = rnd
    return st


def lab(st):
    st["phase"] = "lab"
    st["active"] = None
    for p in st["p"]:
        p["labStep"], p["thrown"], p["done"], p["roll"] = 0, False, False, None
    return st


def mats(p, bone=0, **stages):
    """mats(p, I={"muscle": 1}, III={"animal": 1}, bone=2)."""
    p["decay"] = {s: {t: 0 for t in STAGED} for s in STAGES}
    for s, d in stages.items():
        for t, k in d.items():
            p["decay"][s][t] = k
    p["bone"] = bone
    return p


def spelled(move):
    """A build's payment written as the list spells it (units in the requirement's order): tests
    describe payments as sets of materials; the listed spelling is the one `decide` accepts."""
    if move.get("type") == "build" and isinstance(move.get("pay"), list):
        return dict(move, pay=canonical_pay(move["pay"]))
    return move


def do(st, seat, move, dice=None, seed=1):
    """Apply a move through the kernel (turn checks included). Returns (state, facts)."""
    move = spelled(move)
    if dice is None:
        return play(RULES, st, seat, move, seed, 1)
    facts = RULES.decide(copy_state(st), seat, move, FakeRng(dice))
    return fold(RULES.evolve, copy_state(st), copy_state(facts)), facts


def rejects(st, seat, move, rule):
    """The move is refused with `rule`, as the server answers: through the kernel's own checks first
    (game over, whose turn), then the game's `decide`; nothing changes."""
    before = copy_state(st)
    with pytest.raises(IllegalMove) as err:
        play(RULES, st, seat, spelled(move), 1, 1)
    assert err.value.rule_id == rule, err.value
    assert st == before
    return err.value


def types(facts):
    return [f["type"] for f in facts]


def game(n, seed=0, options=None):
    return new_game(RULES, n, options or {}, seed)


def begin_round(st, top=None):
    """Run the start of a round (Event phase) on `st` with `top` on top of the event deck."""
    from domain.engine import Turn
    from domain.games.abomination import flow
    if top is not None:
        if top in st["decks"]["event"]:
            st["decks"]["event"].remove(top)
        st["decks"]["event"].insert(0, top)
    turn = Turn(RULES, st)
    flow.start_round(turn)
    return turn.state, turn.facts
