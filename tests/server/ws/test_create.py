"""``create`` on a play socket: a new campaign and its welcome in one round trip, on a socket that
had no campaign (``/ws/play``) or one that moves on from the campaign it played."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx
from websockets.asyncio.client import connect

from clients.connection import Seat
from clients.replica import ProtocolError
from tests.server.conftest import Live, Socket, socket_to

SOLO = {"game": "gil-ennis", "seed": "7"}
DUO = {"game": "gil-ennis", "seed": "7", "seats": ["gil", "ennis"]}


@contextlib.asynccontextmanager
async def play_socket(live: Live) -> AsyncIterator[Socket]:
    async with connect(f"{live.ws}/ws/play", open_timeout=10) as connection:
        yield Socket(connection)


async def catalog_size(api: httpx.AsyncClient) -> int:
    return len((await api.get("/api/campaigns")).json()["campaigns"])


async def test_a_socket_creates_a_campaign_and_plays_it(live: Live, api: httpx.AsyncClient) -> None:
    async with play_socket(live) as socket:
        await socket.send({"type": "create", "campaign": DUO, "seat": "ennis"})
        created = await socket.expect("created")
        welcome = await socket.expect("welcome")
        assert welcome["campaign"] == created["id"]
        assert welcome["seat"] == created["seat"] == "ennis"
        assert set(created["seats"]) == {"gil", "ennis"}
        # The same campaign, as the HTTP API stores it; the partner's token opens its seat.
        about = (await api.get(f"/api/campaigns/{created['id']}")).json()
        assert about["seats"] == ["gil", "ennis"]
        assert about["seed_hash"] == created["seed_hash"]
        async with socket_to(live, created["id"]) as partner:
            assert (await partner.hello(created["seats"]["gil"]))["seat"] == "gil"
            action = partner.replica.legal_actions[0]["id"]
            answer = await partner.act(action, partner.replica.version, "c-1")
            assert answer["type"] == "accepted"
        update = await socket.next_update()
        assert update["version"] == answer["version"]


async def test_a_socket_moves_on_to_its_new_campaign_and_hears_no_more_of_the_old(
    live: Live, api: httpx.AsyncClient
) -> None:
    async with Seat.create(live.ws, DUO) as seat:
        first = seat.created
        assert first is not None and seat.seat == "gil"
        async with Seat.connect(live.ws, first["id"], token=first["seats"]["ennis"]) as partner:
            created = await seat.play_new(SOLO)
            assert seat.replica.campaign == created["id"] != first["id"]
            assert seat.replica.events == []  # nothing of the old campaign is kept
            # The partner plays on in the old campaign; the moved socket hears none of it.
            while partner.outcome == "running" and not partner.legal_actions:
                await partner.next_update()
            await partner.act(partner.legal_actions[0]["id"])
            version = seat.version
            answer = await seat.act(seat.legal_actions[0]["id"])
            assert answer["first"] == version + 1  # nothing came between, from either campaign
            assert not seat.replica.lost
            assert seat.replica.campaign == created["id"]
    assert await catalog_size(api) == 2


async def test_a_create_that_is_refused_changes_nothing_and_keeps_the_socket(
    live: Live, api: httpx.AsyncClient
) -> None:
    async with Seat.create(live.ws, SOLO) as seat:
        campaign = seat.replica.campaign
        for refused, code in [
            ({"game": "chess"}, "bad_request"),
            ({"game": "gil-ennis", "seed": "007"}, "bad_request"),
        ]:
            try:
                await seat.play_new(refused)
            except ProtocolError as error:
                assert error.code == code
            else:
                raise AssertionError(f"{refused} was accepted")
        try:
            await seat.play_new(DUO, seat="leo")
        except ProtocolError as error:
            assert error.code == "bad_request"
            assert "gil, ennis" in str(error)
        else:
            raise AssertionError("a seat the campaign does not have was accepted")
        # Still at the table it had: it acts there.
        assert seat.replica.campaign == campaign
        await seat.act(seat.legal_actions[0]["id"])
    assert await catalog_size(api) == 1


async def test_a_socket_without_a_campaign_must_create_one_before_anything_else(
    live: Live,
) -> None:
    async with play_socket(live) as socket:
        await socket.send({"type": "hello"})
        error = await socket.expect("error")
        assert error["code"] == "bad_request" and "create" in error["message"]
        await socket.send(
            {"type": "act", "action": "x", "expected_version": 1, "command_id": "c-1"}
        )
        rejected = await socket.expect("rejected")
        assert rejected["code"] == "bad_request"
        await socket.send({"type": "create", "campaign": SOLO})
        await socket.expect("created")
        await socket.expect("welcome")
