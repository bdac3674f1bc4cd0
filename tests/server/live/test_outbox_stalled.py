"""A socket's outbox is bounded in bytes as well as in frames, and once closed holds nothing of
its session."""

from __future__ import annotations

import asyncio
import gc
import weakref

from server.live.outbox import SYNC, Frame, Outbox


async def test_a_reader_that_stops_holds_at_most_max_bytes_before_it_is_sent_a_sync() -> None:
    gate = asyncio.Event()  # never set: the reader stopped
    lags: list[int] = []

    async def send(frame: Frame) -> None:
        await gate.wait()

    async def lagging() -> None:
        lags.append(1)

    outbox = Outbox(send, limit=1000, max_bytes=1000, on_lagging=lagging)
    outbox.put({"type": "websocket.send", "text": "in flight"})
    await asyncio.sleep(0)  # the pump takes it and waits on the reader
    for _ in range(9):
        outbox.put({"type": "websocket.send", "text": "x" * 100})
    assert len(outbox._frames) == 9
    outbox.put({"type": "websocket.send", "text": "x" * 200})  # 1,100 bytes: over
    # Every frame dropped: only the mark where the fresh sync goes is left.
    assert outbox._frames == [SYNC] and outbox.lagging
    await outbox.close()
    assert lags == []


async def test_a_frame_larger_than_max_bytes_is_still_sent_alone() -> None:
    sent: list[Frame] = []

    async def send(frame: Frame) -> None:
        sent.append(frame)

    async def lagging() -> None:
        raise AssertionError("A lone frame is not a backlog.")

    outbox = Outbox(send, limit=10, max_bytes=10, on_lagging=lagging)
    outbox.put({"type": "websocket.send", "text": "y" * 50})
    await asyncio.wait_for(outbox.drained(), 5)
    assert [len(frame["text"]) for frame in sent] == [50]


class Owner:
    """A session's part: it holds its outbox, and the outbox holds its methods."""

    def __init__(self) -> None:
        self.outbox = Outbox(self.send, limit=10, on_lagging=self.lagging)

    async def send(self, frame: Frame) -> None:
        pass

    async def lagging(self) -> None:
        pass


async def test_a_closed_outbox_lets_its_owner_be_freed_without_a_cycle_collection() -> None:
    owner = Owner()
    await owner.outbox.close()
    gone = weakref.ref(owner)
    gc.disable()
    try:
        del owner
        assert gone() is None, "the owner waits for the cycle collector"
    finally:
        gc.enable()
