"""HAProxy in front of two server processes, as ``docker-compose.yml`` runs it: the configuration
passes HAProxy's own check, and a game goes on through the balancer while one server dies.

The balancer is Debian's ``haproxy`` on this machine's ``PATH`` (``tests/run.sh`` installs it),
started on ``deploy/haproxy.cfg`` itself, with loopback addresses in the environment variables the
file reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.redis_support import delete_prefix
from tests.server.conftest import Live, Socket, auth, free_port, socket_to
from tests.server.test_redis_processes import server_process

ROOT = Path(__file__).resolve().parents[2]

# Health checks a second apart and servers killed on purpose: alone (tests/run.sh runs it after
# the parallel phase).
pytestmark = pytest.mark.serial
CONFIG = ROOT / "deploy" / "haproxy.cfg"
START_TIMEOUT_S = 60.0
DOWN_TIMEOUT_S = 60.0  # two failed checks a second apart; only stops a hang


def haproxy() -> str:
    binary = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if binary is None:
        pytest.fail(
            "These tests need HAProxy: `apt-get install -y haproxy` (`bash tests/run.sh` does it).",
            False,
        )
    return binary


def check(config: Path, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [haproxy(), "-c", "-f", str(config)],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_the_balancer_configuration_passes_haproxys_own_check() -> None:
    # As docker-compose.yml runs it (server names that only resolve in its network) ...
    run = check(CONFIG, {})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Configuration file is valid" in run.stdout
    # ... and as the test below runs it, on loopback.
    loopback = {
        "TABLETALE_LB_BIND": f"127.0.0.1:{free_port()}",
        "TABLETALE_LB_STATS_BIND": f"127.0.0.1:{free_port()}",
        "TABLETALE_LB_SERVER_A": f"127.0.0.1:{free_port()}",
        "TABLETALE_LB_SERVER_B": f"127.0.0.1:{free_port()}",
    }
    run = check(CONFIG, loopback)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_check_catches_a_broken_configuration(tmp_path: Path) -> None:
    broken = tmp_path / "haproxy.cfg"
    broken.write_text(CONFIG.read_text().replace("balance leastconn", "balance fewest"))
    run = check(broken, {})
    assert run.returncode != 0
    assert "balance" in run.stdout + run.stderr


class Balancer:
    """HAProxy on ``deploy/haproxy.cfg`` in front of ``servers`` (name -> server)."""

    def __init__(self, servers: dict[str, Live]) -> None:
        self.servers = servers
        self.front = Live(free_port())
        self.stats = f"http://127.0.0.1:{free_port()}/stats;csv"
        self.environment = {
            "TABLETALE_LB_BIND": f"127.0.0.1:{self.front.port}",
            "TABLETALE_LB_STATS_BIND": self.stats.removeprefix("http://").split("/")[0],
            "TABLETALE_LB_SERVER_A": f"127.0.0.1:{servers['server-a'].port}",
            "TABLETALE_LB_SERVER_B": f"127.0.0.1:{servers['server-b'].port}",
        }

    def states(self) -> dict[str, str]:
        """Each server's state as the balancer's health checks see it ("UP", "DOWN", and
        "UP 1/2" or "DOWN 1/2" on the way from one to the other)."""
        with httpx.Client(timeout=2) as client:
            text = client.get(self.stats).text
        rows = csv.DictReader(io.StringIO(text.removeprefix("# ")))
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "servers" and row["svname"] in self.servers
        }

    def wait_for(
        self, wanted: dict[str, str], timeout: float, process: subprocess.Popen[bytes] | None = None
    ) -> None:
        deadline = time.monotonic() + timeout
        states: dict[str, str] = {}
        while time.monotonic() < deadline and (process is None or process.poll() is None):
            with contextlib.suppress(httpx.TransportError):
                states = self.states()
                if all(states.get(name) == state for name, state in wanted.items()):
                    return
            time.sleep(0.1)  # a poll interval, bounded by the deadline
        raise TimeoutError(f"The balancer saw {states}, not {wanted}, within {timeout} s.")


@contextlib.contextmanager
def balancing(servers: dict[str, Live]) -> Iterator[Balancer]:
    balancer = Balancer(servers)
    process = subprocess.Popen(
        [haproxy(), "-db", "-f", str(CONFIG)],
        env={**os.environ, **balancer.environment},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        try:
            balancer.wait_for({name: "UP" for name in servers}, START_TIMEOUT_S, process)
        except TimeoutError as failure:
            process.kill()
            _, err = process.communicate(timeout=10)
            pytest.fail(f"{failure}\n{err.decode(errors='replace')}")
        yield balancer
    finally:
        process.terminate()
        try:
            process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


@pytest.fixture
async def balancer(redis_url: str, tmp_path: Path) -> AsyncIterator[Balancer]:
    prefix = f"tt-test-{uuid.uuid4().hex[:10]}"
    try:
        with (
            server_process(redis_url, prefix, tmp_path / "a") as a,
            server_process(redis_url, prefix, tmp_path / "b") as b,
            balancing({"server-a": a, "server-b": b}) as balancer,
        ):
            yield balancer
    finally:
        await delete_prefix(redis_url, prefix)


async def take_turn(
    http: httpx.AsyncClient, cid: str, tokens: dict[str, str], red: Socket, version: int
) -> int:
    """One action by the seat to act: red on its socket, blue over HTTP (red then sees it)."""
    state = (await http.get(f"/api/campaigns/{cid}/state")).json()
    assert state["version"] == version
    action = "roll" if version % 3 else "hold"
    if state["view"]["to_act"] == "red":
        answer = await red.act(action, version, f"red-{version}")
        assert answer["type"] == "accepted", answer
        return int(answer["version"])
    reply = await http.post(
        f"/api/campaigns/{cid}/actions",
        json={"action": action, "expected_version": version, "command_id": f"blue-{version}"},
        headers=auth(tokens["blue"]),
    )
    assert reply.status_code == 200, reply.text
    new: int = reply.json()["version"]
    await red.updates_until(new)
    return new


async def test_a_game_goes_on_through_the_balancer_when_the_server_holding_a_socket_dies(
    balancer: Balancer,
) -> None:
    lb = balancer.front
    async with httpx.AsyncClient(base_url=lb.http, timeout=10) as http:
        reply = await http.post(
            "/api/campaigns",
            json={"game": "dice-race", "seats": ["red", "blue"], "options": {"target": 500}},
        )
        assert reply.status_code == 201, reply.text
        created = reply.json()
        cid, tokens = created["id"], created["seats"]
        async with socket_to(lb, cid) as red:
            version = (await red.hello(tokens["red"]))["version"]
            holder = red.connection.response.headers["X-Served-By"]
            assert holder in balancer.servers
            for _ in range(6):
                version = await take_turn(http, cid, tokens, red, version)
            seen = red.replica.version

            # The server that holds red's socket dies mid-game.
            dead = balancer.servers[holder].process
            assert dead is not None
            dead.kill()
            dead.wait(timeout=10)
            with pytest.raises(ConnectionClosed):
                while True:
                    await red.recv()

        # The game goes on over HTTP at once: a request the balancer sends to the dead server
        # finds its connection refused and goes to the other one.
        moves: list[dict[str, Any]] = []
        for n in range(4):
            state = (await http.get(f"/api/campaigns/{cid}/state")).json()
            mover = state["view"]["to_act"]
            reply = await http.post(
                f"/api/campaigns/{cid}/actions",
                json={"action": "hold", "expected_version": version, "command_id": f"away-{n}"},
                headers=auth(tokens[mover]),
            )
            assert reply.status_code == 200, reply.text
            moves.append(reply.json())
            version = reply.json()["version"]

        # The health checks take the dead server out of the rotation.
        survivor = next(name for name in balancer.servers if name != holder)
        await asyncio.to_thread(balancer.wait_for, {holder: "DOWN", survivor: "UP"}, DOWN_TIMEOUT_S)

        # Red reconnects to the same address, lands on the survivor and resumes where it was.
        async with socket_to(lb, cid) as again:
            welcome = await again.hello(tokens["red"], since=seen)
            assert again.connection.response.headers["X-Served-By"] == survivor
            assert [e["version"] for e in welcome["missed"]] == list(range(seen + 1, version + 1))
            for _ in range(4):
                version = await take_turn(http, cid, tokens, again, version)
            head = (await http.get(f"/api/campaigns/{cid}/state")).json()
            assert head["version"] == version == again.replica.version
            assert again.replica.view == head["view"]
        events = (await http.get(f"/api/campaigns/{cid}/events")).json()
        versions = [e["version"] for e in events["events"]]
        assert versions == list(range(1, version + 1))
