"""A socket's outgoing frames, in order, sent by a pump that runs only while there is work.

Everything a session sends goes through its outbox, so a pushed update, the answer to an action
and a sync can never overtake one another. The pump task exists only while frames wait, so an
idle socket costs a list and no task. A consumer that lets ``limit`` frames, or ``max_bytes`` of
them, pile up is lagging: its queue is dropped, and so is everything offered until the session has
put one fresh sync built from the newest head (bounded memory per socket, however slow the
reader; one that reads nothing at all is dropped by the socket protocol,
:mod:`server.ws.socket_protocol`).

Where the socket offers to write a frame at once (``write_now``, :mod:`server.live.wire`), an outbox
with work asks the process's :class:`Drain` instead of starting a task: the drain writes the
frames of a batch of outboxes per turn of the event loop, with no task and no ASGI call per frame,
and the frames of one change fanned out to thousands of spectators leave in a few turns, between
which the loop still reads and answers the players. A socket whose writing is paused (a slow
reader) refuses the write, and its frames wait for a pump as before, so it delays no other socket.

An outbox is in one :class:`Mode` at a time and changes it only by the moves :data:`MOVES` lists,
each from the modes it lists: any other raises :class:`IllegalMove`. A reader that lagged leaves a
:data:`SYNC` mark in the queue: the fresh sync goes there, after the frames ahead of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import sys
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from starlette.websockets import WebSocketDisconnect

log = logging.getLogger("tabletale.ws")

Frame = dict[str, Any]
"""An ASGI ``websocket.send`` event."""

SYNC: Frame = {"type": "tabletale.sync"}
"""Where a lagging reader's fresh sync goes in its queue (never sent itself): what was put after
it is dropped, since the sync is built from the newest head."""


class Mode(enum.Enum):
    OPEN = "open"
    """Frames leave as they come, through a pump task or straight to the socket."""
    QUEUED = "queued"
    """Open, and waiting for the drain's turn to write straight to the socket."""
    HELD = "held"
    """Frames queue and none leaves until :meth:`Outbox.release` (the session builds its
    welcome); a pump at work stops after the frame it is sending."""
    DEFERRED = "deferred"
    """Frames queue for the session's own task to send (:meth:`Outbox.flush`)."""
    CLOSED = "closed"
    """The peer has gone or the session has ended: nothing leaves any more."""

    # Every frame put checks and moves the mode: identity hashing (the members are singletons)
    # keeps that a C call rather than the enum's own hash of its name.
    __hash__ = object.__hash__


# The same reason: a module constant is read several times faster than an enum class attribute.
OPEN, QUEUED, HELD, DEFERRED, CLOSED = Mode.OPEN, Mode.QUEUED, Mode.HELD, Mode.DEFERRED, Mode.CLOSED

Move = Literal["queue", "turn", "hold", "release", "defer", "flush", "close"]

MOVES: dict[Move, dict[Mode, Mode]] = {
    "queue": {OPEN: QUEUED},  # frames wait for the drain's turn
    "turn": {QUEUED: OPEN},  # the drain's turn came
    "hold": {OPEN: HELD, QUEUED: HELD, CLOSED: CLOSED},
    "release": {HELD: OPEN, CLOSED: CLOSED},
    "defer": {OPEN: DEFERRED, QUEUED: DEFERRED, CLOSED: CLOSED},
    "flush": {DEFERRED: OPEN, CLOSED: CLOSED},
    "close": {mode: CLOSED for mode in Mode},  # the session ends, or its peer has gone
}
"""Each move an outbox makes, and the mode it takes the outbox to from each mode it may be made
in. Once closed (the peer may go at any time) it stays closed, and what the session asks of it
on its way out does nothing."""


class IllegalMove(RuntimeError):
    """An outbox was asked for a move its mode does not allow."""

    def __init__(self, move: Move, mode: Mode) -> None:
        allowed = ", ".join(mode.value for mode in MOVES[move])
        super().__init__(f"An outbox cannot {move} while {mode.value}, only while {allowed}.")
        self.move = move
        self.mode = mode


class Outbox:
    # Tens of thousands of these sit idle at once: slots, a plain list (queues stay short) and
    # an idle event made only for whoever waits on it keep each one small.
    __slots__ = (
        "_bytes",
        "_drain",
        "_frames",
        "_idle",
        "_limit",
        "_max_bytes",
        "_on_lagging",
        "_pump",
        "_send",
        "_write_now",
        "mode",
    )

    def __init__(
        self,
        send: Callable[[Frame], Awaitable[None]],
        *,
        limit: int,
        max_bytes: int = sys.maxsize,
        on_lagging: Callable[[], Awaitable[None]],
        write_now: Callable[[Frame], bool] | None = None,
        drain: Drain | None = None,
    ) -> None:
        """``write_now`` and ``drain`` together: frames go straight to the socket where it can
        take them (see the module's docstring); without them every frame goes through ``send``."""
        self._send = send
        self._write_now = write_now if drain is not None else None
        self._drain = drain
        self._limit = limit
        self._max_bytes = max_bytes
        self._bytes = 0
        self._on_lagging = on_lagging
        self._frames: list[Frame] = []
        self._pump: asyncio.Task[None] | None = None
        self.mode = OPEN
        self._idle: asyncio.Event | None = None

    def _move(self, move: Move) -> None:
        to = MOVES[move].get(self.mode)
        if to is None:
            raise IllegalMove(move, self.mode)
        self.mode = to

    @property
    def lagging(self) -> bool:
        """Whether a fresh sync is due (the reader lagged), after the frames queued ahead."""
        frames = self._frames
        return bool(frames) and frames[-1] is SYNC

    def put(self, frame: Frame) -> None:
        frames = self._frames
        if self.mode is CLOSED or (frames and frames[-1] is SYNC):
            # While lagging, the sync about to be built from the newest head covers this frame.
            return
        size = _size(frame)
        # A frame larger than ``max_bytes`` is still sent when nothing waits before it.
        if frames and (len(frames) >= self._limit or self._bytes + size > self._max_bytes):
            frames.clear()
            frames.append(SYNC)
            self._bytes = 0
        else:
            frames.append(frame)
            self._bytes += size
        self._start()

    def hold(self) -> None:
        """Queue without sending until :meth:`release` (while the session builds its welcome);
        a pump already at work stops after the frame it is sending."""
        self._move("hold")

    async def settled(self) -> None:
        """Once held: wait until no pump is sending, so the caller may send on the socket
        itself (a long resume's pages) ahead of everything queued."""
        await self.drained()

    def release(self, *first: Frame) -> None:
        """Send ``first`` ahead of whatever was queued meanwhile, then carry on."""
        self._move("release")
        if self.mode is CLOSED:
            return
        self._frames[:0] = first
        self._bytes += sum(_size(frame) for frame in first)
        self._start()

    def defer(self) -> None:
        """Queue without starting a pump until :meth:`flush`: the caller will send what comes
        in its own task (the session answering its own action), saving a task per frame."""
        self._move("defer")

    async def flush(self) -> None:
        """Send what is queued from the calling task, unless a pump is at it already (straight
        to the socket where it can take it: what it cannot is left to a pump)."""
        self._move("flush")
        if self.mode is CLOSED:
            return
        if self._write_now is not None and not self.lagging:
            self._write_waiting()
        elif self._pump is None and self._frames:
            self._pump = asyncio.current_task()
            await self._run()

    def _start(self) -> None:
        frames = self._frames
        if self._pump is None and self.mode is OPEN and frames:
            if self._write_now is None or frames[-1] is SYNC:
                self._pump = asyncio.create_task(self._run())
            else:
                assert self._drain is not None
                # The move "queue", from the one mode it is made in (checked above): this runs
                # for every frame, so the mode is set without looking the move up.
                self.mode = QUEUED
                self._drain.add(self)

    def write_queued(self) -> None:
        """The drain's turn: write what waits straight to the socket; what the socket cannot
        take now is left to a pump, which waits for it. An outbox held, deferred or closed
        since it asked has nothing to write now."""
        if self.mode is QUEUED:
            self.mode = OPEN  # the move "turn", from the one mode it is made in, as in _start
            self._write_waiting()
        elif self._pump is None and self._idle is not None:
            self._idle.set()

    def _write_waiting(self) -> None:
        if self._pump is None and self.mode is OPEN:
            try:
                self._write_straight()
            except Exception as error:  # the transport failed: the peer went away
                log.warning("A socket write failed: %r", error)
                self._move("close")
            else:
                if self._frames:
                    self._pump = asyncio.create_task(self._run())
        if self._pump is None and self._idle is not None:
            self._idle.set()

    def _write_straight(self) -> None:
        """Write frames straight to the socket while it takes them, up to a lagging reader's
        sync (built in a pump, which may wait)."""
        write_now = self._write_now
        assert write_now is not None  # an open outbox that asked the drain has one
        frames = self._frames
        while frames and frames[0] is not SYNC and write_now(frames[0]):
            self._bytes -= _size(frames.pop(0))

    async def _run(self) -> None:
        frames = self._frames
        try:
            while frames and self.mode is not CLOSED and self.mode is not HELD:
                frame = frames.pop(0)
                if frame is SYNC:
                    await self._on_lagging()
                    continue
                self._bytes -= _size(frame)
                await self._send(frame)
        except Exception as error:  # the transport failed: the peer went away mid-send
            if not isinstance(error, OSError | RuntimeError | WebSocketDisconnect):
                log.warning("A socket send failed: %r", error)
            self._move("close")  # the session's reader notices the disconnect and ends
        finally:
            self._pump = None
            if self.mode is OPEN and frames:
                self._start()
            elif self._idle is not None:
                self._idle.set()

    async def drained(self) -> None:
        """Wait until every queued frame has been sent (or the peer is gone)."""
        while self._pump is not None or self.mode is QUEUED:
            if self._idle is None or self._idle.is_set():
                self._idle = asyncio.Event()
            await self._idle.wait()

    async def close(self) -> None:
        self._move("close")
        self._frames.clear()
        self._bytes = 0
        # The callbacks are the session's own methods: let go of them, so that the session, its
        # socket and the socket's protocol are freed when dropped, not at the next full
        # collection of reference cycles (rare, by design: server/ops/collector.py).
        self._send = self._on_lagging = _closed
        self._write_now = None
        pump = self._pump
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump


class Drain:
    """Writes the frames of outboxes that have work, straight to their sockets, ``batch``
    outboxes per turn of the event loop, in the order they asked. One per process and loop."""

    def __init__(self, batch: int = 200) -> None:
        self._batch = batch
        self._waiting: deque[Outbox] = deque()
        self._scheduled = False

    def add(self, outbox: Outbox) -> None:
        self._waiting.append(outbox)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        waiting = self._waiting
        for _ in range(min(self._batch, len(waiting))):
            waiting.popleft().write_queued()
        if waiting:
            asyncio.get_running_loop().call_soon(self._turn)
        else:
            self._scheduled = False


def _size(frame: Frame) -> int:
    data: str | bytes | None = frame.get("text")
    if data is None:
        data = frame.get("bytes")
    return 0 if data is None else len(data)


async def _closed(*_: object) -> None:
    raise RuntimeError("This outbox is closed.")
