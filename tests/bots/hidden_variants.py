"""A state that differs from a real one only in what a seat cannot see (tests only).

Each function reshuffles hidden parts of a real state the way a different deal would have
left them: deck orders, the cards among another seat's hand and its deck, the order of the
Karma deck. The tests check that the seat's view did not change, then that the bot did not.
"""

from __future__ import annotations

import random

from domain.engine import copy_state

from domain.games.adas_dream import content as ADA
from domain.games.my_fathers_work import content as MFW


def _shuffle(cards: list, rng: random.Random) -> list:
    cards = list(cards)
    rng.shuffle(cards)
    return cards


def my_fathers_work(state: dict, seat: int, rng: random.Random) -> dict:
    s = copy_state(state)
    for name in ("A", "B", "C", "comp", "mal", "tiles", "gen3", "comp_discard", "mal_discard"):
        s["decks"][name] = _shuffle(s["decks"][name], rng)
    for other, pl in enumerate(s["players"]):            # another seat's card for an unseen one of its level
        if other == seat:
            continue
        for k, card in enumerate(pl["hand"]):
            deck = s["decks"].get(MFW.EXPERIMENTS[card]["level"], [])
            if deck:
                pl["hand"][k], deck[0] = deck[0], card
    return s


def abomination(state: dict, seat: int, rng: random.Random) -> dict:
    s = copy_state(state)
    for name, cards in s["decks"].items():
        if name == "morgue" and cards:                   # H-03: its top card is public
            s["decks"][name] = cards[:1] + _shuffle(cards[1:], rng)
        else:
            s["decks"][name] = _shuffle(cards, rng)
    hospital = s["displays"]["hospital"]
    s["displays"]["hospital"] = hospital[:1] + _shuffle(hospital[1:], rng)
    for other, p in enumerate(s["p"]):                   # another seat's research hand for deck cards
        if other != seat and p["hands"]["research"] and s["decks"]["research"]:
            p["hands"]["research"][0], s["decks"]["research"][0] = s["decks"]["research"][0], p["hands"]["research"][0]
    return s


def adas_dream(state: dict, seat: int, rng: random.Random) -> dict:
    s = copy_state(state)
    for name in ("prog", "assign", "mult"):
        s["stacks"][name] = _shuffle(s["stacks"][name], rng)
    meet = s["stacks"]["meet"]
    tier1 = [c for c in meet if ADA.partner(c)["tier"] == "1"]
    s["stacks"]["meet"] = _shuffle(tier1, rng) + _shuffle(meet[len(tier1):], rng)
    for other, p in enumerate(s["players"]):
        if other == seat:
            p["deck"] = _shuffle(p["deck"], rng)
            continue
        cards = _shuffle(p["deck"] + p["hand"], rng)    # another seat's hand and deck, dealt again
        p["hand"], p["deck"] = cards[:len(p["hand"])], cards[len(p["hand"]):]
    return s


def heredity(state: dict, seat: int, rng: random.Random) -> dict:
    s = copy_state(state)
    s["karma"]["deck"] = _shuffle(s["karma"]["deck"], rng)
    return s


VARIANTS = {"my_fathers_work": my_fathers_work, "abomination": abomination, "adas_dream": adas_dream,
            "heredity": heredity}
