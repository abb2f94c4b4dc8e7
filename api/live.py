"""Who is watching which game live, and how new events reach them (the WebSocket channel).

Two ways in, no read of the store on either:

- **in this process**: the service calls `LiveGames.saved` with the events it has
  just saved (`GameService.saved_listeners`), from the thread that saved them. A move played
  over a WebSocket is saved on the event loop, so its events are queued for the game's other
  connections right there (no thread hand-off, no Redis); a bot's move (bot thread) is handed
  to the loop with ``call_soon_threadsafe``.
- **from other processes** (`heirloom serve --workers N`, `heirloom worker`, a CLI): the
  event store's append script also PUBLISHes each appended batch on the game's channel
  (``<the game's event index key>:live``, domain/eventstore/scripts.py); `LiveFeed`, one
  Redis pub/sub connection per process read on the event loop, subscribes to the channels of
  the games that have connections here, decodes a batch only when it holds versions this
  process has not delivered itself, and queues them like the local ones.

Pub/sub delivers at most once (a Redis restart, a slow subscriber cut off), so a connection
still reads the events listing when it sees a gap in versions, and every `SAFETY_SECONDS`
without news (api/routers/ws.py).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import defaultdict
from typing import Any

from eventsourcing.persistence import StoredEvent

from domain.eventstore.recorders import unpack_batch

log = logging.getLogger("heirloom.live")


def pack_command(words: Any) -> bytes:
    """A command in RESP (the pub/sub connection writes its own)."""
    words = list(words)
    return b"*%d\r\n" % len(words) + b"".join(b"$%d\r\n%b\r\n" % (len(word), word) for word in words)

Entry = tuple[asyncio.AbstractEventLoop, asyncio.Queue]
#: Queued instead of events: read the events listing.
GAP: list = []


class LiveGames:
    """The live connections' queues per game, and the highest version handed to them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: dict[str, set[Entry]] = defaultdict(set)
        #: game id -> the highest version this process queued (what a pub/sub copy may skip).
        self.delivered: dict[str, int] = {}
        self.feed: LiveFeed | None = None

    def subscribe(self, game_id: str) -> Entry:
        entry = (asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            first = not self._queues.get(game_id)
            self._queues[game_id].add(entry)
        if first and self.feed is not None:
            self.feed.watch(game_id)
        return entry

    def unsubscribe(self, game_id: str, entry: Entry) -> None:
        with self._lock:
            queues = self._queues.get(game_id)
            if queues is None:
                return
            queues.discard(entry)
            if queues:
                return
            del self._queues[game_id]
            self.delivered.pop(game_id, None)
        if self.feed is not None:
            self.feed.unwatch(game_id)

    def watched(self, game_id: str) -> bool:
        return game_id in self._queues

    def saved(self, recordings: list[Any]) -> None:
        """`GameService.saved_listeners` hook: the events just saved in this process."""
        self.publish([recording.domain_event for recording in recordings])

    def gap(self, game_id: str) -> None:
        """Events were appended elsewhere that no message carried: the connections read the
        events listing (`GAP` in their queue)."""
        with self._lock:
            entries = list(self._queues.get(game_id, ()))
        for loop, queue in entries:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, GAP)
            except RuntimeError:
                pass

    def publish(self, events: list[Any]) -> None:
        """Queue `events` (domain events, any games, in version order per game) for the
        connections of their games. Callable from any thread; on the connections' own
        loop the events are queued at once."""
        by_game: dict[str, list[Any]] = defaultdict(list)
        for event in events:
            by_game[str(event.originator_id)].append(event)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        with self._lock:
            targets = []
            for game_id, game_events in by_game.items():
                entries = self._queues.get(game_id)
                if not entries:
                    continue
                top = game_events[-1].originator_version
                if top > self.delivered.get(game_id, 0):
                    self.delivered[game_id] = top
                targets.append((game_events, list(entries)))
        for game_events, entries in targets:
            for loop, queue in entries:
                if loop is running:
                    queue.put_nowait(game_events)
                    continue
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, game_events)
                except RuntimeError:  # that loop is closed: the connection is gone
                    pass


class LiveFeed:
    """This process's Redis pub/sub connection: the appends of other processes, on the loop.

    Channels are (un)subscribed as games gain their first / lose their last connection here.
    A message is ``<batch>`` as stored (recorders.py's format: header lines, NUL, states),
    published by the append script; a general append (several events, or staged) publishes
    ``b"?"`` instead, and the connections read the events listing.

    The connection is spoken to directly (RESP on asyncio streams, replies parsed by hiredis):
    this process receives its own moves back too, and redis-py's pub/sub layers cost about a
    fifth of a move's CPU per message, where this costs a few microseconds. If the connection
    drops, it reconnects and subscribes again; what was published meanwhile is found by the
    connections' listing (a gap in versions, or their safety look)."""

    def __init__(self, service: Any, live: LiveGames) -> None:
        self.service = service
        self.live = live
        recorder = service.recorder
        self._aggregate_key = recorder.aggregate_key
        pool = recorder.client.connection_pool  # the event store's server (a cluster has no feed)
        self._address = dict(pool.connection_kwargs)
        self._ssl = "SSL" in pool.connection_class.__name__
        self._channels: dict[bytes, str] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def channel(self, game_id: str) -> bytes:
        return (self._aggregate_key(game_id) + ":live").encode()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._close()

    def watch(self, game_id: str) -> None:
        channel = self.channel(game_id)
        self._channels[channel] = game_id
        self._send(b"SUBSCRIBE", channel)

    def unwatch(self, game_id: str) -> None:
        channel = self.channel(game_id)
        self._channels.pop(channel, None)
        self._send(b"UNSUBSCRIBE", channel)

    def _send(self, *words: bytes) -> None:
        writer = self._writer
        if writer is None or writer.is_closing():
            return  # (re)connecting: it subscribes to every channel once connected
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not self._loop:
            return  # not on the feed's loop (a test's own loop): the listing covers it
        writer.write(pack_command(words))

    def _close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def _connect(self) -> asyncio.StreamReader:
        address = self._address
        timeout = address.get("socket_connect_timeout") or 5
        if address.get("path"):
            opening = asyncio.open_unix_connection(address["path"])
        else:
            ssl = None
            if self._ssl:
                import ssl as ssl_module

                ssl = ssl_module.create_default_context(cafile=address.get("ssl_ca_certs"))
                if address.get("ssl_cert_reqs") in ("none", None) or not address.get("ssl_check_hostname", True):
                    ssl.check_hostname = False
                if address.get("ssl_cert_reqs") in ("none",):
                    ssl.verify_mode = ssl_module.CERT_NONE
            opening = asyncio.open_connection(address.get("host", "127.0.0.1"), address.get("port", 6379), ssl=ssl)
        reader, writer = await asyncio.wait_for(opening, timeout)
        password = address.get("password")
        if password:
            username = address.get("username")
            words = [b"AUTH", *([username.encode()] if username else []), password.encode()]
            writer.write(pack_command(words))
        if self._channels:
            writer.write(pack_command([b"SUBSCRIBE", *self._channels]))
        self._writer = writer
        return reader

    async def _run(self) -> None:
        import hiredis

        while True:
            try:
                stream = await self._connect()
                parser = hiredis.Reader()
                while True:
                    data = await stream.read(65536)
                    if not data:
                        raise ConnectionError("the pub/sub connection closed")
                    parser.feed(data)
                    reply = parser.gets()
                    while reply is not False:
                        if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                            game_id = self._channels.get(reply[1])
                            if game_id is not None:
                                self._deliver(game_id, reply[2])
                        elif isinstance(reply, hiredis.ReplyError):
                            log.warning("live feed: Redis refused: %s", reply)
                        reply = parser.gets()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: reconnect and subscribe again
                log.debug("live feed: pub/sub connection failed", exc_info=True)
                self._close()
                await asyncio.sleep(1.0)

    def _deliver(self, game_id: str, batch: bytes) -> None:
        """Queue the events of a published batch this process has not delivered itself."""
        if batch == b"?":
            self.live.gap(game_id)
            return
        head = batch[:batch.find(b" ")]
        if head.isdigit() and int(head) <= self.live.delivered.get(game_id, 0):
            return  # played in this process: already queued
        mapper = self.service.mapper
        originator = uuid.UUID(game_id)
        events = [mapper.to_domain_event(StoredEvent(originator_id=originator, originator_version=version,
                                                     topic=topic.decode(), state=state))
                  for version, topic, state in unpack_batch(batch)]
        self.live.publish(events)


def live_games(app: Any) -> LiveGames:
    """The app's `LiveGames`, fed by the service's saves (created on first use)."""
    live = getattr(app.state, "live_games", None)
    if live is None:
        live = app.state.live_games = LiveGames()
        app.state.service.saved_listeners.append(live.saved)
    return live


def install_live(app: Any) -> LiveGames:
    """`LiveGames` for the app, and its `LiveFeed` running with the app's lifespan (not on a
    Redis Cluster: there the connections read the events listing)."""
    from contextlib import asynccontextmanager

    live = live_games(app)
    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: Any):
        feed = None
        try:
            feed = LiveFeed(application.state.service, live)
            feed.start()
            live.feed = feed
        except Exception:  # noqa: BLE001 - a store without pub/sub: listings only
            log.info("live feed not available; live connections read the events listing", exc_info=True)
        try:
            async with previous(application) as state:
                yield state
        finally:
            live.feed = None
            if feed is not None:
                await feed.stop()

    app.router.lifespan_context = lifespan
    return live
