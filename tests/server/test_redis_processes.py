"""Two server processes on one Redis: an action through one reaches sockets on the other."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from tests.redis_support import delete_prefix, running_redis
from tests.server.conftest import Live, auth, free_port, socket_to, wait_ready

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = (
    "import sys; from tests.support import dice_race; dice_race.register(); "
    "from server.serve import serve; from server.settings import load; "
    "serve(load(host='127.0.0.1', port=int(sys.argv[1]), "
    "redis_url=sys.argv[2] or None, data_dir=sys.argv[3]))"
)


@contextlib.contextmanager
def server_process(
    redis_url: str | None, prefix: str, data_dir: Path, *, settings: dict[str, str] | None = None
) -> Iterator[Live]:
    """A server process; ``settings`` are more ``TABLETALE_*`` variables for it."""
    port = free_port()
    env = {**os.environ, "TABLETALE_REDIS_PREFIX": prefix, **(settings or {})}
    data_dir.mkdir(parents=True, exist_ok=True)
    # The log goes to a file: a pipe nobody reads would stop a talkative server when it fills.
    log_path = data_dir / f"server-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, str(port), redis_url or "", str(data_dir)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    try:
        try:
            wait_ready(f"http://127.0.0.1:{port}")
        except TimeoutError:
            process.kill()
            process.wait(timeout=10)
            pytest.fail(f"The server did not start:\n{log_path.read_text(errors='replace')}")
        live = Live(port)
        live.process = process
        yield live
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[Live, Live]]:
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    with running_redis() as url:
        try:
            with (
                server_process(url, prefix, tmp_path / "a") as a,
                server_process(url, prefix, tmp_path / "b") as b,
            ):
                yield a, b
        finally:
            await delete_prefix(url, prefix)


async def test_an_action_through_one_process_reaches_sockets_on_another(
    pair: tuple[Live, Live],
) -> None:
    a, b = pair
    async with httpx.AsyncClient(timeout=10) as http:
        created = (
            await http.post(
                f"{a.http}/api/campaigns",
                json={"game": "dice-race", "seats": ["red", "blue"], "options": {"target": 500}},
            )
        ).json()
        cid = created["id"]
        on_b = (await http.get(f"{b.http}/api/campaigns/{cid}/state")).json()
        assert on_b["version"] == 2
    async with (
        socket_to(a, cid) as red,
        socket_to(b, cid) as blue,
        socket_to(b, cid) as watcher,
    ):
        await red.hello(created["seats"]["red"])
        await blue.hello(created["seats"]["blue"])
        await watcher.hello()
        version = 2
        movers = set()
        for n in range(6):
            mover, waiting = (red, blue) if red.replica.legal_actions else (blue, red)
            movers.add(id(mover))
            answer = await mover.act("roll", version, f"x{n}")
            assert answer["type"] == "accepted", answer
            version = answer["version"]
            theirs, seen = await waiting.next_update(), await watcher.next_update()
            assert theirs["version"] == seen["version"] == version
            assert red.replica.view == blue.replica.view == watcher.replica.view
            assert not (red.replica.legal_actions and blue.replica.legal_actions)
        assert len(movers) == 2, "both seats acted, one on each process"


async def test_a_stale_version_from_the_other_process_is_rejected(
    pair: tuple[Live, Live],
) -> None:
    a, b = pair
    async with httpx.AsyncClient(timeout=10) as http:
        created = (await http.post(f"{a.http}/api/campaigns", json={"game": "dice-race"})).json()
        cid, token = created["id"], created["seats"]["player"]
        body = {"action": "hold", "expected_version": 2}
        first = await http.post(
            f"{a.http}/api/campaigns/{cid}/actions", json=body, headers=auth(token)
        )
        second = await http.post(
            f"{b.http}/api/campaigns/{cid}/actions", json=body, headers=auth(token)
        )
        assert first.status_code == 200
        assert second.status_code == 409 and second.json()["error"]["code"] == "stale_version"
