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

Committed randomness (domain/app/seeds.py): every record says `seed_chosen` and, for a game whose
server committed to its seed, `seed_commitment`; once finished it also carries `seed_material` and
the seats' `contributions`, and the import and `heirloom verify` (`verify_record`) check that the
material hashes to the commitment and gives the seed, and re-decide the moves with the move seed
derived from the material and the contributions.
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.bots.levels import LEVELS
from domain.engine import EVERYONE, Viewer, visible_facts
from domain.engine.legacy import FIRST_RELEASE, RULES_RELEASE
from domain.engine.redaction import redact_move

from .errors import ServiceError
from .seeds import commitment, setup_seed

FORMAT = "heirloom-record/1"


class InvalidRecord(ServiceError):
    """A record that cannot be imported (malformed, no seed, a fork's position)."""

    code = "invalid_record"


class RecordMismatch(ServiceError):
    """A recorded move does not re-decide to its recorded facts (or is refused)."""

    code = "record_mismatch"


def played_for(actor: str | None) -> dict:
    """`{"actor": ...}` for a move somebody other than the seat's player played (a bot, or a bot or a
    pass because the seat's clock ran out: issue 28), so a record says so; `{}` for the player's own."""
    return {"actor": actor} if recorded_actor(actor) else {}


def recorded_actor(actor: Any) -> bool:
    """A record's `actor` of a move: `bot:<level>`, `clock:bot:<level>` or `clock:skip`."""
    if not isinstance(actor, str):
        return False
    if actor == "clock:skip":
        return True
    level = actor.removeprefix("clock:").removeprefix("bot:") if actor.startswith(("bot:", "clock:bot:")) else None
    return level in LEVELS


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
                   "facts": visible_facts(event.facts, viewer), "description": event.description,
                   **played_for(event.actor)}
                  for event in moves],
    }
    if game.forked_from is not None:
        record["forked_from"] = game.forked_from
    if game.reopened is not None:                    # TABLE-REOPEN-01: dealt again from a new seed there
        record["reopened"] = {key: game.reopened[key] for key in ("at", "reason", "times", "seed_commitment")}
        if complete and game.finished:
            record["reopened"]["seed_material"] = game.reopened["seed_material"]
    if game.practice:
        record["practice"] = True
    record["seed_chosen"] = bool(game.seed_chosen)
    if game.seed_commitment is not None:
        record["seed_commitment"] = game.seed_commitment
    if complete and game.finished:
        record["seed"] = game.seed
        if game.seed_material is not None:          # what verifies the commitment (domain/app/seeds.py)
            record["seed_material"] = game.seed_material
            record["contributions"] = [dict(c) for c in game.contributions]
    return record


def checked_seeding(record: dict, seed: int) -> dict:
    """How the record's randomness came, checked: a committed record's material must hash to its
    commitment and give its seed (domain/app/seeds.py); RecordMismatch names what does not fit."""
    promised = record.get("seed_commitment")
    if promised is None:
        return {"seed_chosen": bool(record.get("seed_chosen"))}
    material, contributions = record.get("seed_material"), record.get("contributions", [])
    if not isinstance(promised, str) or not isinstance(material, str):
        raise InvalidRecord("the record commits to its seed (seed_commitment) but has no seed_material to show it")
    if (not isinstance(contributions, list) or any(
            not isinstance(c, dict) or isinstance(c.get("seat"), bool) or not isinstance(c.get("seat"), int)
            or not isinstance(c.get("entropy"), str) for c in contributions)):
        raise InvalidRecord('the record\'s contributions are a list of {"seat": int, "entropy": str}')
    if commitment(material) != promised:
        raise RecordMismatch("the seed material does not hash to the commitment the game published at its start "
                             "(seed_commitment): this is not the randomness the server committed to", field="seed_material")
    if setup_seed(material) != seed:
        raise RecordMismatch("the record's seed is not the one derived from its committed seed material",
                             field="seed")
    return {"seed_commitment": promised, "seed_material": material, "seed_chosen": False,
            "contributions": [{"seat": c["seat"], "entropy": c["entropy"]} for c in contributions]}


def verify_record(record: Any) -> dict:
    """Check a finished game's record without storing anything (`heirloom verify`): its committed
    randomness, then its setup and every move re-decided with today's rules (as the import does).
    Returns {"ok", "moves", "committed", ...}; raises InvalidRecord/RecordMismatch naming the problem."""
    from domain.engine import IllegalMove, get_rules, new_game, play
    from domain.engine.legacy import check_facts
    from domain.engine.rules import stored_move

    from .seeds import move_seed

    checked = checked_record(record)
    try:
        rules = get_rules(checked["game"])
    except KeyError:
        raise InvalidRecord(f"this server does not know the game {checked['game']!r}") from None
    seeding, release = checked["seeding"], checked["release"]
    moves_seed = move_seed(seeding["seed_material"], seeding["contributions"]) if "seed_material" in seeding \
        else checked["seed"]
    try:
        state, setup = new_game(rules, checked["players"], checked["options"], checked["seed"])
    except (IllegalMove, TypeError, ValueError, KeyError) as error:
        raise InvalidRecord(f"the record's game cannot be set up: {error}") from None
    if checked["setup_facts"] is not None and not check_facts(rules, checked["setup_facts"], setup, state, release).ok:
        raise RecordMismatch("the setup facts differ from what the seed gives", move_no=0, verified_to=0)
    for move_no, entry in enumerate(checked["moves"], start=1):
        seats = rules.decision(state).seats
        try:
            if entry["seat"] not in seats:
                raise IllegalMove("ENGINE-TURN-01", f"seat {entry['seat']} may not act now")
            state, facts = play(rules, state, entry["seat"], stored_move(rules, entry["move"]), moves_seed, move_no)
        except IllegalMove as error:
            raise RecordMismatch(f"move {move_no} is refused: {error.detail}", move_no=move_no,
                                 verified_to=move_no - 1, rule=error.rule_id) from None
        if "facts" in entry and not check_facts(rules, entry["facts"], facts, state, release).ok:
            raise RecordMismatch(f"move {move_no} does not give the recorded facts", move_no=move_no,
                                 verified_to=move_no - 1)
    return {"ok": True, "game": checked["game"], "moves": len(checked["moves"]),
            "committed": "seed_commitment" in seeding, "seed_chosen": bool(seeding.get("seed_chosen")),
            "finished": bool(rules.is_over(state))}


def checked_record(record: Any) -> dict:
    """The fields an import needs, or InvalidRecord naming what is wrong."""
    if not isinstance(record, dict):
        raise InvalidRecord("a record is a JSON object")
    if record.get("forked_from") is not None:
        raise InvalidRecord("this is the record of a fork: it starts from a position, not from a seed, "
                            "so its setup cannot be checked; import the record of the game it came from")
    if record.get("reopened") is not None:
        raise InvalidRecord("this game was reopened after it finished: from the reopening on its cards were dealt "
                            "again from another seed, so it cannot be re-decided from its first; import the record "
                            "of the game up to the reopening (its moves before it) instead")
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
        if "actor" in entry and not recorded_actor(entry["actor"]):
            raise InvalidRecord(f"moves[{index}].actor is who played it for the seat: bot:<level>, "
                                f"clock:bot:<level> or clock:skip, not {entry['actor']!r}")
    return {"game": record["game"], "players": record["players"], "names": names, "options": options,
            "seed": seed, "setup_facts": record.get("setup_facts"), "moves": record["moves"], "release": release,
            "seeding": checked_seeding(record, seed)}
