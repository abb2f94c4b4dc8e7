"""schemathesis with every check against `heirloom serve` on a real Redis (issue 17.2):
zero failures, without a token (a spectator) and with a seat token of a real game.

The run is short (a few examples per operation, fixed seed) so that it fits in CI; the
game id and the undo request id are those of a real game created first, so most cases reach
the rules rather than a 404.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.api_server import RunningServer, server_env

pytestmark = pytest.mark.slow

MAX_EXAMPLES = 5
SEED = 17
#: 422 is also a valid answer to a schema-valid request where the rules decide: an illegal
#: move, a step past the end, a player count the game does not take, two equal names.
CONFIG = """
[parameters]
"path.game_id" = "{game_id}"
"path.request_id" = "{request_id}"

# A followed stream never ends by itself: schemathesis reads streams caught up.
[[operations]]
include-path = "/games/{{game_id}}/stream"
parameters = {{ "query.follow" = false }}

# 429 too: a documented refusal of load (quotas, `simulations_busy` once 20,000 simulated games wait).
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]
"""


def schemathesis(url: str, config: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
               f"{url}/openapi.json", "--checks", "all", "--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED),
               "--phases", "examples,coverage,fuzzing", "--workers", "2", "--request-timeout", "20",
               "--suppress-health-check", "all", *args]
    # cwd: schemathesis keeps a cache folder where it runs; not in the repository
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=config.parent)


def cases(output: str) -> int:
    found = re.search(r"(\d+) generated", output)
    return int(found.group(1)) if found else 0


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    folder = tmp_path_factory.mktemp("schemathesis")
    # No worker: the contract is checked on the answers; the simulations schemathesis asks for
    # (thousands of games) are queued, not played, so the run costs no more CPU than before.
    with RunningServer(server_env(HEIRLOOM_DATA_DIR=str(folder / "data"), HEIRLOOM_WORKER="off")) as server:
        created = httpx.post(f"{server.url}/games", json={"game": "api_count", "players": 3, "seed": 5,
                                                          "options": {"target": 50},
                                                          # the analysis of a running game is exercised too
                                                          "analysis_during_play": True}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        for seat in range(2):
            httpx.post(f"{server.url}/games/{created['id']}/moves", json={"move": {"type": "add", "amount": 1}},
                       headers={"Authorization": f"Bearer {tokens[seat]}"}).raise_for_status()
        undo = httpx.post(f"{server.url}/games/{created['id']}/undo", json={"to_move": 1},
                          headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        config = folder / "schemathesis.toml"
        config.write_text(CONFIG.format(game_id=created["id"], request_id=undo["request_id"]))
        yield server.url, config, tokens


@pytest.mark.parametrize("who", ["spectator", "seat"])
def test_schemathesis_finds_nothing(target, who):
    url, config, tokens = target
    extra = ["--header", f"Authorization: Bearer {tokens[2]}"] if who == "seat" else []
    result = schemathesis(url, config, *extra)
    output = result.stdout + result.stderr
    print(output[-3000:])
    print(f"schemathesis ({who}): {cases(output)} cases")
    assert result.returncode == 0, output[-20000:]
    assert cases(output) > 100
