"""The server's socket protocol: uvicorn's sans-I/O one, which gives up on a peer that stopped
reading and lets an outbox write a frame straight to the socket (:mod:`server.live.wire`)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.protocol import State

from server.live.wire import WRITE_NOW, wire
from server.ws.session import MISSED_PONG, STALLED

WRITE_HIGH_WATER = 16 * 1024
"""Bytes a socket's transport may hold before writing pauses (asyncio's and uvloop's default is
64 KiB); the kernel's send buffer (``ws_send_buffer_kib``) does the rest of the buffering."""

_RESET = struct.pack("ii", 1, 0)
"""``SO_LINGER`` on, for 0 s: closing the socket resets the connection and drops what the
kernel still holds for the peer, instead of keeping it for minutes of retransmissions."""


class GivingUpSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O socket protocol, which gives up on a peer that stopped reading.

    uvicorn closes a socket by queueing a close frame and calling ``transport.close()``, which
    waits for the write buffer to drain first; for a peer that reads nothing it never drains, so
    the socket, its buffers and its session stayed for good (a missed pong too: the close frame
    queued behind the backlog), and a server stopping waited on them. Here the kernel's send
    buffer is bounded (``send_buffer``), and a transport is aborted when its writing stays paused
    (its buffer above its high-water mark) for ``stall_timeout`` seconds, when it misses its pong
    with frames still waiting, or when a close has not flushed within ``stall_timeout``. Before
    an abort the app is told why (``websocket.disconnect`` with the reason :data:`STALLED` or
    :data:`MISSED_PONG`), so the session ends, leaves the fan-out and presence and counts it; the
    abort drops the buffers and resets the connection.
    """

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        stall_timeout: float,
        send_buffer: int,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.stall_timeout = stall_timeout
        self.send_buffer = send_buffer
        self.stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # uvicorn writes a frame only while the transport is below its high-water mark, so this
        # is what a socket holds in the process besides its outbox's frames (shared with other
        # sockets) until it is given up on.
        self.transport.set_write_buffer_limits(high=WRITE_HIGH_WATER)
        raw = transport.get_extra_info("socket")
        if raw is not None and self.send_buffer:
            # The kernel's own, which grows to megabytes on a fast link, for a reader that may
            # have stopped: past this, frames wait in the transport, where a stall is seen.
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.stall_timer is None:
            self.stall_timer = self.loop.call_later(self.stall_timeout, self.give_up, STALLED)

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.transport.is_closing():  # a closing one has until it has flushed
            self._cancel_stall_timer()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # the handshake was not refused: the app is about to run
            self.scope["extensions"][WRITE_NOW] = {"write_now": self.write_now}

    def write_now(self, frame: dict[str, Any]) -> bool:
        """Write an ASGI ``websocket.send`` event at once, if the socket can take it without
        waiting: open, accepted, nothing sent to close it, and its writing not paused behind a
        slow reader. False leaves the frame to :meth:`send`, which waits as long as it must."""
        if (
            not self.writable.is_set()
            or self.close_sent
            or self.disconnected
            or not self.handshake_complete
            or self.initial_response is not None
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()  # given up on (aborted), or closing
        ):
            return False
        if self.conn.extensions:  # compression: each socket frames its own bytes
            text: str | None = frame.get("text")
            if text is not None:
                self.conn.send_text(text.encode())
            else:
                self.conn.send_binary(frame["bytes"])
            self.transport.write(b"".join(self.conn.data_to_send()))
        else:
            self.transport.write(wire(frame))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_stall_timer()
        # The scope holds this protocol's bound method: let go of the cycle now, not at a full
        # collection (rare, by design: server/ops/collector.py).
        extensions = getattr(self, "scope", {}).get("extensions") or {}
        extensions.pop(WRITE_NOW, None)
        super().connection_lost(exc)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        if self.transport.get_write_buffer_size():
            self.give_up(MISSED_PONG)  # it did not read our ping; it will not read a close

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            # uvicorn's timer would close() a transport that may never flush: abort instead.
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self._close_now)

    async def run_asgi(self) -> None:
        await super().run_asgi()
        self._abort_unless_flushed()

    def shutdown(self) -> None:
        super().shutdown()
        self._abort_unless_flushed()

    def give_up(self, reason: str) -> None:
        self.stall_timer = None
        if self.disconnected:
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1006, "reason": reason})
        raw = self.transport.get_extra_info("socket")
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
        self.transport.abort()

    def _close_now(self) -> None:
        self.transport.close()
        if self.transport.get_write_buffer_size():
            self.give_up(STALLED)

    def _abort_unless_flushed(self) -> None:
        """A closing transport that still holds frames has ``stall_timeout`` to flush them."""
        if (
            not self.disconnected
            and self.stall_timer is None
            and self.transport.get_write_buffer_size()
        ):
            self.stall_timer = self.loop.call_later(self.stall_timeout, self.give_up, STALLED)

    def _cancel_stall_timer(self) -> None:
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None
