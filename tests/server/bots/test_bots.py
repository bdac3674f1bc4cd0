"""Bot seats in a live campaign: a person plays Gil over a socket while the bot plays Ennis;
hints; handing a seat over and taking it back; and the typed refusals of bad requests."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli.main import main
from server.app import create_app
from server.bots.driver import BotDriver
from server.campaigns.service import CampaignService
from server.settings import BotPriority, BotSettings
from server.store.leases import bot_table_of
from server.store.opening import SQLITE_FILE
from server.store.sqlite import SqliteStore
from tests.server.conftest import Live, Reproducible, Socket, auth, running, socket_to
from tests.support import dice_race
from tests.support.polling import Deadline, eventually

MAX_STEPS = 3000
BOT = "search bot (level 1)"
SHARED = {"gil-ennis/hiked", "gil-ennis/ate", "gil-ennis/forage_stowed"}
"""Events of the decisions either seat of Gil & Ennis may take for both."""
DREAMERS = "gil-ennis/dreamers_chosen"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Live]:
    """The real server on the embedded SQLite store, bots thinking in a worker process, no
    pace, and a short away time."""
    dice_race.register()
    store = SqliteStore(tmp_path / SQLITE_FILE)
    service = CampaignService(store, fresh=Reproducible())
    # Normal priority: at idle, beside other work that fills the cores, the worker would wait for
    # a free core nearly all its time; how workers stand back is tested on its own below.
    settings = BotSettings(pace_ms=0, workers=1, poll_s=0.2, away_s=0.5, priority="normal")
    with running(create_app(service, close_store=True, bot_settings=settings)) as live:
        yield live


@pytest.fixture
async def api(table: Live) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=table.http, timeout=30.0) as client:
        yield client


async def create(api: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    answer = await api.post("/api/campaigns", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def until_mine(
    socket: Socket, latest: dict[str, Any], updates: list[dict[str, Any]]
) -> dict[str, Any]:
    """Updates (kept in ``updates``), until the person has something to decide or the campaign
    has ended."""
    while latest["outcome"] == "running" and not socket.replica.legal_actions:
        latest = await socket.next_update()
        updates.append(latest)
    return latest


async def test_a_person_plays_gil_to_the_end_beside_a_bot_ennis(
    table: Live, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    created = await create(
        api,
        game="gil-ennis",
        seats=["gil", "ennis"],
        seed="31",
        bots={"ennis": {"bot": "search", "level": 1}},
    )
    cid, token = created["id"], created["seats"]["gil"]
    listed = (await api.get(f"/api/campaigns/{cid}/bots")).json()
    assert listed["seats"] == [{"seat": "ennis", "bot": "search", "level": 1, "name": BOT}]
    chooser = random.Random(5)
    updates: list[dict[str, Any]] = []
    async with socket_to(table, cid) as gil:
        latest = await gil.hello(token)
        for step in range(MAX_STEPS):
            latest = await until_mine(gil, latest, updates)
            if latest["outcome"] != "running":
                break
            action = chooser.choice(gil.replica.legal_actions)["id"]
            answer = await gil.act(action, gil.replica.version, f"gil-{step}")
            if answer["type"] == "rejected":
                # The bot moved meanwhile (both seats decide at once in places): look again.
                assert answer["code"] in ("stale_version", "illegal_action"), answer
                latest = {"outcome": "running"}
                continue
            assert all(e["by"] is None for e in answer["events"])
            latest = answer
        assert latest["outcome"] in ("won", "lost")
        updates += gil.pending
    events = (await api.get(f"/api/campaigns/{cid}/events", params={"limit": 5000})).json()
    by_bot = [e for e in events["events"] if e["by"] == BOT]
    assert by_bot and all(e["seat"] == "ennis" for e in by_bot), "Ennis's moves are the bot's"
    # With Gil's player connected, the decisions either seat may take were Gil's to take.
    kinds = [e["event"]["type"] for e in by_bot]
    assert not set(kinds) & {*SHARED, DREAMERS}, kinds
    shared_by_gil = [e for e in events["events"] if e["event"]["type"] in SHARED]
    assert shared_by_gil and all(e["seat"] == "gil" for e in shared_by_gil)
    assert all(e["by"] is None for e in events["events"] if e["seat"] == "gil")
    pushed = [e["version"] for u in updates for e in u["events"] if e["by"] == BOT]
    assert pushed, "the bot's moves reached the person's socket as updates"
    assert set(pushed) <= {e["version"] for e in by_bot}
    timeline = (await api.get(f"/api/campaigns/{cid}/timeline")).json()["lines"]
    assert any(line.get("by") == BOT for line in timeline)
    verified = await asyncio.to_thread(
        main, ["replay", cid, "--verify", "--data-dir", str(tmp_path)]
    )
    assert verified == 0


async def test_a_hint_names_a_legal_action_and_stores_nothing(api: httpx.AsyncClient) -> None:
    created = await create(api, game="gil-ennis", seats=["gil", "ennis"], seed="8")
    cid, tokens = created["id"], created["seats"]
    state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(tokens["gil"]))).json()
    seat = "gil" if state["legal_actions"] else "ennis"
    answer = await api.post(f"/api/campaigns/{cid}/hint", headers=auth(tokens[seat]))
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    mine = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(tokens[seat]))).json()
    assert hint["action"] in [{"id": a["id"], "label": a["label"]} for a in mine["legal_actions"]]
    assert hint["reason"].startswith(hint["action"]["label"])
    assert hint["version"] == mine["version"] == state["version"], "a hint appends nothing"
    again = (await api.post(f"/api/campaigns/{cid}/hint", headers=auth(tokens[seat]))).json()
    assert again == hint, "the same seat at the same version gets the same hint"


async def refused(answer: httpx.Response, code: str, status: int) -> str:
    assert answer.status_code == status, answer.text
    error: dict[str, str] = answer.json()["error"]
    assert error["code"] == code, error
    return error["message"]


async def test_bad_bot_seats_are_refused_and_nothing_is_created(api: httpx.AsyncClient) -> None:
    before = (await api.get("/api/campaigns")).json()["campaigns"]
    message = await refused(
        await api.post(
            "/api/campaigns", json={"game": "dice-race", "bots": {"player": {"bot": "search"}}}
        ),
        "bad_request",
        400,
    )
    assert "Dice Race has no bots" in message
    ge = {"game": "gil-ennis", "seats": ["gil", "ennis"]}
    message = await refused(
        await api.post("/api/campaigns", json={**ge, "bots": {"ennis": {"bot": "chess"}}}),
        "bad_request",
        400,
    )
    assert "'search'" in message
    message = await refused(
        await api.post(
            "/api/campaigns", json={**ge, "bots": {"ennis": {"bot": "search", "level": 9}}}
        ),
        "bad_request",
        400,
    )
    assert "level 1, 2, 3" in message
    message = await refused(
        await api.post("/api/campaigns", json={**ge, "bots": {"enkidu": {"bot": "search"}}}),
        "bad_request",
        400,
    )
    assert "gil, ennis" in message
    both = {"gil": {"bot": "search"}, "ennis": {"bot": "search"}}
    await refused(await api.post("/api/campaigns", json={**ge, "bots": both}), "bad_request", 400)
    assert (await api.get("/api/campaigns")).json()["campaigns"] == before


async def test_hints_are_for_seats_of_running_campaigns(api: httpx.AsyncClient) -> None:
    created = await create(api, game="gil-ennis", seats=["gil", "ennis"], seed="8")
    cid = created["id"]
    message = await refused(await api.post(f"/api/campaigns/{cid}/hint"), "forbidden", 403)
    assert "seat" in message
    solo = await create(api, game="gil-ennis", seed="12")
    token = solo["seats"]["player"]
    state = (await api.get(f"/api/campaigns/{solo['id']}/state", headers=auth(token))).json()
    step = 0
    while state["outcome"] == "running":  # ended with the first action each time: quickly
        body = {"action": state["legal_actions"][-1]["id"], "expected_version": state["version"]}
        answer = await api.post(
            f"/api/campaigns/{solo['id']}/actions", json=body, headers=auth(token)
        )
        assert answer.status_code == 200, answer.text
        state = (await api.get(f"/api/campaigns/{solo['id']}/state", headers=auth(token))).json()
        step += 1
        assert step < MAX_STEPS
    message = await refused(
        await api.post(f"/api/campaigns/{solo['id']}/hint", headers=auth(token)),
        "illegal_action",
        422,
    )
    assert "has ended" in message
    after = (await api.get(f"/api/campaigns/{solo['id']}/state", headers=auth(token))).json()
    assert after["version"] == state["version"]


async def test_an_away_seat_is_handed_to_a_bot_and_taken_back(
    table: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, game="gil-ennis", seats=["gil", "ennis"], seed="77")
    cid, tokens = created["id"], created["seats"]
    hand = {"seat": "ennis", "bot": "search", "level": 1}
    async with socket_to(table, cid) as gil, socket_to(table, cid) as ennis:
        await gil.hello(tokens["gil"])
        await ennis.hello(tokens["ennis"])
        # Connected: not away, however long ago the campaign began.
        await wait_for(lambda: away(api, cid), lambda seats: seats == [], "nobody is away")
        message = await refused(
            await api.post(f"/api/campaigns/{cid}/bots", json=hand, headers=auth(tokens["gil"])),
            "conflict",
            409,
        )
        assert "away" in message
    await wait_for(lambda: away(api, cid), lambda seats: "ennis" in seats, "ennis is away")
    await refused(await api.post(f"/api/campaigns/{cid}/bots", json=hand), "forbidden", 403)
    answer = await api.post(f"/api/campaigns/{cid}/bots", json=hand, headers=auth(tokens["gil"]))
    assert answer.status_code == 200, answer.text
    assert [s["seat"] for s in answer.json()["seats"]] == ["ennis"]
    again = await api.post(f"/api/campaigns/{cid}/bots", json=hand, headers=auth(tokens["gil"]))
    assert "already" in await refused(again, "conflict", 409)
    # The bot plays Ennis's turns now: wait until it has moved at least once.
    await wait_for(lambda: bot_moves(api, cid), lambda moves: moves > 0, "the bot moved for Ennis")
    back = await api.post(f"/api/campaigns/{cid}/bots/take-back", headers=auth(tokens["ennis"]))
    assert back.status_code == 200 and back.json()["seats"] == [], back.text
    again = await api.post(f"/api/campaigns/{cid}/bots/take-back", headers=auth(tokens["ennis"]))
    assert "yours already" in await refused(again, "conflict", 409)


async def test_a_player_who_has_to_leave_lets_a_bot_play_their_seat_until_they_are_back(
    table: Live, api: httpx.AsyncClient
) -> None:
    created = await create(api, game="gil-ennis", seats=["gil", "ennis"], seed="78")
    cid, tokens = created["id"], created["seats"]
    mine = {"seat": "ennis", "bot": "search", "level": 1}
    async with socket_to(table, cid) as ennis:
        await ennis.hello(tokens["ennis"])
        # Still connected, and not away: a seat hands itself over at once.
        answer = await api.post(
            f"/api/campaigns/{cid}/bots", json=mine, headers=auth(tokens["ennis"])
        )
        assert answer.status_code == 200, answer.text
        assert [s["seat"] for s in answer.json()["seats"]] == ["ennis"]
    back = await api.post(f"/api/campaigns/{cid}/bots/take-back", headers=auth(tokens["ennis"]))
    assert back.status_code == 200 and back.json()["seats"] == [], back.text


async def away(api: httpx.AsyncClient, cid: str) -> list[str]:
    seats: list[str] = (await api.get(f"/api/campaigns/{cid}/bots")).json()["away"]
    return seats


async def bot_moves(api: httpx.AsyncClient, cid: str) -> int:
    events = (await api.get(f"/api/campaigns/{cid}/events")).json()["events"]
    return sum(1 for e in events if e["by"] is not None)


async def wait_for(read: Any, done: Any, what: str, timeout: float = 20.0) -> None:
    """Read until ``done(value)``, or fail after ``timeout`` seconds."""

    async def check() -> bool:
        return bool(done(await read()))

    await eventually(check, what, timeout)


async def test_bots_resume_after_the_server_restarts(tmp_path: Path) -> None:
    settings = BotSettings(pace_ms=0, workers=0, poll_s=0.2)

    def serve() -> Any:
        service = CampaignService(SqliteStore(tmp_path / SQLITE_FILE), fresh=Reproducible())
        return running(create_app(service, close_store=True, bot_settings=settings))

    ennis = {"ennis": {"bot": "search", "level": 1}}
    body = {"game": "gil-ennis", "seats": ["gil", "ennis"], "seed": "5", "bots": ennis}
    with serve() as first:
        async with httpx.AsyncClient(base_url=first.http, timeout=30) as api:
            created = await create(api, **body)
            cid, token = created["id"], created["seats"]["gil"]
            await play_gil_until(api, cid, token, lambda: driven(api, at_least=1))
    with serve() as second:
        async with httpx.AsyncClient(base_url=second.http, timeout=30) as api:
            # A new server finds the campaign's bot seat in the store and plays on.
            await play_gil_until(api, cid, token, lambda: driven(api, at_least=1))
            status = (await api.get("/api/bots")).json()
            # (Gil and Ennis may both have a move at once: a bot's move that Gil's overtook is
            # refused as stale and decided again, so conflicts are not counted here.)
            assert status["driving"] == [cid], str(status)


async def driven(api: httpx.AsyncClient, *, at_least: int) -> bool:
    """Whether this server's bot driver has made ``at_least`` moves."""
    moves: int = (await api.get("/api/bots")).json()["moves"]
    return moves >= at_least


async def play_gil_until(
    api: httpx.AsyncClient,
    cid: str,
    token: str,
    done: Callable[[], Awaitable[bool]],
    timeout: float = 120,
) -> None:
    """Play Gil's turns until ``done()``."""
    deadline = Deadline("the bot to move", timeout)
    while not await done():
        deadline.check()
        state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))).json()
        assert state["outcome"] == "running", "the journey ended before the bot moved"
        if state["legal_actions"]:
            body = {"action": state["legal_actions"][0]["id"], "expected_version": state["version"]}
            await api.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
        else:
            await asyncio.sleep(0.05)  # polling interval, while the bot thinks


@pytest.mark.serial  # round trips measured beside a search: alone, after the parallel phase
async def test_bot_thinking_leaves_the_event_loop_free(api: httpx.AsyncClient) -> None:
    created = await create(api, game="gil-ennis", seats=["gil", "ennis"], seed="31")
    cid, token = created["id"], created["seats"]["gil"]
    state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))).json()
    assert len(state["legal_actions"]) > 1, "a real decision, not a single choice"
    warm = await api.post(f"/api/campaigns/{cid}/hint", json={"level": 1}, headers=auth(token))
    assert warm.status_code == 200, "the worker process is started"
    thinking = asyncio.create_task(
        api.post(f"/api/campaigns/{cid}/hint", json={"level": 3}, headers=auth(token))
    )
    loop = asyncio.get_running_loop()
    began = loop.time()
    round_trips: list[float] = []
    while not thinking.done():
        started = loop.time()
        assert (await api.get("/healthz")).status_code == 200
        round_trips.append(loop.time() - started)
    assert (await thinking).status_code == 200
    searched = loop.time() - began
    round_trips.sort()
    assert len(round_trips) >= 20, "the search took long enough to be measured beside"
    # While the search runs in the worker the server keeps answering: a search on the loop
    # would hold one answer for the whole search. Both figures come from this run, so a busy
    # machine slows them alike. (Shared cores allow a rare slow answer, not one of a quarter.)
    assert round_trips[-1] < searched / 4, (searched, round_trips[-3:])


@pytest.mark.parametrize("priority", ["idle", "low", "normal"])
async def test_bots_think_in_processes_that_stand_back_for_people(
    tmp_path: Path, priority: BotPriority
) -> None:
    """The bots' worker processes run below the server (``idle``: only on CPU nothing else
    wants; ``low``: nice 19), so that on a busy machine their thinking waits for people."""
    store = SqliteStore(tmp_path / SQLITE_FILE)
    service = CampaignService(store)
    table = bot_table_of(store)
    assert table is not None
    driver = BotDriver(service, table, BotSettings(workers=1, priority=priority))
    try:
        niceness, policy = os.nice(0), os.sched_getscheduler(0)
        expected = {
            "idle": (niceness, os.SCHED_IDLE),
            "low": (min(19, niceness + 19), policy),
            "normal": (niceness, policy),
        }
        seen = (await driver.run(os.nice, 0), await driver.run(os.sched_getscheduler, 0))
        assert seen == expected[priority]
        assert (os.nice(0), os.sched_getscheduler(0)) == (niceness, policy)  # the server's own
    finally:
        await driver.close()
        await store.close()
