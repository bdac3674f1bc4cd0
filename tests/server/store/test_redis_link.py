"""The pipelined Redis link, on the real Redis and on a server that never answers."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio
import redis.exceptions
from redis.asyncio.connection import Connection

from server.store.redis_link import Link
from tests.redis_support import own_redis
from tests.support.polling import Deadline

pytestmark = pytest.mark.redis

WAIT_S = 60.0
"""Only stops a hang. The outer wait raises the builtin TimeoutError, never redis's: the type of
the error says which timeout fired, so no test holds the time under a bound."""


def link_to(url: str, *, timeout: float = 2.0, name: str = "tabletale-test-link") -> Link:
    pool = redis.asyncio.ConnectionPool.from_url(url, client_name=name)
    return Link(lambda: Connection(**{**pool.connection_kwargs, "protocol": 2}), timeout=timeout)


@pytest.fixture
async def link(redis_url: str) -> AsyncIterator[Link]:
    link = link_to(redis_url)
    yield link
    await link.close()


async def test_concurrent_commands_each_get_their_own_reply(link: Link) -> None:
    key = f"tt-test-link-{uuid.uuid4().hex}"
    try:
        replies = await asyncio.gather(
            *(link.execute("ECHO", f"reply {n}".encode()) for n in range(500)),
            *(link.execute("INCR", key) for _ in range(100)),
        )
        assert replies[:500] == [f"reply {n}".encode() for n in range(500)]
        assert sorted(replies[500:]) == list(range(1, 101))
        # The link writes through redis-py's stream writer directly, with no task per write:
        # an upgrade of redis-py that drops it would quietly cost a task per batch.
        assert getattr(link._connection, "_writer", None) is not None
    finally:
        await link.execute("DEL", key)


async def test_an_error_reply_goes_to_its_own_caller_only(link: Link) -> None:
    before, broken, after = await asyncio.gather(
        link.execute("ECHO", b"before"),
        link.execute("NOSUCHCOMMAND"),
        link.execute("ECHO", b"after"),
        return_exceptions=True,
    )
    assert (before, after) == (b"before", b"after")
    assert isinstance(broken, redis.exceptions.ResponseError)


async def blocked_in(admin: redis.asyncio.Redis, name: str, command: str) -> None:
    """Wait (bounded) until Redis lists the connection ``name`` as running ``command``."""
    async with asyncio.timeout(WAIT_S):
        while True:
            clients = await admin.client_list()
            if any(c.get("name") == name and c.get("cmd") == command for c in clients):
                return


async def test_a_killed_connection_fails_what_was_in_flight_then_reconnects(
    redis_url: str,
) -> None:
    name = f"tt-link-{uuid.uuid4().hex[:8]}"
    link = link_to(redis_url, name=name)
    admin = redis.asyncio.Redis.from_url(redis_url)
    try:
        assert await link.execute("PING") in (b"PONG", True)
        (entry,) = [c for c in await admin.client_list() if c.get("name") == name]
        waiting = asyncio.create_task(link.execute("BLPOP", f"tt-test-nothing-{name}", 0))
        await blocked_in(admin, name, "blpop")  # the command reached Redis before the kill
        await admin.client_kill_filter(_id=entry["id"])
        with pytest.raises(redis.exceptions.ConnectionError):
            await asyncio.wait_for(waiting, WAIT_S)
        assert await link.execute("ECHO", b"again") == b"again"
    finally:
        await link.close()
        await admin.aclose()


async def test_a_server_that_never_answers_fails_commands_after_the_timeout() -> None:
    accepted: list[asyncio.StreamWriter] = []

    async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # reads nothing back, answers nothing

    server = await asyncio.start_server(mute, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    link = Link(lambda: Connection(host="127.0.0.1", port=port, protocol=2), timeout=0.3)
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(redis.exceptions.TimeoutError):
            await asyncio.wait_for(link.execute("PING"), WAIT_S)
        assert loop.time() - started >= 0.25, "the link waited out its timeout"
    finally:
        await link.close()
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_paused_redis_fails_commands_after_the_timeout_then_recovers(
    tmp_path: Path,
) -> None:
    with own_redis(tmp_path) as server:
        link = link_to(server.url, timeout=0.5)
        try:
            assert await link.execute("ECHO", b"up") == b"up"
            server.pause()
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(redis.exceptions.TimeoutError):
                await asyncio.wait_for(link.execute("ECHO", b"paused"), WAIT_S)
            assert loop.time() - started >= 0.45, "the link waited out its timeout"
            server.resume()
            assert await link.execute("ECHO", b"back") == b"back"
        finally:
            server.resume()
            await link.close()


async def test_after_a_timeout_commands_fail_fast_until_a_connection_opens_again(
    tmp_path: Path,
) -> None:
    with own_redis(tmp_path) as server:
        link = link_to(server.url, timeout=1.0)
        loop = asyncio.get_running_loop()
        try:
            assert await link.execute("ECHO", b"up") == b"up"
            server.pause()
            started = loop.time()
            with pytest.raises(redis.exceptions.TimeoutError):
                await asyncio.wait_for(link.execute("ECHO", b"stuck"), WAIT_S)
            stuck = loop.time() - started
            # The reconnection hangs on the frozen server; callers do not each wait it out: each
            # fails in a fraction of the time the stuck command waited, measured in this run.
            for _ in range(3):
                started = loop.time()
                with pytest.raises(redis.exceptions.ConnectionError):
                    await asyncio.wait_for(link.execute("ECHO", b"again"), WAIT_S)
                failed = loop.time() - started
                assert failed < stuck / 2, (failed, stuck)
            server.resume()
            deadline = Deadline("the link to reconnect", WAIT_S)
            while True:  # the next attempts reconnect once the server answers
                try:
                    assert await link.execute("ECHO", b"back") == b"back"
                    break
                except redis.exceptions.ConnectionError as error:
                    deadline.check(error)
                    await asyncio.sleep(0.05)  # a retry interval, as a caller would
        finally:
            server.resume()
            await link.close()
