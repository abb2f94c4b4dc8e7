"""Issue 16.1: the resolver's bookkeeping (`ResolverSaved`, `PendingPushed`, `PendingResolved`; `Flow` in games
stored before issue 18) hides nothing and hides no move.

Over the real service on a real Redis: a plain Workshop move is taken back at once by its own seat,
and a spectator's event listing shows it whole. Over seeded playouts: the Flow fact is public and never
names a card of a hand or a deck; truly hidden facts (draws, shuffles, setup decks) stay private.
Old stored games carry the Flow fact marked private to nobody: it still folds and stays redacted.
"""

from __future__ import annotations

import random

import orjson
import pytest

from domain.engine import EVERYONE, SPECTATOR, copy_state, new_game, play, visible_fact
from domain.engine.facts import PRIVATE_KEY
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C
from projections.event_log import event_log
from tests.support.api_fixtures import *  # noqa: F403  (service on a real Redis, own key prefix)


def plain_workshop_move(state, seat):
    """A listed Workshop move that draws no card and refills no space (nothing hidden, nothing random)."""
    for move in RULES.legal_moves(state, seat):
        if move["type"] != "workshop" or move["extra"]:
            continue
        dest = (move["space"] + 1) % 6
        if len(state["workshop"][move["space"]]) >= 2 and C.WORKSHOP_BONUS[dest] != "draw":
            return move
    return None


def created_with_plain_workshop_move(service):
    for seed in range(40):
        created = service.create_game("adas_dream", 2, seed=seed)
        live = service.game(created["id"])
        seat = RULES.decision(live.state).seats[0]
        move = plain_workshop_move(live.state, seat)
        if move is not None:
            return created, seat, move
    raise AssertionError("no seed gives a plain Workshop move")


def test_own_plain_workshop_move_is_taken_back_at_once(service):
    created, seat, move = created_with_plain_workshop_move(service)
    token = created["seats"][seat]["token"]
    played = service.play(created["id"], token, move)
    assert not any(PRIVATE_KEY in f or f.get("random") for f in played["facts"]), played["facts"]
    flow = [f for f in played["facts"] if f["type"] == "ResolverSaved"]
    assert len(flow) == 1 and PRIVATE_KEY not in flow[0]
    answer = service.request_undo(created["id"], token, played["move_no"])
    assert answer["status"] == "applied"
    assert service.game(created["id"]).last_move_no == 0


def test_a_spectator_and_the_opponent_see_the_move_in_the_event_listing(service):
    created, seat, move = created_with_plain_workshop_move(service)
    service.play(created["id"], created["seats"][seat]["token"], move)
    other = created["seats"][1 - seat]["token"]
    for token in (None, other):
        events = event_log(service, created["id"], token)["events"]
        played = [e for e in events if e["type"] == "MovePlayed"]
        assert len(played) == 1
        assert played[0]["move"] == move
        assert not any(f.get("hidden") for f in played[0]["facts"])
        assert any(f["type"] == "ResolverSaved" and f["flow"]["ttype"] == "workshop" for f in played[0]["facts"])


def test_a_move_that_draws_cards_is_shown_and_the_cards_are_not(service):
    """The drawn cards stay private to the drawer; the move itself is listed whole."""
    for seed in range(60):
        created = service.create_game("adas_dream", 2, seed=seed)
        state = service.game(created["id"]).state
        seat = RULES.decision(state).seats[0]
        moves = [m for m in RULES.legal_moves(state, seat) if m["type"] == "workshop"
                 and C.WORKSHOP_BONUS[(m["space"] + (2 if m["extra"] else 1)) % 6] == "draw"]
        if moves:
            break
    else:
        raise AssertionError("no seed gives a Workshop move onto the draw bonus")
    hand = set(state["players"][seat]["hand"])
    service.play(created["id"], created["seats"][seat]["token"], moves[0])
    drawn = set(service.game(created["id"]).state["players"][seat]["hand"]) - hand
    assert drawn
    listed = [e for e in event_log(service, created["id"], None)["events"] if e["type"] == "MovePlayed"][0]
    assert listed["move"] == moves[0]
    text = orjson.dumps(listed).decode()
    assert not any(card in text for card in drawn)
    assert {"type": "CardsDrawn", "seat": seat, "count": 2} in listed["facts"]


def secret_cards(state):
    """Card ids whose place is hidden from somebody: every hand and every deck."""
    return {c for p in state["players"] for c in p["hand"] + p["deck"]}


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5)])
def test_flow_facts_are_public_and_name_no_hidden_card(players, seed):
    chooser = random.Random(seed)
    state, _ = new_game(RULES, players, {}, seed)
    moves = from_hand = 0
    while not state["over"] and moves < 3000:
        seat = chooser.choice(list(RULES.decision(state).seats))
        move = chooser.choice(RULES.legal_moves(state, seat))
        moves += 1
        before = secret_cards(state)
        state, facts = play(RULES, state, seat, move, seed, moves)
        hidden = before | secret_cards(state)
        for f in facts:
            assert f["type"] != "Flow"           # the name before issue 18, folded for stored games only
            if f["type"] in ("ResolverSaved", "PendingPushed", "PendingResolved"):
                assert PRIVATE_KEY not in f
                text = orjson.dumps(f).decode()
                assert not [c for c in hidden if f'"{c}"' in text], (moves, f)
            if f["type"] in ("CardsDrawn", "Reshuffled"):
                assert PRIVATE_KEY in f and visible_fact(f, SPECTATOR) != f
        agenda = state["flow"]["agenda"]
        # a choice among one's own cards is only ever the top item (its hand cannot change under it)
        assert all("from" not in item for item in agenda[:-1])
        if agenda and "from" in agenda[-1]:
            from_hand += 1
            chooser_seat = agenda[-1]["s"]
            listed = [m["option"] for m in RULES.legal_moves(state, chooser_seat) if m["type"] == "choose"]
            assert set(listed) <= set(state["players"][chooser_seat]["hand"] + state["players"][chooser_seat]["discard"])
            assert "options" not in RULES.view(state, SPECTATOR)["pending"]
            assert RULES.view(state, chooser_seat)["pending"]["options"] == [m for m in listed if m is not None]
    assert state["over"] and from_hand


def test_old_private_flow_facts_still_fold_and_stay_redacted():
    """Games stored before this change carry `Flow` private to nobody, with hand cards in its options."""
    state, _ = new_game(RULES, 2, {}, 7)
    old_flow = copy_state(state["flow"])
    hand = list(state["players"][0]["hand"])
    old_flow["agenda"] = [{"k": "choice", "kind": "discard", "s": 0, "opts": hand, "rule": "ADA-ICON-16",
                           "d": {}, "optional": False}]
    old = {"type": "Flow", "flow": old_flow, PRIVATE_KEY: [], "public": {"type": "Flow"}}
    folded = RULES.evolve(copy_state(state), old)
    assert [m["option"] for m in RULES.legal_moves(folded, 0)] == hand
    for viewer in (0, 1, SPECTATOR):
        assert not any(card in orjson.dumps(visible_fact(old, viewer)).decode() for card in hand)
    assert visible_fact(old, EVERYONE) == old


def test_a_choice_owed_in_an_old_flow_fact_is_resolved_with_the_new_facts():
    """Issue 18: a game stored with its owed choice in a (public) `Flow` fact folds it, and the next choose
    move takes it off with `PendingResolved`; replay of the new facts gives the live state."""
    chooser = random.Random(3)
    state, _ = new_game(RULES, 2, {}, 3)
    moves = 0
    while not (state["flow"]["agenda"] and state["flow"]["agenda"][-1]["k"] == "choice"):
        seat = chooser.choice(list(RULES.decision(state).seats))
        moves += 1
        state, _ = play(RULES, state, seat, chooser.choice(RULES.legal_moves(state, seat)), 3, moves)
    old = {"type": "Flow", "flow": copy_state(state["flow"])}        # what the old release stored
    stored = RULES.evolve(copy_state(state), old)
    assert stored == state
    seat = RULES.decision(stored).seats[0]
    move = RULES.legal_moves(stored, seat)[0]
    after, facts = play(RULES, stored, seat, move, 3, moves + 1)
    assert facts[0] == {"type": "PendingResolved", "seat": seat, "kind": state["flow"]["agenda"][-1]["kind"]}
    assert [f["type"] for f in facts if f["type"] in ("ResolverSaved", "Flow")] == ["ResolverSaved"]
    top = after["flow"]["agenda"][-1:]
    pushed = [f for f in facts if f["type"] == "PendingPushed"]
    assert [f["pending"] for f in pushed] == [t for t in top if t["k"] == "choice"]
