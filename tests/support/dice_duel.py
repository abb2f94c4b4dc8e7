"""Dice Duel: a tiny two-player game used to test the kernel, the service and the API.

It has everything the platform must handle: a hidden shuffled deck (seen by nobody),
hidden hands (seen by their owner), random die rolls, a simultaneous hidden commitment
revealed together, scores and winners. Six turns alternate (play a card or roll a die),
then both seats secretly bid 0-2 points; the higher bid gains its bid twice, ties gain
nothing. Highest score wins.
"""

from __future__ import annotations

from domain.engine import (
    Decision, GameMeta, IllegalMove, Rng, Turn, can_see, register, EVERYONE,
)

TURNS = 6
DECK = list(range(1, 10))


class DiceDuel:
    meta = GameMeta(name="dice_duel", title="Dice Duel (test game)", min_players=2, max_players=2,
                    hidden_information=True, chance=True, simultaneous=True,
                    blurb="A test game: roll, bid in secret, draw hidden cards.")

    def initial_state(self, players, options):
        return {"players": players, "deck": [], "hands": [[], []], "score": [0, 0],
                "turn": 0, "active": 0, "phase": "turns", "bids": [None, None], "over": False}

    def setup(self, state, rng: Rng):
        deck = rng.shuffled(DECK)
        facts = [{"type": "DeckShuffled", "deck": deck, "private_to": [], "public": {"type": "DeckShuffled", "cards": len(deck)}}]
        for seat in (0, 1):
            cards = deck[:2]
            deck = deck[2:]
            facts.append({"type": "CardsDealt", "seat": seat, "cards": cards, "private_to": [seat],
                          "public": {"type": "CardsDealt", "seat": seat, "count": 2}})
        return facts

    def decision(self, state):
        if state["over"]:
            return Decision.nobody()
        if state["phase"] == "bid":
            return Decision.simultaneous([s for s in (0, 1) if state["bids"][s] is None], "bid 0-2")
        return Decision.single(state["active"], "play a card or roll")

    def legal_moves(self, state, seat):
        if seat not in self.decision(state).seats:
            return []
        if state["phase"] == "bid":
            return [{"type": "bid", "points": p} for p in (0, 1, 2)]
        return [{"type": "play", "card": c} for c in sorted(state["hands"][seat])] + [{"type": "roll"}]

    def decide(self, state, seat, move, rng):
        turn = Turn(self, state)
        kind = move["type"]
        if state["phase"] == "bid":
            if kind != "bid" or move.get("points") not in (0, 1, 2):
                raise IllegalMove("DUEL-BID-01", "bid 0, 1 or 2 points")
            turn.emit("BidCommitted", seat=seat, points=move["points"], private_to=[seat],
                      public={"seat": seat})
            if all(b is not None for b in turn.state["bids"]):
                bids = turn.state["bids"]
                turn.emit("BidsRevealed", bids=bids)
                if bids[0] != bids[1]:
                    high = 0 if bids[0] > bids[1] else 1
                    turn.emit("Scored", seat=high, points=2 * bids[high])
                turn.emit("GameEnded")
            return turn.facts
        if kind == "play":
            if move.get("card") not in state["hands"][seat]:
                raise IllegalMove("DUEL-PLAY-01", f"card {move.get('card')!r} is not in your hand")
            turn.emit("CardPlayed", seat=seat, card=move["card"])
            turn.emit("Scored", seat=seat, points=move["card"])
            if turn.state["deck"]:
                card = turn.state["deck"][0]
                turn.emit("CardDrawn", seat=seat, card=card, private_to=[seat], public={"seat": seat})
        elif kind == "roll":
            value = rng.die(6)
            turn.emit("DieRolled", seat=seat, value=value, random=True)
            turn.emit("Scored", seat=seat, points=value)
        else:
            raise IllegalMove("DUEL-MOVE-01", f"unknown move type {kind!r}")
        turn.emit("TurnEnded", seat=seat)
        return turn.facts

    def evolve(self, state, record):
        kind = record["type"]
        if kind == "DeckShuffled":
            state["deck"] = list(record["deck"])
        elif kind in ("CardsDealt",):
            state["hands"][record["seat"]] = list(record["cards"])
            state["deck"] = [c for c in state["deck"] if c not in record["cards"]]
        elif kind == "CardPlayed":
            state["hands"][record["seat"]].remove(record["card"])
        elif kind == "CardDrawn":
            state["hands"][record["seat"]].append(record["card"])
            state["deck"].remove(record["card"])
        elif kind == "Scored":
            state["score"][record["seat"]] += record["points"]
        elif kind == "TurnEnded":
            state["turn"] += 1
            state["active"] = 1 - record["seat"]
            if state["turn"] >= TURNS:
                state["phase"] = "bid"
        elif kind == "BidCommitted":
            state["bids"][record["seat"]] = record["points"]
        elif kind == "GameEnded":
            state["over"] = True
        return state

    def view(self, state, viewer):
        over = state["over"]
        return {
            "deck_size": len(state["deck"]),
            "deck": state["deck"] if viewer == EVERYONE else None,
            "hands": [hand if (over or can_see(viewer, s)) else len(hand) for s, hand in enumerate(state["hands"])],
            "score": state["score"],
            "turn": state["turn"],
            "active": state["active"],
            "phase": state["phase"],
            "bids": [b if (over or can_see(viewer, s) or None not in state["bids"]) else (b is not None)
                     for s, b in enumerate(state["bids"])],
        }

    def scores(self, state):
        return {0: state["score"][0], 1: state["score"][1]}

    def is_over(self, state):
        return state["over"]

    def winners(self, state):
        if not state["over"]:
            return []
        best = max(state["score"])
        return [s for s in (0, 1) if state["score"][s] == best]

    def describe(self, state, seat, move, facts):
        if move["type"] == "play":
            return f"Seat {seat} plays the {move['card']} and scores {move['card']}"
        if move["type"] == "roll":
            value = next(f["value"] for f in facts if f["type"] == "DieRolled")
            return f"Seat {seat} rolls a {value}"
        return f"Seat {seat} commits a secret bid"


RULES = register(DiceDuel())
