"""Fixture helpers: a game object over an injected state, and one-line move/choice/rejection calls."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove, copy_state, fold, new_game
from domain.engine.rng import Rng
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C
from domain.games.adas_dream.state import choice_options, new_flow


NEUTRAL_OBJECTIVES = {"study": "obj_study_B1", "travel": "obj_travel_B1", "meeting": "obj_meeting_B2",
                      "institution": "obj_institution_B1"}


def die(c, v):
    return {"c": c, "v": v}


class G:
    """A game under test. `s` is the live state; `do` plays a move through decide + evolve."""

    def __init__(self, n=2, seed=1, neutral=True, **options):
        self.s, self.setup_facts = new_game(RULES, n, options, seed)
        self.seed = seed
        self.no = 0
        self.facts = []
        if neutral:
            for seat in range(n):
                self.neutral(seat)
            # catalog 6 "no Objective in play can become fulfilled": hard-to-meet tiles
            self.s["objectives"] = dict(NEUTRAL_OBJECTIVES)

    def neutral(self, seat):
        """Catalog 6: resources, Innovation 0; known 8-card supply (hand 4, deck 4)."""
        p = self.p(seat)
        p.update(money=0, coal=0, brass=0, book=0, innov=0)
        cards = [f"start{k}#{seat}" for k in range(1, 8)] + [f"t1_{seat + 1:02d}"]
        p["hand"], p["deck"], p["discard"] = cards[:4], cards[4:], []
        p["known_partners"] = cards[:7]                  # the tier-1 card was dealt face down (catalog 5.1)

    def p(self, seat):
        return self.s["players"][seat]

    @property
    def fl(self):
        return self.s["flow"]

    @property
    def active(self):
        return self.fl["seat"]

    def top(self):
        return self.fl["agenda"][-1] if self.fl["agenda"] else None

    def opts(self):
        top = self.top()
        assert top and top["k"] == "choice", f"no pending choice: {top}"
        return choice_options(self.s, top)

    def do(self, seat, move):
        self.no += 1
        facts = RULES.decide(self.s, seat, move, Rng(self.seed, self.no))
        self.s = fold(RULES.evolve, copy_state(self.s), facts)
        self.facts = facts
        return facts

    def move(self, **move):
        return self.do(self.active, move)

    def pick(self, value, seat=None):
        return self.do(self.active if seat is None else seat, {"type": "choose", "option": value})

    def rej(self, rule, seat=None, **move):
        with pytest.raises(IllegalMove) as err:
            RULES.decide(self.s, self.active if seat is None else seat, move, Rng(self.seed, self.no + 1))
        assert err.value.rule_id == rule, err.value
        return err.value

    def rej_pick(self, rule, value):
        return self.rej(rule, type="choose", option=value)

    def legal(self, seat=None):
        return RULES.legal_moves(self.s, self.active if seat is None else seat)

    def types(self, seat=None):
        return {m["type"] for m in self.legal(seat)}

    def facts_of(self, kind):
        return [f for f in self.facts if f["type"] == kind]

    def effect(self, e, seat=None):
        """Resolve an Effect (3.1) for the active seat mid-turn (then the end-of-turn options wait)."""
        from domain.engine import Turn
        from domain.games.adas_dream import resolver as R
        seat = self.active if seat is None else seat
        self.fl.update(ttype="actions", area="study")
        self.fl["agenda"] = [{"k": "phase", "name": "endopt"}]
        self.no += 1
        turn = Turn(RULES, self.s)
        ctx = R.Ctx(turn, Rng(self.seed, self.no), seat)
        R.eff(ctx, seat, e)
        R.run(ctx)
        self.facts = ctx.commit()
        self.s = turn.state
        return self.facts

    # --- fixture shortcuts -------------------------------------------------------------
    def store(self, seat, *dice):
        p = self.p(seat)
        p["store"] = list(dice) + [None] * (C.STORE_SLOTS - len(dice))

    def set_flow(self, seat):
        self.s["flow"] = new_flow(seat)
        self.s["active"] = seat

    def uncover(self, seat, *spaces):
        for g in spaces:
            self.p(seat)["covered"][g] = False

    def actions_turn(self, seat, colour, value, area=None, slot=4):
        """Put one die in the Store and take an Actions turn with it into Mill `slot`."""
        self.store(seat, die(colour, value))
        self.move(type="actions", die=0, slot=slot, action=area or C.COLOUR_AREA[colour])

    def skip_to_end(self):
        """Answer phases with skip/end_turn until the turn passes (choices must already be settled)."""
        seat = self.active
        for _ in range(20):
            if self.active != seat or self.s["over"]:
                return
            top = self.top()
            if top is None:
                return
            if top["k"] == "choice":
                if top["kind"] == "hand_limit":
                    self.pick(self.opts()[0])
                    continue
                if top["optional"]:
                    self.pick(None)
                    continue
                raise AssertionError(f"unexpected pending choice {top}")
            if top["name"] in ("ws6", "adv"):
                self.move(type="skip")
            else:
                self.move(type="end_turn")
