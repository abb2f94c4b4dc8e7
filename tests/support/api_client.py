"""Helpers for API tests: an app on a real Redis with a unique key prefix, and a tiny client.

`redis_url()` follows the shared convention: ``REDIS_URL`` when set, else the local Redis
on 127.0.0.1:6379 when it answers PING (tests/support/redis_fixtures.py provides the
same, plus an embedded fallback; it is used when present).
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from domain.engine import fold, get_rules

from api.app import create_app
from api.settings import Settings

TEST_GAMES = ("tests.support.dice_duel", "tests.support.api_count")
#: Quotas far above anything a test does (api/rate_limit.py): the limiter runs on every request it
#: guards, and only the tests of quotas (tests/api/test_quotas.py) set small ones.
GENEROUS_LIMITS = "create=1000000/1,join=1000000/1,undo=1000000/1,analysis=1000000/1"


def unique_prefix(label: str = "api") -> str:
    return f"test-{label}-{uuid.uuid4().hex[:12]}"


def make_settings(redis_url: str, prefix: str | None = None, **overrides: Any) -> Settings:
    values = dict(redis_url=redis_url, key_prefix=prefix or unique_prefix(), extra_games=TEST_GAMES,
                  persistence_module="domain.eventstore", strict_games=False, rate_limits=GENEROUS_LIMITS)
    values.update(overrides)
    return Settings(**values)


def make_app(settings: Settings):
    return create_app(settings)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class TestGame:
    """One game created over HTTP, with its tokens."""

    __test__ = False

    client: Any
    id: str
    seat_tokens: list[str]
    referee_token: str
    created: dict = field(default_factory=dict)

    @classmethod
    def create(cls, client, game: str, players: int, seed: int | None = None, **extra: Any) -> "TestGame":
        body = {"game": game, "players": players, **extra}
        if seed is not None:
            body["seed"] = seed
        response = client.post("/games", json=body)
        assert response.status_code == 201, response.text
        data = response.json()
        return cls(client, data["id"], [s["token"] for s in data["seats"]], data["referee_token"], data)

    def token(self, who: int | str | None) -> str | None:
        if who is None or who == "spectator":
            return None
        if who == "referee":
            return self.referee_token
        return self.seat_tokens[who]

    def get(self, who=None) -> dict:
        response = self.client.get(f"/games/{self.id}", headers=bearer(self.token(who)))
        assert response.status_code == 200, response.text
        return response.json()

    def legal(self, seat: int) -> dict:
        response = self.client.get(f"/games/{self.id}/legal-moves", headers=bearer(self.token(seat)))
        assert response.status_code == 200, response.text
        return response.json()

    def post_move(self, seat, move: dict, expected_version: int | None = None, key: str | None = None):
        headers = bearer(self.token(seat))
        if key is not None:
            headers["Idempotency-Key"] = key
        body: dict = {"move": move}
        if expected_version is not None:
            body["expected_version"] = expected_version
        return self.client.post(f"/games/{self.id}/moves", json=body, headers=headers)

    def move(self, seat, move: dict, **kwargs) -> dict:
        response = self.post_move(seat, move, **kwargs)
        assert response.status_code == 201, response.text
        return response.json()

    def play_randomly(self, moves: int, seed: int) -> bool:
        """Up to `moves` uniformly random legal moves by whoever is to act (seeded); True once finished."""
        chooser = random.Random(seed)
        for _ in range(moves):
            view = self.get()
            if view["status"] == "finished":
                return True
            seat = chooser.choice(view["to_act"])
            listed = self.legal(seat)
            self.move(seat, chooser.choice(listed["moves"]), expected_version=listed["version"])
        return self.get()["status"] == "finished"

    def events(self, who=None, after: int = 0, limit: int = 1000) -> list[dict]:
        response = self.client.get(f"/games/{self.id}/events", params={"after": after, "limit": limit},
                                   headers=bearer(self.token(who)))
        assert response.status_code == 200, response.text
        return response.json()["events"]

    def undo(self, who, to_move: int, reason: str = "test"):
        return self.client.post(f"/games/{self.id}/undo", json={"to_move": to_move, "reason": reason},
                                headers=bearer(self.token(who)))

    def vote(self, who, request_id: str, approve: bool):
        return self.client.post(f"/games/{self.id}/undo/{request_id}/votes", json={"approve": approve},
                                headers=bearer(self.token(who)))


def replay_from_store(service, game_id: str) -> dict:
    """Fold of initial state + setup facts + the facts of effective moves, from stored events only."""
    stored = list(service.events.get(uuid.UUID(game_id)))
    created = stored[0]
    rules = get_rules(created.game_type)
    undone = {v for e in stored if type(e).__name__ == "MovesUndone" for v in e.undone_versions}
    state = fold(rules.evolve, rules.initial_state(created.players, created.options), created.setup_facts)
    for event in stored[1:]:
        if type(event).__name__ == "MovePlayed" and event.originator_version not in undone:
            state = fold(rules.evolve, state, event.facts)
    return state
