"""Hidden information in the fact stream, the move descriptions and the legal moves (catalog §5), checked
along seeded random games for every viewer: other seats and a spectator."""

from __future__ import annotations

import random

import orjson
import pytest

from domain.engine import SPECTATOR, new_game, play, visible_fact
from domain.games.abomination import RULES
from domain.games.abomination.content import C


def _secret_words(card):
    data = C.cards.get(card, {})
    return [card.encode()] + ([data["name"].encode()] if data.get("name") else [])


def _check_facts(facts, viewers, secrets_of):
    for f in facts:
        for viewer in viewers:
            blob = orjson.dumps(visible_fact(f, viewer))
            assert b'"decks"' not in blob and b"removedObjectives" not in blob, f["type"]
            for word in secrets_of(viewer):
                assert word not in blob, (viewer, f["type"], word)


FACE_DOWN = ("cemetery", "hospital", "publicSquare", "scoundrel", "research", "humanity", "event")


@pytest.mark.rule("ABOM-EVENT-07", "ABOM-EVENT-08", "ABOM-SETUP-05", "ABOM-SETUP-13", "ABOM-SETUP-16",
                  "ABOM-AMB-38")
@pytest.mark.parametrize("players,options", [(2, {}), (4, {}), (3, {"manualAnnounce": True})])
def test_no_fact_description_or_move_list_leaks_hidden_information(players, options):
    nonlocal_count = [0]
    for seed in range(6 if options else 3):
        chooser = random.Random(1000 + seed)
        state, facts = new_game(RULES, players, options, seed)
        viewers = list(range(players)) + [SPECTATOR]
        blind = {s: set() for s in range(players)}  # cards each seat drew blind and still holds
        unrevealed = {}  # location encounters drawn and never announced -> holder (H-01)
        seen = set()  # cards every player has seen face up

        def saw(records):
            for f in records:
                blob = orjson.dumps(visible_fact(f, SPECTATOR))
                seen.update(c for c in C.cards if c.encode() in blob)

        def secrets_of(viewer, st):
            words = []
            for card, holder in unrevealed.items():  # H-01: a location encounter stays its holder's secret
                if holder != viewer:
                    words.append(card.encode())
            taking = [r["deck"] for r in st["pending"] if r["kind"] == "cadaver" and r["seat"] == viewer]
            for deck in FACE_DOWN:  # H-02/H-05: the next card of a face-down deck, unless everyone saw it
                if deck in taking:  # the cadaver the viewer has taken (and must resolve) is theirs to see
                    continue
                if st["decks"].get(deck) and st["decks"][deck][0] not in seen:  # go under (small decks cycle)
                    words.append(st["decks"][deck][0].encode())
            for seat, cards in blind.items():  # H-02/H-08: a card drawn from a face-down deck
                if seat != viewer:
                    for card in cards:
                        words += _secret_words(card)
            return words

        _check_facts(facts, viewers, lambda v: secrets_of(v, state))
        saw(facts)
        k = 0
        while not RULES.is_over(state) and k < 400:
            seat = chooser.choice(list(RULES.decision(state).seats))
            legal = RULES.legal_moves(state, seat)
            for other in range(players):  # a seat's legal moves never name another seat's secret
                if other != seat:
                    assert not any(w in orjson.dumps(legal) for w in secrets_of(seat, state)
                                   if any(w == c.encode() for c in blind[other]))
            move = chooser.choice(legal)
            if {"type": "choose", "option": "keep quiet"} in legal:  # EVENT-13: the unannounced card stays secret
                move = {"type": "choose", "option": "keep quiet"}
                nonlocal_count[0] += 1
            k += 1
            before = state
            state, new = play(RULES, state, seat, move, seed, k)
            for f in new:
                if f["type"] == "EventDrawn" and f["kind"] == "location":
                    unrevealed[f["card"]] = f["holder"]
                if f["type"] == "EncounterTriggered":
                    unrevealed.pop(f["card"], None)
                if f["type"] == "CardToHand" and f["source"] == "deck":
                    blind[f["seat"]].add(f["card"])
                if f["type"] == "CardFromHand":
                    blind[f["seat"]].discard(f["card"])
            _check_facts(new, viewers, lambda v: secrets_of(v, state))
            saw(new)
            for viewer in viewers:
                if not RULES.is_over(state):
                    blob = orjson.dumps(RULES.view(state, viewer))
                    assert not any(w in blob for w in secrets_of(viewer, state)), (viewer, [w for w in secrets_of(viewer, state) if w in blob], state["pending"][-1:])
            text = RULES.describe(before, seat, move, new).encode()
            for viewer in viewers:  # one description is shown to everybody
                for word in secrets_of(viewer, state):
                    assert word not in text, (text, word)
        assert k > 50
    assert nonlocal_count[0] or not options
