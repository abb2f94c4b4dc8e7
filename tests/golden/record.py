"""Record the golden store: games of every type, written by THIS release, kept forever.

Run once per store-format release (never to "fix" a failing golden test: that would hide
the break it found)::

    PYTHONPATH=$PWD /work/venv/bin/python tests/golden/record.py --generation 2 [--redis redis://127.0.0.1:6379/0]

(``--generation`` picks the plan and the file names: ``store-v<N>.json.gz``,
``expectations-v<N>.json``; generation 1 was recorded by 901149d and is never re-recorded.)

It plays seeded games through the real `GameService` on a real Redis under a fresh key
prefix (finished and running games of all four types, 2 players and more, an applied
undo, a pending undo request, named players), then writes

- ``store-v1.json.gz``: every key of that prefix, type-aware (string, hash, list, set,
  zset, stream; values base64), with the prefix cut off so a test can restore it under
  its own prefix;
- ``expectations-v1.json``: what this release answered for each game (status, scores,
  winners, the moves log with descriptions, audit head, event count, the scores after each
  replay step), which `test_golden_store.py` requires of the current code.

The prefix is deleted afterwards. Moves are chosen by ``random.Random(seed)`` among the
listed legal moves, so a re-run records the same games (apart from ids, tokens, salts
and timestamps).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import orjson
import redis

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from domain.engine import fold, get_rules  # noqa: E402
from domain.games import load_all  # noqa: E402
from domain.eventstore.admin import delete_prefix  # noqa: E402
from domain.service import GameService  # noqa: E402



def store_file(generation: int) -> Path:
    return HERE / f"store-v{generation}.json.gz"


def expectations_file(generation: int) -> Path:
    return HERE / f"expectations-v{generation}.json"


STORE_FILE = store_file(1)
EXPECTATIONS_FILE = expectations_file(1)
FORMAT = 1  # of the dump (the key layout of store-v<N>.json.gz), not of the games in it

#: (label, game, players, seed, moves to play (None: to the end), extras)
#: extras: "names", "undo_applied" (referee undoes the last 2 moves), "undo_pending"
#: (the seat of a move half way asks to undo it; nobody votes).
PLAN: list[tuple[str, str, int, int, int | None, dict]] = [
    ("mfw-2p-finished", "my_fathers_work", 2, 101, None, {"names": ["annette", "john"]}),
    ("mfw-2p-running", "my_fathers_work", 2, 102, 25, {"undo_applied": True}),
    ("mfw-2p-long-running", "my_fathers_work", 2, 104, 60, {}),  # past a snapshot (every 50 versions)
    ("mfw-3p-running", "my_fathers_work", 3, 103, 30, {"undo_pending": True}),
    ("abom-2p-finished", "abomination", 2, 201, None, {}),
    ("abom-2p-running", "abomination", 2, 202, 25, {"undo_pending": True, "names": ["maeve", "victor"]}),
    ("abom-4p-running", "abomination", 4, 203, 30, {"undo_applied": True}),
    ("ada-2p-finished", "adas_dream", 2, 301, None, {"names": ["ada", "charles"]}),
    ("ada-2p-running", "adas_dream", 2, 302, 25, {"undo_applied": True, "undo_pending": True}),
    ("ada-3p-finished", "adas_dream", 3, 303, None, {}),
    ("her-2p-finished", "heredity", 2, 401, None, {}),
    ("her-2p-running", "heredity", 2, 402, 25, {"undo_applied": True}),
    ("her-3p-running", "heredity", 3, 403, 30, {"undo_pending": True, "names": ["swan", "ivy", "oak"]}),
    ("her-1p-finished", "heredity", 1, 404, None, {}),
]

#: Generation 2 (recorded after 71a075f): the four games again, played by today's code, and what
#: the store gained since generation 1. Extras beyond generation 1's:
#: "bots" (seat -> level: those seats are played by `play_bot`, actor ``bot:<level>``),
#: "invite" (seating by invitation; every seat not a bot's is joined under "names"),
#: "fork_of" (label, step: a fork of that game of this plan; played on for `moves`),
#: "import_of" (label: the record of that finished game of this plan, imported),
#: "analysis" (the engine analysis of the finished game, stored as the analysis job stores it),
#: "compact" (the finished game's events folded into one compressed batch, as the runner does).
PLAN_V2: list[tuple[str, str, int, int, int | None, dict]] = [
    ("mfw-2p-finished", "my_fathers_work", 2, 1101, None, {"compact": True}),
    ("mfw-3p-running", "my_fathers_work", 3, 1102, 30, {"undo_applied": True, "undo_pending": True}),
    ("mfw-4p-running", "my_fathers_work", 4, 1103, 60, {}),  # past a snapshot
    ("abom-2p-finished", "abomination", 2, 1201, None, {"names": ["maeve", "victor"]}),
    ("abom-3p-running", "abomination", 3, 1202, 25, {"undo_pending": True}),
    ("ada-2p-finished", "adas_dream", 2, 1301, None, {"compact": True}),
    ("ada-4p-running", "adas_dream", 4, 1302, 30, {"undo_applied": True}),
    ("her-2p-finished", "heredity", 2, 1401, None, {"analysis": True}),
    ("her-3p-running", "heredity", 3, 1402, 25, {"undo_pending": True}),
    ("mfw-2p-bot-finished", "my_fathers_work", 2, 1501, None, {"bots": {"1": "random"}}),
    ("her-2p-bot-running", "heredity", 2, 1502, 12, {"bots": {"0": "easy"}}),
    ("abom-2p-invited-running", "abomination", 2, 1601, 12,
     {"invite": True, "names": ["ivy", "oak"]}),
    ("ada-3p-invited-bot-running", "adas_dream", 3, 1602, 15,
     {"invite": True, "names": ["ada", "charles", "Seat 3"], "bots": {"2": "random"}}),
    ("mfw-2p-fork-running", "my_fathers_work", 2, 1701, 6, {"fork_of": ["mfw-2p-finished", 40]}),
    ("her-2p-fork-finished", "heredity", 2, 1702, None, {"fork_of": ["her-2p-finished", 10]}),
    ("abom-2p-imported", "abomination", 2, 0, 0, {"import_of": "abom-2p-finished"}),
]

PLANS = {1: PLAN, 2: PLAN_V2}


# --------------------------------------------------------------------------- dump / restore


def _b(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def _u(text: str) -> bytes:
    return base64.b64decode(text)


def dump_prefix(client: redis.Redis, prefix: str) -> list[dict]:
    """Every key under ``<prefix>:``, type-aware, with the prefix cut off. Keys with a TTL
    (a staged batch being written) are transient and left out."""
    records = []
    for raw_key in sorted(client.scan_iter(match=f"{prefix}:*", count=1000)):
        key = raw_key.decode()
        if client.pttl(raw_key) > 0:
            continue
        kind = client.type(raw_key).decode()
        record: dict[str, Any] = {"key": key[len(prefix):], "type": kind}
        if kind == "string":
            record["value"] = _b(client.get(raw_key))
        elif kind == "hash":
            record["value"] = {_b(f): _b(v) for f, v in client.hgetall(raw_key).items()}
        elif kind == "list":
            record["value"] = [_b(v) for v in client.lrange(raw_key, 0, -1)]
        elif kind == "set":
            record["value"] = sorted(_b(v) for v in client.smembers(raw_key))
        elif kind == "zset":
            record["value"] = [[_b(m), s] for m, s in client.zrange(raw_key, 0, -1, withscores=True)]
        elif kind == "stream":
            record["value"] = [[entry_id.decode(), {_b(f): _b(v) for f, v in fields.items()}]
                               for entry_id, fields in client.xrange(raw_key)]
        else:
            raise ValueError(f"key {key!r} has a type the golden store does not know: {kind}")
        records.append(record)
    return records


def restore_prefix(client: redis.Redis, prefix: str, records: list[dict]) -> None:
    """Write `dump_prefix`'s records back under `prefix` (which must be empty)."""
    pipe = client.pipeline(transaction=False)
    for record in records:
        key = prefix + record["key"]
        kind, value = record["type"], record["value"]
        if kind == "string":
            pipe.set(key, _u(value))
        elif kind == "hash":
            pipe.hset(key, mapping={_u(f): _u(v) for f, v in value.items()})
        elif kind == "list":
            pipe.rpush(key, *[_u(v) for v in value])
        elif kind == "set":
            pipe.sadd(key, *[_u(v) for v in value])
        elif kind == "zset":
            pipe.zadd(key, {_u(m): s for m, s in value})
        elif kind == "stream":
            for entry_id, fields in value:
                pipe.xadd(key, {_u(f): _u(v) for f, v in fields.items()}, id=entry_id)
        else:
            raise ValueError(f"unknown key type {kind!r} in the golden store")
    pipe.execute()


def load_store(path: Path = STORE_FILE) -> dict:
    return orjson.loads(gzip.decompress(path.read_bytes()))


# --------------------------------------------------------------------------- expectations


def step_scores(service: GameService, game_id: str) -> list[dict]:
    """Scores after setup (step 0) and after each effective move, folded from the stored facts."""
    stored = list(service.events.get(uuid.UUID(game_id)))
    created = stored[0]
    rules = get_rules(created.game_type)
    undone = {v for e in stored if type(e).__name__ == "MovesUndone" for v in e.undone_versions}
    state = fold(rules.evolve, rules.initial_state(created.players, created.options), created.setup_facts)
    steps = [{str(s): v for s, v in rules.scores(state).items()}]
    for event in stored[1:]:
        if type(event).__name__ == "MovePlayed" and event.originator_version not in undone:
            state = fold(rules.evolve, state, event.facts)
            steps.append({str(s): v for s, v in rules.scores(state).items()})
    return steps


def moves_log(service: GameService, game_id: str) -> list[dict]:
    stored = list(service.events.get(uuid.UUID(game_id)))
    undone = {v for e in stored if type(e).__name__ == "MovesUndone" for v in e.undone_versions}
    return [{"version": e.originator_version, "move_no": e.move_no, "seat": e.seat, "actor": e.actor,
             "move": e.move, "description": e.description, "undone": e.originator_version in undone}
            for e in stored if type(e).__name__ == "MovePlayed"]


def expectations_of(service: GameService, label: str, game_id: str, tokens: dict, extras: dict) -> dict:
    from projections.audit import verify_game

    game = service.game(game_id)
    audit = verify_game(service, game_id)
    assert audit and audit["ok"], audit
    requests = [{key: r[key] for key in ("request_id", "by", "to_move", "status", "approvals")}
                for r in game.undo_requests.values()]
    return {
        "label": label, "id": game_id, "game": game.game_type, "players": game.players,
        "names": list(game.names), "options": game.options, "content_version": game.content_version,
        "status": game.status, "version": game.version, "move_count": game.last_move_no,
        "scores": game.scores, "winners": game.winners, "events": audit["events"], "audit_head": audit["head"],
        "moves": moves_log(service, game_id), "step_scores": step_scores(service, game_id),
        "undo_requests": requests, "extras": extras,
        # Tokens of a test store (never of a real game): the test plays on with them.
        "tokens": tokens,
        # Generation 2 on (absent from generation 1's expectations):
        "rules_release": game.rules_release, "bots": dict(game.bots or {}), "forked_from": game.forked_from,
        "imported": game.imported, "event_types": [type(e).__name__ for e in service.events.get(uuid.UUID(game_id))],
    }


# --------------------------------------------------------------------------- recording


def play_random(service: GameService, game_id: str, tokens: list[str | None], chooser: random.Random,
                moves: int | None, bots: dict | None = None) -> int:
    """Play seeded random legal moves (`moves` of them, or to the end); return how many. A seat
    of `bots` (seat number as a string -> level) is played by its bot (`play_bot`)."""
    played = 0
    while moves is None or played < moves:
        view = service.game_view(game_id, None)
        if view["status"] == "finished":
            break
        seat = chooser.choice(view["to_act"])
        if bots and str(seat) in bots:
            answer = service.play_bot(game_id, seat)
            assert answer is not None, f"{game_id}: the bot of seat {seat} did not move"
        else:
            legal = service.legal_moves(game_id, tokens[seat])["moves"]
            service.play(game_id, tokens[seat], chooser.choice(legal), view["version"])
        played += 1
        assert played < 20000, f"{game_id}: no end"
    return played


def start_game(service: GameService, game_type: str, players: int, seed: int, extras: dict,
               recorded: dict) -> tuple[dict, list[str | None], dict]:
    """Create (or fork, or import) the game of a plan entry: (the answer, seat tokens, what else
    the expectations keep of how it was made)."""
    bots = extras.get("bots")
    made: dict = {}
    if "fork_of" in extras:
        source_label, step = extras["fork_of"]
        source = recorded[source_label]
        created = service.fork(source["id"], source["tokens"]["referee"], step)
        made["source_step_scores"] = source["step_scores"][step]
    elif "import_of" in extras:
        source = recorded[extras["import_of"]]
        record = service.record(source["id"], None)
        created = service.import_record(record)
        made["source"] = source["id"]
    elif extras.get("invite"):
        # A chosen seed is refused with invitations since issue 30 (API.md "Seeds"): the server commits.
        created = service.create_game(game_type, players, None, {}, None, bots=bots, seating="invite")
        joined = {entry["seat"]: service.join(created["id"], entry["invite"], extras["names"][entry["seat"]])
                  for entry in created["invites"]}
        made["joined"] = sorted(joined)
        return created, [joined[seat]["token"] if seat in joined else None for seat in range(players)], made
    else:
        created = service.create_game(game_type, players, extras.get("names"), {}, seed, bots=bots)
    tokens = [None if bots and str(seat["seat"]) in bots else seat["token"] for seat in created["seats"]]
    return created, tokens, made


def store_analysis(service: GameService, game_id: str) -> dict:
    """The engine analysis of a finished game, stored as the analysis job stores it; its summary."""
    from domain.engine import EVERYONE
    from projections.analysis import AnalysisStore, game_history, run_analysis
    from projections.readside import redis_of

    result = run_analysis(game_history(service, game_id), EVERYONE)
    client, prefix = redis_of(service)
    AnalysisStore(client, prefix).put(game_id, EVERYONE, result)
    return {"viewer": "all", "engine": result["engine"], "game_version": result["game_version"],
            "steps": len(result["steps"]), "mistakes": result["mistakes"],
            "digest": hashlib.sha256(orjson.dumps(result, option=orjson.OPT_SORT_KEYS)).hexdigest()}


def record_game(service: GameService, label: str, game_type: str, players: int, seed: int,
                moves: int | None, extras: dict, recorded: dict | None = None) -> dict:
    created, tokens, made = start_game(service, game_type, players, seed, extras, recorded or {})
    game_id = created["id"]
    chooser = random.Random(seed)
    bots = dict(service.game(game_id).bots or {})
    play_random(service, game_id, tokens, chooser, moves, bots)
    if extras.get("undo_applied"):
        last = service.game(game_id).last_move_no
        answer = service.request_undo(game_id, created["referee_token"], max(1, last - 1), "golden: referee undo")
        assert answer["status"] == "applied", answer
        play_random(service, game_id, tokens, chooser, 3)  # the timeline goes on after the undo
    if extras.get("undo_pending"):
        effective = [move for move in moves_log(service, game_id) if not move["undone"]]
        middle = effective[len(effective) // 2]  # not the last move: others must approve
        if tokens[middle["seat"]] is None:  # a bot's move: a seat of a person asks
            middle = next(move for move in effective[len(effective) // 2:] if tokens[move["seat"]] is not None)
        answer = service.request_undo(game_id, tokens[middle["seat"]], middle["move_no"], "golden: pending request")
        assert answer["status"] == "pending", answer
    expected = expectations_of(service, label, game_id,
                               {"seats": tokens, "referee": created["referee_token"]}, extras)
    if made:
        expected["made"] = made
    if extras.get("analysis"):
        expected["analysis"] = store_analysis(service, game_id)
    if extras.get("compact"):
        assert expected["status"] == "finished", label
        assert service.recorder.compact(game_id), f"{label}: not compacted"
        expected["compacted"] = True
    return expected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--generation", type=int, required=True, choices=sorted(PLANS),
                        help="which store to record (1 was recorded by 901149d: never again)")
    args = parser.parse_args(argv)
    store_path, expectations_path = store_file(args.generation), expectations_file(args.generation)
    if store_path.exists() or expectations_path.exists():
        parser.error(f"{store_path.name} exists: a golden store is recorded once, never again")
    load_all()
    prefix = f"golden-record-{uuid.uuid4().hex[:12]}"
    client = redis.Redis.from_url(args.redis)
    service = GameService(env={"PERSISTENCE_MODULE": "domain.eventstore", "REDIS_URL": args.redis,
                               "REDIS_KEY_PREFIX": prefix})
    try:
        games: list[dict] = []
        for label, game_type, players, seed, moves, extras in PLANS[args.generation]:
            games.append(record_game(service, label, game_type, players, seed, moves, extras,
                                     {game["label"]: game for game in games}))
            print(f"{label}: {games[-1]['status']}, {games[-1]['move_count']} moves, "
                  f"{games[-1]['events']} events", file=sys.stderr)
        records = dump_prefix(client, prefix)
        store_path.write_bytes(gzip.compress(orjson.dumps({"format": FORMAT, "generation": args.generation,
                                                           "prefix": prefix, "keys": records}), 9, mtime=0))
        commit = _commit()
        expectations_path.write_bytes(orjson.dumps({"format": FORMAT, "generation": args.generation,
                                                    "recorded_by": commit, "games": games},
                                                   option=orjson.OPT_INDENT_2) + b"\n")
        print(f"{len(records)} keys -> {store_path.name} ({store_path.stat().st_size} bytes), "
              f"{expectations_path.name}; recorded by {commit}", file=sys.stderr)
    finally:
        service.close()
        delete_prefix(client, prefix)
        client.close()
    return 0


def _commit() -> str:
    import subprocess

    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
