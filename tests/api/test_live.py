"""How new events reach live connections without reading the store (api/live.py), on a real Redis.

- a move saved by this process's service is queued for the game's connections by the save
  itself (`GameService.saved_listeners`), on the connections' own loop, at once;
- a move saved by ANOTHER process (here: another `GameService` on the same store, which
  this `LiveGames` does not listen to) arrives through the append script's PUBLISH and the
  process's `LiveFeed`, decoded into the same domain events;
- a pub/sub copy of a move this process already queued is not decoded again.
"""

from __future__ import annotations

import asyncio

from api.live import LiveFeed, LiveGames
from tests.support import api_count  # noqa: F401 - registers the test game


def test_local_saves_and_other_processes_appends_reach_the_connections(app_env):
    from domain.app import GameService

    here = GameService(env=app_env)
    elsewhere = GameService(env=app_env)  # stands for another API process or a worker
    live = LiveGames()
    here.saved_listeners.append(live.saved)
    created = here.create_game("api_count", 2, options={"target": 100})
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]

    async def scenario() -> None:
        feed = LiveFeed(here, live)
        feed.start()
        live.feed = feed
        _, queue = live.subscribe(game_id)
        try:
            for _ in range(500):  # connected and subscribed
                if feed._writer is not None:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            # 1. Played here: queued by the save, before play() even returns.
            here.play(game_id, tokens[0], {"type": "add", "amount": 1})
            assert queue.qsize() == 1
            local = queue.get_nowait()
            assert [(type(e).__name__, e.originator_version) for e in local] == [("MovePlayed", 2)]
            # 2. Played in "another process": arrives through the published batch.
            elsewhere.play(game_id, tokens[1], {"type": "add", "amount": 2})
            remote = await asyncio.wait_for(queue.get(), 5)
            assert [(type(e).__name__, e.originator_version) for e in remote] == [("MovePlayed", 3)]
            assert remote[0].move == {"type": "add", "amount": 2} and remote[0].seat == 1
            assert remote[0].prev_hash == local[0].hash  # the audit chain, as stored
            # 3. The pub/sub copy of move 1 (played here) was skipped, not queued twice.
            await asyncio.sleep(0.2)
            assert queue.empty()
            assert live.delivered[game_id] == 3
        finally:
            live.unsubscribe(game_id, (asyncio.get_running_loop(), queue))
            await feed.stop()

    try:
        asyncio.run(scenario())
    finally:
        here.close()
        elsewhere.close()


def test_a_connection_gone_leaves_no_subscription_behind(app_env):
    from domain.app import GameService

    service = GameService(env=app_env)
    live = LiveGames()

    async def scenario() -> None:
        feed = LiveFeed(service, live)
        feed.start()
        live.feed = feed
        entry = live.subscribe("00000000-0000-0000-0000-000000000001")
        await asyncio.sleep(0.05)
        assert live.watched("00000000-0000-0000-0000-000000000001")
        live.unsubscribe("00000000-0000-0000-0000-000000000001", entry)
        await asyncio.sleep(0.05)
        assert not live.watched("00000000-0000-0000-0000-000000000001") and not feed._channels
        await feed.stop()

    try:
        asyncio.run(scenario())
    finally:
        service.close()
