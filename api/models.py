"""Pydantic models of request bodies (validation at the edge) and documented responses.

Integers and booleans are strict (``"4"`` is not 4, ``false`` is not 0, ``"yes"`` is not true):
a client that sends the wrong type has a bug we should name, not guess around. A whole
number written ``4.0`` is an integer, as JSON Schema says; ``4.5`` is not."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

#: Integer bounds a JSON client can hold exactly (JavaScript's safe integers); 2**63 - 1 is
#: not even exact as a JSON Schema bound (it rounds to 2**63 as a double).
SAFE_MIN, SAFE_MAX = -(2 ** 53 - 1), 2 ** 53 - 1
#: Seeds are 64-bit; the top bound is the largest double below 2**63, so that the documented
#: bound is exactly the enforced one.
SEED_MIN, SEED_MAX = -(2 ** 63), 2 ** 63 - 1024
MAX_JSON_BYTES = 64 * 1024


def storable_json(value: Any) -> Any:
    """Reject what the orjson store cannot keep exactly (huge ints, deep nesting, too big)."""
    try:
        encoded = orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError) as error:
        raise ValueError(f"not storable as JSON: {error}") from None
    if len(encoded) > MAX_JSON_BYTES:
        raise ValueError(f"larger than {MAX_JSON_BYTES} bytes")
    return value


def no_text_or_truth(value: Any) -> Any:
    """Before int validation: refuse strings and booleans (pydantic's lax mode takes both)."""
    if isinstance(value, (str, bool)):
        raise ValueError(f"must be a whole number, not {'a boolean' if isinstance(value, bool) else 'a string'}")
    return value


#: An integer in JSON's sense: 4 or 4.0, never "4", true or 4.5.
WholeNumber = Annotated[int, BeforeValidator(no_text_or_truth)]

MAX_NAME = 40
FORBIDDEN_IN_NAMES = "<>"
_NAME_CHAR = r"[^\x00-\x1f\x7f-\x9f\u2028\u2029<>]"
#: The same rule as `player_name`, as a JSON Schema pattern (controls, separators and markup
#: excluded; at least one character that is not a space).
NAME_PATTERN = rf"^{_NAME_CHAR}*[^\s\x00-\x1f\x7f-\x9f\u2028\u2029<>]{_NAME_CHAR}*$"
NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN}


def name_problem(name: str) -> str | None:
    """What is wrong with a player name, as the end of a sentence about it ("may not contain '<'"),
    or None. Names are shown on pages, in move descriptions and on leaderboards, so a newline, a NUL
    or a tag in one would break or inject into every one of them."""
    if len(name) > MAX_NAME:
        return f"has at most {MAX_NAME} characters, not {len(name)}"
    trimmed = name.strip()
    if not trimmed:
        return "may not be empty or only spaces"
    controls = [char for char in trimmed if ord(char) < 0x20 or 0x7f <= ord(char) <= 0x9f or char in "\u2028\u2029"]
    if controls:
        return (f"may hold only printable characters, not {controls[0]!r} "
                "(no newline, tab, NUL or other control)")
    markup = sorted(set(trimmed) & set(FORBIDDEN_IN_NAMES))
    if markup:
        return f"may not contain {' or '.join(repr(c) for c in markup)}"
    return None


def player_name(name: str) -> str:
    """One player name: 1 to 40 characters, no control character (newline, tab, NUL...), no
    line separator, no markup (`<`, `>`), not only spaces; returned trimmed (`name_problem`)."""
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(f"A name {problem}.")
    return name.strip()


def player_names(names: list[str]) -> list[str]:
    """Every name valid (see `player_name`) and unique within the game, ignoring case."""
    for index, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            raise ValueError(f"Player {index + 1}'s name {problem}.")
    cleaned = [name.strip() for name in names]
    seen: dict[str, int] = {}
    for index, name in enumerate(cleaned):
        key = name.casefold()
        if key in seen:
            raise ValueError(f"Player {index + 1}'s name {name!r} is already the name of player {seen[key] + 1}; "
                             "names are unique within a game.")
        seen[key] = index
    return cleaned


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game: str = Field(min_length=1, max_length=100, examples=["adas_dream"])
    players: WholeNumber = Field(ge=SAFE_MIN, le=SAFE_MAX, examples=[3],
                                 description="how many seats; each game says how many it takes "
                                             "(GET /game-types: min_players..max_players)")
    names: list[Annotated[str, Field(json_schema_extra=NAME_SCHEMA)]] | None = Field(
        default=None, max_length=16, examples=[["annette", "john", "serena"]],
        description=f"one per seat: unique, printable, at most {MAX_NAME} characters, "
                    "no `<` or `>` (surrounding spaces are trimmed)")
    seed: WholeNumber | None = Field(
        default=None, ge=SEED_MIN, le=SEED_MAX,
        description="for reproducible tests and practice: only with the default seating (the creator holds every "
                    "seat; 422 otherwise), and shown as `table.seed_chosen: true`; without it the server commits to "
                    "its own seed material (`table.seed_commitment`)")
    options: dict[str, Any] = Field(default_factory=dict)
    bots: dict[str, str] | None = Field(default=None, examples=[{"1": "normal"}],
                                        description="seat -> bot level (GET /game-types lists `bot_levels`); "
                                                    "a bot seat moves by itself")
    seating: Literal["tokens", "invite"] = Field(
        default="tokens", description='"invite": one single-use invitation per seat instead of seat tokens '
                                      "(POST /games/{id}/join turns one into that seat's token)")
    undo_policy: Literal["consent", "own_turn", "referee", "none"] | None = Field(
        default=None, description="who may take moves back (api/README.md, TABLE-UNDO-01..04): "
                                  '"consent" (the default), "own_turn", "referee" or "none"')
    analysis_during_play: bool | None = Field(
        default=None, strict=True, description="true lets the engine analyse the game while it runs "
                                               "(default false: 403 analysis_locked, TABLE-ANALYSIS-01)")
    clock: dict[str, float] | None = Field(
        default=None, examples=[{"per_move_s": 86400}, {"bank_s": 900, "increment_s": 10}],
        description='a clock for the people at the table: {"per_move_s": N} (correspondence) or '
                    '{"bank_s": N, "increment_s": M} (live); seconds')
    on_timeout: Literal["bot", "skip", "forfeit"] | None = Field(
        default=None, description='when a clock runs out: "bot" (the default: a normal bot plays that decision), '
                                  '"skip" (a pass where the game has one) or "forfeit" (the seat goes to a bot)')

    _names = field_validator("names")(classmethod(
        lambda cls, names: None if names is None else player_names(names)))
    _options = field_validator("options")(classmethod(lambda cls, value: storable_json(value)))


class PlayMove(BaseModel):
    move: dict[str, Any] = Field(description="one element of GET /games/{id}/legal-moves, as-is")
    expected_version: WholeNumber | None = Field(default=None, ge=0, le=SAFE_MAX,
                                         description="the version you saw; 409 when the game moved on")

    _move = field_validator("move")(classmethod(lambda cls, value: storable_json(value)))


class RequestUndo(BaseModel):
    to_move: WholeNumber = Field(ge=1, le=SAFE_MAX, description="undo this move and every later one")
    reason: str = Field(default="", max_length=200, description="why, in words (at most 200 characters)")


class Vote(BaseModel):
    approve: bool = Field(strict=True, description="true approves, false rejects (or withdraws your own)")


# --------------------------------------------------------------------------- answers
#
# The documented shape of every answer. Routes return plain dicts (no per-request model
# validation or re-serialisation); tests/api/test_openapi_contract.py and the schemathesis
# run check that what is sent validates against these schemas. `Answer` allows extra keys:
# a field added to an answer is documented when it is added here, never silently dropped.


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


Scores = dict[str, float]
JsonObject = dict[str, Any]


class GameType(Answer):
    name: str
    title: str
    min_players: int
    max_players: int
    cooperative: bool
    bot_levels: list[str] = Field(default_factory=list, description="levels for `\"bots\"` in POST /games")


class Seat(Answer):
    seat: int
    token: str | None = Field(description="this seat's bearer token; shown once (null for a bot seat: nobody "
                                          "holds a bot's token, the server plays it)")
    name: str
    bot: str | None = Field(default=None, description="the bot level of a bot seat, else null")


class Invite(Answer):
    seat: int
    invite: str


class GameCreated(Answer):
    id: str
    game: str
    version: int
    seats: list[Seat] | None = Field(default=None, description="absent with `\"seating\": \"invite\"`")
    invites: list[Invite] | None = Field(default=None, description="only with `\"seating\": \"invite\"`")
    referee_token: str


class GameSummary(Answer):
    id: str
    game: str
    status: str
    version: int
    players: int
    reopened: bool | None = Field(default=None, description="true: reopened by its referee after it finished "
                                                            "(TABLE-REOPEN-01)")
    practice: bool | None = Field(default=None, description="true: an imported prefix of a public record, played "
                                                            "as unrated practice (TABLE-PRACTICE-01)")


class UndoRequestView(Answer):
    request_id: str
    status: str
    to_move: int


class ScoreRow(Answer):
    category: str = Field(description="a scoring category in words; the last row is \"Total\"")
    points: dict[str, int] = Field(description="seat -> points in this category")


class GameView(Answer):
    id: str
    game: str
    version: int
    status: str = Field(description="`active` or `finished`")
    to_act: list[int]
    move_count: int
    state: JsonObject = Field(description="the caller's view: hidden information removed while the game runs")
    scores: Scores
    winners: list[int]
    score_breakdown: list[ScoreRow] = Field(
        default_factory=list, description="once finished: each seat's score by scoring category (else empty)")
    undo_requests: list[UndoRequestView]
    table: JsonObject | None = Field(default=None, description="the table's options: `undo_policy`, "
                                                               "`analysis_during_play`")
    seats: list[JsonObject] | None = Field(default=None, description='`[{"seat", "name", "bot", "online", '
                                                                     '"clock_s", "left"}]`')
    forked_from: dict[str, Any] | None = Field(
        default=None, description='`{"id", "step"}`: the game and step this fork starts from (step 0 of its replay '
                                  'is that position); null for a game that is not a fork')


class LegalMoves(Answer):
    version: int
    moves: list[JsonObject] = Field(description="each element can be posted back as-is")
    labels: list[str] = Field(default_factory=list, description="one plain sentence per move, same order")
    paths: list[list[str]] = Field(
        default_factory=list, description="per move, 1 to 5 plain steps from the general to the particular "
        "(the move tree): no two moves share a path, at most 12 first steps, no level over 40")
    targets: list[list[str]] = Field(
        default_factory=list, description='per move, the board elements it involves: glossary keys '
        '("card:142", "space:loc-commons") or "seat:N", drawn as data-target in the board picture')


class GlossaryEntry(Answer):
    key: str = Field(description='"<kind>:<id>", as in data-detail of the board picture')
    kind: str = Field(description="card, tile, space, location, character or token")
    name: str
    text: str = Field(description="what it is and does, in plain words")


class Glossary(Answer):
    """Every card, tile, space, location, character and token of a game type's content."""
    entries: list[GlossaryEntry]


class JoinGame(BaseModel):
    invite: str = Field(min_length=1, max_length=200, description="the invitation code of a seat")
    name: str = Field(description="your player name: unique in the game, printable, no `<` or `>`")
    entropy: str | None = Field(
        default=None, max_length=200,
        description="optional: your own randomness, mixed into the game's move seed with the server's committed "
                    "material (counted when no move was played yet), so the server alone does not choose it")

    _name = field_validator("name")(classmethod(lambda cls, name: player_name(name)))


class Joined(Answer):
    seat: int
    token: str
    name: str
    version: int
    entropy_counted: bool = Field(default=False, description="whether your `entropy` went into the move seed")


class MoveAccepted(Answer):
    version: int
    move_no: int
    facts: list[JsonObject] = Field(description="as the caller may see them")
    description: str = Field(description="the move in plain words, with the player names")
    status: str
    rebased_from: int | None = Field(default=None, description="present when `expected_version` was stale only "
                                     "because other seats moved and the move still meant the same "
                                     "(TABLE-MOVE-01): the version it was sent at")


class Passed(Answer):
    passed: list[int] = Field(description="the seats that have passed the current step (TABLE-BOT-04)")
    version: int


class EventRecord(Answer):
    version: int
    type: str
    move_no: int | None
    seat: int | None
    actor: str | None
    move: JsonObject | None
    facts: list[JsonObject]
    recorded_at: str
    undone: bool
    hash: str
    prev_hash: str
    description: str | None = Field(default=None, description="a move's words; a timeout (`ClockExpired`) or a "
                                    "takeover (`SeatTakenOver`) in words")


class EventLog(Answer):
    events: list[EventRecord]


class UndoAnswer(Answer):
    request_id: str
    status: str = Field(description="`applied`, `pending` or, when the bots' votes settled it, `rejected`")


class VoteAnswer(Answer):
    status: str = Field(description="`pending`, `applied`, `rejected` or `expired`")


class ReplayStep(Answer):
    step: int
    steps: int
    state: JsonObject
    scores: Scores
    move: JsonObject | None = Field(description="the move of this step (none at step 0)")
    description: str | None
    actor_note: str = Field(default="", description="who played it, in words, when not the seat's player "
                            "(e.g. \"played by a bot: ann's clock ran out\"); empty for the player's own move")


class MoveLogEntry(Answer):
    move_no: int
    seat: int | None
    move: JsonObject
    description: str
    undone: bool
    actor_note: str = Field(default="", description="who played it, in words, when not the seat's player "
                            "(e.g. \"played by a bot: ann's clock ran out\"); empty for the player's own move")


class History(Answer):
    effective: list[MoveLogEntry]
    undone: list[MoveLogEntry]
    undo_requests: list[JsonObject]


class ScorePoint(Answer):
    move_no: int
    scores: Scores


class GameScores(Answer):
    scores: Scores
    history: list[ScorePoint]


class Leader(Answer):
    player: str
    games: int
    wins: int
    rating: float


class TeamRecord(Answer):
    player: str
    chapters: int = Field(description="cooperative games (chapters) played")
    won: int
    win_rate: float


class Scoreboard(Answer):
    game: str
    leaders: list[Leader] = Field(description="rated games between people (no bot seat, simulation, fork or "
                                              "import); empty for a cooperative game")
    team_record: list[TeamRecord] = Field(default_factory=list,
                                          description="a cooperative game's record per player, instead of a rating")
    imports: list[JsonObject] = Field(default_factory=list,
                                      description="finished imported games (`game_id`, `names`, `scores`, "
                                                  "`winners`), listed apart and rated for nobody")


class TypeAnalytics(Answer):
    game: str
    games: int
    avg_moves: float
    seat_win_rate: JsonObject
    action_frequency: JsonObject


class GameAnalytics(Answer):
    game_id: str
    game: str
    moves: int
    score_over_time: list[ScorePoint]
    action_counts: dict[str, int]


class ProjectionState(Answer):
    position: int
    lag: int


class ProjectionsStatus(Answer):
    head: int
    projections: dict[str, ProjectionState]


class AuditResult(Answer):
    ok: bool
    events: int
    head: str | None = Field(description="hash of the last event that fits the chain")


class AnalysisStarted(Answer):
    status: str = Field(description="`queued`, `running` or `done`")
    progress: float


class Analysis(AnalysisStarted):
    steps: list[JsonObject] = Field(default_factory=list,
                                    description="per step: `win_probability` and `expected_score` per seat")
    mistakes: list[JsonObject] = Field(
        default_factory=list, description="graded moves: `move_no`, `seat`, `grade` (`inaccuracy`|`mistake`|`blunder`), "
        "`kind` (`win`: win-chance loss; `score`: expected-score loss, for a seat whose chances are decided), `loss`, "
        "`played` and `played_label`, `better` and `better_label` (never equal)")
    accuracy: dict[str, float | None] = Field(default_factory=dict,
                                              description="per seat, 0-100 (lichess's formula; README \"Bots\")")
    turning_points: list[JsonObject] = Field(
        default_factory=list, description="the moves that moved the eventual winner's chance most: `move_no`, `seat`, "
        "`before`, `after`, `label`, `text`")


class SeatLeft(Answer):
    """The seat handed to a bot."""

    seat: int
    bot: str
    version: int


class LabReport(Answer):
    """GET /analytics/{game}/report (README "The lab")."""

    game: str
    games: int = Field(description="finished games counted (forks and imports are not)")
    seat_advantage: list[JsonObject] = Field(description='per seat: `seat`, `win_rate`, `ci95` [lo, hi] (Wilson), `n`')
    length: JsonObject = Field(description="moves per game: `p10`, `p50`, `p90`, `histogram` [{from, to, games}]")
    scores: JsonObject = Field(description="per seat (and `best`, the winning score): mean, p10, p50, p90")
    features: list[JsonObject] = Field(
        description="`key`, `name`, `kind`, `games_with`, `games_without`, `win_rate_with`, `win_rate_without`, "
                    "`delta`, `ci95` (Newcombe), by the size of the difference")


class ErrorBody(Answer):
    error: str = Field(description="a stable code, e.g. `illegal_move`, `version_conflict`")
    detail: str = Field(description="what is wrong, in words")


ERROR_DESCRIPTIONS = {
    401: "no token where a seat or referee is needed (`token_required`), or a token of another game (`invalid_token`)",
    403: "a valid token that may not do this now (`not_your_seat`, `analysis_locked`, ...)",
    404: "no such game, request or game type",
    409: "`version_conflict` (with `current_version`), `invite_used`, `undo_pending`, ...",
    413: "`body_too_large`: the body is over the limit (refused before it is read)",
    422: "`invalid_request` (a field, named), `illegal_move` (with the rule ID) or another refusal that names what is wrong",
    429: "`rate_limited`: this client made too many of these requests; retry after `Retry-After` seconds",
    503: "`store_unavailable` (retry; a retry with the same Idempotency-Key is safe), `store_full` (no room left "
         "on the store's disk or memory: writes are refused, reads work) or `projection_lagging`",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses (503 always: any request may meet a store
    that does not answer)."""
    return {code: {"model": ErrorBody, "description": ERROR_DESCRIPTIONS[code], **HEADERS_OF.get(code, {})}
            for code in sorted({*codes, 503})}


#: Headers an error answer always carries (documented in the OpenAPI responses).
HEADERS_OF: dict[int, dict[str, Any]] = {
    429: {"headers": {"Retry-After": {"description": "whole seconds to wait before retrying", "required": True,
                                      "schema": {"type": "integer", "minimum": 1}}}},
}


def answers(model: type[BaseModel], *codes: int, status: int = 200, description: str = "") -> dict:
    """`responses` of a route: its success model plus its error statuses."""
    success = {"model": model, "description": description or model.__doc__ or "success"}
    return {status: success, **errors(*codes)}


#: Before routes say which statuses they answer: everything but 413.
ERRORS = errors(401, 403, 404, 409, 422)
