"""The Locust scenarios run, briefly and bounded, against the real server on the real Redis."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.conftest import Live

ROOT = Path(__file__).resolve().parents[2]

# A load run: alone (tests/run.sh runs it after the parallel phase).
pytestmark = pytest.mark.serial


@pytest.mark.parametrize("user", ["Player", "SocketPlayer"])
def test_a_short_headless_run_has_requests_and_no_failures(live: Live, user: str) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(ROOT / "loadtests" / "locustfile.py"),
            user,
            "--host",
            live.http,
            "--headless",
            "--users",
            "4",
            "--spawn-rate",
            "4",
            "--run-time",
            "3s",
            "--only-summary",
            "--exit-code-on-error",
            "1",
            "--stop-timeout",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    summary = run.stdout + run.stderr
    assert run.returncode == 0, summary
    aggregated = [line for line in summary.splitlines() if line.strip().startswith("Aggregated")]
    requests, failures = aggregated[0].split()[1:3]
    assert int(requests) > 0, summary
    assert failures.startswith("0("), summary
