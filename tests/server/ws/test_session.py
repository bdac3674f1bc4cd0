from __future__ import annotations

import json
from typing import Any

import httpx
import msgspec
import pytest
from starlette import status
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Live, Socket, socket_to


async def create(api: httpx.AsyncClient, game: str = "dice-race", **body: Any) -> dict[str, Any]:
    response = await api.post("/api/campaigns", json={"game": game, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def test_welcome_carries_version_view_and_legal_actions(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, options={"target": 500})
    async with socket_to(live, created["id"]) as player:
        welcome = await player.hello(created["seats"]["player"])
    assert welcome["version"] == 2 and welcome["seat"] == "player"
    assert welcome["seats"] == ["player"] and welcome["outcome"] == "running"
    assert [a["id"] for a in welcome["legal_actions"]] == ["hold", "roll"]
    assert welcome["view"]["totals"] == [0]


async def test_accepted_action_is_pushed_to_every_subscriber(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid = created["id"]
    async with (
        socket_to(live, cid) as red,
        socket_to(live, cid) as blue,
        socket_to(live, cid) as watcher,
    ):
        sockets = {"red": red, "blue": blue}
        welcomes = {seat: await s.hello(created["seats"][seat]) for seat, s in sockets.items()}
        await watcher.hello()
        mover = next(seat for seat, w in welcomes.items() if w["legal_actions"])
        other = "blue" if mover == "red" else "red"
        answer = await sockets[mover].act("roll", 2, "c1")
        assert answer["type"] == "accepted" and answer["command_id"] == "c1"
        assert (answer["first"], answer["version"], answer["duplicate"]) == (3, 3, False)
        assert [e["event"]["type"] for e in answer["events"]] == ["dice-race/rolled"]
        assert answer["legal_actions"] == [] and answer["patch"]
        pushed = await sockets[other].next_update()
        seen = await watcher.next_update()
        assert not sockets[mover].pending, "the actor's answer is its only frame for the action"
    assert (pushed["first"], pushed["version"], seen["first"], seen["version"]) == (3, 3, 3, 3)
    # The same events, save that only the seat that chose it is told its action's id.
    assert [e["action"] for e in answer["events"]] == ["roll"]
    assert [e["action"] for e in pushed["events"] + seen["events"]] == [None, None]
    unnamed = [{**e, "action": None} for e in answer["events"]]
    assert pushed["events"] == seen["events"] == unnamed
    assert seen["legal_actions"] == []
    assert [a["id"] for a in pushed["legal_actions"]] == ["hold", "roll"]
    assert sockets[other].replica.view == watcher.replica.view == sockets[mover].replica.view


async def test_rejections_are_typed_and_the_socket_stays_open(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, seats=["red", "blue"], options={"target": 500})
    cid = created["id"]
    async with socket_to(live, cid) as red, socket_to(live, cid) as blue:
        before = await red.act("roll", 2, "early")
        assert before["code"] == "bad_request"
        welcome = await red.hello(created["seats"]["red"])
        await blue.hello(created["seats"]["blue"])
        idle, idle_name = (blue, "blue") if welcome["legal_actions"] else (red, "red")
        busy = red if idle is blue else blue
        assert (await idle.act("roll", 2, "a"))["code"] == "not_your_turn"
        assert (await busy.act("fly", 2, "b"))["code"] == "illegal_action"
        assert (await busy.act("roll", 1, "c"))["code"] == "stale_version"
        forged = {"action": "roll", "expected_version": 2, "command_id": "bot:search:2:red@2"}
        await busy.send({"type": "act", **forged})  # a bot's id is the server's own
        assert (await busy.expect("error"))["code"] == "bad_request"
        accepted = await busy.act("roll", 2, "d")
        assert accepted["type"] == "accepted" and accepted["version"] == 3
        assert idle_name in ("red", "blue")


async def test_malformed_and_unknown_messages_get_errors_then_hello_works(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api)
    async with socket_to(live, created["id"]) as player:
        await player.connection.send("{not json")
        assert (await player.expect("error"))["code"] == "bad_request"
        await player.send({"type": "dance"})
        assert (await player.expect("error"))["code"] == "bad_request"
        await player.send({"type": "hello", "token": None, "colour": "red"})
        assert (await player.expect("error"))["code"] == "bad_request"
        await player.send({"type": "hello", "token": "guess"})
        assert (await player.expect("error"))["code"] == "unauthorized"
        welcome = await player.hello(created["seats"]["player"])
        assert welcome["version"] == 2
        await player.send({"type": "hello", "token": None})
        assert (await player.expect("error"))["code"] == "bad_request"


async def test_oversized_frame_closes_with_1009(live: Live, api: httpx.AsyncClient) -> None:
    created = await create(api)
    async with socket_to(live, created["id"]) as player:
        await player.connection.send(json.dumps({"type": "hello", "token": "x" * 70_000}))
        with pytest.raises(ConnectionClosed):
            await player.recv()
        assert player.connection.close_code == status.WS_1009_MESSAGE_TOO_BIG


async def test_a_stream_of_garbage_closes_with_1008(live: Live, api: httpx.AsyncClient) -> None:
    created = await create(api)
    async with socket_to(live, created["id"]) as player:
        with pytest.raises(ConnectionClosed):
            for _ in range(20):
                await player.connection.send("garbage")
                await player.recv()
        assert player.connection.close_code == status.WS_1008_POLICY_VIOLATION


async def test_unknown_campaign_gets_not_found_then_close(live: Live) -> None:
    async with socket_to(live, "nope") as player:
        assert (await player.expect("error"))["code"] == "not_found"
        with pytest.raises(ConnectionClosed):
            await player.recv()
        assert player.connection.close_code == status.WS_1008_POLICY_VIOLATION


async def test_messagepack_frames_when_the_subprotocol_is_asked_for(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, options={"target": 500})
    async with socket_to(live, created["id"], subprotocols=["tabletale.msgpack"]) as player:
        assert player.connection.subprotocol == "tabletale.msgpack"
        token = created["seats"]["player"]
        await player.connection.send(msgspec.msgpack.encode({"type": "hello", "token": token}))
        raw = await player.connection.recv()
        assert isinstance(raw, bytes)
        welcome = msgspec.msgpack.decode(raw)
        assert welcome["type"] == "welcome" and welcome["version"] == 2
        act = {"type": "act", "action": "roll", "command_id": "m1", "expected_version": 2}
        await player.connection.send(msgspec.msgpack.encode(act))
        accepted = msgspec.msgpack.decode(await binary(player))
        assert accepted["type"] == "accepted" and accepted["version"] == 3
        assert accepted["events"][0]["event"]["type"] == "dice-race/rolled"
        await player.connection.send(b"\xc1")  # never valid MessagePack
        assert msgspec.msgpack.decode(await binary(player))["code"] == "bad_request"


async def test_a_frame_of_the_other_kind_gets_a_typed_error_and_the_socket_stays_open(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, options={"target": 500})
    token = created["seats"]["player"]
    hello = {"type": "hello", "token": token}
    async with socket_to(live, created["id"], subprotocols=["tabletale.msgpack"]) as player:
        await player.connection.send(json.dumps(hello))  # text on a MessagePack socket
        error = msgspec.msgpack.decode(await binary(player))
        assert error["type"] == "error" and error["code"] == "bad_request"
        assert "binary frames" in error["message"]
        await player.connection.send(msgspec.msgpack.encode(hello))
        assert msgspec.msgpack.decode(await binary(player))["type"] == "welcome"
    async with socket_to(live, created["id"]) as player:
        await player.connection.send(msgspec.json.encode(hello))  # binary on a JSON socket
        error = await player.expect("error")
        assert error["code"] == "bad_request" and "text frames" in error["message"]
        assert (await player.hello(token))["version"] == 2


async def binary(player: Socket) -> bytes:
    raw = await player.connection.recv()
    assert isinstance(raw, bytes)
    return raw


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_of(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_of(v)}
    return set()


async def test_spectator_cannot_act_and_sees_no_hidden_information(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, "gil-ennis", seats=["gil", "ennis"])
    cid = created["id"]
    async with socket_to(live, cid) as watcher:
        welcome = await watcher.hello()
        assert welcome["seat"] is None and welcome["legal_actions"] == []
        assert "rng" not in keys_of(welcome["view"]) and "deck" not in welcome["view"]
        refused = await watcher.act("anything", welcome["version"], "s1")
        assert refused["code"] == "forbidden"
    async with socket_to(live, cid) as late:
        welcome = await late.hello(since=1)
        missed = welcome["missed"]
    assert [e["version"] for e in missed] == list(range(2, created["version"] + 1))
    shuffles = [e["event"] for e in missed if "order" in e["event"]]
    assert shuffles and all(e["order"] == [] for e in shuffles)
    events = (await api.get(f"/api/campaigns/{cid}/events")).json()["events"]
    assert "seed" not in events[0]["event"]
    assert all(e["event"].get("order", []) == [] for e in events)


async def test_two_coop_seats_see_each_others_actions(live: Live, api: httpx.AsyncClient) -> None:
    created = await create(api, "gil-ennis", seats=["gil", "ennis"])
    cid = created["id"]
    async with socket_to(live, cid) as gil, socket_to(live, cid) as ennis:
        sockets = {"gil": gil, "ennis": ennis}
        for seat, s in sockets.items():
            await s.hello(created["seats"][seat])
        acted_by: set[str] = set()
        version = created["version"]
        for n in range(40):
            seat = next((s for s, k in sockets.items() if k.replica.legal_actions), None)
            assert seat is not None
            action = sockets[seat].replica.legal_actions[0]["id"]
            answer = await sockets[seat].act(action, version, f"coop{n}")
            assert answer["type"] == "accepted", answer
            acted_by.add(seat)
            other = "ennis" if seat == "gil" else "gil"
            (pushed,) = await sockets[other].updates_until(answer["version"])
            assert (pushed["first"], pushed["version"]) == (version + 1, answer["version"])
            assert {e["seat"] for e in pushed["events"]} == {seat}
            version = answer["version"]
            if acted_by == {"gil", "ennis"} and n >= 5:
                break
        assert acted_by == {"gil", "ennis"}
        assert gil.replica.view == {**ennis.replica.view, "seat": "gil"}
