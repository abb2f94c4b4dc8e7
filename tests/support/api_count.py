"""Count Up: a tiny public-information test game for the undo policy and snapshots.

Seats take turns adding 1 or 2 to a shared counter (no hidden, no random information,
so a seat may take such a move back at once), or rolling a die whose value is added
(random: taking it back needs approval). The seat that brings the counter to the
target (option ``target``, default 10) wins. One to three players.
"""

from __future__ import annotations

from domain.engine import Decision, GameMeta, IllegalMove, Turn, register


class CountUp:
    meta = GameMeta(name="api_count", title="Count Up (test game)", min_players=1, max_players=3)

    def initial_state(self, players, options):
        target = options.get("target", 10)
        if not isinstance(target, int) or not 1 <= target <= 10000:
            raise IllegalMove("COUNT-OPTION-01", "target is an int from 1 to 10000")
        return {"players": players, "count": 0, "target": target, "active": 0, "winner": None}

    def setup(self, state, rng):
        return [{"type": "TableReady", "target": state["target"]}]

    def decision(self, state):
        if state["winner"] is not None:
            return Decision.nobody()
        return Decision.single(state["active"])

    def legal_moves(self, state, seat):
        if seat not in self.decision(state).seats:
            return []
        return [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}, {"type": "roll"}]

    def decide(self, state, seat, move, rng):
        turn = Turn(self, state)
        if move["type"] == "add":
            if move.get("amount") not in (1, 2):
                raise IllegalMove("COUNT-ADD-01", "add 1 or 2")
            turn.emit("Added", seat=seat, amount=move["amount"])
        elif move["type"] == "roll":
            turn.emit("Rolled", seat=seat, amount=rng.die(6), random=True)
        else:
            raise IllegalMove("COUNT-MOVE-01", f"unknown move {move['type']!r}")
        if turn.state["count"] >= turn.state["target"]:
            turn.emit("Won", seat=seat)
        else:
            turn.emit("Passed", to=(seat + 1) % state["players"])
        return turn.facts

    def evolve(self, state, record):
        kind = record["type"]
        if kind in ("Added", "Rolled"):
            state["count"] += record["amount"]
        elif kind == "Passed":
            state["active"] = record["to"]
        elif kind == "Won":
            state["winner"] = record["seat"]
        return state

    def view(self, state, viewer):
        return dict(state)

    def scores(self, state):
        return {seat: int(state["winner"] == seat) for seat in range(state["players"])}

    def is_over(self, state):
        return state["winner"] is not None

    def winners(self, state):
        return [state["winner"]] if state["winner"] is not None else []

    def describe(self, state, seat, move, facts):
        return f"Seat {seat} adds {facts[0]['amount']}"


RULES = register(CountUp())
