"""Screenshots of each game's table at 1280x800 and 390x844, at the start, the middle and the end (issue 24),
with the share of board texts that render large enough (>= 11 CSS px wide, >= 10 px on a phone).

Starts a real `heirloom serve` (own process, real Redis, unique key prefix deleted at the end). Start: a new
3-player game (2 for Heredity) seen by the seat to act; middle: the same game after `--moves` random legal
moves; end: a game of random bots played to its end by the server, seen by seat 0 (the final scores show).
Writes `<game>-<start|middle|end>-<1280|390>.png` (the screen as it opens, so each stays small) into --out
and prints the measured shares.

    .venv/bin/python ops/board_screenshots.py --out docs/screenshots/board [--full /tmp/full]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import redis  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from domain.eventstore.admin import delete_prefix  # noqa: E402
from tests.support.api_server import RunningServer, server_env  # noqa: E402
from tests.support.redis_fixtures import find_redis_url, new_prefix  # noqa: E402

GAMES = ["abomination", "adas_dream", "heredity", "my_fathers_work"]
SIZES = [(1280, 800, 11.0), (390, 844, 10.0)]
NAMES = ["Annette", "John", "Serena"]
MEASURE = """() => {
  const sizes = [];
  for (const t of document.querySelectorAll('[data-testid=board] svg text')) {
    const r = t.getBoundingClientRect(); if (!r.width || !r.height) continue;
    const m = t.getScreenCTM(); sizes.push(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  }
  return {sizes, sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play(http: httpx.Client, created: dict, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        view = http.get(f"/games/{created['id']}").json()
        if view["status"] == "finished" or not view["to_act"]:
            return
        seat = view["to_act"][0]
        token = created["seats"][seat]["token"]
        listing = http.get(f"/games/{created['id']}/legal-moves", headers=auth(token)).json()
        http.post(f"/games/{created['id']}/moves", json={"move": rng.choice(listing["moves"])}, headers=auth(token))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots/board")
    parser.add_argument("--full", default="", help="also write full-page screenshots here (large)")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    url = os.environ.get("REDIS_URL") or find_redis_url()
    prefix = new_prefix()
    try:
        with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as server, \
                httpx.Client(base_url=server.url, timeout=120) as http, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            for game in args.games.split(","):
                players = 2 if game == "heredity" else 3
                created = http.post("/games", json={"game": game, "players": players, "names": NAMES[:players],
                                                    "seed": 7}).json()
                ended = http.post("/games", json={"game": game, "players": players, "names": NAMES[:players],
                                                  "seed": 8, "bots": {str(s): "random" for s in range(players)}}
                                  ).json()
                for moment in ("start", "middle", "end"):
                    if moment == "middle":
                        play(http, created, args.moves, random.Random(1))
                    target = created
                    if moment == "end":
                        target = ended
                        for _ in range(1200):
                            if http.get(f"/games/{ended['id']}").json()["status"] == "finished":
                                break
                            time.sleep(0.5)
                    view = http.get(f"/games/{target['id']}").json()
                    seat = (view["to_act"] or [0])[0]
                    for width, height, least in SIZES:
                        context = browser.new_context(viewport={"width": width, "height": height})
                        page = context.new_page()
                        token = (target["seats"][seat] if seat < len(target["seats"]) else {}).get("token")
                        page.goto(f"{server.url}/ui/games/{target['id']}" + (f"#token={token}" if token else ""))
                        page.wait_for_selector("[data-testid=board-zone]")
                        time.sleep(0.6)
                        measured = page.evaluate(MEASURE)
                        sizes = measured["sizes"]
                        big = sum(1 for s in sizes if s >= least - 0.01)
                        print(f"{game:16} {moment:6} {width:4}px: {big}/{len(sizes)} texts >= {least:g}px "
                              f"({big / max(1, len(sizes)):.1%}), smallest {min(sizes):.1f}px, "
                              f"sideways {max(0, measured['sideways'])}px, status {view['status']}", flush=True)
                        page.screenshot(path=str(out / f"{game}-{moment}-{width}.png"))
                        if args.full:
                            Path(args.full).mkdir(parents=True, exist_ok=True)
                            page.screenshot(path=f"{args.full}/{game}-{moment}-{width}.png", full_page=True)
                        context.close()
            browser.close()
    finally:
        client = redis.Redis.from_url(url)
        delete_prefix(client, prefix)
        client.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
