"""The compact read side of a finished game: its replay and score history in two strings.

While a game runs, the replay view keeps one hash field per move, a list of effective
versions, checkpoints and status keys, and the scoreboard a list of scores per move: cheap
to append to, but about 40 KB of Redis for a 100-move game of the test game. A finished
game is read rarely and does not grow, so (as the event store compacts its events:
domain/eventstore/compact.py) its views are folded into one zstd-compressed JSON string
each, written by one script that checks nothing changed since they were read:

- ``<replay>:g:<id>:z``: ``{"meta", "status", "eff", "ckpt", "moves", "undo"}`` (the
  replay keys of the game, decoded; `moves` in version order);
- ``<scoreboard>:g:<id>:history:z``: the score history list.

Readers (projections/replay.py, projections/scoreboard.py) look for the plain keys first
and read the compact string when they are gone. A game that gets an event after it was
compacted (an undo reopening it, an undo request) is expanded back to the plain keys by
the projection that handles it, in the same commit as the event's own changes.

Compaction runs in the projections' follower right after a game's finishing move is
committed (projections/runner.py), and `heirloom migrate` compacts the finished games of
a store written before (idempotent: a compact game has no plain keys left to fold).
"""

from __future__ import annotations

import threading
from typing import Any

import orjson
import redis
import zstandard

LEVEL = 9
_local = threading.local()  # zstandard (de)compressors are not safe to share between threads

# KEYS: replay generation key, scoreboard generation key, replay meta, status, eff, ckpt,
# moves, undo, replay compact key, score history, score history compact key.
# ARGV: both generations, the status read, the history length read, the two compact strings.
COMPACT_GAME_LUA = """
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1])
   or tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[2]) then
  return 0
end
if redis.call('GET', KEYS[4]) ~= ARGV[3] or redis.call('LLEN', KEYS[10]) ~= tonumber(ARGV[4]) then
  return 0
end
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[10])
redis.call('SET', KEYS[9], ARGV[5])
if ARGV[6] ~= '' then redis.call('SET', KEYS[11], ARGV[6]) end
return 1
"""


def pack(value: Any) -> bytes:
    compressor = getattr(_local, "compressor", None)
    if compressor is None:
        compressor = _local.compressor = zstandard.ZstdCompressor(level=LEVEL)
    return compressor.compress(orjson.dumps(value))


def unpack(raw: bytes | None) -> Any:
    if raw is None:
        return None
    decompressor = getattr(_local, "decompressor", None)
    if decompressor is None:
        decompressor = _local.decompressor = zstandard.ZstdDecompressor()
    return orjson.loads(decompressor.decompress(raw))


def compact_game(replay_view: Any, scoreboard_view: Any, game_id: str) -> bool:
    """Fold a finished game's replay and score history into their compact strings.

    False when there is nothing to do (not finished, already compact, not projected) or the
    game changed meanwhile (then nothing was written)."""
    client = replay_view.client
    part = lambda name: replay_view.game_key(game_id, name)  # noqa: E731
    history_key = scoreboard_view.game_key(game_id, "history")
    with client.pipeline(transaction=True) as pipe:
        pipe.get(part("meta"))
        pipe.get(part("status"))
        pipe.lrange(part("eff"), 0, -1)
        pipe.hgetall(part("ckpt"))
        pipe.hgetall(part("moves"))
        pipe.hgetall(part("undo"))
        pipe.lrange(history_key, 0, -1)
        meta, status, eff, ckpt, moves, undo, history = pipe.execute()
    if meta is None or status is None or not orjson.loads(status).get("finished"):
        return False
    doc = {
        "meta": orjson.loads(meta), "status": orjson.loads(status), "eff": [int(v) for v in eff],
        "ckpt": {k.decode(): orjson.loads(v) for k, v in ckpt.items()},
        "moves": sorted((orjson.loads(v) for v in moves.values()), key=lambda entry: entry["version"]),
        "undo": {k.decode(): orjson.loads(v) for k, v in undo.items()},
    }
    keys = [replay_view.generation_key, scoreboard_view.generation_key,
            *(part(name) for name in ("meta", "status", "eff", "ckpt", "moves", "undo", "z")),
            history_key, scoreboard_view.game_key(game_id, "history:z")]
    args = [replay_view.generation, scoreboard_view.generation, status, len(history), pack(doc),
            pack([orjson.loads(item) for item in history]) if history else b""]
    script = getattr(replay_view, "_compact_game_script", None)
    if script is None:
        script = replay_view._compact_game_script = client.register_script(COMPACT_GAME_LUA)
    try:
        return bool(script(keys=keys, args=args))
    except redis.ResponseError:
        return False


def compact_finished_games(replay_view: Any, scoreboard_view: Any) -> dict[str, int]:
    """Compact the read side of every finished game not compact yet (`heirloom migrate`):
    {"games": listed, "compacted": folded now}. Idempotent: a compact game has nothing left."""
    done = {"games": 0, "compacted": 0}
    for game_id in replay_view.game_ids():
        done["games"] += 1
        if compact_game(replay_view, scoreboard_view, game_id):
            done["compacted"] += 1
    return done
