"""``serve`` without a Redis URL: the embedded SQLite store under the data directory; the
address to open in a browser said second."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server.serve import browser_url
from server.settings import load
from tests.server.conftest import free_port, wait_ready
from tests.server.test_redis_processes import LAUNCH, ROOT


def test_a_wildcard_host_is_opened_on_loopback() -> None:
    assert browser_url(load({}, host="0.0.0.0", port=8000)) == "http://127.0.0.1:8000/"
    assert browser_url(load({}, host="::", port=80)) == "http://[::1]:80/"
    assert browser_url(load({}, host="example.org", port=8000)) == "http://example.org:8000/"


def test_without_redis_the_sqlite_store_is_used_and_said_first(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, str(port), "", str(tmp_path)],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "TABLETALE_REDIS_URL"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base)
        with httpx.Client(base_url=base, timeout=10) as http:
            created = http.post("/api/campaigns", json={"game": "dice-race"}).json()
            assert http.get(f"/api/campaigns/{created['id']}/state").json()["version"] == 2
            assert http.get("/readyz").status_code == 200
            assert http.get("/").headers["content-type"].startswith("text/html")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=15)
    first, second = err.decode().splitlines()[:2]
    assert "SQLite" in first and str(tmp_path) in first
    assert second.endswith(f"Open http://127.0.0.1:{port}/ in a browser.")
    assert (tmp_path / "tabletale.sqlite3").exists()


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["terminate", "ctrl-c"])
def test_a_clean_stop_after_the_bots_thought_leaks_no_semaphores(tmp_path: Path, stop: str) -> None:
    """The bots' worker pool holds semaphores that its server must release when it stops, or
    the resource tracker warns of them; Ctrl-C reaches the workers too (the process group)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, str(port), "", str(tmp_path)],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "TABLETALE_REDIS_URL"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal gives it
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base)
        with httpx.Client(base_url=base, timeout=60) as http:
            created = http.post("/api/campaigns", json={"game": "gil-ennis"}).json()
            token = created["seats"]["player"]
            hint = http.post(
                f"/api/campaigns/{created['id']}/hint",
                json={"level": 1},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert hint.status_code == 200, hint.text  # worked out in a worker process
    finally:
        if stop == "terminate":
            process.terminate()
        else:
            os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
    said = err.decode()
    assert "Finished server process" in said, said  # a clean stop, the shutdown run through
    assert "leaked" not in said and "resource_tracker" not in said, said
    assert "Traceback" not in said, said
