"""A seed the player chooses means the same luck on any server; a seed the server draws stays its
secret until the end; every seed travels as a decimal string, which no JSON client rounds."""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from domain.games import get_game
from server.app import create_app
from server.campaigns.codec import codec_for
from server.campaigns.service import CampaignService
from server.store.contract import EventStore
from server.store.redis_store import RedisStore
from server.store.sqlite import SqliteStore
from tests.server.conftest import Live, auth, on_redis, running, socket_to

pytestmark = pytest.mark.redis

LARGE = "13112283191526718841"
"""A seed of 20 digits, past 2**53: a browser that reads it as a number shows …720000."""
Played = list[tuple[str, str]]


@contextlib.contextmanager
def another_server(path: Path) -> Iterator[tuple[Live, EventStore]]:
    """A second server with a store of its own (SQLite) and real random ids, seeds and salts."""
    store = SqliteStore(path)
    with running(create_app(CampaignService(store), close_store=True)) as live:
        yield live, store


@pytest.fixture
def fresh_live(redis_url: str) -> Iterator[Live]:
    """A server on Redis as in production: random ids, seeds and salts (not the reproducible
    ones of ``live``, which share one salt)."""
    with on_redis(redis_url, None) as live:
        yield live


@contextlib.asynccontextmanager
async def client_of(live: Live) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http, timeout=10.0) as client:
        yield client


@contextlib.asynccontextmanager
async def redis_behind(live: Live) -> AsyncIterator[EventStore]:
    """The Redis store the ``live`` server writes to, to read what it stored."""
    assert live.redis_url is not None and live.prefix is not None
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    try:
        yield store
    finally:
        await store.close()


async def create(api: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await api.post("/api/campaigns", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def get(api: httpx.AsyncClient, path: str, token: str | None = None) -> Any:
    response = await api.get(path, headers=auth(token) if token else None)
    assert response.status_code == 200, response.text
    return response.json()


async def act(
    api: httpx.AsyncClient, created: dict[str, Any], seat: str, action: str, version: int
) -> int:
    response = await api.post(
        f"/api/campaigns/{created['id']}/actions",
        json={"action": action, "expected_version": version},
        headers=auth(created["seats"][seat]),
    )
    assert response.status_code == 200, response.text
    acted: int = response.json()["version"]
    return acted


async def play(
    api: httpx.AsyncClient, created: dict[str, Any], chooser: random.Random, *, most: int
) -> Played:
    """A random player at every seat, for at most ``most`` actions or to the end; returns the
    actions taken, by seat."""
    played: Played = []
    cid = created["id"]
    for _ in range(most):
        for seat in sorted(created["seats"]):
            state = await get(api, f"/api/campaigns/{cid}/state", created["seats"][seat])
            if state["legal_actions"]:
                break
        else:
            return played  # nobody has anything to do: the campaign has ended
        action = chooser.choice(state["legal_actions"])["id"]
        await act(api, created, seat, action, state["version"])
        played.append((seat, action))
    return played


async def replay(api: httpx.AsyncClient, created: dict[str, Any], played: Played) -> None:
    version: int = created["version"]
    for seat, action in played:
        version = await act(api, created, seat, action, version)


async def stream(api: httpx.AsyncClient, created: dict[str, Any], seat: str | None) -> list[Any]:
    """The viewer's copy of the whole log: each event's version and payload (not its time)."""
    token = None if seat is None else created["seats"][seat]
    log = await get(api, f"/api/campaigns/{created['id']}/events?limit=1000", token)
    assert log["head"] == len(log["events"]), "the log fits one page"
    return [(e["version"], e["event"]) for e in log["events"]]


async def stored(store: EventStore, game_name: str, cid: str) -> list[tuple[int, bytes, str]]:
    """Every stored event in full (hidden parts, seed and salt included) and its state hash."""
    codec = codec_for(get_game(game_name))
    recorded = codec.decode_stored(await store.read(cid))
    return [(r.version, msgspec.msgpack.encode(r.event), r.hash) for r in recorded]


def commitment(seed: str, salt: str) -> str:
    """The published hash, worked out from the revealed strings as any reader would."""
    return hashlib.sha256(f"tabletale-seed:{salt}:{seed}".encode()).hexdigest()


# -- the same chosen seed, the same luck ----------------------------------------------------


async def test_the_same_chosen_seed_and_actions_give_the_same_campaign_on_one_server(
    fresh_live: Live,
) -> None:
    async with client_of(fresh_live) as api:
        await same_campaign_twice(fresh_live, api)


async def same_campaign_twice(live: Live, api: httpx.AsyncClient) -> None:
    body = {"game": "gil-ennis", "seed": LARGE, "seats": ["gil", "ennis"]}
    first, second = await create(api, body), await create(api, body)
    assert first["id"] != second["id"]
    assert first["seed_hash"] == second["seed_hash"] == commitment(LARGE, "")
    played = await play(api, first, random.Random(5), most=60)
    assert len(played) > 20  # sixty actions, or the whole game if it ends sooner
    await replay(api, second, played)
    for seat in (None, "gil", "ennis"):
        assert await stream(api, first, seat) == await stream(api, second, seat)
    async with redis_behind(live) as store:
        one = await stored(store, "gil-ennis", first["id"])
        other = await stored(store, "gil-ennis", second["id"])
    assert len(one) > len(played)
    assert one == other, "every event, hidden parts included, and every state hash agree"


async def test_the_same_chosen_seed_and_actions_give_the_same_campaign_on_another_server(
    live: Live, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    body = {"game": "dice-race", "seed": "42", "seats": ["red", "blue"], "options": {"target": 30}}
    here = await create(api, body)
    played = await play(api, here, random.Random(3), most=400)
    with another_server(tmp_path / "other.db") as (other_live, other_store):
        async with client_of(other_live) as other_api:
            there = await create(other_api, body)
            await replay(other_api, there, played)
            assert (await get(other_api, f"/api/campaigns/{there['id']}"))["entry"][
                "status"
            ] != "running", "the same actions end the game there too"
            for seat in (None, "red", "blue"):
                assert await stream(api, here, seat) == await stream(other_api, there, seat)
            there_stored = await stored(other_store, "dice-race", there["id"])
            revealed = await get(other_api, f"/api/campaigns/{there['id']}")
    async with redis_behind(live) as store:
        here_stored = await stored(store, "dice-race", here["id"])
    assert here_stored == there_stored
    assert here["seed_hash"] == there["seed_hash"] == commitment("42", "")
    assert (revealed["seed"], revealed["salt"]) == ("42", "")


async def test_another_chosen_seed_gives_other_luck(api: httpx.AsyncClient) -> None:
    """The checks above mean something: the rolls follow the seed."""
    body: dict[str, Any] = {"game": "dice-race", "seats": ["player"], "options": {"target": 900}}
    first = await create(api, {**body, "seed": "42"})
    second = await create(api, {**body, "seed": "43"})
    rolls = [("player", "roll")] * 10
    await replay(api, first, rolls)
    await replay(api, second, rolls)
    assert await stream(api, first, None) != await stream(api, second, None)


# -- luck the server chooses -----------------------------------------------------------------


async def test_a_seed_the_server_draws_gives_other_luck_each_time_and_stays_hidden_until_the_end(
    tmp_path: Path,
) -> None:
    body = {"game": "dice-race", "seats": ["player"], "options": {"target": 40}}
    with another_server(tmp_path / "drawn.db") as (live, _):
        async with client_of(live) as api:
            first, second = await create(api, body), await create(api, body)
            assert first["seed_hash"] != second["seed_hash"]
            rolls = [("player", "roll")] * 6
            logs = []
            for created in (first, second):
                await replay(api, created, rolls)
                about = await get(api, f"/api/campaigns/{created['id']}")
                state = await get(api, f"/api/campaigns/{created['id']}/state")
                assert about["seed"] is None and about["salt"] is None
                assert state["seed"] is None and state["salt"] is None
                log = await stream(api, created, "player")
                assert "seed" not in log[0][1] and "salt" not in log[0][1]
                logs.append([event for _, event in log])
            assert logs[0] != logs[1], "two drawn seeds rolled the same six dice"
            await play(api, first, random.Random(1), most=400)
            about = await get(api, f"/api/campaigns/{first['id']}")
            assert about["entry"]["status"] == "won"
            seed, salt = about["seed"], about["salt"]
            assert isinstance(seed, str) and seed.isdigit() and int(seed) < 2**64
            assert len(salt) == 16, "a drawn seed has a fresh secret salt, not the chosen one"
            assert commitment(seed, salt) == first["seed_hash"]


# -- seeds on the wire -----------------------------------------------------------------------


async def test_a_twenty_digit_seed_comes_back_exactly_as_a_string(api: httpx.AsyncClient) -> None:
    body = {"game": "dice-race", "seed": LARGE, "seats": ["player"], "options": {"target": 20}}
    created = await create(api, body)
    await play(api, created, random.Random(2), most=400)
    cid = created["id"]
    about = await api.get(f"/api/campaigns/{cid}")
    state = await api.get(f"/api/campaigns/{cid}/state")
    events = await api.get(f"/api/campaigns/{cid}/events")
    assert about.json()["entry"]["status"] == "won"
    # As text, so that no reader of these answers rounds the seed before it is looked at.
    for response in (about, state, events):
        assert f'"seed":"{LARGE}"' in response.text, response.text[:300]
    assert about.json()["salt"] == state.json()["salt"] == ""
    assert events.json()["events"][0]["event"]["seed"] == LARGE
    assert commitment(about.json()["seed"], about.json()["salt"]) == created["seed_hash"]


async def test_a_rounded_looking_seed_is_refused_and_nothing_is_created(
    api: httpx.AsyncClient,
) -> None:
    before = (await get(api, "/api/campaigns?limit=200"))["campaigns"]
    # 13112283191526718841 as a JSON number reaches the server as a browser rounded it.
    body = b'{"game": "dice-race", "seed": 13112283191526720000}'
    response = await api.post(
        "/api/campaigns", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    assert "send the seed as a decimal string" in error["message"]
    assert (await get(api, "/api/campaigns?limit=200"))["campaigns"] == before


async def test_a_seed_a_double_holds_exactly_may_come_as_a_number(api: httpx.AsyncClient) -> None:
    """The same luck as the same seed sent as a string: the two spellings name one seed."""
    as_number = await create(api, {"game": "dice-race", "seed": 2**53 - 1})
    as_text = await create(api, {"game": "dice-race", "seed": str(2**53 - 1)})
    assert as_number["seed_hash"] == as_text["seed_hash"] == commitment(str(2**53 - 1), "")


async def test_a_fork_with_a_chosen_seed_shows_it_as_a_string_on_a_message_pack_socket(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, {"game": "dice-race", "options": {"target": 20}})
    await play(api, created, random.Random(4), most=400)
    parent = await get(api, f"/api/campaigns/{created['id']}/state")
    assert parent["outcome"] == "won"
    at = parent["points"]["fork"][0][0]
    response = await api.post(
        f"/api/campaigns/{created['id']}/fork", json={"at": at, "reseed": LARGE}
    )
    assert response.status_code == 201, response.text
    fork = response.json()
    assert fork["seed_hash"] == commitment(LARGE, "")
    await play(api, fork, random.Random(6), most=400)
    token = fork["seats"]["player"]
    async with socket_to(live, fork["id"], subprotocols=["tabletale.msgpack"]) as player:
        hello = {"type": "hello", "token": token, "since": at}
        await player.connection.send(msgspec.msgpack.encode(hello))
        raw = await player.connection.recv()
    assert isinstance(raw, bytes), "a MessagePack socket answers in binary frames"
    welcome = msgspec.msgpack.decode(raw)
    assert welcome["type"] == "welcome" and welcome["outcome"] == "won", welcome
    reseeded = welcome["missed"][0]["event"]
    assert reseeded == {"type": "campaign/reseeded", "seed": LARGE, "salt": ""}


async def test_a_seed_with_leading_zeros_is_refused_saying_so_and_nothing_is_created(
    api: httpx.AsyncClient,
) -> None:
    before = (await get(api, "/api/campaigns?limit=200"))["campaigns"]
    response = await api.post("/api/campaigns", json={"game": "dice-race", "seed": "0042"})
    assert response.status_code == 400, response.text
    assert "without leading zeros" in response.json()["error"]["message"]
    assert (await get(api, "/api/campaigns?limit=200"))["campaigns"] == before
    zero = await api.post("/api/campaigns", json={"game": "dice-race", "seed": "0"})
    assert zero.status_code == 201, "0 itself has no leading zero"
