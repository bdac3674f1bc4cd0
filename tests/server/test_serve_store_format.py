"""``serve`` and the store's format across releases: a server stops before it listens on a store a
newer release wrote, says where the copy it may restore is, and its readiness fails in words when
a newer release migrates the file under it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx

from server.store.sqlite_schema import SCHEMA_VERSION
from tests.server.conftest import free_port, wait_ready
from tests.server.store.test_sqlite_copies import upgraded, version_2_file
from tests.server.test_redis_processes import LAUNCH, ROOT

FILE = "tabletale.sqlite3"


def launch(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCH, str(port), "", str(data_dir)],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "TABLETALE_REDIS_URL"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def today_file(path: Path) -> None:
    """A file at this release's schema version, with one campaign row."""
    version_2_file(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE INDEX campaigns_forks ON campaigns (parent, fork_version, id)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.commit()


def test_a_server_stops_before_listening_on_a_file_a_newer_release_migrated(
    tmp_path: Path,
) -> None:
    path = tmp_path / FILE
    today_file(path)
    upgraded(path)
    process = launch(tmp_path, free_port())
    _, err = process.communicate(timeout=60)
    said = err.decode()
    assert process.returncode == 1
    assert f"schema version {SCHEMA_VERSION + 1}" in said
    assert f"restore {tmp_path / f'{FILE}.v{SCHEMA_VERSION}.bak'}, made before the upgrade" in said
    assert "run the newer release" in said
    assert "in a browser" not in said  # it never listened


def test_a_server_on_an_older_file_says_where_it_kept_the_copy(tmp_path: Path) -> None:
    version_2_file(tmp_path / FILE)
    port = free_port()
    process = launch(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base, path="/readyz")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=15)
    copy = tmp_path / f"{FILE}.v2.bak"
    assert copy.exists()
    assert f"in {copy} before migrating it" in err.decode()


def test_readiness_fails_in_words_once_a_newer_release_migrated_the_file(
    tmp_path: Path,
) -> None:
    port = free_port()
    process = launch(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base, path="/readyz")
        upgraded(tmp_path / FILE)
        with httpx.Client(base_url=base, timeout=10) as http:
            ready = http.get("/readyz")
    finally:
        process.terminate()
        process.communicate(timeout=15)
    assert ready.status_code == 503
    message = ready.json()["error"]["message"]
    assert f"schema version {SCHEMA_VERSION + 1}" in message and "restore" in message
