"""The soak script, briefly: mixed clients on two processes, then every stream verified; on a
single Redis and on a Redis Cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Measures time and load: run alone (tests/run.sh runs it after the parallel phase).
pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.serial]


@pytest.fixture(params=["single", "cluster"])
def soak_redis(request: pytest.FixtureRequest) -> str:
    """The soak runs on a single Redis and on a Redis Cluster."""
    url: str = request.getfixturevalue(
        "redis_url" if request.param == "single" else "redis_cluster_url"
    )
    return url


def test_a_short_soak_ends_with_every_stream_verified_and_no_error(soak_redis: str) -> None:
    redis_url = soak_redis
    run = subprocess.run(
        [sys.executable, str(ROOT / "loadtests" / "soak.py"), "--duration", "6"],
        env={"TABLETALE_REDIS_URL": redis_url, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = json.loads(run.stdout)
    counts = summary["counts"]
    assert counts["socket acts accepted"] > 100
    assert counts["http acts accepted"] > 0 and counts.get("http acts stale_version", 0) > 0
    assert counts["forks 201"] > 0 and counts["rewinds 200"] > 0
    assert counts["reconnects"] > 0 and counts["spectators in agreement"] > 0
    assert summary["campaigns_verified"] == counts["created"] + counts["forks 201"]
    assert summary["divergences"] == [] and summary["server_log_errors"] == []
