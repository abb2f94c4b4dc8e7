"""`heirloom export`: game histories as JSON Lines (one game per line) and CSV (one move per row).

Read from the replay projection (caught up first), so an export shows exactly what the
replay endpoints show: every move, effective and undone, with its plain-language
description and the scores after it. By default only finished games are exported (their
hidden information is public by then); ``include_active`` adds running games in full,
which is for operators only.

Files are written 0600 and folders created 0700, whatever the umask: an export with
``include_active`` holds every running game's hands and decks, and even a finished games'
export names the players. With ``include_active`` an existing output folder is made 0700 too.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any, Iterator

import orjson

from .replay import replay_state

CSV_COLUMNS = ["game_id", "game", "move_no", "version", "seat", "player", "actor", "move_type", "move",
               "description", "scores", "undone", "recorded_at"]


def game_histories(read_side: Any, game_type: str | None = None, include_active: bool = False) -> Iterator[dict]:
    """One history per game, in creation order."""
    view = read_side.replay_view
    games = sorted(view.games().items(), key=lambda item: (item[1].get("created_at") or "", item[0]))
    for game_id, info in games:
        if game_type is not None and info["game_type"] != game_type:
            continue
        meta, status, entries, undo = view.all_moves(game_id)
        if meta is None or not (status["finished"] or include_active):
            continue
        rules = read_side.rules_for(meta["game_type"])
        final = replay_state(view, read_side.rules_for, game_id, status["steps"], read_side.checkpoint_every)
        undone = set(status["undone"])
        yield {
            "game_id": game_id,
            "game": meta["game_type"],
            "players": meta["players"],
            "names": meta["names"],
            "options": meta["options"],
            "created_at": meta["created_at"],
            "status": "finished" if status["finished"] else "active",
            "moves_played": status["steps"],
            "scores": {str(seat): points for seat, points in rules.scores(final).items()},
            "winners": sorted(rules.winners(final)) if rules.is_over(final) else [],
            "moves": [dict(entry, undone=entry["version"] in undone) for entry in entries],
            "undo_requests": sorted(undo.values(), key=lambda request: request["version"]),
        }


def private_folder(path: str | Path, tighten: bool = False) -> Path:
    """`path` created 0700 (parents as the umask says); an existing one made 0700 when `tighten`."""
    folder = Path(path)
    existed = folder.exists()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not existed or tighten:
        folder.chmod(0o700)  # mkdir's mode passes through the umask: say it exactly
    return folder


def private_file(path: str | Path, mode: str = "wb", **options: Any):
    """`path` opened for writing, readable by its owner only (0600, also when it existed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, mode, **options)


def export(read_side: Any, out_dir: str | Path, *, game_type: str | None = None, include_active: bool = False,
           formats: tuple[str, ...] = ("jsonl", "csv")) -> dict[str, Any]:
    """Write ``games.jsonl`` and/or ``moves.csv`` into `out_dir`; return what was written."""
    read_side.catch_up()
    out = private_folder(out_dir, tighten=include_active)
    written = {"games": 0, "moves": 0, "files": []}
    jsonl = private_file(out / "games.jsonl", "wb") if "jsonl" in formats else None
    csv_file = private_file(out / "moves.csv", "w", newline="", encoding="utf-8") if "csv" in formats else None
    writer = csv.DictWriter(csv_file, fieldnames=CSV_COLUMNS) if csv_file else None
    try:
        if writer:
            writer.writeheader()
        for game in game_histories(read_side, game_type, include_active):
            written["games"] += 1
            written["moves"] += len(game["moves"])
            if jsonl:
                jsonl.write(orjson.dumps(game) + b"\n")
            if writer:
                for move in game["moves"]:
                    writer.writerow({
                        "game_id": game["game_id"], "game": game["game"], "move_no": move["move_no"],
                        "version": move["version"], "seat": move["seat"],
                        "player": game["names"][move["seat"]] if isinstance(move["seat"], int) else "",
                        "actor": move.get("actor") or "", "move_type": move["move"].get("type", ""),
                        "move": orjson.dumps(move["move"]).decode(), "description": move["description"],
                        "scores": orjson.dumps(move["scores"]).decode(), "undone": move["undone"],
                        "recorded_at": move.get("recorded_at") or "",
                    })
    finally:
        for handle in (jsonl, csv_file):
            if handle:
                handle.close()
    written["files"] = [str(out / name) for name, fmt in (("games.jsonl", "jsonl"), ("moves.csv", "csv"))
                        if fmt in formats]
    return written
