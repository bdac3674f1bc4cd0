"""``tabletale serve --workers 2`` on Redis: two processes on one port, and one ``/metrics`` that
counts what both did, whichever of them answers the scrape."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import multiprocess
from prometheus_client.parser import text_string_to_metric_families

from server.ops.metrics import MULTIPROC_DIR
from tests.redis_support import delete_prefix
from tests.server.conftest import auth, free_port, wait_ready
from tests.support.polling import Deadline, eventually
from tests.support.processes import alive, children

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ACCEPTED = "tabletale_actions_accepted_total"
DEADLINE_S = 600.0
"""Only stops a hang: a busy machine may leave the workers little time."""


@contextlib.contextmanager
def two_workers(
    redis_url: str, prefix: str, tmp: Path
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The server's base URL and its supervisor process; its metrics directory is made under
    ``tmp`` (through TMPDIR)."""
    port = free_port()
    env = {**os.environ, "TABLETALE_REDIS_PREFIX": prefix, "TMPDIR": str(tmp)}
    env.pop(MULTIPROC_DIR, None)
    command = [sys.executable, "-m", "cli.main", "serve", "--workers", "2", "--port", str(port)]
    with (tmp / "server.log").open("wb") as log:
        process = subprocess.Popen(
            [*command, "--redis-url", redis_url],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            try:
                wait_ready(base)
            except TimeoutError:
                pytest.fail(f"The server did not start:\n{(tmp / 'server.log').read_text()}")
            yield base, process
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def accepted_by_worker(tmp: Path) -> dict[str, float]:
    """Each worker's own count of accepted actions, read from its file."""
    (directory,) = tmp.glob("tabletale-metrics-*")
    counts: dict[str, float] = {}
    for path in directory.glob("counter_*.db"):
        for metric in multiprocess.MultiProcessCollector.merge([str(path)]):
            for sample in metric.samples:
                if sample.name == ACCEPTED:
                    counts[path.name] = sample.value
    return counts


async def act_once(http: httpx.AsyncClient, base: str, campaign: str, token: str) -> int:
    """Take the first legal action; 1 if it was accepted, 0 if the campaign has ended."""
    state = (await http.get(f"{base}/api/campaigns/{campaign}/state", headers=auth(token))).json()
    if not state["legal_actions"]:
        return 0
    body = {"action": state["legal_actions"][0]["id"], "expected_version": state["version"]}
    answer = await http.post(
        f"{base}/api/campaigns/{campaign}/actions", json=body, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    return 1


def scraped(text: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == ACCEPTED:
                return sample.value
    return 0.0


async def test_metrics_from_any_worker_count_the_actions_of_both(
    redis_url: str, tmp_path: Path
) -> None:
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    # No keep-alive: every request opens a connection, which either worker may accept.
    fresh = httpx.Limits(max_keepalive_connections=0)
    try:
        with two_workers(redis_url, prefix, tmp_path) as (base, _):
            async with httpx.AsyncClient(timeout=10, limits=fresh) as http:
                accepted = 0
                # However busy the machine, each worker takes some of the fresh connections in
                # time; a journey that ends is replaced, so every round offers actions.
                deadline = Deadline("both workers to take some of the actions", DEADLINE_S)
                campaigns: list[tuple[str, str]] = []
                while len([n for n in accepted_by_worker(tmp_path).values() if n > 0]) < 2:
                    deadline.check(f"{accepted} actions, by worker {accepted_by_worker(tmp_path)}")
                    while len(campaigns) < 4:
                        created = await http.post(
                            f"{base}/api/campaigns", json={"game": "gil-ennis"}
                        )
                        assert created.status_code == 201, created.text
                        campaigns.append((created.json()["id"], created.json()["seats"]["player"]))
                    taken = await asyncio.gather(
                        *(act_once(http, base, cid, token) for cid, token in campaigns)
                    )
                    accepted += sum(taken)
                    campaigns = [c for c, took in zip(campaigns, taken, strict=True) if took]
                assert sum(accepted_by_worker(tmp_path).values()) == accepted
                for _ in range(8):
                    assert scraped((await http.get(f"{base}/metrics")).text) == accepted
        assert not list(tmp_path.glob("tabletale-metrics-*")), "the run's directory is removed"
    finally:
        await delete_prefix(redis_url, prefix)


async def test_workers_whose_supervisor_is_killed_shut_down_and_free_the_port(
    redis_url: str, tmp_path: Path
) -> None:
    prefix = f"tt-test-{uuid.uuid4().hex[:12]}"
    try:
        with two_workers(redis_url, prefix, tmp_path) as (base, supervisor):
            started = children(supervisor.pid)
            supervisor.send_signal(signal.SIGKILL)
            supervisor.wait(timeout=10)

            async def all_ended() -> bool:
                return not any(alive(pid) for pid in started)

            await eventually(all_ended, "the orphaned workers end", 20.0)
            async with httpx.AsyncClient(timeout=2) as http:
                with pytest.raises(httpx.ConnectError):
                    await http.get(f"{base}/readyz")  # nobody serves the port any more
        log = (tmp_path / "server.log").read_text()
        assert log.count("Application shutdown complete") == 2, log[-2000:]  # gracefully
    finally:
        await delete_prefix(redis_url, prefix)
