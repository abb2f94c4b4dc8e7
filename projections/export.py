"""`heirloom export`: game histories as JSON Lines (one game per line) and CSV (one move per row).

Read from the replay projection (caught up first), so an export shows exactly what the
replay endpoints show: every move, effective and undone, with its plain-language
description and the scores after it. By default only finished games are exported (their
hidden information is public by then); ``include_active`` adds running games in full,
which is for operators only.
"""

from __future__ import annotations

import csv
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


def export(read_side: Any, out_dir: str | Path, *, game_type: str | None = None, include_active: bool = False,
           formats: tuple[str, ...] = ("jsonl", "csv")) -> dict[str, Any]:
    """Write ``games.jsonl`` and/or ``moves.csv`` into `out_dir`; return what was written."""
    read_side.catch_up()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = {"games": 0, "moves": 0, "files": []}
    jsonl = (out / "games.jsonl").open("wb") if "jsonl" in formats else None
    csv_file = (out / "moves.csv").open("w", newline="", encoding="utf-8") if "csv" in formats else None
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
