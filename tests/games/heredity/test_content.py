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
