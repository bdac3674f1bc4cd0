"""A socket's outbox: frames in order, a pump only while there is work, bounded when lagging."""

from __future__ import annotations

import asyncio

from server.live.outbox import Drain, Frame, Outbox

WAIT_S = 30.0


class Peer:
    def __init__(self) -> None:
        self.received: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.lags = 0

    async def send(self, frame: Frame) -> None:
        await self.open.wait()
        self.received.append(frame["text"])

    async def lagging(self) -> None:
        self.lags += 1


def frame(text: str) -> Frame:
    return {"type": "websocket.send", "text": text}


async def test_frames_leave_in_order_and_no_pump_outlives_the_work() -> None:
    peer = Peer()
    outbox = Outbox(peer.send, limit=10, on_lagging=peer.lagging)
    for n in range(5):
        outbox.put(frame(str(n)))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert peer.received == ["0", "1", "2", "3", "4"]
    assert outbox._pump is None


async def test_a_held_outbox_sends_its_first_frames_ahead_of_what_queued_meanwhile() -> None:
    peer = Peer()
    outbox = Outbox(peer.send, limit=10, on_lagging=peer.lagging)
    outbox.hold()
    outbox.put(frame("update"))
    await asyncio.sleep(0)
    assert peer.received == []
    outbox.release(frame("welcome"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert peer.received == ["welcome", "update"]


async def test_a_reader_that_falls_behind_gets_one_sync_instead_of_a_backlog() -> None:
    peer = Peer()
    peer.open.clear()  # the client stops reading
    outbox = Outbox(peer.send, limit=3, on_lagging=peer.lagging)
    outbox.put(frame("in flight"))
    await asyncio.sleep(0)  # the pump takes it and blocks on the peer
    for n in range(10):
        outbox.put(frame(f"late {n}"))
    peer.open.set()
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert peer.lags == 1 and peer.received == ["in flight"]
    outbox.put(frame("after the sync"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert peer.received == ["in flight", "after the sync"]


async def test_a_failed_send_closes_the_outbox_quietly() -> None:
    async def broken(frame: Frame) -> None:
        raise OSError("the peer went away")

    outbox = Outbox(broken, limit=3, on_lagging=Peer().lagging)
    outbox.put(frame("x"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    outbox.put(frame("y"))  # ignored once closed
    await outbox.close()


class Socket(Peer):
    """A peer that also takes frames at once while it is ``ready``."""

    def __init__(self) -> None:
        super().__init__()
        self.ready = True
        self.direct = 0
        self.sending = asyncio.Event()
        """Set once a pump waits on this socket to take a frame."""

    async def send(self, frame: Frame) -> None:
        self.sending.set()
        await super().send(frame)

    def write_now(self, frame: Frame) -> bool:
        if not self.ready:
            return False
        self.direct += 1
        self.received.append(frame["text"])
        return True


def direct_outbox(socket: Socket, drain: Drain, limit: int = 10) -> Outbox:
    return Outbox(
        socket.send, limit=limit, on_lagging=socket.lagging, write_now=socket.write_now, drain=drain
    )


async def test_frames_go_straight_to_a_socket_that_takes_them_with_no_task() -> None:
    socket = Socket()
    outbox = direct_outbox(socket, Drain())
    for n in range(3):
        outbox.put(frame(str(n)))
    assert outbox._pump is None and socket.received == []  # written on the drain's turn
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.received == ["0", "1", "2"] and socket.direct == 3
    assert outbox._pump is None


async def test_what_a_paused_socket_cannot_take_waits_for_a_pump_in_order() -> None:
    socket = Socket()
    outbox = direct_outbox(socket, Drain())
    outbox.put(frame("0"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    socket.ready = False  # its writing paused behind a slow reader
    socket.open.clear()
    outbox.put(frame("1"))
    outbox.put(frame("2"))
    await asyncio.wait_for(socket.sending.wait(), WAIT_S)
    assert outbox._pump is not None  # waiting on the socket, in a task of its own
    outbox.put(frame("3"))
    socket.open.set()
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.received == ["0", "1", "2", "3"] and socket.direct == 1
    socket.ready = True
    outbox.put(frame("4"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.received[-1] == "4" and socket.direct == 2


async def test_a_held_outbox_is_not_written_by_the_drain_until_released() -> None:
    socket = Socket()
    outbox = direct_outbox(socket, Drain())
    outbox.put(frame("update"))
    outbox.hold()
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.received == []
    outbox.release(frame("welcome"))
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.received == ["welcome", "update"]


async def test_an_answer_sent_from_its_own_task_goes_before_the_drain_writes_others() -> None:
    """The acting player's outbox is deferred and flushed by its own task: its answer leaves
    before the spectators' frames that the same change queued on the drain."""
    drain = Drain()
    order: list[str] = []
    spectators = [Socket() for _ in range(3)]
    for spectator in spectators:
        spectator.received = order
    player = Socket()
    player.received = order
    answering = direct_outbox(player, drain)
    answering.defer()
    outboxes = [direct_outbox(s, drain) for s in spectators]
    for outbox in outboxes:
        outbox.put(frame("update"))
    answering.put(frame("accepted"))
    await answering.flush()
    for outbox in outboxes:
        await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert order == ["accepted", "update", "update", "update"]


async def test_the_drain_leaves_the_loop_turns_between_its_batches() -> None:
    drain = Drain(batch=100)
    sockets = [Socket() for _ in range(350)]
    outboxes = [direct_outbox(s, drain) for s in sockets]
    for outbox in outboxes:
        outbox.put(frame("update"))
    written_when_others_ran: list[int] = []
    seen = asyncio.Event()
    loop = asyncio.get_running_loop()

    def another_callback() -> None:
        # Scheduled after the drain's first turn, it runs once per loop turn from then on.
        written_when_others_ran.append(sum(s.direct for s in sockets))
        if len(written_when_others_ran) < 3:
            loop.call_soon(another_callback)
        else:
            seen.set()

    loop.call_soon(another_callback)
    await asyncio.wait_for(seen.wait(), WAIT_S)
    for outbox in outboxes:
        await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert all(s.received == ["update"] for s in sockets)
    # The other coroutine ran between batches, not only once all 350 were written.
    assert any(0 < written < 350 for written in written_when_others_ran)


async def test_a_lagging_direct_outbox_still_gets_one_sync() -> None:
    socket = Socket()
    socket.ready = False
    socket.open.clear()
    outbox = direct_outbox(socket, Drain(), limit=3)
    outbox.put(frame("in flight"))
    await asyncio.wait_for(socket.sending.wait(), WAIT_S)  # the pump holds it, blocked
    for n in range(10):
        outbox.put(frame(f"late {n}"))
    socket.open.set()
    await asyncio.wait_for(outbox.drained(), WAIT_S)
    assert socket.lags == 1 and socket.received == ["in flight"]
