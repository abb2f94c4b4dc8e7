"""Errors the rules raise. An illegal move always names the rule it breaks."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules refuse.

    `rule_id` is a catalog ID such as ``ADA-WORKSHOP-03`` (or a kernel ID such as
    ``ENGINE-TURN-01``) so a player, a referee or a client can look up exactly why.
    """

    def __init__(self, rule_id: str, detail: str) -> None:
        super().__init__(f"{rule_id}: {detail}")
        self.rule_id = rule_id
        self.detail = detail


class ContentError(Exception):
    """Game content (TOML data) that does not follow its schema; raised at load time."""
