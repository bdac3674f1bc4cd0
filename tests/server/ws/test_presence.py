"""``presence``: who is connected to a campaign, pushed to the sockets that ask for it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx

from clients.connection import Seat
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from tests.server.conftest import Live, Reproducible, Socket, running, socket_to
from tests.server.ws.test_session import create


async def hello(socket: Socket, token: str | None = None, **more: Any) -> dict[str, Any]:
    await socket.send({"type": "hello", "token": token, **more})
    return await socket.expect("welcome")


def seated(presence: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(entry["seat"], entry["name"]) for entry in presence["seats"]]


async def presence_until(
    socket: Socket, seats: list[tuple[str, str | None]], spectators: int
) -> None:
    """Read ``presence`` messages until one says exactly this (bounded in time)."""
    async with asyncio.timeout(10):
        while True:
            now = await socket.expect("presence")
            if seated(now) == seats and now["spectators"] == spectators:
                return


async def test_joins_and_leaves_are_told_to_the_sockets_that_asked(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid, tokens = created["id"], created["seats"]
    async with socket_to(live, cid) as red:
        await hello(red, tokens["red"], name="Ana", presence=True)
        alone = await red.expect("presence")
        assert seated(alone) == [("red", "Ana")] and alone["spectators"] == 0
        async with socket_to(live, cid) as blue, socket_to(live, cid) as watcher:
            await hello(blue, tokens["blue"], presence=True)
            assert seated(await blue.expect("presence")) == [("red", "Ana"), ("blue", None)]
            assert seated(await red.expect("presence")) == [("red", "Ana"), ("blue", None)]
            await hello(watcher, name="  Bo  ", presence=True)
            watching = await watcher.expect("presence")
            assert watching["spectators"] == 1 and len(watching["seats"]) == 2
            assert (await red.expect("presence"))["spectators"] == 1
        # blue and the spectator left (in either order): red hears until only it is left
        while True:
            now = await red.expect("presence")
            if now["spectators"] == 0 and seated(now) == [("red", "Ana")]:
                break


async def test_a_socket_that_did_not_ask_gets_no_presence(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid, tokens = created["id"], created["seats"]
    async with socket_to(live, cid) as red, socket_to(live, cid) as blue:
        welcome = await hello(red, tokens["red"])
        await hello(blue, tokens["blue"], name="Cy", presence=True)
        await blue.expect("presence")
        mover = red if welcome["legal_actions"] else blue
        answer = await mover.act("roll", 2, "c1")
        assert answer["type"] == "accepted"
        if mover is red:
            assert not red.pending, "nothing was queued ahead of red's answer"
        else:
            assert (await red.recv())["type"] == "update", "the update is red's next frame"


async def test_a_name_too_long_is_refused_and_hello_can_be_sent_again(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api)
    async with socket_to(live, created["id"]) as player:
        await player.send({"type": "hello", "token": None, "name": "x" * 41})
        error = await player.expect("error")
        assert error["code"] == "bad_request" and "40 characters" in error["message"]
        welcome = await hello(player, created["seats"]["player"], name="x" * 40)
    assert welcome["seat"] == "player"


async def test_the_asyncio_client_keeps_the_latest_presence_and_plays_on(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid, tokens = created["id"], created["seats"]
    async with (
        Seat.connect(live.ws, cid, token=tokens["red"], name="Ana", presence=True) as red,
        Seat.connect(live.ws, cid, token=tokens["blue"], name="Bo") as blue,
    ):
        while red.replica.connected() != {"red": ["Ana"], "blue": ["Bo"]}:
            red.replica.absorb(await red.receive())
        mover, other = (red, blue) if red.legal_actions else (blue, red)
        await mover.act("roll")
        await other.until(3)
    assert red.version == blue.version == 3


async def test_a_server_that_stops_takes_its_sockets_out_of_the_count_at_once(
    live: Live, api: httpx.AsyncClient
) -> None:
    """A second server on the same Redis shares its emptied part as it stops: the other one's
    sockets hear it at once, not when the part expires (a minute, by default)."""
    assert live.redis_url is not None and live.prefix is not None
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid, tokens = created["id"], created["seats"]
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    second = create_app(CampaignService(store, fresh=Reproducible()), close_store=True)
    async with socket_to(live, cid) as red:
        await hello(red, tokens["red"], name="Ana", presence=True)
        await presence_until(red, [("red", "Ana")], 0)
        with contextlib.ExitStack() as serving:
            # The second server starts and stops in a thread: both block until done.
            there = await asyncio.to_thread(serving.enter_context, running(second))
            async with socket_to(there, cid) as blue, socket_to(there, cid) as watcher:
                await hello(blue, tokens["blue"], name="Bo")
                await hello(watcher)
                await presence_until(red, [("red", "Ana"), ("blue", "Bo")], 1)
                stopping = asyncio.create_task(asyncio.to_thread(serving.close))
                await presence_until(red, [("red", "Ana")], 0)
            await stopping
