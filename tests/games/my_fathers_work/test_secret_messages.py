"""MFW-HIDDEN-13 / MFW-STORY-03: the identity of a secret Storybook message (its event id, its text,
its choice labels) reaches only its recipient while the game runs: not through facts, `view` (the
list of fired events, pending decisions, messages) nor move descriptions."""

from __future__ import annotations

import copy
import random

import pytest

from domain.engine import SPECTATOR, ContentError, new_game, play, visible_fact
from domain.games.my_fathers_work import RULES
from domain.games.my_fathers_work import content as C

SECRET = {ev["id"]: ev for scn in C.SCENARIOS.values() for ev in scn.get("event", []) if ev["secret"]}


def _markers(event_id: str) -> list[str]:
    ev = SECRET[event_id]
    return [event_id, ev["message"]] + [opt["label"] for opt in ev.get("choice", [])]


def _leaks(text: str, unknown: set[str]) -> list[str]:
    return [m for e in unknown for m in _markers(e) if m in text]


@pytest.mark.rule("MFW-HIDDEN-13", "MFW-STORY-03", "MFW-STORY-08")
@pytest.mark.parametrize("seed", range(3))
def test_secret_message_identity_reaches_only_its_recipient(seed):
    players = 3
    viewers = list(range(players)) + [SPECTATOR]
    chooser = random.Random(seed)
    state, facts = new_game(RULES, players, {}, seed)
    received = {v: set() for v in viewers}  # secret events each viewer was told about
    secret_seen = moves = 0
    while True:
        for f in facts:
            if f["type"] == "Message" and "private_to" in f:
                secret_seen += 1
                for v in f["private_to"]:
                    received[v].add(f["event"])
            for v in viewers:
                unknown = set(SECRET) - received[v]
                if "private_to" in f and v in f["private_to"]:
                    continue
                assert not _leaks(repr(visible_fact(f, v)), unknown), (v, f)
        if RULES.is_over(state):
            break
        for v in viewers:
            view = RULES.view(state, v)
            assert not _leaks(repr(view), set(SECRET) - received[v]), (v, moves)
            assert not set(view["fired"]) & set(SECRET)  # not even how often a known secret fired
            if v != SPECTATOR and received[v]:
                mine = {m["event"] for m in view["messages"] if m["to"] == v}
                assert received[v] <= mine  # the recipient still sees the message in full
        seat = chooser.choice(list(RULES.decision(state).seats))
        legal = RULES.legal_moves(state, seat)
        busy = [m for m in legal if m["type"] not in ("pass", "end_turn")]
        move = chooser.choice(busy if busy and chooser.random() < 0.9 else legal)
        moves += 1
        before = state
        state, facts = play(RULES, state, seat, move, seed, moves)
        text = RULES.describe(before, seat, move, facts)  # one text for everybody
        assert not _leaks(text, set(SECRET) - received[SPECTATOR]), text
    assert secret_seen, "the playout fired no secret message"
    assert set(SECRET) - received[SPECTATOR] == set(SECRET)


@pytest.mark.rule("MFW-HIDDEN-13", "MFW-STORY-07")
def test_a_secret_event_cannot_hold_a_public_vote():
    scn = copy.deepcopy(C.SCENARIOS[C.DEFAULT_SCENARIO])
    ev = next(e for e in scn["event"] if e.get("vote"))
    ev["secret"] = True
    with pytest.raises(ContentError, match="secret event cannot hold a vote"):
        C.check_scenario(scn, "test", C.LOCATIONS)
