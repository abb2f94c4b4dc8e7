"""Waiting on the notification log without polling: `LogWaiter` (the projection runner's sleep)
and `RedisSubscription` (eventsourcing's subscription), both blocked in ``XREAD BLOCK`` on the
log stream on connections of their own, so an append in any process wakes them at once."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import redis
from eventsourcing.persistence import ListenNotifySubscription

if TYPE_CHECKING:
    from collections.abc import Sequence

    from domain.eventstore.recorders import RedisApplicationRecorder


def unblock_client(recorder: RedisApplicationRecorder, client_id: int | None) -> None:
    """End the ``XREAD BLOCK`` of connection `client_id` (on the server holding the log stream),
    from another thread; nothing to do if it never blocked, or the server is gone."""
    if client_id is None:
        return
    try:
        recorder.datastore.route(recorder.stream_key, lambda c: c.execute_command("CLIENT", "UNBLOCK", client_id))
    except redis.RedisError:
        pass


class LogWaiter:
    """Waits, without polling, until the notification log holds more than a given id.

    ``wait(after, timeout)`` reads the last notification id and, if it is not above
    `after`, blocks in ``XREAD BLOCK`` on the log stream from that id on a connection of
    its own: an append wakes it at once (an append between the read and the XREAD adds an
    entry above that id, so XREAD returns at once too). ``unblock()`` (from another thread)
    ends a blocked wait. Used by projections/runner.py to sleep while the log is idle.
    """

    def __init__(self, recorder: RedisApplicationRecorder) -> None:
        self._recorder = recorder
        self._client = recorder.datastore.new_client(recorder.stream_key)
        self._client_id: int | None = None

    def last_id(self) -> int:
        value = self._client.get(self._recorder.seq_key)
        return int(value) if value else 0

    def wait(self, after: int, timeout: float) -> int:
        """The last notification id once it is above `after`, or when `timeout` seconds
        passed or unblock() was called (then it may still be `after`)."""
        last = self.last_id()
        if last > after:
            return last
        try:
            if self._client_id is None:
                self._client_id = int(self._client.execute_command("CLIENT", "ID"))
            reply = self._client.execute_command(
                "XREAD", "COUNT", 1, "BLOCK", max(1, int(timeout * 1000)),
                "STREAMS", self._recorder.stream_key, f"{last}-0",
            )
        except redis.RedisError:
            self._client_id = None  # the next wait asks the (new) connection its id
            raise
        return self.last_id() if reply else last

    def wait_after(self, position: int, timeout: float) -> bool:
        """Block until the log holds a notification above `position` (True), or `timeout`
        seconds passed or unblock() was called (False): one ``XREAD BLOCK`` from
        ``<position>-0``, which returns at once if such an entry exists already (a stream
        entry's id is the first notification id of its batch). For a follower that read
        every notification up to `position` itself, so it needs no GET of the last id."""
        try:
            if self._client_id is None:
                self._client_id = int(self._client.execute_command("CLIENT", "ID"))
            reply = self._client.execute_command(
                "XREAD", "COUNT", 1, "BLOCK", max(1, int(timeout * 1000)),
                "STREAMS", self._recorder.stream_key, f"{position}-0",
            )
        except redis.RedisError:
            self._client_id = None
            raise
        return bool(reply)

    def unblock(self) -> None:
        unblock_client(self._recorder, self._client_id)

    def close(self) -> None:
        self.unblock()
        self._client.close()
        self._client.connection_pool.disconnect()


class RedisSubscription(ListenNotifySubscription["RedisApplicationRecorder"]):
    """Wakes the library's pull loop when the notification stream grows.

    A listener thread blocks in ``XREAD BLOCK`` on the stream (its own connection), from
    the position the subscription started at. When XREAD returns it reads the current
    last id, then sets the "notified" event, so the pull that follows sees at least that
    id and any later append makes the next XREAD return: nothing is missed and nothing
    polls. ``stop()`` unblocks the XREAD at once with ``CLIENT UNBLOCK``.
    """

    BLOCK_MS = 5000  # backstop only; stop() unblocks immediately

    def __init__(
        self,
        recorder: RedisApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
    ) -> None:
        from domain.eventstore.recorders import RedisApplicationRecorder

        assert isinstance(recorder, RedisApplicationRecorder)
        self._listen_client = recorder.datastore.new_client(recorder.stream_key)
        self._listen_client_id: int | None = None
        self._listen_ready = threading.Event()
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._listen_thread = threading.Thread(target=self._listen, daemon=True)
        self._listen_thread.start()
        self._listen_ready.wait(timeout=5)

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            # stop() may have raced the listener's next XREAD: unblock until it is gone.
            while self._listen_thread.is_alive():
                self._unblock()
                self._listen_thread.join(timeout=0.05)

    def stop(self) -> None:
        super().stop()
        self._unblock()

    def _unblock(self) -> None:
        unblock_client(self._recorder, self._listen_client_id)

    def _listen(self) -> None:
        client = self._listen_client
        position = f"{self._last_notification_id or 0}-0"
        try:
            self._listen_client_id = int(client.execute_command("CLIENT", "ID"))
            self._listen_ready.set()
            stream = self._recorder.stream_key
            while not self._has_been_stopped:
                reply = client.execute_command(
                    "XREAD", "COUNT", 1, "BLOCK", self.BLOCK_MS, "STREAMS", stream, position
                )
                if self._has_been_stopped:
                    break
                if reply:
                    last = client.get(self._recorder.seq_key)
                    position = f"{int(last)}-0" if last else position
                    self._has_been_notified.set()
        except BaseException as e:  # noqa: BLE001 - handed to the iterating thread
            if not self._has_been_stopped and self._thread_error is None:
                self._thread_error = e
                self.stop()
        finally:
            self._listen_ready.set()
            client.close()
