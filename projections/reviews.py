"""Shared reviews: one person (the leader) steps through a game and everyone with the link follows.

A review is a small Redis hash, ``<prefix>:review:<id>``: the game, the leader's step, a change
counter and the SHA-256 of the leader's token (the token itself is only ever in the leader's
answer). Every change of step is also published on ``<prefix>:review:<id>:changes`` so followers'
streams are woken by Redis instead of polling it. Reviews are conversations, not records: a review
untouched for `TTL_SECONDS` is forgotten (the game and its comments are not).

The leader may hand over: a new leader token is made and the old one stops working.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from domain.app.errors import ServiceError

TTL_SECONDS = 7 * 24 * 3600


class ReviewNotFound(ServiceError):
    code = "review_not_found"
    status = 404


class NotTheLeader(ServiceError):
    code = "not_the_leader"
    status = 403


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ReviewStore:
    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix

    def key(self, review_id: str) -> str:
        return f"{self.prefix}:review:{review_id}"

    def channel(self, review_id: str) -> str:
        return f"{self.key(review_id)}:changes"

    def create(self, game_id: str, step: int) -> dict:
        review_id, token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        key = self.key(review_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping={"game": game_id, "step": step, "seq": 0, "leader": _hash(token)})
        pipe.expire(key, TTL_SECONDS)
        pipe.execute()
        return {"id": review_id, "leader_token": token, "url": f"/ui/reviews/{review_id}", "game": game_id,
                "step": step}

    def get(self, review_id: str) -> dict:
        raw = self.client.hgetall(self.key(review_id)) if len(review_id) <= 64 else {}
        if not raw:
            raise ReviewNotFound(f"no review {review_id!r} (a review is forgotten a week after its last step)")
        value = {k.decode() if isinstance(k, bytes) else k: v.decode() if isinstance(v, bytes) else v
                 for k, v in raw.items()}
        return {"id": review_id, "game": value["game"], "step": int(value["step"]), "seq": int(value["seq"]),
                "_leader": value["leader"]}

    def _check_leader(self, review: dict, token: str | None) -> None:
        if not token or not hmac.compare_digest(_hash(token), review["_leader"]):
            raise NotTheLeader("only the review's leader moves it (send the leader token as a bearer token)")

    def move(self, review_id: str, token: str | None, step: int) -> dict:
        review = self.get(review_id)
        self._check_leader(review, token)
        key = self.key(review_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, "step", step)
        pipe.hincrby(key, "seq", 1)
        pipe.expire(key, TTL_SECONDS)
        _, seq, _ = pipe.execute()
        self.client.publish(self.channel(review_id), f"{seq}:{step}")
        return {"id": review_id, "game": review["game"], "step": step, "seq": int(seq)}

    def hand_over(self, review_id: str, token: str | None) -> dict:
        review = self.get(review_id)
        self._check_leader(review, token)
        new = secrets.token_urlsafe(24)
        self.client.hset(self.key(review_id), "leader", _hash(new))
        return {"id": review_id, "leader_token": new, "url": f"/ui/reviews/{review_id}"}


def public(review: dict) -> dict:
    return {k: v for k, v in review.items() if not k.startswith("_")}
