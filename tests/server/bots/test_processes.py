"""Two server processes on one Redis (single node and cluster): one drives a campaign's bot;
killed with SIGKILL, the other takes the lease over within seconds and the bot plays on, with
no command appended twice and no conflict between drivers."""

from __future__ import annotations

import signal
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.games import get_game
from server.campaigns.codec import codec_for
from server.store.redis_store import RedisStore
from tests.redis_support import delete_prefix
from tests.server.conftest import Live, auth
from tests.server.test_redis_processes import server_process, shared_redis
from tests.support.polling import eventually
from tests.support.processes import alive, children

pytestmark = [pytest.mark.redis, pytest.mark.slow]
__all__ = ["shared_redis"]  # the fixture, for pytest

TAKEOVER_LIMIT_S = 120.0  # only stops a hang: the figure itself is printed
BOT_SETTINGS = {"TABLETALE_BOT_PACE_MS": "0", "TABLETALE_BOT_POLL_S": "0.2"}


@pytest.fixture
async def pair(shared_redis: str, tmp_path: Path) -> AsyncIterator[tuple[Live, Live, str, str]]:
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    try:
        with (
            server_process(shared_redis, prefix, tmp_path / "a", settings=BOT_SETTINGS) as a,
            server_process(shared_redis, prefix, tmp_path / "b", settings=BOT_SETTINGS) as b,
        ):
            yield a, b, shared_redis, prefix
    finally:
        await delete_prefix(shared_redis, prefix)


async def driver(http: httpx.AsyncClient, live: Live) -> dict[str, Any]:
    status: dict[str, Any] = (await http.get(f"{live.http}/api/bots")).json()
    return status


class Gil:
    """The person at the table: plays Gil over HTTP, only while Ennis has nothing to decide, so
    that the person never races the bot."""

    def __init__(self, http: httpx.AsyncClient, cid: str, tokens: dict[str, str]) -> None:
        self.http, self.cid, self.tokens = http, cid, tokens
        self.steps = 0

    async def state(self, live: Live, seat: str) -> dict[str, Any]:
        answer = await self.http.get(
            f"{live.http}/api/campaigns/{self.cid}/state", headers=auth(self.tokens[seat])
        )
        state: dict[str, Any] = answer.json()
        return state

    async def play_until(self, live: Live, bot_moves: int, timeout: float = 60) -> None:
        """Play Gil's turns on ``live`` until the bot has made ``bot_moves`` moves in all (or
        the campaign has ended)."""

        async def step() -> bool:
            if await self.bot_moves(live) >= bot_moves:
                return True
            gil, ennis = await self.state(live, "gil"), await self.state(live, "ennis")
            if gil["outcome"] != "running":
                return True
            if gil["version"] != ennis["version"]:
                return False  # the bot moved between the two reads: look again
            if gil["legal_actions"] and not ennis["legal_actions"]:
                self.steps += 1
                body = {
                    "action": gil["legal_actions"][self.steps % len(gil["legal_actions"])]["id"],
                    "expected_version": gil["version"],
                    "command_id": f"gil-{self.steps}",
                }
                answer = await self.http.post(
                    f"{live.http}/api/campaigns/{self.cid}/actions",
                    json=body,
                    headers=auth(self.tokens["gil"]),
                )
                # As a person would, look again when somebody acted first; anything else is wrong.
                stale = answer.status_code == 409 and "stale_version" in answer.text
                assert answer.status_code == 200 or stale, answer.text
            return False

        await eventually(step, f"{bot_moves} bot moves", timeout)

    async def bot_moves(self, live: Live) -> int:
        events = (
            await self.http.get(
                f"{live.http}/api/campaigns/{self.cid}/events", params={"limit": 1000}
            )
        ).json()["events"]
        return len({e["version"] for e in events if e["by"] is not None and e["seat"]})


async def test_a_killed_driver_is_replaced_and_the_bot_plays_on(
    pair: tuple[Live, Live, str, str],
) -> None:
    a, b, redis_url, prefix = pair
    async with httpx.AsyncClient(timeout=30) as http:
        body = {
            "game": "gil-ennis",
            "seats": ["gil", "ennis"],
            "seed": "4242",
            "bots": {"ennis": {"bot": "search", "level": 1}},
        }
        created = (await http.post(f"{a.http}/api/campaigns", json=body)).json()
        cid = created["id"]
        gil = Gil(http, cid, created["seats"])

        async def someone_drives() -> bool:
            statuses = [await driver(http, p) for p in (a, b)]
            return any(cid in status["driving"] for status in statuses)

        await eventually(someone_drives, "a process drives the bot", TAKEOVER_LIMIT_S)
        first, second = (a, b) if cid in (await driver(http, a))["driving"] else (b, a)
        assert cid not in (await driver(http, second))["driving"], "one driver at a time"
        await gil.play_until(second, bot_moves=2)
        before = await gil.bot_moves(second)

        assert first.process is not None
        thinkers = children(first.process.pid)
        assert thinkers, "the driver's bots think in a worker process"
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=10)

        async def taken_over() -> bool:
            return cid in (await driver(http, second))["driving"]

        took = await eventually(
            taken_over, "the other process takes the bot over", TAKEOVER_LIMIT_S
        )
        await gil.play_until(second, bot_moves=before + 2)
        status = await driver(http, second)
        assert status["conflicts"] == 0, status
        print(f"takeover after SIGKILL: {took:.2f} s")  # the measured figure, shown with -s

        async def thinkers_ended() -> bool:
            return not any(alive(pid) for pid in thinkers)

        # The killed server's bot workers do not wait for work forever.
        await eventually(thinkers_ended, "the killed server's bot workers end", 10)

    store = RedisStore.from_url(redis_url, prefix=prefix)
    try:
        stored = codec_for(get_game("gil-ennis")).decode_stored(await store.read(cid))
    finally:
        await store.close()
    versions = [r.version for r in stored]
    assert versions == list(range(1, len(versions) + 1)), "strictly increasing, no gaps"
    # One run of consecutive events per command: none was appended twice.
    runs = [r.command for i, r in enumerate(stored) if r.command and (
        i == 0 or stored[i - 1].command != r.command
    )]  # fmt: skip
    assert [c for c, n in Counter(runs).items() if n > 1] == []
    bot_runs = [c for c in runs if c.startswith("bot:")]
    assert len(bot_runs) >= before + 2
    for command in bot_runs:
        chosen_at = int(command.rsplit("@", 1)[1])
        first_event = next(r for r in stored if r.command == command)
        assert first_event.version == chosen_at + 1, "each bot move went in where it was chosen"
