"""`heirloom export --format parquet`: typed tables for analysts (issue 27.5), read by DuckDB and
pandas as they are.

- ``games.parquet``: one row per finished game; per seat `name_<n>`, `score_<n>` (a number),
  `result_<n>` (`win`, `loss`, or `team_win`/`team_loss` in a cooperative game) and `bot_<n>`
  (the bot's level, null for a person), for as many seats as the largest game has.
- ``moves.parquet``: one row per effective move of those games, with every seat's score after it.
- ``features.parquet``: one row per (game, seat, feature used), the lab's features
  (projections/lab.py), with whether that seat won.

Finished games only: their hidden information is public by then (running games stay out of every
table). Files are private to the exporting user (0600 in a 0700 folder), like every export.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path
from typing import Any, Iterable

import orjson

from .export import game_histories

TABLES = ("games", "moves", "features")


def _time(value: Any) -> dt.datetime | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def _result(seat: int, game: dict, coop: bool) -> str:
    won = seat in game["winners"]
    return ("team_win" if won else "team_loss") if coop else ("win" if won else "loss")


def tables(read_side: Any, game_type: str | None = None) -> dict[str, Any]:
    """The three pyarrow tables of every finished game (of `game_type`)."""
    import pyarrow as pa

    histories = list(game_histories(read_side, game_type))
    rows = {}
    for kind in {h["game"] for h in histories}:
        rows.update({row["id"]: row for row in read_side.analytics_view.lab_rows(kind)})
    seats = max((h["players"] for h in histories), default=1)
    games: dict[str, list] = {name: [] for name in (
        "game_id", "game", "players", "created_at", "moves", "bots", "simulation", "forked", "imported")}
    for seat in range(seats):
        for name in ("name", "score", "result", "bot"):
            games[f"{name}_{seat}"] = []
    moves: dict[str, list] = {name: [] for name in (
        "game_id", "game", "move_no", "seat", "player", "actor", "move_type", "move", "description",
        "recorded_at", *(f"score_{s}" for s in range(seats)))}
    features: dict[str, list] = {name: [] for name in ("game_id", "game", "seat", "player", "feature", "kind", "won")}
    for history in histories:
        row = rows.get(history["game_id"], {})
        coop = bool(row.get("coop"))
        bots = row.get("bots") or {}
        games["game_id"].append(history["game_id"])
        games["game"].append(history["game"])
        games["players"].append(history["players"])
        games["created_at"].append(_time(history["created_at"]))
        games["moves"].append(history["moves_played"])
        games["bots"].append(len(bots))
        games["simulation"].append(row.get("simulation"))
        games["forked"].append(bool(row.get("forked")))
        games["imported"].append(bool(row.get("imported")))
        for seat in range(seats):
            present = seat < history["players"]
            games[f"name_{seat}"].append(history["names"][seat] if present else None)
            games[f"score_{seat}"].append(float(history["scores"].get(str(seat), 0)) if present else None)
            games[f"result_{seat}"].append(_result(seat, history, coop) if present else None)
            games[f"bot_{seat}"].append(bots.get(str(seat)) if present else None)
        for move in history["moves"]:
            if move["undone"]:
                continue
            seat = move["seat"]
            moves["game_id"].append(history["game_id"])
            moves["game"].append(history["game"])
            moves["move_no"].append(move["move_no"])
            moves["seat"].append(seat)
            moves["player"].append(history["names"][seat] if isinstance(seat, int) else None)
            moves["actor"].append(move.get("actor"))
            moves["move_type"].append((move["move"] or {}).get("type"))
            moves["move"].append(orjson.dumps(move["move"]).decode())
            moves["description"].append(move["description"])
            moves["recorded_at"].append(_time(move.get("recorded_at")))
            for s in range(seats):
                value = move["scores"].get(str(s))
                moves[f"score_{s}"].append(float(value) if value is not None else None)
        for seat, keys in (row.get("features") or {}).items():
            for key in keys:
                features["game_id"].append(history["game_id"])
                features["game"].append(history["game"])
                features["seat"].append(int(seat))
                features["player"].append(history["names"][int(seat)])
                features["feature"].append(key)
                features["kind"].append(key.partition(":")[0])
                features["won"].append(int(seat) in history["winners"])
    types = {"players": pa.int16(), "moves": pa.int32(), "bots": pa.int16(), "move_no": pa.int32(),
             "seat": pa.int16(), "created_at": pa.timestamp("us", tz="UTC"), "recorded_at": pa.timestamp("us", tz="UTC"),
             "forked": pa.bool_(), "imported": pa.bool_(), "won": pa.bool_()}

    def table(columns: dict[str, list]):
        fields = []
        for name, values in columns.items():
            kind = types.get(name) or (pa.float64() if name.startswith("score_") else pa.string())
            fields.append(pa.field(name, kind))
        return pa.table({name: pa.array(values, type=field.type) for (name, values), field in zip(columns.items(), fields)},
                        schema=pa.schema(fields))

    return {"games": table(games), "moves": table(moves), "features": table(features)}


def parquet_bytes(table: Any) -> bytes:
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def export_parquet(read_side: Any, out_dir: str | Path, game_type: str | None = None,
                   names: Iterable[str] = TABLES) -> dict[str, Any]:
    """Write the tables as ``<name>.parquet`` into `out_dir` (0700; files 0600)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(out, 0o700)
    read_side.catch_up()
    made = tables(read_side, game_type)
    files = []
    for name in names:
        path = out / f"{name}.parquet"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(parquet_bytes(made[name]))
        os.chmod(path, 0o600)
        files.append(str(path))
    return {"games": made["games"].num_rows, "moves": made["moves"].num_rows, "files": files}
