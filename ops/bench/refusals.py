"""How often is a person's click refused when they play at human speed against bots? (issue 25.2)

A person holds seat 0 of each game, bots the other seats. The person looks at the legal moves,
thinks 1-2 seconds (like a click), then sends one of them with the version it saw. A refusal is
any answer but 201 (409 someone moved first, 403 not your turn any more, 422 no longer legal).
With `--page-lag S` the person clicks what the live page shows (at most S seconds old; a button that
vanished meanwhile is not clicked, it is counted as `vanished`). With `--page-retry` the client also does what the table page does on a 409 (TABLE-MOVE-01): when
the move is still listed, send it again at the new version; a refusal then is what a person sees.

It also measures the bots' pacing (TABLE-BOT-02): the time from each person's move to the next
bot move, from the events' `recorded_at`.

    python ops/bench/refusals.py --url http://127.0.0.1:8000 [--clicks 15] [--page-retry] [--json]

Start the server yourself (`heirloom serve`), with or without `HEIRLOOM_BOT_DELAY`, to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import datetime

import httpx

#: (game, players, bot level); Heredity with two bots is the table of the issue's report.
TABLES = [("heredity", 3, "normal"), ("my_fathers_work", 3, "normal"), ("abomination", 3, "normal"),
          ("adas_dream", 3, "normal")]


def play_table(client: httpx.Client, game: str, players: int, level: str, clicks: int, think: tuple[float, float],
               seed: int, page_retry: bool, page_lag: float | None = None, pass_rate: float = 0.0) -> dict:
    bots = {str(seat): level for seat in range(1, players)}
    created = client.post("/games", json={"game": game, "players": players, "bots": bots, "seed": seed})
    created.raise_for_status()
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    chooser = random.Random(seed)
    sent = refused = seen = rebased = retried = vanished = passes = 0
    reasons: dict[str, int] = {}
    deadline = time.monotonic() + 60 + clicks * 20
    while sent < clicks and time.monotonic() < deadline:
        view = client.get(f"/games/{game_id}").json()
        if view["status"] == "finished":
            break
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
        if not listed["moves"]:
            time.sleep(0.2)
            continue
        if (view.get("decision") or {}).get("mode") == "team" and 0 not in view.get("passed", [0]) \
                and chooser.random() < pass_rate:
            time.sleep(chooser.uniform(*think))                 # "done for now: let the bots play"
            answer = client.post(f"/games/{game_id}/pass", headers=auth)
            sent += 1
            passes += 1
            if answer.status_code != 200:
                refused += 1
                seen += 1
                reasons["pass"] = reasons.get("pass", 0) + 1
            continue
        move = chooser.choice(listed["moves"])
        pause = chooser.uniform(*think)
        if page_lag is not None:
            # The page redraws within `page_lag` of any event: the button clicked is the one on screen
            # then, with that listing's version; a move whose button vanished is chosen again.
            time.sleep(max(0.0, pause - page_lag))
            shown = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
            time.sleep(min(pause, page_lag))
            if move not in shown["moves"]:
                vanished += 1
                continue
            listed = shown
        else:
            time.sleep(pause)                                   # the person reads and clicks
        answer = client.post(f"/games/{game_id}/moves", headers=auth,
                             json={"move": move, "expected_version": listed["version"]})
        sent += 1
        if answer.status_code == 201:
            rebased += "rebased_from" in answer.json()
            continue
        refused += 1
        code = answer.json().get("error", str(answer.status_code))
        reasons[code] = reasons.get(code, 0) + 1
        if page_retry and answer.status_code == 409:
            again = client.get(f"/games/{game_id}/legal-moves", headers=auth).json()
            if move in again["moves"]:
                retried += 1
                answer = client.post(f"/games/{game_id}/moves", headers=auth,
                                     json={"move": move, "expected_version": again["version"]})
                if answer.status_code == 201:
                    continue
        seen += 1
    return {"game": game, "players": players, "bots": level, "clicks": sent, "refused": refused,
            "refused_seen": seen if page_retry else refused, "rebased": rebased, "page_retries": retried, "vanished": vanished, "passes": passes,
            "reasons": reasons, "pacing": pacing(client, game_id)}


def pacing(client: httpx.Client, game_id: str) -> dict:
    """Seconds from each person's move to the next bot move (TABLE-BOT-02)."""
    events = client.get(f"/games/{game_id}/events", params={"limit": 1000}).json()["events"]
    gaps, person_at = [], None
    for event in events:
        if event["type"] != "MovePlayed":
            continue
        at = datetime.fromisoformat(event["recorded_at"])
        if event["actor"].startswith("seat:"):
            person_at = at
        elif person_at is not None:
            gaps.append((at - person_at).total_seconds())
            person_at = None
    if not gaps:
        return {"n": 0}
    return {"n": len(gaps), "min_s": round(min(gaps), 3), "median_s": round(statistics.median(gaps), 3),
            "max_s": round(max(gaps), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--clicks", type=int, default=15, help="clicks of the person per game")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 2.0), help="seconds before a click")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--page-retry", action="store_true", help="retry a 409 as the table page does")
    parser.add_argument("--page-lag", type=float, default=None,
                        help="model the live page: the list on screen is at most this old when clicked")
    parser.add_argument("--pass-rate", type=float, default=0.0,
                        help="in team steps (TABLE-BOT-04), pass to the bots instead of a move this often")
    parser.add_argument("--games", nargs="*", help="only these game types")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    with httpx.Client(base_url=args.url, timeout=60) as client:
        for game, players, level in TABLES:
            if args.games and game not in args.games:
                continue
            rows.append(play_table(client, game, players, level, args.clicks, tuple(args.think), args.seed,
                                   args.page_retry, args.page_lag, args.pass_rate))
            if not args.json:
                row = rows[-1]
                rate = row["refused_seen"] / row["clicks"] if row["clicks"] else 0.0
                print(f"{game:16} clicks {row['clicks']:3}  refused {row['refused']:3}  seen {row['refused_seen']:3} "
                      f"({rate:.0%})  rebased {row['rebased']:3}  vanished {row['vanished']:3}  passes {row['passes']:3}  {row['reasons']}  pacing {row['pacing']}",
                      flush=True)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
