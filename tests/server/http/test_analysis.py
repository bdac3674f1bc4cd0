"""Where did it turn, over the API of a real server on a real socket and a real Redis: the
analysis of an ended Gil & Ennis campaign, kept and read back without being computed again,
tried out in a fork, and refused to those who may not see it."""

from __future__ import annotations

import asyncio
import contextlib
import random
import resource
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest

from domain.analysis.levels import DEFAULT_LEVEL
from server.analysis.analyst import Analyst
from server.analysis.trying import FRESH_LUCK, TRIED_FROM, try_command
from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix
from tests.server.conftest import Reproducible, auth, running
from tests.support.polling import eventually

pytestmark = pytest.mark.slow

MAX_MOVES = 2000
QUICK = 1
"""The level most tests analyse at: the shape of the answers, not their precision."""


@dataclass
class Served:
    http: str
    analyst: Analyst
    redis_url: str
    prefix: str


@contextlib.contextmanager
def serving(redis_url: str, prefix: str, settings: BotSettings) -> Iterator[Served]:
    """The server on Redis under ``prefix`` (kept: a second server may open it again)."""
    store = RedisStore.from_url(redis_url, prefix=prefix)
    app = create_app(
        CampaignService(store, fresh=Reproducible()), close_store=True, bot_settings=settings
    )
    analyst = app.state.analyses
    assert isinstance(analyst, Analyst)
    with running(app) as live:
        yield Served(live.http, analyst, redis_url, prefix)


def _delete(redis_url: str, prefix: str) -> None:
    # the test's event loop may still be current in this thread: clean up from another one
    cleanup = threading.Thread(target=asyncio.run, args=(delete_prefix(redis_url, prefix),))
    cleanup.start()
    cleanup.join(timeout=30)


SETTINGS = BotSettings(pace_ms=0, workers=1, poll_s=0.2, priority="normal")
"""A bot worker at normal priority: these tests are about what an analysis answers and keeps,
not how its workers stand back for the server (``tests/server/bots/test_bots.py``). At idle,
beside any other work that fills the cores (the parallel phase's workers, another job on the
machine), a worker waits for a free core nearly all its time: Linux gives an idle-class process
a sliver of a busy core, so an analysis at idle would finish only once the machine is quiet."""


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    name = f"tt-test-{uuid.uuid4().hex[:12]}"
    try:
        yield name
    finally:
        _delete(redis_url, name)


@pytest.fixture
def served(redis_url: str, prefix: str) -> Iterator[Served]:
    with serving(redis_url, prefix, SETTINGS) as server:
        yield server


@pytest.fixture
async def api(served: Served) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=served.http, timeout=30.0) as client:
        yield client


@pytest.fixture
async def behind(served: Served) -> AsyncIterator[CampaignService]:
    """The same store, read from the test's own loop: what the server keeps behind the API."""
    store = RedisStore.from_url(served.redis_url, prefix=served.prefix)
    try:
        yield CampaignService(store)
    finally:
        await store.close()


async def create(api: httpx.AsyncClient, seed: str) -> tuple[str, dict[str, str]]:
    answer = await api.post(
        "/api/campaigns", json={"game": "gil-ennis", "seats": ["gil", "ennis"], "seed": seed}
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], created["seats"]


async def play(
    api: httpx.AsyncClient, cid: str, tokens: dict[str, str], chooser: random.Random, moves: int
) -> str:
    """Play ``moves`` moves at random over the API (or to the end); the outcome."""
    for step in range(moves):
        for token in tokens.values():
            state = (await api.get(f"/api/campaigns/{cid}/state", headers=auth(token))).json()
            if state["outcome"] != "running":
                return str(state["outcome"])
            if state["legal_actions"]:
                break
        else:
            raise AssertionError("a running campaign where no seat may act")
        action = chooser.choice(state["legal_actions"])["id"]
        body = {"action": action, "expected_version": state["version"], "command_id": f"m{step}"}
        answer = await api.post(f"/api/campaigns/{cid}/actions", json=body, headers=auth(token))
        assert answer.status_code == 200, answer.text
    return "running"


async def analysed(
    api: httpx.AsyncClient, cid: str, level: int, token: str | None = None, timeout: float = 600
) -> dict[str, Any]:
    """Start the analysis and follow it to its end; its last answer."""
    headers = auth(token) if token else {}
    started = await api.post(
        f"/api/campaigns/{cid}/analysis", json={"level": level}, headers=headers
    )
    assert started.status_code == 202, started.text
    seen: list[int] = []
    latest: dict[str, Any] = started.json()

    async def finished() -> bool:
        nonlocal latest
        answer = await api.get(
            f"/api/campaigns/{cid}/analysis", params={"level": level}, headers=headers
        )
        assert answer.status_code == 200, answer.text
        latest = answer.json()
        seen.append(latest["done"])
        assert latest["state"] in ("running", "done"), latest["state"]
        return bool(latest["state"] == "done")

    await eventually(finished, "the analysis to finish", timeout)
    assert seen == sorted(seen), "progress only grows"
    return latest


async def test_an_ended_campaign_is_analysed_kept_and_tried(
    api: httpx.AsyncClient, served: Served, behind: CampaignService
) -> None:
    cid, tokens = await create(api, "41")
    assert await play(api, cid, tokens, random.Random(3), MAX_MOVES) in ("won", "lost")
    head = await behind.head(cid)

    out = await analysed(api, cid, QUICK)
    analysis = out["analysis"]
    points = analysis["points"]
    # Every decision point of the acting seats: one per move a seat made, in order.
    moved = [e for e in (await behind.events(cid)) if e.seat is not None]
    assert [p["version"] for p in points] == [e.version - 1 for e in moved if _first(moved, e)]
    assert out["done"] == out["total"] == len(points) > 0
    assert out["seat"] is None and out["level"] == QUICK
    for p in points:
        assert p["seat"] in ("gil", "ennis")
        for chance in (p["after_played"], p["after_preferred"]):
            assert 0.0 <= chance["low"] <= chance["p"] <= chance["high"] <= 1.0
    assert analysis["outcome"] == head.outcome
    computed = served.analyst.computed
    assert computed == len(points)

    # A turning point whose preferred move is legal where it was preferred.
    assert analysis["turning_points"], "a campaign played at random has costly moves"
    turning = analysis["turning_points"][0]
    _, state = await behind.state_at(cid, turning["version"])
    legal = {a.id for a in head.game.legal_actions(state, turning["seat"])}
    assert turning["preferred"]["id"] in legal
    assert turning["preferred"]["id"] != turning["played"]["id"]
    assert turning["words"].startswith(turning["preferred"]["label"])

    # A second reader is answered from what was kept: nothing is computed again.
    again = await api.post(f"/api/campaigns/{cid}/analysis", json={"level": QUICK})
    assert again.status_code == 202
    assert again.json()["state"] == "done"
    assert again.json()["analysis"] == analysis
    read = await api.get(f"/api/campaigns/{cid}/analysis", params={"level": QUICK})
    assert read.json()["analysis"] == analysis
    assert served.analyst.computed == computed

    # Try it: a fork at that version with fresh luck, whose next move is the preferred one.
    tried = await api.post(
        f"/api/campaigns/{cid}/analysis/try", json={"version": turning["version"], "level": QUICK}
    )
    assert tried.status_code == 201, tried.text
    out_try = tried.json()
    fork = out_try["fork"]
    assert out_try["move"] == turning["preferred"]
    assert set(fork["seats"]) == {"gil", "ennis"}
    info = await behind.info(fork["id"])
    assert (info.parent, info.fork_version) == (cid, turning["version"])
    assert info.attrs[FRESH_LUCK] == "1"
    assert info.attrs[TRIED_FROM] == f"{cid}@{turning['version']}:{QUICK}"
    assert fork["seed_hash"] != (await behind.facts(cid)).attrs["seed_hash"], "luck drawn anew"
    own = await behind.events(fork["id"], turning["version"])
    assert type(own[0].event).__name__ == "Reseeded"
    assert own[1].seat == turning["seat"]
    assert own[1].command == try_command(turning["seat"], turning["version"])
    assert out_try["version"] == own[-1].version
    # The fork plays on from there with its own tokens.
    state_after = await api.get(
        f"/api/campaigns/{fork['id']}/state", headers=auth(fork["seats"]["gil"])
    )
    assert state_after.json()["version"] == out_try["version"]


def _first(moved: list[Any], event: Any) -> bool:
    """Whether ``event`` is the first of its move's events (a move's events share a command)."""
    index = moved.index(event)
    return index == 0 or moved[index - 1].command != event.command


async def test_a_running_campaign_is_analysed_for_its_seats_only(
    api: httpx.AsyncClient, served: Served, behind: CampaignService
) -> None:
    cid, tokens = await create(api, "42")
    assert await play(api, cid, tokens, random.Random(4), 12) == "running"
    path = f"/api/campaigns/{cid}/analysis"
    # A spectator is refused every part of it, with a typed error.
    for refused in (
        await api.post(path, json={"level": QUICK}),
        await api.get(path, params={"level": QUICK}),
        await api.delete(path, params={"level": QUICK}),
        await api.post(path + "/try", json={"version": 3, "level": QUICK}),
    ):
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "forbidden"
    assert served.analyst.computed == 0

    head = await behind.head(cid)
    mine = await analysed(api, cid, QUICK, tokens["gil"])
    assert mine["seat"] == "gil" and mine["version"] == head.version
    assert mine["total"] == len(mine["analysis"]["points"]) > 0
    assert all(p["seat"] == "gil" for p in mine["analysis"]["points"])
    assert all(p["version"] < head.version for p in mine["analysis"]["points"])
    gil_points = served.analyst.computed
    assert gil_points == mine["total"]
    # Ennis's decision points are Ennis's alone; Gil's kept estimates are not computed again.
    theirs = await analysed(api, cid, QUICK, tokens["ennis"])
    assert theirs["seat"] == "ennis"
    assert all(p["seat"] == "ennis" for p in theirs["analysis"]["points"])
    assert served.analyst.computed == gil_points + theirs["total"]
    assert (await api.get(path, params={"level": QUICK}, headers=auth(tokens["gil"]))).json()[
        "analysis"
    ] == mine["analysis"]


async def test_a_level_that_does_not_exist_is_refused(api: httpx.AsyncClient) -> None:
    cid, tokens = await create(api, "43")
    path = f"/api/campaigns/{cid}/analysis"
    refused = await api.post(path, json={"level": 7}, headers=auth(tokens["gil"]))
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_request"
    unknown = await api.post("/api/campaigns/nope/analysis", json={})
    assert unknown.status_code == 404


async def test_a_stop_keeps_what_was_computed_and_a_restart_does_not_redo_it(
    redis_url: str, prefix: str
) -> None:
    with serving(redis_url, prefix, SETTINGS) as first:
        async with httpx.AsyncClient(base_url=first.http, timeout=30.0) as api:
            cid, tokens = await create(api, "44")
            assert await play(api, cid, tokens, random.Random(5), 30) == "running"
            path = f"/api/campaigns/{cid}/analysis"
            headers = auth(tokens["gil"])
            started = await api.post(path, json={"level": QUICK}, headers=headers)
            total = started.json()["total"]
            assert total >= 3

            async def some() -> bool:
                return first.analyst.computed >= 2

            await eventually(some, "two points estimated", 300)
            # Cancelled between two points: it stops, and what it computed stays kept.
            cancelled = (await api.delete(path, params={"level": QUICK}, headers=headers)).json()
            assert first.analyst.running() == 0
            kept = first.analyst.computed
            assert cancelled["done"] == kept and cancelled["state"] == "idle"
            assert cancelled["done"] < total
            # Started again, and stopped with the server in the middle of it.
            await api.post(path, json={"level": QUICK}, headers=headers)
    stopped_with = first.analyst.computed
    with serving(redis_url, prefix, SETTINGS) as second:
        async with httpx.AsyncClient(base_url=second.http, timeout=30.0) as api:
            read = (await api.get(path, params={"level": QUICK}, headers=headers)).json()
            assert read["done"] == stopped_with, "every estimate computed was kept"
            assert read["state"] == ("done" if stopped_with == total else "idle")
            finished = await analysed(api, cid, QUICK, tokens["gil"])
            assert finished["done"] == total
            # Only what was missing was computed after the restart.
            assert second.analyst.computed == total - stopped_with


@pytest.mark.serial  # two bot workers, one per core: the machine to itself, not a race
async def test_a_journey_is_analysed_at_the_default_level_end_to_end(
    redis_url: str, prefix: str
) -> None:
    """End to end over the API, from asking to the last point, with a bot worker per core (at
    normal priority, as ``SETTINGS`` says why). The time it takes and the CPU the workers spent
    are printed (``-s``), the figures docs/analysis.md gives; how long a busy machine leaves the
    workers is not the analysis's to promise, so no bound is asserted on either."""
    settings = msgspec.structs.replace(SETTINGS, workers=2)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with serving(redis_url, prefix, settings) as server:
        async with httpx.AsyncClient(base_url=server.http, timeout=30.0) as api:
            cid, tokens = await create(api, "41")
            assert await play(api, cid, tokens, random.Random(3), MAX_MOVES) in ("won", "lost")
            loop = asyncio.get_running_loop()
            started = loop.time()
            out = await analysed(api, cid, DEFAULT_LEVEL, timeout=3600)
            took = loop.time() - started
    # The workers have ended with the server, and been waited for: their CPU is counted.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(
        f"{out['total']} decision points analysed at level {DEFAULT_LEVEL}: "
        f"{took:.1f} s end to end, {cpu:.1f} s of CPU in the workers"
    )
    assert out["done"] == out["total"] > 0
    assert cpu > 0, "the workers did the analysis, not the server's event loop"
