"""Screenshots of every page at 1280x800 and 390x844, for looking at (and the README's two).

Starts a real `heirloom serve` (own process, real Redis, unique key prefix deleted at the
end), plays a few moves of each game by random legal moves, and drives Chromium
(`/usr/bin/chromium`) through the lobby, table, replay viewer, join page, analytics and
/docs. Console errors and requests to another origin are printed.

    .venv/bin/python ops/screenshots.py --out /tmp/shots [--readme]

`--readme` also writes docs/screenshots/table.png and docs/screenshots/replay.png.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from domain.eventstore.admin import delete_prefix  # noqa: E402
from tests.support.api_server import RunningServer, server_env  # noqa: E402
from tests.support.redis_fixtures import find_redis_url, new_prefix  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SIZES = [(1280, 800, "wide"), (390, 844, "phone")]
NAMES = ["annette", "john", "serena"]


def play(http: httpx.Client, created: dict, moves: int, rng: random.Random) -> None:
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(moves):
        view = http.get(f"/games/{created['id']}").json()
        if view["status"] == "finished" or not view["to_act"]:
            return
        seat = view["to_act"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        listing = http.get(f"/games/{created['id']}/legal-moves", headers=headers).json()
        if not listing["moves"]:
            return
        http.post(f"/games/{created['id']}/moves", json={"move": rng.choice(listing["moves"])}, headers=headers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/heirloom-shots")
    parser.add_argument("--readme", action="store_true")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--readme-game", default="abomination", help="the game of the README's two pictures")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    url = os.environ.get("REDIS_URL") or find_redis_url()
    prefix = new_prefix()
    problems: list[str] = []
    try:
        with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as server, \
                httpx.Client(base_url=server.url, timeout=60) as http, sync_playwright() as playwright:
            games = {}
            for entry in http.get("/game-types").json():
                name = entry["name"]
                players = min(3, entry["max_players"])
                created = http.post("/games", json={"game": name, "players": players, "names": NAMES[:players],
                                                    "seed": 3}).json()
                play(http, created, 14, rng)
                games[name] = created
                if name == "dice_duel":
                    for seed in range(4):
                        done = http.post("/games", json={"game": name, "players": 2, "names": NAMES[:2],
                                                         "seed": seed}).json()
                        play(http, done, 50, rng)
            browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
            for width, height, tag in SIZES:
                context = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
                page = context.new_page()
                origin = server.url
                page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
                page.on("request", lambda r: urlsplit(r.url).scheme in ("http", "https")
                        and not r.url.startswith(origin) and problems.append(f"foreign request: {r.url}"))

                def settle() -> None:
                    # Tables and replays keep a live stream open: wait for their last answer instead.
                    if page.locator("[data-testid=audit]").count():
                        expect(page.locator("[data-testid=audit]")).not_to_contain_text("checking", timeout=15_000)
                        page.wait_for_timeout(400)
                    else:
                        page.wait_for_load_state("networkidle")

                def shot(path: str, name: str, full: bool = True) -> None:
                    page.goto(path)
                    settle()
                    page.screenshot(path=str(out / f"{name}-{tag}.png"), full_page=full)

                shot("/", "lobby")
                shot("/docs", "docs", full=False)
                for name, created in games.items():
                    seat = created["seats"][0]["token"]
                    shot(f"/ui/games/{created['id']}#token={seat}", f"table-{name}")
                    shot(f"/ui/games/{created['id']}/replay?step=5", f"replay-{name}")
                    shot(f"/ui/analytics/{name}", f"analytics-{name}")
                first = next(iter(games.values()))
                shot(f"/ui/join/{first['id']}#invite=example", "join", full=False)
                if args.readme and tag == "wide" and args.readme_game in games:
                    created = games[args.readme_game]
                    docs = ROOT / "docs" / "screenshots"
                    docs.mkdir(parents=True, exist_ok=True)
                    page.set_viewport_size({"width": 1100, "height": 760})
                    page.goto(f"/ui/games/{created['id']}#token={created['seats'][0]['token']}")
                    settle()
                    page.screenshot(path=str(docs / "table.png"))
                    page.goto(f"/ui/games/{created['id']}/replay?step=6")
                    settle()
                    page.screenshot(path=str(docs / "replay.png"))
                context.close()
            browser.close()
    finally:
        client = redis.Redis.from_url(url)
        delete_prefix(client, prefix)
        client.close()
    for problem in problems:
        print(problem)
    print(f"screenshots in {out}" + (" and docs/screenshots/" if args.readme else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
