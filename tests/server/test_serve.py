"""``serve`` without a Redis URL: the embedded SQLite store under the data directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from tests.server.conftest import LAUNCH, ROOT, free_port, wait_ready


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
    finally:
        process.terminate()
        _, err = process.communicate(timeout=15)
    first = err.decode().splitlines()[0]
    assert "SQLite" in first and str(tmp_path) in first
    assert (tmp_path / "tabletale.sqlite3").exists()
