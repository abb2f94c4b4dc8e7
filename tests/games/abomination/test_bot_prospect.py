"""The bot's monster prospect (domain/games/abomination/bot.py): what held Leyden jars can still
bring to life is valued before the throw, so the search buys, charges and throws jars."""

from __future__ import annotations

from domain.games.abomination.bot import evaluate, monster_prospect

from .helpers import blank, lab


def part(kind, side="skin", alive=False):
    return {"type": kind, "side": side, "damage": 0, "alive": alive}


def test_jars_are_worth_the_alive_points_they_can_still_bring():
    st = lab(blank(2))
    p = st["p"][0]
    p["parts"] = [part("head"), part("arm"), part("leg", "muscle"), part("torso", alive=True)]
    assert monster_prospect(st, 0) == 0.0                       # no jar, nothing to throw
    p["jars"] = [False]
    uncharged = monster_prospect(st, 0)
    p["jars"] = [True]
    charged = monster_prospect(st, 0)
    assert 0 < uncharged < charged                               # a charge brings a throw nearer
    p["jars"] = [True] * 4
    three = monster_prospect(st, 0)
    p["jars"] = [True] * 3
    assert monster_prospect(st, 0) == three                      # at most 3 jars per throw (ABOM-SWITCH-02)
    p["blue"] = 2
    assert monster_prospect(st, 0) > three                       # blue dice show ALIVE more often
    p["parts"] = [part("leg", "muscle"), part("torso", alive=True)]
    assert monster_prospect(st, 0) == 0.0                       # no skin part without a marker to wake
    p["parts"] = [part("head")]
    assert evaluate(st)[1][0] == evaluate(st)[1][1] + monster_prospect(st, 0) > evaluate(st)[1][1]


def test_jars_are_worth_nothing_once_no_throw_is_left():
    st = lab(blank(2))
    p = st["p"][0]
    p["parts"], p["jars"] = [part("head")], [True, True]
    st["round"] = 12
    assert monster_prospect(st, 0) > 0                           # round 12's throw is still to come
    p["thrown"] = True
    assert monster_prospect(st, 0) == 0.0                       # the last Lab phase's throw is spent
