"""A campaign's spectator delay, on every channel a spectator reads: the play and replay
sockets, the state, events and timeline, the catalog and forks. Seat holders are never delayed,
and the delay ends with the campaign."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from server.campaigns.delay import Move, SpectatorDelay, visible_version
from tests.server.conftest import Live, Socket, auth, socket_to
from tests.support.polling import eventually

ROLL = "roll"
HOLD = "hold"
DUE_TIMEOUT_S = 60.0


class Table:
    """A one-seat dice race with a spectator delay, played over HTTP by its seat."""

    def __init__(self, api: httpx.AsyncClient, created: dict[str, Any]) -> None:
        self.api = api
        self.id: str = created["id"]
        self.token: str = created["seats"]["player"]
        self.version: int = created["version"]
        self.moves = 0

    async def play(self, action: str = ROLL) -> int:
        self.moves += 1
        reply = await self.api.post(
            f"/api/campaigns/{self.id}/actions",
            json={
                "action": action,
                "expected_version": self.version,
                "command_id": f"move-{self.moves}",
            },
            headers=auth(self.token),
        )
        assert reply.status_code == 200, reply.text
        self.version = reply.json()["version"]
        return self.version

    async def read(self, path: str, *, seated: bool = False, **params: Any) -> Any:
        headers = auth(self.token) if seated else {}
        reply = await self.api.get(
            f"/api/campaigns/{self.id}{path}", params=params, headers=headers
        )
        assert reply.status_code == 200, reply.text
        return reply.json()

    async def appended_ms(self, version: int) -> int:
        events = await self.read("/events", seated=True, after=version - 1, limit=1)
        at_ms: int = events["events"][0]["at_ms"]
        return at_ms


async def delayed_table(
    api: httpx.AsyncClient, delay: dict[str, int], *, target: int = 1000
) -> Table:
    reply = await api.post(
        "/api/campaigns",
        json={"game": "dice-race", "options": {"target": target}, "spectator_delay": delay},
    )
    assert reply.status_code == 201, reply.text
    return Table(api, reply.json())


async def play_to_the_end(table: Table) -> None:
    """Roll until the race (its target 2) is won."""
    while (await table.read("/state", seated=True))["outcome"] == "running":
        await table.play(ROLL)


def test_the_rule_counts_moves_back_from_the_head_and_never_below_the_floor() -> None:
    # Version 2 is the creation; 5 and 9 end moves of several events each.
    moves = [Move(2, 0), Move(3, 10), Move(5, 20), Move(9, 30)]
    two = SpectatorDelay(moves=2)
    assert visible_version(two, moves, floor=2, now_ms=99) == 3
    assert visible_version(SpectatorDelay(moves=3), moves, floor=2, now_ms=99) == 2
    assert visible_version(SpectatorDelay(moves=9), moves, floor=2, now_ms=99) == 2
    # Moves known from version 3 on only: too few to say, so older ones are read.
    assert visible_version(SpectatorDelay(moves=3), moves[1:], floor=2, now_ms=99) is None
    second = SpectatorDelay(seconds=1)
    assert visible_version(second, moves, floor=2, now_ms=1025) == 5
    assert visible_version(second, moves, floor=2, now_ms=1030) == 9
    assert visible_version(second, moves, floor=2, now_ms=500) == 2
    assert visible_version(second, moves[2:], floor=2, now_ms=500) is None


@pytest.mark.parametrize(
    "delay",
    [
        {"moves": 0},
        {"moves": 101},
        {"seconds": 0},
        {"seconds": 3601},
        {},
        {"moves": 1, "seconds": 1},
        {"minutes": 1},
        {"moves": "3"},
        {"moves": 1.5},
        {"moves": True},
        "3 moves",
        5,
    ],
)
async def test_a_bad_delay_is_refused_and_nothing_is_created(
    live: Live, api: httpx.AsyncClient, delay: Any
) -> None:
    reply = await api.post("/api/campaigns", json={"game": "dice-race", "spectator_delay": delay})
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["code"] == "bad_request"
    assert "spectator_delay" in reply.json()["error"]["message"]
    assert (await api.get("/api/campaigns")).json()["campaigns"] == []


async def test_http_reads_show_spectators_the_game_some_moves_behind(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 2})
    created = table.version
    # Fewer moves than the delay: spectators see the campaign as it was created.
    await table.play()
    assert (await table.read("/state"))["version"] == created
    versions = [await table.play() for _ in range(3)]
    visible = versions[-3]  # two moves behind the head
    state = await table.read("/state")
    assert (state["version"], state["head"], state["legal_actions"]) == (visible, visible, [])
    at_visible = await table.read("/state", seated=True, at=visible)
    assert state["view"] == at_visible["view"]
    assert state["points"]["near"] == visible
    assert all(last <= visible for _, last in state["points"]["fork"])
    events = await table.read("/events")
    assert events["head"] == visible
    assert [e["version"] for e in events["events"]][-1] == visible
    timeline = await table.read("/timeline")
    assert timeline["head"] == visible
    assert timeline["lines"] and all(line["version"] <= visible for line in timeline["lines"])
    # A version past the delayed one is refused, without naming the head.
    hidden = await api.get(f"/api/campaigns/{table.id}/state", params={"at": visible + 1})
    assert hidden.status_code == 403
    assert hidden.json()["error"]["code"] == "not_visible_yet"
    assert str(table.version) not in hidden.json()["error"]["message"]
    assert (await table.read("/state", at=visible))["version"] == visible
    # The seat holder is not delayed anywhere.
    seated = await table.read("/state", seated=True)
    assert (seated["version"], seated["head"]) == (table.version, table.version)
    assert (await table.read("/events", seated=True))["head"] == table.version
    assert (await table.read("/timeline", seated=True))["head"] == table.version
    assert (await table.read("", seated=True))["entry"]["version"] == table.version


async def test_the_catalog_shows_spectators_the_delayed_version_and_its_time(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 1})
    first = await table.play()
    await table.play()
    listed = (await api.get("/api/campaigns")).json()["campaigns"]
    (entry,) = [each for each in listed if each["id"] == table.id]
    assert (entry["version"], entry["status"]) == (first, "running")
    assert entry["updated_ms"] == await table.appended_ms(first)
    one = await table.read("")
    assert one["entry"] == entry
    assert one["spectator_delay"] == {"moves": 1}


async def test_a_spectator_socket_gets_each_move_one_move_late(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 1})
    first = await table.play()
    async with socket_to(live, table.id) as spectator, socket_to(live, table.id) as seat:
        welcome = await spectator.hello()
        assert welcome["version"] == first - 1 and welcome["spectator_delay"] == {"moves": 1}
        seated = await seat.hello(table.token)
        assert seated["version"] == first and seated["spectator_delay"] is None
        second = await table.play()
        assert (await seat.next_update())["version"] == second  # live for the seat
        update = await spectator.next_update()
        assert (update["first"], update["version"]) == (first, first)
        assert [e["version"] for e in update["events"]] == [first]
        assert spectator.replica.view == (await table.read("/state", at=first))["view"]
        # A sync asked for is the delayed view too.
        await spectator.send({"type": "sync"})
        synced = await spectator.expect("sync")
        assert synced["version"] == first
    # A spectator resuming past what it may see is refused, told only what it may see.
    async with socket_to(live, table.id) as late:
        await late.send({"type": "hello", "since": second})
        refused = await late.expect("error")
        assert refused["code"] == "bad_request" and f"from 1 to {first}," in refused["message"]


async def test_the_replay_socket_ends_at_the_delayed_version(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 2})
    versions = [await table.play() for _ in range(4)]
    url = f"{live.ws}/ws/campaigns/{table.id}/replay?from=1&speed=0"
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        await replay.hello()
        steps = await replay.updates_until(versions[1])
        end = await replay.expect("end")
    assert end["version"] == versions[1] and steps[-1]["version"] == versions[1]
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        await replay.hello(table.token)
        await replay.updates_until(table.version)
        assert (await replay.expect("end"))["version"] == table.version


async def test_a_replay_asked_from_past_the_delayed_version_says_where_it_starts_instead(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 2})
    versions = [await table.play() for _ in range(4)]
    past = versions[3]
    url = f"{live.ws}/ws/campaigns/{table.id}/replay?from={past}&speed=0"
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        welcome = await replay.hello()
        assert welcome["version"] == versions[1]
        assert welcome["asked_from"] == past
        assert welcome["spectator_delay"] == {"moves": 2}
        assert (await replay.expect("end"))["version"] == versions[1]
    async with connect(url, open_timeout=10) as connection:
        replay = Socket(connection)
        welcome = await replay.hello(table.token)  # a seat is never delayed
        assert (welcome["version"], welcome["asked_from"]) == (past, None)
        assert welcome["spectator_delay"] is None


async def test_a_seconds_delay_is_released_by_its_timer_without_a_new_move(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"seconds": 1})
    created = table.version
    async with socket_to(live, table.id) as spectator:
        welcome = await spectator.hello()
        assert welcome["version"] == created
        assert welcome["spectator_delay"] == {"seconds": 1}
        moved = await table.play()
        appended = await table.appended_ms(moved)
        update = await spectator.recv(DUE_TIMEOUT_S)
        arrived = time.time() * 1000
        assert update["type"] == "update" and update["version"] == moved
        assert arrived >= appended + 1000, "released no sooner than a second after the move"

    async def shown_over_http() -> bool:
        version: int = (await table.read("/state"))["version"]
        assert version == created or time.time() * 1000 >= appended + 1000
        return version == moved

    await eventually(shown_over_http, "the move visible over HTTP", DUE_TIMEOUT_S)


async def test_a_seconds_delay_holds_over_http_and_replays_until_due(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"seconds": 1})
    moved = await table.play()
    appended = await table.appended_ms(moved)

    async def replay_end() -> int:
        url = f"{live.ws}/ws/campaigns/{table.id}/replay?from=1&speed=0"
        async with connect(url, open_timeout=10) as connection:
            replay = Socket(connection)
            await replay.hello()
            while (message := await replay.recv())["type"] != "end":
                pass
        end: int = message["version"]
        return end

    if await replay_end() == moved:
        received = time.time() * 1000
        assert received >= appended + 1000, "replayed no sooner than a second after the move"

    async def reached(path: str, field: str) -> int:
        read = await table.read(path)
        received = time.time() * 1000
        version: int = read["entry"]["version"] if path == "" else read[field]
        if version >= moved:
            assert received >= appended + 1000, f"{path or 'the catalog'} showed it early"
        return version

    async def shown() -> bool:
        seen = [await reached("/events", "head"), await reached("/timeline", "head")]
        seen.append(await reached("", "version"))
        return seen == [moved, moved, moved]

    await eventually(shown, "the move in the events, timeline and catalog", DUE_TIMEOUT_S)
    assert await replay_end() == moved


async def test_the_delay_ends_with_the_campaign(live: Live, api: httpx.AsyncClient) -> None:
    table = await delayed_table(api, {"moves": 3}, target=2)
    await table.play(HOLD)
    async with socket_to(live, table.id) as spectator:
        welcome = await spectator.hello()
        assert welcome["version"] < table.version
        await play_to_the_end(table)
        updates = await spectator.updates_until(table.version)
    assert updates[-1]["outcome"] == "won"
    state = await table.read("/state")
    assert (state["version"], state["outcome"]) == (table.version, "won")
    assert (await table.read("/events"))["head"] == table.version
    entry = (await table.read(""))["entry"]
    assert (entry["version"], entry["status"]) == (table.version, "won")
    async with socket_to(live, table.id) as late:
        welcome = await late.hello()
        assert welcome["version"] == table.version and welcome["spectator_delay"] is None


async def test_a_spectators_fork_stays_within_what_it_may_see(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 2}, target=2)
    holds = [await table.play(HOLD) for _ in range(3)]
    path = f"/api/campaigns/{table.id}/fork"
    hidden = await api.post(path, json={"at": table.version})
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "not_visible_yet"
    running = await api.post(path, json={"at": holds[0]})
    assert running.json()["error"]["code"] == "forbidden"  # a running campaign, as ever
    # A seat's fork keeps no delay unless it asks for one.
    plain = await api.post(path, json={"at": table.version}, headers=auth(table.token))
    assert plain.status_code == 201, plain.text
    kept = await api.post(
        path,
        json={"at": table.version, "spectator_delay": {"seconds": 5}},
        headers=auth(table.token),
    )
    assert kept.status_code == 201, kept.text
    plain_out = (await api.get(f"/api/campaigns/{plain.json()['id']}")).json()
    kept_out = (await api.get(f"/api/campaigns/{kept.json()['id']}")).json()
    assert plain_out["spectator_delay"] is None
    assert kept_out["spectator_delay"] == {"seconds": 5}
    await play_to_the_end(table)
    ended = await api.post(path, json={"at": table.version})
    assert ended.status_code == 201, ended.text


async def test_the_lineage_shows_spectators_the_line_up_to_the_delayed_version(
    live: Live, api: httpx.AsyncClient
) -> None:
    table = await delayed_table(api, {"moves": 2})
    holds = [await table.play(HOLD) for _ in range(4)]
    rewound = await api.post(
        f"/api/campaigns/{table.id}/rewind", json={"to": holds[0]}, headers=auth(table.token)
    )
    assert rewound.status_code == 200, rewound.text
    table.version = rewound.json()["version"]
    fork = await api.post(
        f"/api/campaigns/{table.id}/fork", json={"at": holds[0]}, headers=auth(table.token)
    )
    assert fork.status_code == 201, fork.text
    fork_id = fork.json()["id"]
    visible = holds[2]  # two moves behind the rewind, which spectators do not know of yet
    assert (await table.read("/state"))["version"] == visible

    seen = await table.read("/lineage")
    root = next(b for b in seen["branches"] if b["kind"] == "root")
    assert (root["last"], root["rewinds"], root["moves"]) == (visible, [], visible)
    assert [b["kind"] for b in seen["branches"]] == ["root", "fork"]
    forked = next(b for b in seen["branches"] if b["kind"] == "fork")
    assert forked["parent"] == {"branch": table.id, "campaign": table.id, "version": holds[0]}
    compared = await table.read(f"/compare/{fork_id}")
    assert (compared["a_head"], compared["common"]) == (visible, holds[0])

    # The seat holder sees it all: the rewind, and the stretch it undid.
    seated = await table.read("/lineage", seated=True)
    root = next(b for b in seated["branches"] if b["kind"] == "root")
    assert root["last"] == table.version
    assert root["rewinds"] == [{"at": table.version, "to": holds[0]}]
    undone = next(b for b in seated["branches"] if b["kind"] == "undone")
    assert (undone["first"], undone["last"]) == (holds[1], holds[3])
    assert (await table.read(f"/compare/{fork_id}", seated=True))["a_head"] == table.version
