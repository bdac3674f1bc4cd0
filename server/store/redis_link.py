"""One Redis connection shared by every coroutine of a process, with commands pipelined.

The hot path of the server (an append, the catch-up read that follows another process's append, a
metadata read) is one short command per request. Checking a connection out of a pool for each
costs more CPU than Redis spends on the command, and a pool of N connections caps concurrency at
N. A link instead writes each command as it comes, on one connection, and hands the replies back
in order (Redis answers a connection's commands in the order it received them), so concurrent
commands share writes and reads and the process holds one connection however busy it is.

It is built on redis-py's own ``Connection`` (connecting, authentication, the hiredis parser);
commands and replies are raw RESP2 (``HGETALL`` answers a flat list, for instance). Commands that
block or answer with huge replies belong on a pooled client instead: they would hold up every
command queued behind them.
"""

from __future__ import annotations

import asyncio
import collections
import math
from collections.abc import Callable
from typing import Any

import hiredis
import redis.exceptions
from redis.asyncio.connection import AbstractConnection

_HIGH_WATER = 256 * 1024  # bytes buffered for Redis before a write waits for the socket
_GRACE_S = 0.25
"""How long, after the connection failed, a command waits for the new one before failing: a
reconnection to a Redis that restarted takes milliseconds, one to a frozen Redis never ends,
and callers should not each wait a whole timeout to learn that."""


class _Call:
    __slots__ = ("deadline", "future")

    def __init__(self, future: asyncio.Future[Any], deadline: float) -> None:
        self.future = future
        self.deadline = deadline


def _ignore(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class Link:
    def __init__(self, connect: Callable[[], AbstractConnection], *, timeout: float) -> None:
        """``connect`` makes an unconnected redis-py connection; ``timeout`` bounds how long a
        command may wait for its reply before the link gives up on the connection."""
        self._make = connect
        self._timeout = timeout
        self._connection: AbstractConnection | None = None
        self._connecting: asyncio.Future[AbstractConnection] | None = None
        self._calls: collections.deque[_Call] = collections.deque()
        self._out: list[bytes] = []
        self._writer: asyncio.Task[None] | None = None
        self._flush_soon = False
        self._reader: asyncio.Task[None] | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False
        self._failed_at: float | None = None
        """When the connection last failed, until a new one is open."""

    @property
    def in_flight(self) -> int:
        """Commands sent (or about to be) whose replies have not come back yet."""
        return len(self._calls)

    async def execute(self, *args: Any) -> Any:
        """Send one command; its reply, or the error Redis answered, raised."""
        connection = self._connection or await self._connect()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._calls.append(_Call(future, loop.time() + self._timeout))
        self._out.append(hiredis.pack_command(args))
        if not self._flush_soon and self._writer is None:
            # Commands issued in this turn of the loop leave together, in one write.
            self._flush_soon = True
            loop.call_soon(self._flush, connection)
        if self._watchdog is None:
            self._watchdog = loop.call_at(self._calls[0].deadline, self._check)
        return await future

    async def execute_asking(self, *args: Any) -> Any:
        """``ASKING`` and one command, back to back on the connection: a cluster node importing
        a slot serves that one command for it (:mod:`server.store.redis_cluster`)."""
        connection = self._connection or await self._connect()
        loop = asyncio.get_running_loop()
        asking: asyncio.Future[Any] = loop.create_future()
        future: asyncio.Future[Any] = loop.create_future()
        deadline = loop.time() + self._timeout
        self._calls += (_Call(asking, deadline), _Call(future, deadline))
        self._out.append(hiredis.pack_command(("ASKING",)) + hiredis.pack_command(args))
        if not self._flush_soon and self._writer is None:
            self._flush_soon = True
            loop.call_soon(self._flush, connection)
        if self._watchdog is None:
            self._watchdog = loop.call_at(self._calls[0].deadline, self._check)
        # Only the command's own reply matters: without ASKING it is redirected again.
        asking.add_done_callback(_ignore)
        return await future

    async def _connect(self) -> AbstractConnection:
        if self._closed:
            raise redis.exceptions.ConnectionError("The Redis link is closed.")
        connecting = self._connecting
        if connecting is None:
            connecting = self._connecting = asyncio.ensure_future(self._open())
            connecting.add_done_callback(_retrieve)
        wait = None
        if self._failed_at is not None:
            # Redis failed us a moment ago: wait briefly for the new connection, then fail fast
            # while it goes on trying in the background.
            wait = max(0.0, self._failed_at + min(_GRACE_S, self._timeout) - _now())
        try:
            return await asyncio.wait_for(asyncio.shield(connecting), wait)
        except TimeoutError:
            raise redis.exceptions.ConnectionError(
                "Redis is not answering; the connection to it is being reopened."
            ) from None
        finally:
            if self._connecting is connecting and connecting.done():
                self._connecting = None

    async def _open(self) -> AbstractConnection:
        connection = self._make()
        try:
            await asyncio.wait_for(connection.connect(), self._timeout)  # type: ignore[no-untyped-call]
        except TimeoutError:
            await connection.disconnect(nowait=True)
            raise redis.exceptions.TimeoutError(
                f"Redis did not finish the connection handshake within {self._timeout} s."
            ) from None
        if self._closed:
            # Closed while this connection was made (a caller that stopped waiting left it
            # behind): nobody else would ever close it.
            await connection.disconnect(nowait=True)
            raise redis.exceptions.ConnectionError("The Redis link is closed.")
        self._connection = connection
        self._failed_at = None
        self._reader = asyncio.create_task(self._read(connection))
        return connection

    def _flush(self, connection: AbstractConnection) -> None:
        self._flush_soon = False
        if not self._out or self._connection is not connection:
            return
        # redis-py's connection writes through an asyncio StreamWriter; writing to it directly
        # is a plain buffered write, without a task per batch. Past the transport's high-water
        # mark (or on a redis-py without it), a writer task takes over and awaits the drain.
        stream = getattr(connection, "_writer", None)
        transport = getattr(stream, "transport", None)
        if stream is not None and transport is not None and not transport.is_closing():
            batch, self._out = self._out, []
            stream.writelines(batch)
            if transport.get_write_buffer_size() < _HIGH_WATER:
                return
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(connection))

    async def _write(self, connection: AbstractConnection) -> None:
        try:
            while self._connection is connection:
                batch, self._out = self._out, []
                await connection.send_packed_command(batch, check_health=False)
                if not self._out:
                    return
        except BaseException as error:
            self._fail(connection, error)
            if not isinstance(error, Exception):
                raise
        finally:
            self._writer = None

    async def _read(self, connection: AbstractConnection) -> None:
        try:
            while True:
                try:
                    reply = await connection.read_response(
                        timeout=math.inf, disconnect_on_error=False
                    )
                except redis.exceptions.ResponseError as error:
                    reply = error
                if not self._calls:
                    raise redis.exceptions.ConnectionError("Redis answered a command not sent.")
                call = self._calls.popleft()
                if call.future.done():
                    continue
                if isinstance(reply, Exception):
                    call.future.set_exception(reply)
                else:
                    call.future.set_result(reply)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._fail(connection, error)

    def _check(self) -> None:
        """The watchdog: a reply overdue means the connection is stuck; give it up."""
        self._watchdog = None
        if not self._calls:
            return
        loop = asyncio.get_running_loop()
        head = self._calls[0]
        if loop.time() >= head.deadline and self._connection is not None:
            self._fail(
                self._connection,
                redis.exceptions.TimeoutError(f"Redis did not answer within {self._timeout} s."),
            )
        elif self._calls:
            self._watchdog = loop.call_at(self._calls[0].deadline, self._check)

    def _fail(self, connection: AbstractConnection, error: BaseException) -> None:
        """Every command in flight on ``connection`` fails; the next one reconnects."""
        if self._connection is not connection:
            return
        self._connection = None
        self._failed_at = _now()
        if not isinstance(error, redis.exceptions.RedisError):
            error = redis.exceptions.ConnectionError(f"The Redis connection failed: {error!r}")
        calls, self._calls = self._calls, collections.deque()
        self._out = []
        for call in calls:
            if not call.future.done():
                call.future.set_exception(error)
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
        self._reader = None
        closing = asyncio.ensure_future(connection.disconnect(nowait=True))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        self._closed = True
        connecting = self._connecting
        if connecting is not None and not connecting.done():
            # A connection being made is given up by _open itself; waited for briefly, so it is
            # closed before the caller's event loop is (a frozen Redis is not waited out).
            await asyncio.wait([connecting], timeout=min(_GRACE_S, self._timeout))
        connection = self._connection
        if connection is not None:
            self._fail(connection, redis.exceptions.ConnectionError("The Redis link was closed."))
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        await asyncio.gather(*self._closing, return_exceptions=True)


def _now() -> float:
    return asyncio.get_running_loop().time()


def _retrieve(future: asyncio.Future[AbstractConnection]) -> None:
    """Mark a connection attempt's failure as seen: every caller may have stopped waiting."""
    if not future.cancelled():
        future.exception()
