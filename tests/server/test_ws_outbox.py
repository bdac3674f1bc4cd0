"""A socket's outbox: frames in order, a pump only while there is work, bounded when lagging."""

from __future__ import annotations

import asyncio

from server.ws.outbox import Frame, Outbox

WAIT_S = 5.0


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
