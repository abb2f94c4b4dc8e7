"""Content loading: the sample chapter validates; malformed records raise clear ContentErrors."""

import copy

import pytest

from domain.engine import ContentError
from domain.games.heredity.content import Content
from domain.games.heredity.lang import compile_block

from .helpers import BASE


def broken(mutate):
    data = copy.deepcopy(BASE)
    mutate(data)
    return data


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["terrain"][0]["front"]["lines"].append({"a": "o1", "b": "zz", "colour": "white"}), "not an area"),
    (lambda d: d["terrain"][0]["front"]["lines"].append({"a": "o1", "b": "o2", "colour": "pink"}), "colour"),
    (lambda d: d["narrative"][1]["front"].update(instructions="JUMP 3"), "unknown instruction"),
    (lambda d: d["narrative"][1]["front"].update(anchor={"colour": "teal"}), "colour"),
    (lambda d: d["karma"].pop(0), "one card of each type"),
    (lambda d: d["item"].append(copy.deepcopy(d["item"][0])), "duplicate card number"),
    (lambda d: d["karma"][0].update(number=5), "Secrets deck"),
    (lambda d: d["karma"].pop(), "must hold 29 cards"),
    (lambda d: d["item"][4]["front"]["slots"][1].pop("icons"), "needs an action icon"),
    (lambda d: d["narrative"][3]["front"].pop("trigger"), "must state its trigger"),
    (lambda d: d["chapter"]["chapter_setup"].update({"3": 140}), "setup card"),
    (lambda d: d["terrain"][0]["front"]["lof"].append({"from": "o1", "to": "zz", "lines": ["white"]}), "line-of-fire area"),
    (lambda d: d["terrain"][0]["front"]["lof"].append({"from": "o1", "to": "o2", "lines": ["pink"]}), "line-of-fire colour"),
])
def test_bad_content_is_refused_with_a_clear_message(mutate, message):
    with pytest.raises(ContentError, match=message):
        Content(broken(mutate), "broken")


def test_language_round_trip():
    ops = compile_block("IF c THEN FLIP ELSE TAKE 967 END".replace("c", "TOKENS(self) = 0"), "t")
    assert ops == [{"op": "if", "cond": {"c": "tokens", "target": {"card": None}, "kind": "generic", "cmp": "=", "k": 0},
                    "then": [{"op": "flip", "card": None}], "else": [{"op": "take", "card": 967}]}]
    nested = compile_block("IF TOKENS(self) > 1 THEN (BURN 3 ELSE FLIP 4) END; ANCHOR red ELSE BURN", "t")
    assert nested[0]["then"][0]["op"] == "else" and nested[1] == {
        "op": "else", "first": {"op": "anchor", "colour": "red", "vertical": False}, "second": {"op": "burn", "card": None}}
    with pytest.raises(ContentError, match="expected"):
        compile_block("IF TOKENS(self) = 0 THEN FLIP", "t")


@pytest.mark.rule("HER-RANGED-02", "HER-RANGED-03", "HER-RANGED-05", "HER-RANGED-06", "HER-AREA-04", "HER-AREA-05",
                  "HER-AMB-36")
def test_sample_chapter_holds_every_case_of_the_rifle_example():
    """The Long Sling (Range 3) on the real chapter's Terrain, case by case of the rulebook's Rifle example."""
    from domain.games.heredity.state import board
    from domain.games.heredity.state import C

    from .helpers import game, run_ops
    st, _ = run_ops(game(), "PLACE_TERRAIN 102 AT 1 0; PLACE_TERRAIN 103 AT 51 0 LEVEL 1")
    b = board(C(st), st)
    rng = C(st).face(141, "front")["slots"][0]["attack"]["range"]
    assert rng == 3
    assert b.in_range("101:o1", "101:o1", rng)                 # own area
    assert b.in_range("101:o1", "101:o2", rng)                 # a white line
    assert b.in_range("101:o3", "101:o4", rng)                 # through a blue line (window)
    assert b.in_range("101:o2", "101:o3", rng)                 # through a green line (door)
    assert b.in_range("101:o1", "101:o4", rng)                 # two lines, one of them blue
    assert b.in_range("102:b1", "102:b3", rng)                 # green then white
    assert b.in_range("102:b3", "102:b1", rng)                 # ... and back
    assert not b.in_range("101:o1", "102:b2", rng)             # no straight line
    assert not b.in_range("101:o2", "101:o4", rng)             # black line (wall)
    assert not b.in_range("101:o1", "102:b3", rng)             # four lines: beyond Range 3
    assert b.in_range("101:o1", "102:b3", 4)
    assert not b.in_range("102:b3", "103:h1", 9)               # only a Level Change between them


@pytest.mark.rule("HER-SETUP-07", "HER-SETUP-09", "HER-KARMA-01", "HER-AMB-41")
def test_sample_content_component_counts():
    """Catalog section 3: 29 Secrets cards (> 900), 9 base Karma cards (one per type) and an evolution per type,
    a chapter-setup card for every later chapter, 12 PC cards, 4 Player Aids, 1 Family card."""
    from collections import Counter

    from domain.games.heredity import SWAN
    from domain.games.heredity.lang import KARMA_TYPES
    secrets = [n for n in SWAN.cards if n > 900]
    assert len(secrets) == 29
    karma = [SWAN.card(n) for n in secrets if SWAN.card(n)["kind"] == "karma"]
    base = sorted(c["type"] for c in karma if not c["evolution"])
    evolutions = Counter(c["type"] for c in karma if c["evolution"])
    assert base == sorted(KARMA_TYPES) and sorted(SWAN.karma_base) == list(range(901, 910))
    assert set(evolutions) == set(KARMA_TYPES) and set(evolutions.values()) == {1}
    assert sorted(SWAN.chapter_setup) == [2, 3, 4, 5] and all(n > 900 for n in SWAN.chapter_setup.values())
    kinds = Counter(c["kind"] for c in SWAN.cards.values() if c["number"] <= 900)
    assert kinds["pc"] == 12 and kinds["aid"] == 4 and kinds["family"] == 1


@pytest.mark.rule("HER-SETUP-09", "HER-CAMPAIGN-01")
def test_each_later_chapter_takes_its_secrets_setup_card():
    from .helpers import game
    for number, setup_card, lore in ((3, 951, 930), (5, 953, 935)):
        st = game(options={"campaign": {"chapter": number}})
        assert st["cards"][str(setup_card)]["zone"] != "deck" and st["cards"][str(lore)]["zone"] != "deck"
    assert "951" not in game()["cards"]
