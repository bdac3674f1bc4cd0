"""A socket's outbox is bounded in bytes as well as in frames."""

from __future__ import annotations

import asyncio

from server.ws.outbox import Frame, Outbox


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
    assert outbox._frames == [] and outbox._lagging
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
