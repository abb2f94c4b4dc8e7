"""`heirloom migrate` on the golden store (recorded by an earlier release): latest snapshots
only, finished games compacted; afterwards every game still loads with its recorded outcome,
verifies to its recorded audit head, replays its recorded scores from a rebuilt read side, and
running games play on. A second run finds nothing to do."""

from __future__ import annotations

import io
import random
import uuid

import pytest

from domain.eventstore.compact import is_compact
from domain.eventstore.migrate import migrate
from projections.audit import verify_game
from projections.readside import ReadSide
from domain.service import SPECTATOR_CALLER
from tests.golden.test_golden_store import GAMES, restored
from tests.support.api_client import replay_from_store


def finished_check(service):
    return lambda game_id: bool(service.game(game_id).finished)


@pytest.mark.slow
def test_migrate_the_golden_store_in_place(redis_url):
    with restored(redis_url) as service:
        client, prefix = service.recorder.datastore.client, service.recorder.datastore.prefix
        piled = [k for k in client.scan_iter(match=f"{prefix}:*:snapshots") if client.zcard(k) > 1]
        assert piled, "the golden store was recorded with every snapshot kept"
        progress = io.StringIO()
        result = migrate(service, is_finished=finished_check(service), stream=progress)
        assert "100.0%" in progress.getvalue()
        finished = [g for g in GAMES if g["status"] == "finished"]
        assert result["games_compacted"] == len(finished) and result["errors"] == 0
        assert result["snapshots_removed"] > 0
        assert all(client.zcard(k) <= 1 for k in client.scan_iter(match=f"{prefix}:*:snapshots"))
        for expected in finished:
            index = service.recorder.aggregate_key(uuid.UUID(expected["id"]))
            (member,) = client.zrange(index, 0, -1)
            assert is_compact(client.get(f"{index}:{member.decode()}"))

        again = migrate(service, is_finished=finished_check(service), show_progress=False)
        assert again["games_compacted"] == 0 and again["snapshots_removed"] == 0  # idempotent

        fresh_service = type(service)(env=dict(service.env))  # a process started after the migration
        read_side = ReadSide(fresh_service)
        for name in read_side.projections:
            read_side.rebuild(name, show_progress=False)
        try:
            for expected in GAMES:
                game = fresh_service.game(expected["id"])
                assert (game.version, game.status, game.scores, game.winners) == \
                    (expected["version"], expected["status"], expected["scores"], expected["winners"])
                assert game.state == replay_from_store(fresh_service, expected["id"])
                assert verify_game(fresh_service, expected["id"], expected["version"]) == \
                    {"ok": True, "events": expected["events"], "head": expected["audit_head"]}
                steps = expected["step_scores"]
                for step in (0, len(steps) // 2, len(steps) - 1):
                    assert read_side.replay(expected["id"], step, SPECTATOR_CALLER)["scores"] == steps[step]
            chooser = random.Random(5)
            for expected in (g for g in GAMES if g["status"] == "active"):
                view = fresh_service.game_view(expected["id"], None)
                seat = view["to_act"][0]
                token = expected["tokens"]["seats"][seat]
                legal = fresh_service.legal_moves(expected["id"], token)["moves"]
                answer = fresh_service.play(expected["id"], token, chooser.choice(legal),
                                            expected_version=view["version"])
                # + 1, or more where the move first closes a stored pending take-back (TABLE-UNDO-08)
                assert answer["version"] >= expected["version"] + 1 and answer["move_no"]
                assert verify_game(fresh_service, expected["id"])["ok"]
        finally:
            fresh_service.close()
