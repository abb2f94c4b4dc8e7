"""Game records: a game written out so anyone can check it, as a PGN is for chess.

A record names the game type, content version, players, names and options, the seed
(only once the game is finished: before that it would let anyone predict every draw),
the setup facts and every effective move with the facts it produced, and the release of the
rules it was written under (`rules_release`; absent in records of earlier releases, which are
release 1). `POST /games/import` re-decides every move from the seed with today's rules and
refuses the record, naming the first move whose facts differ: exactly, once the record's facts
are read under today's names and shapes and a documented rule fix of a later release than the
record's is allowed for (domain/engine/legacy.py). While a game runs its record is redacted for the caller
like any listing (and has no seed, so it cannot be imported).
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.engine import EVERYONE, Viewer, visible_facts
from domain.engine.legacy import FIRST_RELEASE, RULES_RELEASE
from domain.engine.redaction import redact_move

from .errors import ServiceError

FORMAT = "heirloom-record/1"


class InvalidRecord(ServiceError):
    """A record that cannot be imported (malformed, no seed, a fork's position)."""

    code = "invalid_record"


class RecordMismatch(ServiceError):
    """A recorded move does not re-decide to its recorded facts (or is refused)."""

    code = "record_mismatch"


def build_record(game: Any, moves: Iterable[Any], viewer: Viewer) -> dict:
    """The record of `game` (an aggregate) with its effective `MovePlayed` events, for `viewer`."""
    complete = viewer == EVERYONE
    rules = game.rules
    record: dict[str, Any] = {
        "format": FORMAT, "id": str(game.id), "game": game.game_type, "content_version": game.content_version,
        "rules_release": game.rules_release,
        "players": game.players, "names": list(game.names), "options": game.options,
        "status": game.status, "scores": game.scores, "winners": game.winners,
        "setup_facts": visible_facts(game.setup_facts, viewer),
        "moves": [{"move_no": event.move_no, "seat": event.seat,
                   "move": redact_move(rules, event.move, event.facts, event.seat, viewer),
                   "facts": visible_facts(event.facts, viewer), "description": event.description}
                  for event in moves],
    }
    if game.forked_from is not None:
        record["forked_from"] = game.forked_from
    if complete and game.finished:
        record["seed"] = game.seed
    return record


def checked_record(record: Any) -> dict:
    """The fields an import needs, or InvalidRecord naming what is wrong."""
    if not isinstance(record, dict):
        raise InvalidRecord("a record is a JSON object")
    if record.get("forked_from") is not None:
        raise InvalidRecord("this is the record of a fork: it starts from a position, not from a seed, "
                            "so its setup cannot be checked; import the record of the game it came from")
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidRecord("the record has no seed (a record shows it only once the game is finished)")
    for key, kind in (("game", str), ("players", int), ("moves", list)):
        if isinstance(record.get(key), bool) or not isinstance(record.get(key), kind):
            raise InvalidRecord(f"the record's {key!r} is missing or not a {kind.__name__}")
    options = record.get("options") or {}
    names = record.get("names")
    if not isinstance(options, dict) or (names is not None and not isinstance(names, list)):
        raise InvalidRecord("the record's options are an object and its names a list")
    release = record.get("rules_release", FIRST_RELEASE)
    if isinstance(release, bool) or not isinstance(release, int) or not FIRST_RELEASE <= release <= RULES_RELEASE:
        raise InvalidRecord(f"the record's rules_release is {FIRST_RELEASE} to {RULES_RELEASE} "
                            f"(absent: {FIRST_RELEASE}, a record of an earlier release)")
    for index, entry in enumerate(record["moves"]):
        if (not isinstance(entry, dict) or not isinstance(entry.get("move"), dict)
                or isinstance(entry.get("seat"), bool) or not isinstance(entry.get("seat"), int)
                or not isinstance(entry.get("facts", []), list)):
            raise InvalidRecord(f"moves[{index}] needs a seat (int), a move (object) and its facts (list)")
    return {"game": record["game"], "players": record["players"], "names": names, "options": options,
            "seed": seed, "setup_facts": record.get("setup_facts"), "moves": record["moves"], "release": release}
